package io.bdmpi.master.checkpoint;

import io.bdmpi.master.session.SlaveSession;
import io.bdmpi.master.store.StoredMessage;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.SlaveRequest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The master's part of {@code BDMPI.checkpoint} and {@code BDMPI.restore}, both collectives over
 * COMM_WORLD. A checkpoint is taken when every rank is inside the call, so nothing is on its way
 * between ranks: the ranks' saved states and the messages the master buffers are the whole job.
 * A restore hands each rank its state and puts the buffered messages back into the mailboxes.
 *
 * <p>Owned by the scheduler thread.
 */
public final class Checkpointing {

    /** What a completed checkpoint or restore gives each member. */
    public record Outcome(int sequence, List<List<Payload>> pieces) {
    }

    private final CheckpointStore store;
    /** Whether this run goes on from the store's latest checkpoint (restart or recovery). */
    private boolean restoring;
    private long lastCheckpointNs;
    private long restoredNs;

    /**
     * @param store     where checkpoints are written and read
     * @param restoring whether the ranks' {@code BDMPI.restore} gets the latest checkpoint
     */
    public Checkpointing(CheckpointStore store, boolean restoring) {
        this.store = store;
        this.restoring = restoring && store.latest() != null;
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
     * Writes a checkpoint of the ranks (all inside the CHECKPOINT collective) and of what their
     * mailboxes hold.
     *
     * @param members the ranks, index = world rank
     * @param starts  their starts of the CHECKPOINT collective, which carry their saved states
     * @throws CheckpointException why the job cannot be checkpointed here
     */
    public Outcome checkpoint(List<SlaveSession> members, List<SlaveRequest.StartCollective> starts) throws CheckpointException {
        int n = members.size();
        List<Payload> states = new ArrayList<>(n);
        List<CheckpointStore.StoredMessageFor> buffered = new ArrayList<>();
        for (int rank = 0; rank < n; rank++) {
            SlaveSession s = members.get(rank);
            if (s.collectives.size() > 1 || !s.mailbox.hasNoRequests()) {
                throw new CheckpointException("rank " + s.worldRank + " called BDMPI_Checkpoint with nonblocking"
                        + " operations pending; complete them first");
            }
            states.add(starts.get(rank).data());
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
        try {
            CheckpointStore.Manifest m = store.write(states, buffered);
            lastCheckpointNs = System.nanoTime();
            return new Outcome(m.sequence(), nothingFor(n));
        } catch (IOException e) {
            throw new CheckpointException("cannot write checkpoint to " + store.directory() + ": " + e);
        }
    }

    /**
     * Completes a RESTORE: with a checkpoint to go on from, each member gets its saved state and
     * its mailbox the messages it had not received; otherwise the program starts afresh
     * (sequence -1).
     *
     * @param members the ranks, index = world rank
     */
    public Outcome restore(List<SlaveSession> members) throws CheckpointException {
        int n = members.size();
        if (!restoring) {
            return new Outcome(-1, nothingFor(n));
        }
        restoring = false;
        CheckpointStore.Manifest manifest = store.latest();
        if (manifest.ranks() != n) {
            throw new CheckpointException("checkpoint " + manifest.sequence() + " in " + store.directory() + " has "
                    + manifest.ranks() + " ranks but this job has " + n);
        }
        try {
            List<List<Payload>> pieces = new ArrayList<>(n);
            for (CheckpointStore.StateFile state : manifest.states()) {
                String name = store.exportToSpill(state.file(), "restore-" + manifest.sequence() + "-" + state.rank());
                pieces.add(List.of(new Payload.Slice(name, 0, state.length())));
            }
            int k = 0;
            for (CheckpointStore.Message m : manifest.messages()) {
                String name = store.exportToSpill(m.file(), "restored-" + manifest.sequence() + "-" + k++);
                SlaveSession receiver = members.get(m.receiver());
                receiver.mailbox.deliver(new StoredMessage(m.commId(), m.source(), m.tag(), m.senderWorldRank(),
                        new Payload.Spilled(name, m.length())));
            }
            restoredNs = System.nanoTime();
            return new Outcome(manifest.sequence(), pieces);
        } catch (IOException e) {
            throw new CheckpointException("cannot read checkpoint " + manifest.sequence() + " in " + store.directory()
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
