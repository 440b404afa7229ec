package io.bdmpi.protocol;

import java.nio.ByteBuffer;

import java.util.List;

/** What a master answers to a slave's replied request. Receiving any reply means: run. */
public sealed interface MasterReply {

    /** The plain go-signal. */
    record Go() implements MasterReply {
    }

    /** Receives, collectives and synchronous sends that have completed, in the order they completed. */
    record Deliveries(List<Completion> deliveries) implements MasterReply {
        public Deliveries {
            deliveries = List.copyOf(deliveries);
        }
    }

    /** The outcome of one request a slave collects: a message, a collective's result or a matched synchronous send. */
    sealed interface Completion permits Delivery, CollectiveDone, SendMatched {
        long requestId();
    }

    /** One message handed to a posted receive. {@code source} is the sender's rank in the communicator. */
    record Delivery(long requestId, int source, int tag, Payload payload) implements Completion {
    }

    /**
     * A collective (or split) completed for this slave.
     *
     * @param values small results (a split's new id, rank and size), else empty
     * @param pieces this member's data, as listed in {@link CollectiveKind}; never {@link Payload.Spilled}
     */
    record CollectiveDone(long requestId, int[] values, List<Payload> pieces) implements Completion {
        public CollectiveDone {
            pieces = List.copyOf(pieces);
        }
    }

    /** A receive has matched the message of the synchronous send {@code requestId} (its {@code syncId}). */
    record SendMatched(long requestId) implements Completion {
    }

    /**
     * Where a communicator's members live, for the BDMPI extensions.
     *
     * @param nodes          nodes holding members
     * @param nodeRank       index of this slave's node among them
     * @param localSize      members on this slave's node
     * @param localRank      this slave's index among them
     * @param lowestLocalRank lowest communicator rank on this slave's node
     * @param groupHash      hash of the members' world ranks in rank order: equal for communicators
     *                       with the same group (MPI_CONGRUENT)
     * @param groupSetHash   hash of the members' world ranks in any order: equal for the same set of
     *                       processes (MPI_SIMILAR)
     */
    record CommInfo(int commId, int rank, int size, int nodes, int nodeRank, int localSize, int localRank,
                    int lowestLocalRank, long groupHash, long groupSetHash) implements MasterReply {
    }

    /** A shared file pointer's value before the {@link SlaveRequest.FilePointer} operation. */
    record PointerValue(long value) implements MasterReply {
    }

    /**
     * The outcome of a {@link SlaveRequest.WinRma}: when {@code outcome} is
     * {@link RmaRequest.Outcome#APPLIED}, {@code data} holds the target's bytes before it (for the
     * kinds that return some; empty otherwise); else {@code error} says why not.
     */
    record RmaResult(RmaRequest.Outcome outcome, String error, ByteBuffer data) implements MasterReply {
    }

    /** Whether a posted receive was withdrawn before any message matched it. */
    record CancelResult(boolean cancelled) implements MasterReply {
    }

    /** A pending message that matches a probe, or {@code found == false}. */
    record ProbeResult(boolean found, int source, int tag, long length) implements MasterReply {
        public static final ProbeResult NONE = new ProbeResult(false, 0, 0, 0);
    }
}
