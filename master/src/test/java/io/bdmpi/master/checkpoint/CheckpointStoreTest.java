package io.bdmpi.master.checkpoint;

import io.bdmpi.master.store.StoredMessage;
import io.bdmpi.protocol.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckpointStoreTest {

    @TempDir
    Path dir;
    @TempDir
    Path spill;

    @Test
    void aCheckpointHoldsStatesAndBufferedMessagesAndReplacesThePreviousOne() throws IOException {
        CheckpointStore store = new CheckpointStore(dir, spill);
        assertNull(store.latest());
        Files.writeString(spill.resolve("state-1"), "state of rank 1");
        Files.writeString(spill.resolve("message-file"), "a large message");
        StoredMessage small = new StoredMessage(0, 1, 7, 1, inline("small"));
        StoredMessage large = new StoredMessage(0, 0, 8, 0, new Payload.Spilled("message-file", 15));

        store.write(List.of(inline("state of rank 0"), new Payload.Spilled("state-1", 15)), List.of());
        CheckpointStore.Manifest second = store.write(List.of(inline("s0"), inline("s1")),
                List.of(new CheckpointStore.StoredMessageFor(0, small), new CheckpointStore.StoredMessageFor(1, large)));

        assertEquals(2, second.sequence());
        assertEquals(List.of("checkpoint-2"), names(dir), "the first checkpoint is gone once the second is complete");
        assertFalse(Files.exists(spill.resolve("state-1")), "a state file moves into the checkpoint");
        assertTrue(Files.exists(spill.resolve("message-file")), "a message's file stays for its receiver");
        assertEquals(List.of(new CheckpointStore.Message(0, 0, 1, 7, 1, "message-0", 5),
                new CheckpointStore.Message(1, 0, 0, 8, 0, "message-1", 15)), second.messages());

        CheckpointStore reopened = new CheckpointStore(dir, spill);
        assertEquals(second, reopened.latest());
        reopened.exportToSpill("message-1", "restored");
        assertEquals("a large message", Files.readString(spill.resolve("restored")));
        reopened.exportToSpill("rank-0.state", "restore-0");
        assertEquals("s0", Files.readString(spill.resolve("restore-0")));
    }

    @Test
    void aCheckpointCutShortIsIgnoredAndRemoved() throws IOException {
        CheckpointStore store = new CheckpointStore(dir, spill);
        store.write(List.of(inline("complete")), List.of());
        Path partial = Files.createDirectory(dir.resolve(".incoming-2"));
        Files.writeString(partial.resolve("rank-0.state"), "half");

        CheckpointStore reopened = new CheckpointStore(dir, spill);
        assertEquals(1, reopened.latest().sequence(), "the complete checkpoint is the latest");
        reopened.removeIncomplete();
        assertEquals(List.of("checkpoint-1"), names(dir));
        assertEquals(2, reopened.write(List.of(inline("next")), List.of()).sequence());
    }

    private static Payload inline(String text) {
        return new Payload.Inline(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
