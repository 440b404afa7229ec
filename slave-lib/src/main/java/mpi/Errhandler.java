package mpi;

import io.bdmpi.slave.SlaveRuntime;

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

    /**
     * Applies this handler to {@code e}. Under a fatal handler prints one line to stderr and ends
     * the job (does not return); otherwise returns {@code e} for the caller to throw.
     */
    MPIException apply(MPIException e) {
        if (!fatal) {
            return e;
        }
        SlaveRuntime rt = Session.connection();
        System.err.println(Errors.fatalLine(rt == null ? -1 : rt.environment().worldRank(), e));
        System.err.flush();
        if (rt != null) {
            // The master's report names the rank itself.
            rt.abort(e.getErrorClass(), Errors.describe(e));
        }
        return e;
    }

    @Override
    public String toString() {
        return name;
    }
}
