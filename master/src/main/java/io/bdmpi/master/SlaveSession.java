package io.bdmpi.master;

import io.bdmpi.protocol.SlaveRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The master's record of one slave. Owned by the scheduler thread; nothing here is shared.
 */
final class SlaveSession {

    final int worldRank;
    /** Index among this node's slaves (equal to the world rank on one node). */
    final int localIndex;
    final long pid;
    final Mailbox mailbox = new Mailbox();
    /** Collectives this slave has started that have not completed, by request id. */
    final Map<Long, CollectiveOp> collectives = new HashMap<>();
    /** Spill files of collective results handed to this slave, which it reads before its next request. */
    final List<String> heldSlices = new ArrayList<>();

    SlaveState state = SlaveState.STARTING;
    long stateSinceNs;
    SlaveConnection connection;
    /** The request a blocked or runnable slave waits to have answered; null means a plain go. */
    SlaveRequest parkedOn;
    /** The last request this slave made, for crash reports. */
    SlaveRequest lastRequest;
    int exitCode = -1;

    long runNs;
    long blockedNs;
    long runnableNs;
    long resumes;
    long messagesSent;
    long bytesSentInline;
    long bytesSentSpilled;
    long peakRssBytes;

    SlaveSession(int worldRank, long pid, long nowNs) {
        this(worldRank, worldRank, pid, nowNs);
    }

    SlaveSession(int worldRank, int localIndex, long pid, long nowNs) {
        this.worldRank = worldRank;
        this.localIndex = localIndex;
        this.pid = pid;
        this.stateSinceNs = nowNs;
    }

    /** Adds the time spent in the current state to its bucket; the caller then changes state. */
    void accountUntil(long nowNs) {
        long spent = nowNs - stateSinceNs;
        switch (state) {
            case RUNNING:
                runNs += spent;
                break;
            case RUNNABLE:
                runnableNs += spent;
                break;
            case RBLOCKED:
            case CBLOCKED:
                blockedNs += spent;
                break;
            default:
                break;
        }
        stateSinceNs = nowNs;
    }
}
