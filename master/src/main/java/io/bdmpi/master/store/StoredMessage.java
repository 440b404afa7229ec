package io.bdmpi.master.store;

import io.bdmpi.protocol.Payload;

import java.nio.ByteBuffer;

/**
 * A message the master holds for its receiver: its payload, or (inline messages in an off-heap
 * {@link MessageStore}) a reference to its bytes there.
 *
 * @param source          sender's rank in the communicator
 * @param senderWorldRank sender's rank in COMM_WORLD (for reports, and to tell a synchronous sender of the match)
 * @param syncId          the sender's request id of a synchronous send, completed when a receive matches
 *                        this message; 0 for a buffered send
 * @param payload         the payload, or null while the bytes are in {@code offHeap}
 * @param offHeap         where the bytes are, or null
 */
public record StoredMessage(int commId, int source, int tag, int senderWorldRank, long syncId, Payload payload,
                            OffHeap offHeap) {

    /** Bytes of an inline message kept in a store, under a key. */
    interface OffHeap {
        long length();

        /** Removes the bytes from the store and returns them. */
        ByteBuffer take();

        /** A copy of the bytes, left in the store. */
        ByteBuffer read();
    }

    public StoredMessage(int commId, int source, int tag, int senderWorldRank, long syncId, Payload payload) {
        this(commId, source, tag, senderWorldRank, syncId, payload, null);
    }

    /** A message of a buffered send. */
    public StoredMessage(int commId, int source, int tag, int senderWorldRank, Payload payload) {
        this(commId, source, tag, senderWorldRank, 0, payload);
    }

    /** The same message with its bytes in {@code offHeap}. */
    StoredMessage movedTo(OffHeap where) {
        return new StoredMessage(commId, source, tag, senderWorldRank, syncId, null, where);
    }

    public boolean matches(int wantedCommId, int wantedSource, int wantedTag) {
        return commId == wantedCommId
                && (wantedSource == io.bdmpi.protocol.Protocol.ANY_SOURCE || wantedSource == source)
                && (wantedTag == io.bdmpi.protocol.Protocol.ANY_TAG || wantedTag == tag);
    }

    /** Length of the message in bytes. */
    public long length() {
        return offHeap != null ? offHeap.length() : payload.length();
    }

    /** Whether the bytes are in a spill file, rather than in the master's memory (its heap or a store: inline ones only). */
    public boolean spilled() {
        return payload != null && !(payload instanceof Payload.Inline);
    }

    /** The payload, read from the store if it is there and left there (for a checkpoint's copy). */
    public Payload readPayload() {
        return offHeap != null ? new Payload.Inline(offHeap.read()) : payload;
    }

    /** The payload for delivery, taken out of the store if it is there: call once. */
    public Payload takePayload() {
        return offHeap != null ? new Payload.Inline(offHeap.take()) : payload;
    }
}
