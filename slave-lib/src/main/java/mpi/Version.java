package mpi;

/** A version of the MPI standard, as returned by {@link MPI#getVersion()}. */
public final class Version {

    private final int version;
    private final int subVersion;

    Version(int version, int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    /**
     * The major number, e.g. 3 for MPI 3.1.
     *
     * @return the major number
     */
    public int getVersion() {
        return version;
    }

    /**
     * The minor number, e.g. 1 for MPI 3.1.
     *
     * @return the minor number
     */
    public int getSubVersion() {
        return subVersion;
    }

    @Override
    public String toString() {
        return version + "." + subVersion;
    }
}
