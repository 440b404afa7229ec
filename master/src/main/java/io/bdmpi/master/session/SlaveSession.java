package io.bdmpi.master.session;

import io.bdmpi.master.slaveio.SlaveConnection;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.SlaveRequest;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The master's record of one slave. Owned by the scheduler thread; nothing here is shared. Its
 * fields are public for the scheduler and the engines it drives (collectives, checkpoints), which
 * live in packages of their own; only the scheduler changes the state.
 */
public final class SlaveSession {

    /** A collective this slave has started and that has not completed (the collective engine's operation). */
    public interface OpenCollective {
        /** What the slave waits for in it, for reports, e.g. {@code MPI_Barrier() on COMM_WORLD, which ranks [2] have not called}. */
        String describeWait();
    }

    /** Why a RUNNABLE slave gave its running slot up although it could have gone on. */
    public enum Yield {
        /** It polled (a test or iProbe) for something that had not come while others waited for a slot. */
        POLL,
        /** It ran longer than the quantum without an MPI call while others waited; it is stopped (SIGSTOP). */
        QUANTUM
    }

    public final int worldRank;
    /** Index among this node's slaves (equal to the world rank on one node). */
    public final int localIndex;
    public final long pid;
    public final Mailbox mailbox = new Mailbox();
    /** Collectives this slave has started that have not completed, by request id. */
    public final Map<Long, OpenCollective> collectives = new HashMap<>();
    /** Spill files of collective results handed to this slave, which it reads before its next request. */
    public final List<String> heldSlices = new ArrayList<>();

    public SlaveState state = SlaveState.STARTING;
    long stateSinceNs;
    public SlaveConnection connection;
    /** The request a blocked or runnable slave waits to have answered; null means a plain go. */
    public SlaveRequest parkedOn;
    /** The answer another node's master gave to this slave's shared file pointer request; null while none. */
    public Long pointerAnswer;
    /** The outcome of the one-sided operation it waits for on another node (parked on WinRma), or null. */
    public MasterReply.RmaResult rmaResult;
    /** Whether another node's master granted the window lock it waits for (parked on a WinLock of that node). */
    public boolean remoteLockGranted;
    /** The last request this slave made, for crash reports. */
    public SlaveRequest lastRequest;
    public int exitCode = -1;
    /** Set while RUNNABLE after giving up a slot it could have kept; null for a slave that was woken or is new. */
    public Yield yielded;
    /** The fruitless poll this slave repeats, with no other MPI call since {@link #pollingSinceNs}; null otherwise. */
    public SlaveRequest pollingOn;
    public long pollingSinceNs;
    public long lastPollNs;
    /** When this slave last made an MPI call or was resumed: its quantum counts from there. */
    public long lastCallNs;
    /** Requests that reached the master after the slave was stopped for the quantum, handled once it resumes. */
    public final ArrayDeque<SlaveRequest> deferred = new ArrayDeque<>();

    public long runNs;
    public long blockedNs;
    public long runnableNs;
    public long resumes;
    public long messagesSent;
    public long bytesSentInline;
    public long bytesSentSpilled;
    public long peakRssBytes;
    public long pollYields;
    public long preemptions;

    public SlaveSession(int worldRank, long pid, long nowNs) {
        this(worldRank, worldRank, pid, nowNs);
    }

    public SlaveSession(int worldRank, int localIndex, long pid, long nowNs) {
        this.worldRank = worldRank;
        this.localIndex = localIndex;
        this.pid = pid;
        this.stateSinceNs = nowNs;
    }

    /** Adds the time spent in the current state to its bucket; the caller then changes state. */
    public void accountUntil(long nowNs) {
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
