package io.bdmpi.master.checkpoint;

import io.bdmpi.master.session.SlaveSession;
import io.bdmpi.master.store.StoredMessage;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.SlaveRequest;

import java.io.IOException;
import java.nio.file.Path;
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
 * ranks leave the call, so no rank goes on past a checkpoint that could still be lost. In
 * {@linkplain CheckpointStore#nodeLocal node-local} directories each node also sends its part to
 * its buddy, node (k+1) mod nodes ({@link Coordinator#copyToBuddy}), which stores it in its own
 * directory and tells node 0 once the copy is durable ({@link Coordinator#buddyCopied}): node 0
 * commits only when every part and every copy is, so the loss of any one node loses no part of a
 * committed checkpoint.
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

        /**
         * Sends this node's part of checkpoint {@code sequence} to its buddy: the {@code files} of
         * {@code partDir}, in order (the manifest last).
         */
        void copyToBuddy(int sequence, Path partDir, List<String> files);

        /** Tells node 0 that this node holds a durable copy of node {@code ofNode}'s part of checkpoint {@code sequence}. */
        void buddyCopied(int sequence, int ofNode);
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
        /** This node's part is written; waiting for node 0's commit (node 0: for every part and buddy copy). */
        WRITTEN
    }

    private final CheckpointStore store;
    /** The checkpoints this run goes on from (restart or recovery), or null to start afresh. */
    private CheckpointStore restoreFrom;
    /**
     * The checkpoint this run went on from, or 0: checkpoints written elsewhere (--restart A
     * --checkpoint-dir B) are numbered after it, as they would be in A.
     */
    private final int restoredSequence;
    private int node;
    private int nodes = 1;
    private Coordinator coordinator;
    private Phase phase = Phase.IDLE;
    private int sequence;
    /** Node 0: the nodes whose part of {@link #sequence} is durable. */
    private boolean[] written = new boolean[1];
    /** Node 0, with buddy copies: the nodes whose part of {@link #sequence} has a durable copy on their buddy. */
    private boolean[] copied = new boolean[1];
    /** Whether each part is copied to a buddy node (node-local directories on several nodes). */
    private boolean buddies;
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
        this.restoredSequence = this.restoreFrom != null ? this.restoreFrom.latest().sequence() : 0;
    }

    /** Joins this node, {@code node} of {@code nodes}, to the other masters (several nodes only). */
    public void coordinateWith(int node, int nodes, Coordinator coordinator) {
        this.node = node;
        this.nodes = nodes;
        this.written = new boolean[nodes];
        this.copied = new boolean[nodes];
        this.buddies = store.nodeLocal();
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
        List<String> files;
        try {
            files = store.writePart(sequence, node, nodes, n, states, buffered);
        } catch (IOException e) {
            throw new CheckpointException("cannot write checkpoint " + sequence + " to " + store.directory() + ": " + e);
        }
        phase = Phase.WRITTEN;
        this.release = release;
        if (buddies) {
            coordinator.copyToBuddy(sequence, store.partDir(sequence, node), files);
        }
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
        checkNews(fromNode, seq, "wrote its part of");
        written[fromNode] = true;
        commitIfDurable();
    }

    /**
     * Node 0 hears that node {@code ofNode}'s part of checkpoint {@code seq} has a durable copy on
     * its buddy; with every part and copy, it commits.
     *
     * @throws CheckpointException when the commit fails (the job cannot go on) or the news makes no sense
     */
    public void buddyCopied(int ofNode, int seq) throws CheckpointException {
        checkNews(ofNode, seq, "has a buddy copy of its part of");
        copied[ofNode] = true;
        commitIfDurable();
    }

    /**
     * The buddy copy of node {@code fromNode}'s part of checkpoint {@code seq} brings one file; with
     * its last (the manifest) the copy is durable here, and node 0 hears of it.
     *
     * @throws CheckpointException when the file cannot be stored or makes no sense here
     */
    public void buddyFile(int fromNode, int seq, String name, Payload payload) throws CheckpointException {
        int expected = phase == Phase.WRITTEN ? sequence : nextSequence();
        if (!buddies || seq != expected || (fromNode + 1) % nodes != node) {
            throw new CheckpointException("node " + fromNode + " sent node " + node + " a buddy copy of checkpoint " + seq
                    + " while it is at checkpoint " + sequence + " (" + phase + ")");
        }
        boolean complete;
        try {
            complete = store.writeBuddyFile(seq, fromNode, name, payload);
        } catch (IOException e) {
            throw new CheckpointException("cannot store node " + fromNode + "'s copy of checkpoint " + seq + " in "
                    + store.directory() + ": " + e.getMessage());
        }
        if (complete && node == 0) {
            buddyCopied(fromNode, seq);
        } else if (complete) {
            coordinator.buddyCopied(seq, fromNode);
        }
    }

    /** Node 0: news of another node's step of checkpoint {@code seq}, which may come before node 0's own part. */
    private void checkNews(int fromNode, int seq, String what) throws CheckpointException {
        int expected = phase == Phase.WRITTEN ? sequence : nextSequence();
        if (node != 0 || seq != expected || fromNode < 0 || fromNode >= nodes) {
            throw new CheckpointException("node " + fromNode + " " + what + " checkpoint " + seq
                    + " while node " + node + " is at checkpoint " + sequence + " (" + phase + ")");
        }
    }

    /** Node 0: commits once its own part is written and every node's part (and copy) is durable. */
    private void commitIfDurable() throws CheckpointException {
        if (phase != Phase.WRITTEN || !all(written) || buddies && !all(copied)) {
            return; // node 0's own part comes later, or others' parts or copies do
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
        return Math.max(store.latest() == null ? 0 : store.latest().sequence(), restoredSequence) + 1;
    }

    private static boolean all(boolean[] nodes) {
        for (boolean b : nodes) {
            if (!b) {
                return false;
            }
        }
        return true;
    }

    private void finish() {
        Arrays.fill(written, false);
        Arrays.fill(copied, false);
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
                        String name = from.exportToSpill(state.file(), state.length(), "restore-" + checkpoint.sequence() + "-" + state.rank());
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
                    String name = from.exportToSpill(m.file(), m.length(), "restored-" + checkpoint.sequence() + "-" + k++);
                    receiver.mailbox.deliver(new StoredMessage(m.commId(), source, m.tag(), m.senderWorldRank(),
                            new Payload.Spilled(name, m.length())));
                }
            }
            for (int rank = 0; rank < n; rank++) {
                if (members.get(rank) != null && pieces.get(rank).isEmpty()) {
                    throw new CheckpointException("checkpoint " + checkpoint.sequence() + " in " + from.directory()
                            + " holds no state of rank " + rank);
                }
            }
            restoredNs = System.nanoTime();
            return new Outcome(checkpoint.sequence(), pieces);
        } catch (IOException e) {
            throw new CheckpointException("cannot read checkpoint " + checkpoint.sequence() + " in " + from.directory()
                    + ": " + e);
        } finally {
            // The spill directory holds links to what the ranks read: parts staged from other nodes have served.
            try {
                from.removeStaged();
            } catch (IOException e) {
                System.err.println("bdmpiexec: cannot remove the staged parts in " + from.directory() + ": " + e.getMessage()
                        + " (the master tries again when the job ends)");
            }
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
