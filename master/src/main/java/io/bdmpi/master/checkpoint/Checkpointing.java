package io.bdmpi.master.checkpoint;

import io.bdmpi.master.session.SlaveSession;
import io.bdmpi.master.store.StoredMessage;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.SlaveRequest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntConsumer;

/**
 * The master's part of {@code BDMPI.checkpoint} and {@code BDMPI.restore}, both collectives over
 * COMM_WORLD. A checkpoint is taken when every rank is inside the call. On one node nothing is then
 * on its way between ranks. On several, a message a rank sent before the call travels to the
 * receiver's master ahead of that rank's start of the call (the masters' link keeps each pair's
 * order), so when the call is complete on a node every message for its ranks is in their
 * mailboxes: each node's saved states and buffered messages make its part, and every message is in
 * exactly one part, its receiver's.
 *
 * <p>The commit is two-phase: each node writes and syncs its part, then tells node 0
 * ({@link Coordinator#partWritten}); node 0, once every node has, commits the checkpoint (see
 * {@link CheckpointStore}) and tells the others ({@link Coordinator#committed}). Only then do the
 * ranks leave the call, so no rank goes on past a checkpoint that could still be lost.
 *
 * <p>A restore hands each rank of this node its state and puts back into its mailbox the messages
 * it had not received, from whichever part holds them: the job may have other nodes than the one
 * that took the checkpoint, as long as it has the same ranks.
 *
 * <p>Owned by the scheduler thread.
 */
public final class Checkpointing {

    /** How this node tells the other masters about its checkpoints; absent on one node. */
    public interface Coordinator {
        /** Tells node 0 that this node's part of checkpoint {@code sequence} is durable. */
        void partWritten(int sequence);

        /** Node 0 tells every other node that checkpoint {@code sequence} is committed. */
        void committed(int sequence);
    }

    /** Where a message restored into a mailbox comes from on its communicator: the sender's rank there, or -1. */
    @FunctionalInterface
    public interface Sources {
        int sourceOf(int commId, int senderWorldRank, int receiverWorldRank);
    }

    /** What a completed restore gives each member. */
    public record Outcome(int sequence, List<List<Payload>> pieces) {
    }

    /** Where this node stands in the commit of a checkpoint. */
    private enum Phase {
        /** No checkpoint in progress. */
        IDLE,
        /** This node's part is written; waiting for node 0's commit (node 0: for every part). */
        WRITTEN
    }

    private final CheckpointStore store;
    /** The checkpoints this run goes on from (restart or recovery), or null to start afresh. */
    private CheckpointStore restoreFrom;
    private int node;
    private int nodes = 1;
    private Coordinator coordinator;
    private Phase phase = Phase.IDLE;
    private int sequence;
    /** Node 0: the nodes whose part of {@link #sequence} is durable. */
    private boolean[] written = new boolean[1];
    /** Hands the ranks of this node their results once the checkpoint is committed. */
    private IntConsumer release;
    private long lastCheckpointNs;
    private long restoredNs;

    /**
     * @param store       where checkpoints are written
     * @param restoreFrom where the ranks' {@code BDMPI.restore} gets the latest checkpoint from, or
     *                    null (the program starts afresh)
     */
    public Checkpointing(CheckpointStore store, CheckpointStore restoreFrom) {
        this.store = store;
        this.restoreFrom = restoreFrom != null && restoreFrom.latest() != null ? restoreFrom : null;
    }

    /** Joins this node, {@code node} of {@code nodes}, to the other masters (several nodes only). */
    public void coordinateWith(int node, int nodes, Coordinator coordinator) {
        this.node = node;
        this.nodes = nodes;
        this.written = new boolean[nodes];
        this.coordinator = coordinator;
    }

    /** When the last checkpoint of this run was committed ({@link System#nanoTime}), or 0. */
    public long lastCheckpointNs() {
        return lastCheckpointNs;
    }

