package mpi;

import io.bdmpi.slave.SlaveRuntime;

/**
 * This process's MPI life cycle and its one connection to the master. MPI state is per process,
 * so this is static: not initialized, then running (from {@code Init}), then finalized for good.
 *
 * <p>The "MPI is not initialized." / "MPI is finalized." checks here are plain Java checks, as in
 * Open MPI: they throw whatever error handler a communicator has.
 */
final class Session {

    private enum Phase { NEW, RUNNING, FINALIZED }

    private static volatile Phase phase = Phase.NEW;
    private static volatile SlaveRuntime runtime;
    private static volatile Thread mainThread;
    private static volatile int threadLevel;
    /** What Init or InitThread asked for (MPI.INFO_ENV's thread_level), within the levels MPI has. */
    private static volatile int requiredThreadLevel;

    private Session() {
    }

    /** Throws unless {@code Init} may run now. */
    static synchronized void checkNotStarted() throws MPIException {
        if (phase != Phase.NEW) {
            throw new MPIException("MPI is already initialized.");
        }
    }

    /** Makes MPI usable with this connection; the calling thread becomes the main thread. */
    static synchronized void start(SlaveRuntime rt, int providedThreadLevel, int required) throws MPIException {
        checkNotStarted();
        runtime = rt;
        mainThread = Thread.currentThread();
        threadLevel = providedThreadLevel;
        requiredThreadLevel = required;
        phase = Phase.RUNNING;
    }

    /**
     * Ends MPI: from now on every MPI call throws "MPI is finalized.".
     *
     * @return the connection, for the caller to say goodbye to the master
     */
    static synchronized SlaveRuntime finish() throws MPIException {
        SlaveRuntime rt = runtime();
        phase = Phase.FINALIZED;
        return rt;
    }

    /** The connection, if MPI is running. */
    static SlaveRuntime runtime() throws MPIException {
        Phase p = phase;
        if (p == Phase.RUNNING) {
            return runtime;
        }
        throw new MPIException(p == Phase.NEW ? "MPI is not initialized." : "MPI is finalized.");
    }

    /**
     * The connection whatever the phase (null before {@code Init}), for ending the job on a fatal
     * error that {@code Finalize} itself met.
     */
    static SlaveRuntime connection() {
        return runtime;
    }

    /** As {@link #runtime()}, and records {@code call} as the MPI call in progress (for crash reports). */
    static SlaveRuntime enter(String call) throws MPIException {
        SlaveRuntime rt = runtime();
        rt.enter(call);
        return rt;
    }

    /** True once {@code Init} has succeeded, also after {@code Finalize} (as MPI_Initialized). */
    static boolean initialized() {
        return phase != Phase.NEW;
    }

    static boolean finalized() {
        return phase == Phase.FINALIZED;
    }

    static Thread mainThread() {
        return mainThread;
    }

    static int threadLevel() {
        return threadLevel;
    }

    static int requiredThreadLevel() {
        return requiredThreadLevel;
    }

    /**
     * Forgets the connection and returns to "not initialized". Only for unit tests, which run many
     * MPI lives in one JVM against a stand-in master; the caller closes the connection.
     */
    static synchronized void reset() {
        phase = Phase.NEW;
        runtime = null;
        mainThread = null;
        threadLevel = 0;
        requiredThreadLevel = 0;
        BsendSpace.reset();
        MPI.INFO_ENV.forgetEnvironment();
    }
}
