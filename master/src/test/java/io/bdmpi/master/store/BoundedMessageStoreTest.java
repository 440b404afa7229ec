package io.bdmpi.master.store;

import io.bdmpi.protocol.Payload;
import io.bdmpi.spill.SpillDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Messages over 4 KiB wait in memory up to the bound, then in spill files with their exact bytes;
 * taking one frees its share of the bound; smaller ones go to the wrapped store, whatever the bound.
 */
class BoundedMessageStoreTest {

    private static final int SIZE = 10_000;

    @TempDir
    Path dir;

    private static StoredMessage message(int tag, int length) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) tag);
        return new StoredMessage(0, 1, tag, 1, new Payload.Inline(ByteBuffer.wrap(bytes)));
    }

    private static byte[] bytesOf(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void beyondTheBoundMessagesWaitInSpillFilesAndTakingOneMakesRoom() throws IOException {
        BoundedMessageStore store = new BoundedMessageStore(MessageStore.ON_HEAP, 2 * SIZE, new SpillDirectory(dir, "held-"));
        StoredMessage first = store.keep(message(1, SIZE));
        StoredMessage second = store.keep(message(2, SIZE));
        StoredMessage third = store.keep(message(3, SIZE));
        assertNull(first.payload(), "held in memory");
        assertNull(second.payload(), "held in memory");
        assertEquals(2 * SIZE, store.heldBytes());
        Payload.Spilled spilled = (Payload.Spilled) third.payload();
        assertTrue(third.spilled() && spilled.fileName().startsWith("held-"), spilled.fileName());
        byte[] expected = new byte[SIZE];
        Arrays.fill(expected, (byte) 3);
        assertArrayEquals(expected, Files.readAllBytes(dir.resolve(spilled.fileName())), "the file holds the message exactly");
        assertEquals(1, store.spilledMessages());

        assertArrayEquals(bytesOf(((Payload.Inline) message(2, SIZE).payload()).bytes()),
                bytesOf(((Payload.Inline) second.readPayload()).bytes()), "a checkpoint reads a held message");
        assertEquals(2 * SIZE, store.heldBytes(), "and leaves it held");
        assertEquals(SIZE, ((Payload.Inline) first.takePayload()).bytes().remaining());
        assertEquals(SIZE, store.heldBytes(), "a message taken leaves the bound");
        assertThrows(IllegalStateException.class, first::takePayload);
        assertNull(store.keep(message(4, SIZE)).payload(), "room again in memory");
    }

    @Test
    void smallMessagesGoToTheWrappedStoreWhateverTheBound() {
        StoredMessage[] wrapped = new StoredMessage[1];
        MessageStore smaller = m -> {
            wrapped[0] = m;
            return m;
        };
        BoundedMessageStore store = new BoundedMessageStore(smaller, 0, new SpillDirectory(dir, "held-"));
        StoredMessage small = message(1, BoundedMessageStore.SPILL_MIN_BYTES);
        assertSame(small, store.keep(small));
        assertSame(small, wrapped[0]);
        assertEquals(0, store.spilledMessages());
        assertTrue(store.keep(message(2, BoundedMessageStore.SPILL_MIN_BYTES + 1)).spilled());
    }
}
