package io.bdmpi.master.session;

/**
 * Life of a slave as its master sees it. Legal edges (enforced by {@link io.bdmpi.master.scheduler.Scheduler#transition}):
 * <pre>
 *   STARTING  -&gt; RUNNABLE (hello)                   any state -&gt; EXITED (process ended)
 *   RUNNABLE  -&gt; RUNNING  (resumed)
 *   RUNNING   -&gt; RBLOCKED | CBLOCKED | FINALIZED
 *   RUNNING   -&gt; RUNNABLE (gave its slot up: a poll found nothing, or it ran out its quantum)
 *   RBLOCKED  -&gt; RUNNABLE (a matching message arrived)
 *   CBLOCKED  -&gt; RUNNABLE (the collective completed)
 * </pre>
 */
public enum SlaveState {
    /** Spawned, not yet connected. */
    STARTING,
    /** May run, waiting for a free running slot. */
    RUNNABLE,
    /** Executing: holds one of the node's nrunning slots. */
    RUNNING,
    /** Parked in a receive, probe or wait until a matching message arrives. */
    RBLOCKED,
    /** Parked in a collective until it completes. */
    CBLOCKED,
    /** Called MPI_Finalize; its process is about to end. */
    FINALIZED,
    /** Its process has ended. */
    EXITED;

    public boolean canMoveTo(SlaveState to) {
        switch (this) {
            case STARTING:
                return to == RUNNABLE || to == EXITED;
            case RUNNABLE:
                return to == RUNNING || to == EXITED;
            case RUNNING:
                return to == RBLOCKED || to == CBLOCKED || to == FINALIZED || to == RUNNABLE || to == EXITED;
            case RBLOCKED:
            case CBLOCKED:
                return to == RUNNABLE || to == EXITED;
            case FINALIZED:
                return to == EXITED;
            default:
                return false;
        }
    }

    /** Blocked in an MPI call, waiting on others. */
    public boolean isBlocked() {
        return this == RBLOCKED || this == CBLOCKED;
    }
}
