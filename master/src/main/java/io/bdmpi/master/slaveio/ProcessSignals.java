package io.bdmpi.master.slaveio;

/**
 * Stops and continues a slave's process: how the scheduler takes the running slot from a slave
 * that makes no MPI call, and gives it back.
 */
public interface ProcessSignals {

    /** SIGSTOP to {@code pid}: the process stops wherever it is; its memory stays as it is. */
    void stop(long pid);

    /** SIGCONT to {@code pid}. */
    void resume(long pid);

    /** The real signals, through libc's {@code kill}. */
    static ProcessSignals libc() {
        return LibcSignals.INSTANCE;
    }
}
