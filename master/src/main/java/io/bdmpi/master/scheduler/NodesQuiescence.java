package io.bdmpi.master.scheduler;

import java.util.ArrayList;
import java.util.List;

/**
 * Deadlock detection over several nodes, on each node's scheduler thread. A node is idle when no
 * slave of it runs, is runnable or is starting. Each master sends the others its state whenever it
 * changes: idle or not, how many messages (forwards, collective starts and matched synchronous
 * sends) it has sent to and received from other masters, and its blocked ranks' pending calls.
 * The job is deadlocked when every node is idle, every message sent has been received (the counts
 * balance), some rank is blocked, and all this has stayed unchanged for {@link #CONFIRM_NS}: states
 * travel on different channels, so a stale "idle" of a node just woken could otherwise balance a
 * message still in flight; a quiet interval lets every state sent before it arrive. The lowest node
 * whose part has not ended reports it, in the same words as one node; the others then stop as for
 * any failure.
 */
public final class NodesQuiescence {

    /** How long the whole job must look deadlocked before it is reported. */
    static final long CONFIRM_NS = 1_000_000_000L;

    /** What one master last said of its node. */
    public record State(boolean idle, boolean ended, long sent, long received, String pending) {
    }

    private final int node;
    private final State[] latest;
    private long sent;
    private long received;
    private long unchangedSinceNs;

    NodesQuiescence(int node, int nodes, long nowNs) {
        this.node = node;
        this.latest = new State[nodes];
        this.unchangedSinceNs = nowNs;
    }

    void sent(int messages) {
        sent += messages;
    }

    void received() {
        received++;
    }

    /**
     * This node's state at the end of a batch.
     *
     * @param pending the blocked ranks' calls when idle, else null
     * @return the state to send the other masters, or null when it has not changed
     */
    State local(List<String> pending, boolean ended, long nowNs) {
        State s = new State(pending != null, ended, sent, received, pending == null ? "" : String.join("; ", pending));
        if (s.equals(latest[node])) {
            return null;
        }
        latest[node] = s;
        unchangedSinceNs = nowNs;
        return s;
    }

    void peer(int peerNode, State s, long nowNs) {
        latest[peerNode] = s;
        unchangedSinceNs = nowNs;
    }

    /** The deadlock report, if this node is the one to make it now; else null. */
    String deadlock(long nowNs) {
        long sentAll = 0;
        long receivedAll = 0;
        List<String> pending = new ArrayList<>();
        int reporter = -1;
        for (int n = 0; n < latest.length; n++) {
            State s = latest[n];
            if (s == null || !s.idle()) {
                return null;
            }
            sentAll += s.sent();
            receivedAll += s.received();
            if (!s.pending().isEmpty()) {
                pending.add(s.pending());
            }
            if (reporter < 0 && !s.ended()) {
                reporter = n;
            }
        }
        if (sentAll != receivedAll || pending.isEmpty() || reporter != node || nowNs - unchangedSinceNs < CONFIRM_NS) {
            return null;
        }
        return String.join("; ", pending);
    }
}
