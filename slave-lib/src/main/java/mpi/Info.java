package mpi;

/**
 * Hints for the calls that take them (MPI_Info). bdmpi acts on no hint, so the only info object
 * here is {@code MPI.INFO_NULL}, "no hints".
 */
public final class Info {

    private Info() {
    }

    /** {@code MPI.INFO_NULL}. */
    static Info nullInfo() {
        return new Info();
    }

    /**
     * Whether this is {@code MPI.INFO_NULL}.
     *
     * @return true: it is the only info object here
     */
    public boolean isNull() {
        return true;
    }
}
