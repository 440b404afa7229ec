package io.bdmpi.master.scheduler;

import io.bdmpi.master.internode.Internode;
import io.bdmpi.master.internode.MasterMessage;
import io.bdmpi.master.memory.MemorySample;
import io.bdmpi.master.observe.JobSnapshot;
import io.bdmpi.master.observe.JobStats;
import io.bdmpi.master.slaveio.SlaveConnection;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.SlaveRequest;

import java.util.concurrent.CompletableFuture;

/** Everything the scheduler thread reacts to; published to its ring by the other threads. */
public sealed interface MasterEvent {

    /** A decoded request from a slave's socket (read on the scheduler thread itself, see SchedulerThread). */
    record RequestArrived(SlaveConnection connection, SlaveRequest request) implements MasterEvent {
    }

    /** A slave's socket closed or failed (seen on the scheduler thread itself). */
    record ConnectionLost(SlaveConnection connection, String reason) implements MasterEvent {
    }

    /** A slave's process ended (process reaper). */
    record ProcessExited(int worldRank, int exitCode) implements MasterEvent {
    }

    /** Stop the job now, as failed (signal, launcher). */
    record StopRequested(String reason, int exitCode) implements MasterEvent {
    }

    /** Another master forwarded a message for a slave of this node (MPI pump). */
    record RemoteArrived(Internode.Arrival arrival) implements MasterEvent {
    }

    /** A receive on another node matched the message of a synchronous send of a slave of this node (MPI pump). */
    record RemoteSendMatched(int senderWorldRank, long syncId) implements MasterEvent {
    }

    /** A slave of {@code node} operates on a shared file pointer that this master keeps (MPI pump). */
    record RemotePointerRequest(int node, MasterMessage.PointerRequest request) implements MasterEvent {
    }

    /** The master that keeps a shared file pointer answered a slave of this node (MPI pump). */
    record RemotePointerAnswer(MasterMessage.PointerAnswer answer) implements MasterEvent {
    }

    /** The master of {@code node} sent one-sided traffic: an operation or lock for a window member here, or an answer (MPI pump). */
    record RemoteWindow(int node, MasterMessage.WindowTraffic message) implements MasterEvent {
    }

    /** A slave of another node started a collective on a communicator with members here (MPI pump). */
    record RemoteStarted(Internode.RemoteStart start) implements MasterEvent {
    }

    /** A collective contribution's spill file has gone to every other master that needs it (MPI pump). */
    record SpillShipped(String fileName) implements MasterEvent {
    }

    /** The master of another node ended its part of the job with a failure that it reported itself (MPI pump). */
    record PeerFailed(int node, int exitCode) implements MasterEvent {
    }

    /** The master of {@code node} has made its part of checkpoint {@code sequence} durable; to node 0 (MPI pump). */
    record CheckpointPartWritten(int node, int sequence) implements MasterEvent {
    }

    /** Node 0 has committed checkpoint {@code sequence} (MPI pump). */
    record CheckpointCommitted(int sequence) implements MasterEvent {
    }

    /**
     * A file of the buddy copy of node {@code node}'s part of checkpoint {@code sequence} arrived,
     * its bytes in memory or in this node's spill directory (MPI pump).
     */
    record BuddyFileArrived(int node, int sequence, String name, Payload payload) implements MasterEvent {
    }

    /** A node holds a durable copy of node {@code ofNode}'s part of checkpoint {@code sequence}; to node 0 (MPI pump). */
    record BuddyCopied(int ofNode, int sequence) implements MasterEvent {
    }

    /** Another master's node state, for deadlock detection over nodes (MPI pump). */
    record PeerState(int node, NodesQuiescence.State state) implements MasterEvent {
    }

    /**
     * Time passed (timer): the end of its batch looks again whether a deadlock seen a while ago over
     * several nodes is now confirmed, and slaves that ran past the quantum are stopped.
     */
    record Tick() implements MasterEvent {
    }

    /** A reading of the node's memory, for {@code -nr auto} (memory sampler). */
    record MemorySampled(MemorySample sample) implements MasterEvent {
    }

    /** Hand a snapshot of the job's state to the caller (progress display, any time). */
    record SnapshotRequested(CompletableFuture<JobSnapshot> result) implements MasterEvent {
    }

    /** Hand a snapshot of the statistics to the caller (after the job ended). */
    record StatsRequested(CompletableFuture<JobStats> result) implements MasterEvent {
    }
}
