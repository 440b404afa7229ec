package io.bdmpi.master;

/** Runs one node's part of a job: spawns the slaves, schedules them, buffers their messages. */
public final class NodeMaster {

    private final MasterContext context;

    public NodeMaster(MasterContext context) {
        if (!context.isConcluded()) {
            throw new IllegalStateException("conclude() the MasterContext first");
        }
        this.context = context;
    }

    /**
     * Runs the job to its end and cleans up after it (no slave left running, work directory
     * removed), whatever happens. Prints a one-line reason to stderr when the job fails.
     *
     * @return the exit code for bdmpiexec: 0 only if every rank finalized and exited 0
     */
    public int run() {
        throw new UnsupportedOperationException("TODO");
    }
}
