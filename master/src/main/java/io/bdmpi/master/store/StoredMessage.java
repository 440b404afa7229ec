package io.bdmpi.master.store;

import io.bdmpi.protocol.Payload;

import java.nio.ByteBuffer;

/**
 * A message the master holds for its receiver: its payload, or (an inline message a
 * {@link MessageStore} keeps) a reference to its bytes there.
 *
 * @param source          sender's rank in the communicator
 * @param senderWorldRank sender's rank in COMM_WORLD (for reports, and to tell a synchronous sender of the match)
 * @param syncId          the sender's request id of a synchronous send, completed when a receive matches
 *                        this message; 0 for a buffered send
 * @param payload         the payload, or null while a store keeps the bytes
 * @param kept            where the store keeps the bytes, or null
 */
public record StoredMessage(int commId, int source, int tag, int senderWorldRank, long syncId, Payload payload,
                            Kept kept) {

    /** Bytes of an inline message a store keeps, in memory (on the heap or off it). */
    interface Kept {
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

    /** The same message with its bytes kept {@code where}. */
    StoredMessage movedTo(Kept where) {
        return new StoredMessage(commId, source, tag, senderWorldRank, syncId, null, where);
    }

    /** The same message with {@code other} as its payload. */
    StoredMessage withPayload(Payload other) {
        return new StoredMessage(commId, source, tag, senderWorldRank, syncId, other, null);
    }

    public boolean matches(int wantedCommId, int wantedSource, int wantedTag) {
        return commId == wantedCommId
                && (wantedSource == io.bdmpi.protocol.Protocol.ANY_SOURCE || wantedSource == source)
                && (wantedTag == io.bdmpi.protocol.Protocol.ANY_TAG || wantedTag == tag);
    }

    /** Length of the message in bytes. */
    public long length() {
        return kept != null ? kept.length() : payload.length();
    }

    /** Whether the bytes are in a spill file, rather than in the master's memory (its heap or a store: inline ones only). */
    public boolean spilled() {
        return payload != null && !(payload instanceof Payload.Inline);
    }

    /** The payload, read from the store if it keeps it and left there (for a checkpoint's copy). */
    public Payload readPayload() {
        return kept != null ? new Payload.Inline(kept.read()) : payload;
    }

    /** The payload for delivery, taken out of the store if it keeps it: call once. */
    public Payload takePayload() {
        return kept != null ? new Payload.Inline(kept.take()) : payload;
    }
}
