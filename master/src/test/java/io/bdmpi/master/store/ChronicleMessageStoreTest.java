package io.bdmpi.master.store;

import io.bdmpi.protocol.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Inline messages move into the Chronicle Map and come back byte for byte, once (read for a checkpoint any number of times). */
class ChronicleMessageStoreTest {

    @TempDir
    Path dir;

    @Test
    void smallInlineMessagesGoOffHeapAndComeBackOnce() throws Exception {
        try (ChronicleMessageStore store = ChronicleMessageStore.create(dir.resolve("messages"))) {
            StoredMessage[] kept = new StoredMessage[1000];
            for (int i = 0; i < kept.length; i++) {
                byte[] bytes = new byte[i % 300];
                java.util.Arrays.fill(bytes, (byte) i);
                kept[i] = store.keep(new StoredMessage(0, 1, i, 1, new Payload.Inline(ByteBuffer.wrap(bytes))));
                assertNull(kept[i].payload(), "moved off the heap");
                assertEquals(bytes.length, kept[i].length());
            }
            assertEquals(1000, store.size());
            ByteBuffer read = ((Payload.Inline) kept[299].readPayload()).bytes();
            assertEquals(299, read.remaining());
            assertEquals((byte) 299, read.get(298));
            assertEquals(1000, store.size(), "a checkpoint's read leaves the bytes in the store");
            for (int i = kept.length - 1; i >= 0; i--) {
                ByteBuffer back = ((Payload.Inline) kept[i].takePayload()).bytes();
                assertEquals(i % 300, back.remaining());
                while (back.hasRemaining()) {
                    assertEquals((byte) i, back.get());
                }
            }
            assertEquals(0, store.size());
            StoredMessage again = kept[5];
            assertThrows(IllegalStateException.class, again::takePayload);

            StoredMessage big = new StoredMessage(0, 1, 0, 1, new Payload.Inline(ByteBuffer.allocate(ChronicleMessageStore.MAX_VALUE_BYTES + 1)));
            assertSame(big, store.keep(big), "large inline messages stay on the heap");
            StoredMessage spilled = new StoredMessage(0, 1, 0, 1, new Payload.Spilled("r0-1", 1 << 20));
            assertSame(spilled, store.keep(spilled));
        }
    }
}
