package io.bdmpi.master.internode;

import io.bdmpi.protocol.PointerOp;
import io.bdmpi.protocol.RmaRequest;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What one master tells another on the {@linkplain Pump#CONTROL_TAG control tag}, and its wire form:
 * a type code (int) then the fields in order, big-endian; a forwarded message's inline bytes follow
 * its header in the same MPI message.
 */
public sealed interface MasterMessage {

    int FORWARD = 1;
    int NODE_ENDED = 2;
    int STARTED = 3;
    int NODE_STATE = 4;
    int SEND_MATCHED = 5;
    int CHECKPOINT_PART_WRITTEN = 10;
    int CHECKPOINT_COMMITTED = 11;
    int BUDDY_FILE = 12;
    int BUDDY_COPIED = 13;
    int POINTER_REQUEST = 16;
    int POINTER_ANSWER = 17;
    int RMA_OP = 20;
    int RMA_DONE = 21;
    int LOCK_REQUEST = 22;
    int LOCK_GRANTED = 23;
    int UNLOCK = 24;
    int RESTART_HOLDINGS = 25;
    int RESTART_PLAN = 26;
    int STAGED_FILE = 27;

    /** The message's wire form in a new direct buffer (MPI needs a fixed address). */
    ByteBuffer encode();

    /**
     * A point-to-point message from a slave of the sender's node to one of the receiver's.
     *
     * @param syncId    the sender's request id of a synchronous send (the receiving master answers
     *                  with {@link SendMatched} when a receive matches it); 0 for a buffered send
     * @param dataBytes the payload's length; when {@code inline} its bytes follow the header,
     *                  otherwise they follow as {@linkplain Pump#DATA_TAG data messages} of at most
     *                  {@link Internode#CHUNK_BYTES} each
     */
    record Forward(int destWorldRank, int commId, int source, int tag, int senderWorldRank, long syncId, long dataBytes,
                   boolean inline, ByteBuffer inlineBytes) implements MasterMessage {
        static final int HEADER_BYTES = 4 * 6 + 8 + 8 + 1;

        @Override
        public ByteBuffer encode() {
            int extra = inline ? inlineBytes.remaining() : 0;
            ByteBuffer b = ByteBuffer.allocateDirect(HEADER_BYTES + extra);
            b.putInt(FORWARD).putInt(destWorldRank).putInt(commId).putInt(source).putInt(tag).putInt(senderWorldRank)
                    .putLong(syncId).putLong(dataBytes).put((byte) (inline ? 1 : 0));
            if (inline) {
                b.put(inlineBytes.duplicate());
            }
            return b.flip();
        }
    }

    /**
     * A slave of the sender's node started a collective (or split) on a communicator with members
     * on the receiver's node: every master of the communicator runs the operation on every
     * member's start, so all compute the same results.
     *
     * @param idBase    for a split: the first of the ids the communicator's lowest node reserved
     *                  for the communicators it makes (one per colour); -1 otherwise
     * @param frame     the start as a slave sends it ({@link io.bdmpi.protocol.ProtocolCodec}); a
     *                  spilled contribution's file name in it means nothing here: its bytes follow
     *                  as data messages ({@code dataBytes} of them) unless {@code inline}
     */
    record Started(int commId, int worldRank, int idBase, long dataBytes, boolean inline, ByteBuffer frame)
            implements MasterMessage {
        static final int HEADER_BYTES = 4 * 4 + 8 + 1;

        @Override
        public ByteBuffer encode() {
            ByteBuffer b = ByteBuffer.allocateDirect(HEADER_BYTES + frame.remaining());
            b.putInt(STARTED).putInt(commId).putInt(worldRank).putInt(idBase).putLong(dataBytes).put((byte) (inline ? 1 : 0));
            return b.put(frame.duplicate()).flip();
        }
    }

    /**
     * A receive on the sender's node matched the forwarded message of a synchronous send of a
     * slave of the receiver's node: that send is complete.
     *
     * @param senderWorldRank the synchronous sender
     * @param syncId          its send's request id, as {@link Forward} carried it
     */
    record SendMatched(int senderWorldRank, long syncId) implements MasterMessage {
        static final int BYTES = 4 + 4 + 8;

        @Override
        public ByteBuffer encode() {
            return ByteBuffer.allocateDirect(BYTES).putInt(SEND_MATCHED).putInt(senderWorldRank).putLong(syncId).flip();
        }
    }

    /**
     * A slave of the sender's node operates on a shared file pointer that the receiver keeps (MPI-IO;
     * see {@link io.bdmpi.protocol.SlaveRequest.FilePointer}); the receiver answers with
     * {@link PointerAnswer}.
     *
     * @param worldRank the slave that waits for the answer
     */
    record PointerRequest(long key, PointerOp op, long value, int worldRank) implements MasterMessage {
        static final int BYTES = 4 + 8 + 1 + 8 + 4;

        @Override
        public ByteBuffer encode() {
            return ByteBuffer.allocateDirect(BYTES).putInt(POINTER_REQUEST).putLong(key).put(op.code).putLong(value)
                    .putInt(worldRank).flip();
        }
    }

    /**
     * The value a shared file pointer had before the {@link PointerRequest} of {@code worldRank}, a
     * slave of the receiver's node.
     */
    record PointerAnswer(int worldRank, long value) implements MasterMessage {
        static final int BYTES = 4 + 4 + 8;

        @Override
        public ByteBuffer encode() {
            return ByteBuffer.allocateDirect(BYTES).putInt(POINTER_ANSWER).putInt(worldRank).putLong(value).flip();
        }
    }

    /**
     * One-sided traffic between masters: operations on a window member of the receiver's node and
     * their outcomes, and the locks of such members, which the receiver's {@code WindowLocks} keeps.
     * Each names the origin slave by world rank; the answers go back to the sender's node.
     */
    sealed interface WindowTraffic extends MasterMessage {
    }

    /** A slave of the sender's node asks the receiver to apply {@code op}; answered with {@link RmaDone}. */
    record RmaOp(int originWorldRank, RmaRequest op) implements WindowTraffic {
        @Override
        public ByteBuffer encode() {
            ByteBuffer b = ByteBuffer.allocateDirect(4 + 4 + op.encodedLength());
            b.putInt(RMA_OP).putInt(originWorldRank);
            op.writeTo(b);
            return b.flip();
        }
    }

    /**
     * The outcome of {@code originWorldRank}'s {@link RmaOp}: when applied, {@code data} holds the
     * target's bytes before it (for the kinds that return some); else {@code error} says why not.
     */
    record RmaDone(int originWorldRank, RmaRequest.Outcome outcome, String error, ByteBuffer data)
            implements WindowTraffic {
        @Override
        public ByteBuffer encode() {
            byte[] text = error.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocateDirect(4 + 4 + 1 + 4 + text.length + 4 + data.remaining());
            b.putInt(RMA_DONE).putInt(originWorldRank).put(outcome.code).putInt(text.length).put(text)
                    .putInt(data.remaining()).put(data.duplicate());
            return b.flip();
        }
    }

    /** {@code originWorldRank} asks for the lock of window rank {@code target}; answered with {@link LockGranted}. */
    record LockRequest(int winId, int target, boolean exclusive, int originWorldRank) implements WindowTraffic {
        static final int BYTES = 4 + 4 + 4 + 1 + 4;

        @Override
        public ByteBuffer encode() {
            return ByteBuffer.allocateDirect(BYTES).putInt(LOCK_REQUEST).putInt(winId).putInt(target)
                    .put((byte) (exclusive ? 1 : 0)).putInt(originWorldRank).flip();
        }
    }

    /** {@code originWorldRank}, a slave of the receiver's node, now holds the lock it asked for. */
    record LockGranted(int originWorldRank) implements WindowTraffic {
        @Override
        public ByteBuffer encode() {
            return ByteBuffer.allocateDirect(8).putInt(LOCK_GRANTED).putInt(originWorldRank).flip();
        }
    }

    /** {@code originWorldRank} releases the lock of window rank {@code target}, after its operations. */
    record Unlock(int winId, int target, int originWorldRank) implements WindowTraffic {
        @Override
        public ByteBuffer encode() {
            return ByteBuffer.allocateDirect(16).putInt(UNLOCK).putInt(winId).putInt(target).putInt(originWorldRank).flip();
        }
    }

    /**
     * The sender's node's state, for deadlock detection over nodes.
     *
     * @param idle     no slave of it runs, is runnable or is starting
     * @param ended    its part of the job has ended
     * @param sent     forwards, collective starts and matched synchronous sends it has sent to other masters
     * @param received those it has received from other masters
     * @param pending  its blocked ranks' pending calls, readable
     */
    record NodeState(boolean idle, boolean ended, long sent, long received, String pending) implements MasterMessage {
        @Override
        public ByteBuffer encode() {
            byte[] text = pending.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            return ByteBuffer.allocateDirect(4 + 2 + 16 + text.length).putInt(NODE_STATE).put((byte) (idle ? 1 : 0))
                    .put((byte) (ended ? 1 : 0)).putLong(sent).putLong(received).put(text).flip();
        }
    }

    /**
     * The sender's node has ended its part of the job.
     *
     * @param exitCode 0 when all its slaves finalized and exited 0
     * @param causedHere whether the failure started on the sender's node (which then reported it)
     */
    record NodeEnded(int exitCode, boolean causedHere) implements MasterMessage {
        @Override
        public ByteBuffer encode() {
            return ByteBuffer.allocateDirect(9).putInt(NODE_ENDED).putInt(exitCode).put((byte) (causedHere ? 1 : 0)).flip();
        }
    }

    /**
     * The sender's part of checkpoint {@code sequence} is written and synced (to node 0, which
     * commits the checkpoint once every node's part is).
     */
    record CheckpointPartWritten(int sequence) implements MasterMessage {
        @Override
        public ByteBuffer encode() {
            return ByteBuffer.allocateDirect(8).putInt(CHECKPOINT_PART_WRITTEN).putInt(sequence).flip();
        }
    }

    /** Node 0 has committed checkpoint {@code sequence}: its ranks may leave the call. */
    record CheckpointCommitted(int sequence) implements MasterMessage {
        @Override
        public ByteBuffer encode() {
            return ByteBuffer.allocateDirect(8).putInt(CHECKPOINT_COMMITTED).putInt(sequence).flip();
        }
    }

    /**
     * One file of the sender's part of checkpoint {@code sequence}, for the receiver (its buddy) to
     * keep a copy of in its node-local checkpoint directory; the part's files come in order, its
     * manifest last.
     *
     * @param name      the file's name in the part ({@code rank-R.state}, {@code message-I}, {@code manifest.json})
     * @param dataBytes the file's length; when {@code inline} its bytes follow the header, otherwise
     *                  they follow as {@linkplain Pump#DATA_TAG data messages}, as a forward's do
     */
    record BuddyFile(int sequence, String name, long dataBytes, boolean inline, ByteBuffer inlineBytes) implements MasterMessage {
        @Override
        public ByteBuffer encode() {
            byte[] text = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            int extra = inline ? inlineBytes.remaining() : 0;
            ByteBuffer b = ByteBuffer.allocateDirect(4 + 4 + 4 + text.length + 8 + 1 + extra);
            b.putInt(BUDDY_FILE).putInt(sequence).putInt(text.length).put(text).putLong(dataBytes).put((byte) (inline ? 1 : 0));
            if (inline) {
                b.put(inlineBytes.duplicate());
            }
            return b.flip();
        }
    }

    /** The sender holds a durable copy of node {@code ofNode}'s part of checkpoint {@code sequence} (to node 0). */
    record BuddyCopied(int sequence, int ofNode) implements MasterMessage {
        @Override
        public ByteBuffer encode() {
            return ByteBuffer.allocateDirect(12).putInt(BUDDY_COPIED).putInt(sequence).putInt(ofNode).flip();
        }
    }

    /**
     * What the sender's node-local checkpoint directory holds, for node 0 to plan a restart on other
     * nodes ({@linkplain Pump#STAGING_TAG staging}).
     */
    record RestartHoldings(List<HeldPart> parts) implements MasterMessage {
        @Override
        public ByteBuffer encode() {
            int bytes = 8;
            for (HeldPart p : parts) {
                bytes += 4 * 5 + 1 + 4 * p.ranks().size();
            }
            ByteBuffer b = ByteBuffer.allocateDirect(bytes).putInt(RESTART_HOLDINGS).putInt(parts.size());
            for (HeldPart p : parts) {
                b.putInt(p.sequence()).put((byte) (p.committed() ? 1 : 0)).putInt(p.part()).putInt(p.parts())
                        .putInt(p.worldSize()).putInt(p.ranks().size());
                p.ranks().forEach(b::putInt);
            }
            return b.flip();
        }
    }

    /**
     * One part of a checkpoint a directory holds.
     *
     * @param committed whether the directory has committed the checkpoint (else its part is written whole, awaiting the commit)
     * @param part      the node that wrote it
     * @param parts     how many nodes wrote the checkpoint
     * @param ranks     the world ranks whose states it holds (and the messages for them)
     */
    record HeldPart(int sequence, boolean committed, int part, int parts, int worldSize, List<Integer> ranks) {
    }

    /**
     * Node 0's plan of a restart: go on from checkpoint {@code sequence}, each node first fetching
     * the parts it lacks as {@code transfers} say; or, when {@code refusal} is not empty, why the
     * job cannot go on ({@linkplain Pump#STAGING_TAG staging}).
     */
    record RestartPlan(int sequence, String refusal, List<Transfer> transfers) implements MasterMessage {
        @Override
        public ByteBuffer encode() {
            byte[] text = refusal.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocateDirect(4 * 4 + text.length + 12 * transfers.size())
                    .putInt(RESTART_PLAN).putInt(sequence).putInt(text.length).put(text).putInt(transfers.size());
            transfers.forEach(t -> b.putInt(t.part()).putInt(t.from()).putInt(t.to()));
            return b.flip();
        }
    }

    /** Node {@code from} sends its copy of part {@code part} to node {@code to}. */
    record Transfer(int part, int from, int to) {
    }

    /**
     * One file of part {@code part} of checkpoint {@code sequence}, for a restart on the receiver's
     * node ({@linkplain Pump#STAGING_TAG staging}); a part's files come in order, its manifest last.
     *
     * @param dataBytes the file's length; when {@code inline} its bytes follow the header, otherwise
     *                  they follow as {@linkplain Pump#STAGING_DATA_TAG data messages}
     */
    record StagedFile(int sequence, int part, String name, long dataBytes, boolean inline, ByteBuffer inlineBytes)
            implements MasterMessage {
        @Override
        public ByteBuffer encode() {
            byte[] text = name.getBytes(StandardCharsets.UTF_8);
            int extra = inline ? inlineBytes.remaining() : 0;
            ByteBuffer b = ByteBuffer.allocateDirect(4 * 4 + text.length + 8 + 1 + extra);
            b.putInt(STAGED_FILE).putInt(sequence).putInt(part).putInt(text.length).put(text).putLong(dataBytes)
                    .put((byte) (inline ? 1 : 0));
            if (inline) {
                b.put(inlineBytes.duplicate());
            }
            return b.flip();
        }
    }

    /**
     * Reads one message; a forward's inline bytes are a view of {@code b} (no copy).
     *
     * @throws IllegalArgumentException for an unknown type code or a short message
     */
    static MasterMessage decode(ByteBuffer b) {
        ByteBuffer in = b.duplicate();
        if (in.remaining() < Integer.BYTES) {
            throw new IllegalArgumentException("master message of " + in.remaining() + " bytes");
        }
        int type = in.getInt();
        if (type == FORWARD && in.remaining() >= Forward.HEADER_BYTES - Integer.BYTES) {
            int dest = in.getInt();
            int comm = in.getInt();
            int source = in.getInt();
            int tag = in.getInt();
            int sender = in.getInt();
            long syncId = in.getLong();
            long length = in.getLong();
            boolean inline = in.get() != 0;
            if (inline && in.remaining() != length) {
                throw new IllegalArgumentException("forward of " + length + " bytes carries " + in.remaining());
            }
            return new Forward(dest, comm, source, tag, sender, syncId, length, inline, inline ? in.slice() : null);
        }
        if (type == SEND_MATCHED && in.remaining() == SendMatched.BYTES - Integer.BYTES) {
            return new SendMatched(in.getInt(), in.getLong());
        }
        if (type == POINTER_REQUEST && in.remaining() == PointerRequest.BYTES - Integer.BYTES) {
            long key = in.getLong();
            PointerOp op = PointerOp.ofCode(in.get());
            if (op != null) {
                return new PointerRequest(key, op, in.getLong(), in.getInt());
            }
        }
        if (type == POINTER_ANSWER && in.remaining() == PointerAnswer.BYTES - Integer.BYTES) {
            return new PointerAnswer(in.getInt(), in.getLong());
        }
        if (type == RMA_OP && in.remaining() >= 4) {
            int origin = in.getInt();
            try {
                RmaRequest op = RmaRequest.readFrom(in);
                if (!in.hasRemaining()) {
                    return new RmaOp(origin, op);
                }
            } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
                throw new IllegalArgumentException("bad one-sided operation: " + e.getMessage(), e);
            }
        }
        if (type == RMA_DONE && in.remaining() >= 9) {
            int origin = in.getInt();
            RmaRequest.Outcome outcome = RmaRequest.Outcome.ofCode(in.get());
            int n = in.getInt();
            if (n >= 0 && n <= in.remaining() - 4) {
                byte[] text = new byte[n];
                in.get(text);
                int length = in.getInt();
                if (length == in.remaining() && outcome != null) {
                    return new RmaDone(origin, outcome, new String(text, StandardCharsets.UTF_8), in.slice());
                }
            }
        }
        if (type == LOCK_REQUEST && in.remaining() == LockRequest.BYTES - Integer.BYTES) {
            return new LockRequest(in.getInt(), in.getInt(), in.get() != 0, in.getInt());
        }
        if (type == LOCK_GRANTED && in.remaining() == 4) {
            return new LockGranted(in.getInt());
        }
        if (type == UNLOCK && in.remaining() == 12) {
            return new Unlock(in.getInt(), in.getInt(), in.getInt());
        }
        if (type == STARTED && in.remaining() >= Started.HEADER_BYTES - Integer.BYTES) {
            return new Started(in.getInt(), in.getInt(), in.getInt(), in.getLong(), in.get() != 0, in.slice());
        }
        if (type == NODE_STATE && in.remaining() >= 18) {
            boolean idle = in.get() != 0;
            boolean ended = in.get() != 0;
            long sent = in.getLong();
            long received = in.getLong();
            byte[] text = new byte[in.remaining()];
            in.get(text);
            return new NodeState(idle, ended, sent, received, new String(text, java.nio.charset.StandardCharsets.UTF_8));
        }
        if (type == CHECKPOINT_PART_WRITTEN && in.remaining() == 4) {
            return new CheckpointPartWritten(in.getInt());
        }
        if (type == CHECKPOINT_COMMITTED && in.remaining() == 4) {
            return new CheckpointCommitted(in.getInt());
        }
        if (type == BUDDY_FILE && in.remaining() >= 8) {
            int sequence = in.getInt();
            int nameBytes = in.getInt();
            if (nameBytes >= 0 && in.remaining() >= nameBytes + 9) {
                byte[] text = new byte[nameBytes];
                in.get(text);
                long length = in.getLong();
                boolean inline = in.get() != 0;
                if (inline && in.remaining() != length) {
                    throw new IllegalArgumentException("buddy file of " + length + " bytes carries " + in.remaining());
                }
                return new BuddyFile(sequence, new String(text, java.nio.charset.StandardCharsets.UTF_8), length, inline,
                        inline ? in.slice() : null);
            }
        }
        if (type == BUDDY_COPIED && in.remaining() == 8) {
            return new BuddyCopied(in.getInt(), in.getInt());
        }
        if (type == RESTART_HOLDINGS || type == RESTART_PLAN || type == STAGED_FILE) {
            try {
                return decodeStaging(type, in);
            } catch (java.nio.BufferUnderflowException | IllegalArgumentException | NegativeArraySizeException e) {
                throw new IllegalArgumentException("bad restart staging message (type " + type + "): " + e, e);
            }
        }
        if (type == NODE_ENDED && in.remaining() == 5) {
            return new NodeEnded(in.getInt(), in.get() != 0);
        }
        throw new IllegalArgumentException("bad master message: type " + type + ", " + b.remaining() + " bytes");
    }

    /** Reads a staging message's fields after its type code. */
    private static MasterMessage decodeStaging(int type, ByteBuffer in) {
        MasterMessage m;
        if (type == RESTART_HOLDINGS) {
            int n = in.getInt();
            List<HeldPart> parts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int sequence = in.getInt();
                boolean committed = in.get() != 0;
                int part = in.getInt();
                int count = in.getInt();
                int worldSize = in.getInt();
                int ranks = in.getInt();
                if (ranks < 0 || ranks > in.remaining() / 4) {
                    throw new IllegalArgumentException(ranks + " ranks");
                }
                List<Integer> held = new ArrayList<>(ranks);
                for (int r = 0; r < ranks; r++) {
                    held.add(in.getInt());
                }
                parts.add(new HeldPart(sequence, committed, part, count, worldSize, List.copyOf(held)));
            }
            m = new RestartHoldings(List.copyOf(parts));
        } else if (type == RESTART_PLAN) {
            int sequence = in.getInt();
            byte[] text = new byte[in.getInt()];
            in.get(text);
            int n = in.getInt();
            if (n < 0 || n > in.remaining() / 12) {
                throw new IllegalArgumentException(n + " transfers");
            }
            List<Transfer> transfers = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                transfers.add(new Transfer(in.getInt(), in.getInt(), in.getInt()));
            }
            m = new RestartPlan(sequence, new String(text, StandardCharsets.UTF_8), List.copyOf(transfers));
        } else {
            int sequence = in.getInt();
            int part = in.getInt();
            byte[] text = new byte[in.getInt()];
            in.get(text);
            long length = in.getLong();
            boolean inline = in.get() != 0;
            if (inline && in.remaining() != length) {
                throw new IllegalArgumentException("staged file of " + length + " bytes carries " + in.remaining());
            }
            return new StagedFile(sequence, part, new String(text, StandardCharsets.UTF_8), length, inline,
                    inline ? in.slice() : null);
        }
        if (in.hasRemaining()) {
            throw new IllegalArgumentException(in.remaining() + " bytes too many");
        }
        return m;
    }
}