    /** When the ranks got their restored state ({@link System#nanoTime}), or 0. */
    public long restoredNs() {
        return restoredNs;
    }

    /**
     * Writes this node's part of a checkpoint of the ranks (all inside the CHECKPOINT collective):
     * the states of the members of this node and what their mailboxes hold; {@code release} runs
     * once the checkpoint is committed on every node (at once on one node).
     *
     * @param members the ranks, index = world rank; null for a rank of another node
     * @param starts  their starts of the CHECKPOINT collective, which carry the saved states
     * @throws CheckpointException why the job cannot be checkpointed here
     */
    public int checkpoint(List<SlaveSession> members, List<SlaveRequest.StartCollective> starts, IntConsumer release)
            throws CheckpointException {
        if (phase != Phase.IDLE) {
            throw new CheckpointException("BDMPI_Checkpoint started while checkpoint " + sequence + " is being committed");
        }
        int n = members.size();
        Map<Integer, Payload> states = new TreeMap<>();
        List<CheckpointStore.StoredMessageFor> buffered = new ArrayList<>();
        for (int rank = 0; rank < n; rank++) {
            SlaveSession s = members.get(rank);
            if (s == null) {
                continue;
            }
            if (s.collectives.size() > 1 || !s.mailbox.hasNoRequests()) {
                throw new CheckpointException("rank " + s.worldRank + " called BDMPI_Checkpoint with nonblocking"
                        + " operations pending; complete them first");
            }
            states.put(rank, starts.get(rank).data());
            for (StoredMessage m : s.mailbox.buffered()) {
                if (m.commId() >= Protocol.FIRST_DERIVED_COMM_ID) {
                    throw new CheckpointException("rank " + m.senderWorldRank() + " sent rank " + s.worldRank
                            + " a message (tag " + m.tag() + ") on a communicator it created, still unreceived at"
                            + " BDMPI_Checkpoint; a restored job could not match it");
                }
                // A checkpoint keeps no syncId: no buffered message has one here, as its sender would
                // be blocked in MPI_Ssend (not in this collective) or have an MPI_Issend pending,
                // which the check above refuses on the sender's node.
                buffered.add(new CheckpointStore.StoredMessageFor(s.worldRank, m));
            }
        }
        sequence = nextSequence();
        try {
            store.writePart(sequence, node, nodes, n, states, buffered);
        } catch (IOException e) {
            throw new CheckpointException("cannot write checkpoint " + sequence + " to " + store.directory() + ": " + e);
        }
        phase = Phase.WRITTEN;
        this.release = release;
        if (node == 0) {
            partWritten(0, sequence);
        } else {
            coordinator.partWritten(sequence);
        }
        return sequence;
    }

    /**
     * Node 0 hears that {@code fromNode}'s part of checkpoint {@code seq} is durable; with every
     * part, it commits.
     *
     * @throws CheckpointException when the commit fails (the job cannot go on) or the news makes no sense
     */
    public void partWritten(int fromNode, int seq) throws CheckpointException {
        int expected = phase == Phase.WRITTEN ? sequence : nextSequence();
        if (node != 0 || seq != expected || fromNode < 0 || fromNode >= nodes) {
            throw new CheckpointException("node " + fromNode + " wrote its part of checkpoint " + seq
                    + " while node " + node + " is at checkpoint " + sequence + " (" + phase + ")");
        }
        written[fromNode] = true;
        if (phase != Phase.WRITTEN || !allWritten()) {
            return; // node 0's own part comes later, or others' do
        }
        try {
            store.commit(sequence, nodes);
        } catch (IOException e) {
            throw new CheckpointException("cannot commit checkpoint " + sequence + " in " + store.directory() + ": "
                    + e.getMessage());
        }
        if (coordinator != null) {
            coordinator.committed(sequence);
        }
        finish();
    }

