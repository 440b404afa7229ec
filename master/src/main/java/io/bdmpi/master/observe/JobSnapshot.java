package io.bdmpi.master.observe;

import io.bdmpi.master.session.SlaveSession;
import io.bdmpi.master.session.SlaveState;

import java.util.List;

/**
 * What one node's job looks like at one moment, for the progress display. Made by the scheduler
 * thread on request (a {@link io.bdmpi.master.scheduler.MasterEvent.SnapshotRequested}) and immutable, so the thread that
 * prints it reads no live state.
 *
 * @param elapsedNanos        time since the scheduler started
 * @param slaves              slaves on the node
 * @param starting            spawned, not yet connected
 * @param running             holding one of the -nr slots
 * @param runnable            ready to run, waiting for a slot
 * @param blockedInReceive    parked in a receive, probe, wait or critical section
 * @param blockedInCollective parked in a collective
 * @param finished            finalized or exited
 * @param messagesInMemory    point-to-point messages and collective results the master holds in memory
 *                            for their receivers (not yet collected)
 * @param bytesInMemory       their bytes
 * @param messagesOnDisk      the same for data in spill files
 * @param bytesOnDisk         their bytes
 * @param nrunning            most slaves allowed to run at once now (-nr)
 * @param nrunningAuto        whether -nr is auto (then {@code nrunning} follows the memory)
 * @param lastNrunningChange  the latest change of {@code nrunning} under -nr auto, or null
 * @param nodes               nodes counted in (1 for a node's own; see {@link #sum})
 */
public record JobSnapshot(long elapsedNanos, int slaves, int starting, int running, int runnable, int blockedInReceive,
                          int blockedInCollective, int finished, long messagesInMemory, long bytesInMemory,
                          long messagesOnDisk, long bytesOnDisk, int nrunning, boolean nrunningAuto,
                          JobStats.NrunningChange lastNrunningChange, int nodes) {

    /** Counts the states and the buffered data of {@code sessions}; runs on the scheduler thread. */
    public static JobSnapshot of(SlaveSession[] sessions, long elapsedNanos, int nrunning, boolean nrunningAuto,
                          JobStats.NrunningChange lastNrunningChange) {
        int[] states = new int[SlaveState.values().length];
        Tally tally = new Tally();
        for (SlaveSession s : sessions) {
            states[s.state.ordinal()]++;
            s.mailbox.forEachBuffered(tally::add);
        }
        return new JobSnapshot(elapsedNanos, sessions.length, states[SlaveState.STARTING.ordinal()],
                states[SlaveState.RUNNING.ordinal()], states[SlaveState.RUNNABLE.ordinal()],
                states[SlaveState.RBLOCKED.ordinal()], states[SlaveState.CBLOCKED.ordinal()],
                states[SlaveState.FINALIZED.ordinal()] + states[SlaveState.EXITED.ordinal()],
                tally.messagesInMemory, tally.bytesInMemory, tally.messagesOnDisk, tally.bytesOnDisk, nrunning, nrunningAuto,
                lastNrunningChange, 1);
    }

    /**
     * The job as a whole from its nodes' latest snapshots (for bdmpiexec's status line over several
     * nodes): counts and -nr summed, the longest elapsed time.
     *
     * @param parts the nodes' snapshots, at least one
     * @return their sum
     */
    public static JobSnapshot sum(List<JobSnapshot> parts) {
        long elapsed = 0;
        int[] n = new int[8];
        long[] b = new long[4];
        boolean auto = false;
        int nodes = 0;
        for (JobSnapshot s : parts) {
            elapsed = Math.max(elapsed, s.elapsedNanos);
            int[] counts = {s.slaves, s.starting, s.running, s.runnable, s.blockedInReceive, s.blockedInCollective, s.finished,
                    s.nrunning};
            for (int i = 0; i < n.length; i++) {
                n[i] += counts[i];
            }
            b[0] += s.messagesInMemory;
            b[1] += s.bytesInMemory;
            b[2] += s.messagesOnDisk;
            b[3] += s.bytesOnDisk;
            auto |= s.nrunningAuto;
            nodes += s.nodes;
        }
        return new JobSnapshot(elapsed, n[0], n[1], n[2], n[3], n[4], n[5], n[6], b[0], b[1], b[2], b[3], n[7], auto, null,
                nodes);
    }

    private static final class Tally {
        long messagesInMemory;
        long bytesInMemory;
        long messagesOnDisk;
        long bytesOnDisk;

        void add(boolean spilled, long length) {
            if (spilled) {
                messagesOnDisk++;
                bytesOnDisk += length;
            } else {
                messagesInMemory++;
                bytesInMemory += length;
            }
        }
    }
}
