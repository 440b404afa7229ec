package mpi;

/**
 * What a communicator does when one of its calls fails: end the whole job with one line on
 * stderr ({@code MPI.ERRORS_ARE_FATAL}, the default, and {@code MPI.ERRORS_ABORT}, which here
 * also ends the whole job), or throw {@link MPIException} ({@code MPI.ERRORS_RETURN}).
 * Opaque, as in Open MPI: use the {@code MPI.ERRORS_*} constants.
 */
public final class Errhandler {

    static final Errhandler FATAL = new Errhandler(true, "MPI_ERRORS_ARE_FATAL");
    static final Errhandler ABORT = new Errhandler(true, "MPI_ERRORS_ABORT");
    static final Errhandler RETURN = new Errhandler(false, "MPI_ERRORS_RETURN");

    private final boolean fatal;
    private final String name;

    private Errhandler(boolean fatal, String name) {
        this.fatal = fatal;
        this.name = name;
    }

    /** Whether an error under this handler ends the job instead of being thrown. */
    boolean isFatal() {
        return fatal;
    }

    @Override
    public String toString() {
        return name;
    }
}
