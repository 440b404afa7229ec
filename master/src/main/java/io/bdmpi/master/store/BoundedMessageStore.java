package io.bdmpi.master.store;

import io.bdmpi.protocol.Payload;
import io.bdmpi.spill.SpillDirectory;
import io.bdmpi.spill.SpillException;

import java.nio.ByteBuffer;

/**
 * Bounds what buffered inline messages hold of the master's memory: a message over
 * {@link #SPILL_MIN_BYTES} waits in memory while the bytes of those that do stay within
 * {@code maxBytes}, and beyond that in a spill file of the job's spill directory, as a large
 * message does (its receiver maps the file and deletes it). Without the bound every message a
 * sender sends ahead of its parked receiver, up to -im bytes each, stays on the master's heap: 1024
 * of 100 kB are 102 MB, most of the 126 MiB heap of a master sized for a --memory-limit of 320 MiB.
 * Smaller messages go to the store this one wraps: a file for each would take more memory (a page
 * of cache and an inode) than its bytes; {@code --offheap-messages} keeps them off the heap.
 *
 * <p>Owned by the scheduler thread, as every store: {@link #keep} and the kept bytes' {@code take}
 * run there.
 */
public final class BoundedMessageStore implements MessageStore {

    /** Messages up to this many bytes always go to the wrapped store (the off-heap store's largest too). */
    public static final int SPILL_MIN_BYTES = ChronicleMessageStore.MAX_VALUE_BYTES;

    private final MessageStore smaller;
    private final long maxBytes;
    private final SpillDirectory spill;
    private long heldBytes;
    private long spilledMessages;

    /**
     * @param smaller  where messages of at most {@link #SPILL_MIN_BYTES} go
     * @param maxBytes the most bytes of larger messages held in memory at once
     * @param spill    where the others wait, under a prefix of the master's own
     */
    public BoundedMessageStore(MessageStore smaller, long maxBytes, SpillDirectory spill) {
        this.smaller = smaller;
        this.maxBytes = maxBytes;
        this.spill = spill;
    }

    @Override
    public StoredMessage keep(StoredMessage message) {
        if (!(message.payload() instanceof Payload.Inline inline) || inline.length() <= SPILL_MIN_BYTES) {
            return smaller.keep(message);
        }
        long length = inline.length();
        if (heldBytes + length > maxBytes) {
            try {
                String name = spill.write(inline.bytes());
                spilledMessages++;
                return message.withPayload(new Payload.Spilled(name, length));
            } catch (SpillException diskFull) {
                // The disk cannot take it: memory must, as it did before the bound.
            }
        }
        heldBytes += length;
        return message.movedTo(new Held(inline.bytes()));
    }

    /** Bytes of messages over {@link #SPILL_MIN_BYTES} held in memory now. */
    public long heldBytes() {
        return heldBytes;
    }

    /** Messages that went to spill files so far. */
    public long spilledMessages() {
        return spilledMessages;
    }

    @Override
    public void close() {
        smaller.close();
    }

    /** A message's bytes on the heap, counted until its receiver takes them. */
    private final class Held implements StoredMessage.Kept {
        private final long length;
        private ByteBuffer bytes;

        Held(ByteBuffer bytes) {
            this.length = bytes.remaining();
            this.bytes = bytes;
        }

        @Override
        public long length() {
            return length;
        }

        @Override
        public ByteBuffer take() {
            if (bytes == null) {
                throw new IllegalStateException("a held message was taken twice");
            }
            ByteBuffer taken = bytes;
            bytes = null;
            heldBytes -= length;
            return taken;
        }

        @Override
        public ByteBuffer read() {
            return bytes.duplicate();
        }
    }
}
