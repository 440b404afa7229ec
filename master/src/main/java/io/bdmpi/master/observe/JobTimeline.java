package io.bdmpi.master.observe;

import io.bdmpi.master.session.SlaveState;

import java.io.IOException;
import java.util.List;

/**
 * A job's recorded timeline as {@code --trace} and {@code --report} read it: one node's
 * {@link TimelineRecorder}, or every node's parts joined on one clock ({@link TimelineParts}).
 * Times are nanoseconds since the job's start.
 */
interface JobTimeline {

    /**
     * One interval of one slave in one state. {@code call} is the MPI call it was blocked in, or why
     * it gave its slot up while RUNNABLE, or null.
     */
    record Interval(int node, int rank, SlaveState state, long startNs, long endNs, String call) {
    }

    /** Receives intervals, node by node, each node's in the order they ended. */
    @FunctionalInterface
    interface IntervalSink {
        void accept(Interval interval) throws IOException;
    }

    /**
     * A node's slaves.
     *
     * @param host    its master's host, or null when not known (one node)
     * @param ranks   its slaves' world ranks, in local order
     * @param missing why there is no data from it (its master was lost), or null
     */
    record Track(int node, String host, int[] ranks, String missing) {

        /** "node 1", or "node 1 (host h)". */
        String label() {
            return host == null ? "node " + node : "node " + node + " (host " + host + ")";
        }
    }

    /** The nodes, in order. */
    List<Track> tracks();

    /** The job's length. */
    long durationNs();

    /** How many intervals {@link #forEach} gives. */
    long intervals();

    /** Streams every interval to {@code sink}. */
    void forEach(IntervalSink sink) throws IOException;
}
