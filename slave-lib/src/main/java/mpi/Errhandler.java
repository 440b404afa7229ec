package mpi;

/** What a communicator does on an MPI error: abort the job, or throw {@link MPIException}. */
public final class Errhandler {

    private final boolean fatal;
    private final String name;

    Errhandler(boolean fatal, String name) {
        this.fatal = fatal;
        this.name = name;
    }

    boolean isFatal() {
        return fatal;
    }

    @Override
    public String toString() {
        return name;
    }
}