    /**
     * Another node hears from node 0 that checkpoint {@code seq} is committed.
     *
     * @throws CheckpointException when this node was not waiting for it, or the disk fails
     */
    public void committed(int seq) throws CheckpointException {
        if (phase != Phase.WRITTEN || seq != sequence) {
            throw new CheckpointException("node 0 committed checkpoint " + seq + " while node " + node + " is at "
                    + sequence + " (" + phase + ")");
        }
        try {
            store.committed(seq);
        } catch (IOException e) {
            throw new CheckpointException("cannot commit checkpoint " + seq + " in " + store.directory() + ": " + e);
        }
        finish();
    }

    private int nextSequence() {
        return store.latest() == null ? 1 : store.latest().sequence() + 1;
    }

    private boolean allWritten() {
        for (boolean w : written) {
            if (!w) {
                return false;
            }
        }
        return true;
    }

    private void finish() {
        Arrays.fill(written, false);
        phase = Phase.IDLE;
        lastCheckpointNs = System.nanoTime();
        IntConsumer r = release;
        release = null;
        r.accept(sequence);
    }

    /**
     * Completes a RESTORE: with a checkpoint to go on from, each member of this node gets its saved
     * state and its mailbox the messages it had not received; otherwise the program starts afresh
     * (sequence -1).
     *
     * @param members the ranks, index = world rank; null for a rank of another node
     * @param sources the sender's rank on a message's communicator in this job (its nodes may differ)
     */
    public Outcome restore(List<SlaveSession> members, Sources sources) throws CheckpointException {
        int n = members.size();
        if (restoreFrom == null) {
            return new Outcome(-1, nothingFor(n));
        }
        CheckpointStore from = restoreFrom;
        restoreFrom = null;
        CheckpointStore.Checkpoint checkpoint = from.latest();
        if (checkpoint.worldSize() != n) {
            throw new CheckpointException("checkpoint " + checkpoint.sequence() + " in " + from.directory() + " has "
                    + checkpoint.worldSize() + " ranks but this job has " + n);
        }
        try {
            List<List<Payload>> pieces = nothingFor(n);
            int k = 0;
            for (CheckpointStore.Part part : checkpoint.parts()) {
                for (CheckpointStore.StateFile state : part.states()) {
                    if (members.get(state.rank()) != null) {
                        String name = from.exportToSpill(state.file(), "restore-" + checkpoint.sequence() + "-" + state.rank());
                        pieces.set(state.rank(), List.of(new Payload.Slice(name, 0, state.length())));
                    }
                }
                for (CheckpointStore.Message m : part.messages()) {
                    SlaveSession receiver = members.get(m.receiver());
                    if (receiver == null) {
                        continue;
                    }
                    int source = sources.sourceOf(m.commId(), m.senderWorldRank(), m.receiver());
                    if (source < 0) {
                        throw new CheckpointException("checkpoint " + checkpoint.sequence() + " holds a message from rank "
                                + m.senderWorldRank() + " to rank " + m.receiver() + " on communicator " + m.commId()
                                + ", which no longer holds both in this job (nodes placed differently?)");
                    }
                    String name = from.exportToSpill(m.file(), "restored-" + checkpoint.sequence() + "-" + k++);
                    receiver.mailbox.deliver(new StoredMessage(m.commId(), source, m.tag(), m.senderWorldRank(),
                            new Payload.Spilled(name, m.length())));
                }
            }
            restoredNs = System.nanoTime();
            return new Outcome(checkpoint.sequence(), pieces);
        } catch (IOException e) {
            throw new CheckpointException("cannot read checkpoint " + checkpoint.sequence() + " in " + from.directory()
                    + ": " + e);
        }
    }

    private static List<List<Payload>> nothingFor(int n) {
        List<List<Payload>> none = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            none.add(List.of());
        }
        return none;
    }

    /** The job cannot be checkpointed or restored at this point; the message says why. */
    public static final class CheckpointException extends Exception {
        CheckpointException(String message) {
            super(message);
        }
    }
}
