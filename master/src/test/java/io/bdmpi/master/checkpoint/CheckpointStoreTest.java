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
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckpointStoreTest {

    @TempDir
    Path dir;
    @TempDir
    Path spill;

    @Test
    void aCheckpointHoldsStatesAndBufferedMessagesAndReplacesThePreviousOne() throws IOException {
        CheckpointStore store = new CheckpointStore(dir, spill, CheckpointStore.Sharing.JOB);
        assertNull(store.latest());
        Files.writeString(spill.resolve("state-1"), "state of rank 1");
        Files.writeString(spill.resolve("message-file"), "a large message");
        StoredMessage small = new StoredMessage(0, 1, 7, 1, inline("small"));
        StoredMessage large = new StoredMessage(0, 0, 8, 0, new Payload.Spilled("message-file", 15));

        store.writePart(1, 0, 1, 2, Map.of(0, inline("state of rank 0"), 1, new Payload.Spilled("state-1", 15)), List.of());
        store.commit(1, 1);
        store.writePart(2, 0, 1, 2, Map.of(0, inline("s0"), 1, inline("s1")),
                List.of(new CheckpointStore.StoredMessageFor(0, small), new CheckpointStore.StoredMessageFor(1, large)));
        assertEquals(1, store.latest().sequence(), "a written part is no checkpoint before its commit");
        store.commit(2, 1);

        CheckpointStore.Checkpoint second = store.latest();
        assertEquals(2, second.sequence());
        assertEquals(List.of("checkpoint-2"), names(dir), "the first checkpoint is gone once the second is complete");
        assertFalse(Files.exists(spill.resolve("state-1")), "a state file moves into the checkpoint");
        assertTrue(Files.exists(spill.resolve("message-file")), "a message's file stays for its receiver");
        assertEquals(List.of(new CheckpointStore.Message(0, 0, 1, 7, 1, "part-0/message-0", 5),
                new CheckpointStore.Message(1, 0, 0, 8, 0, "part-0/message-1", 15)), second.parts().get(0).messages());

        CheckpointStore reopened = new CheckpointStore(dir, spill, CheckpointStore.Sharing.JOB);
        assertEquals(second, reopened.latest());
        reopened.exportToSpill("part-0/message-1", 15, "restored");
        assertEquals("a large message", Files.readString(spill.resolve("restored")));
        reopened.exportToSpill("part-0/rank-0.state", 2, "restore-0");
        assertEquals("s0", Files.readString(spill.resolve("restore-0")));
        IOException cut = assertThrows(IOException.class, () -> reopened.exportToSpill("part-0/rank-0.state", 3, "restore-x"));
        assertTrue(cut.getMessage().endsWith("is damaged: part-0/rank-0.state has 2 bytes where its manifest says 3"),
                cut.getMessage());
        Files.writeString(dir.resolve("checkpoint-2/part-0/manifest.json"), "{\"sequence\":2,");
        IOException damaged = assertThrows(IOException.class, () -> new CheckpointStore(dir, spill, CheckpointStore.Sharing.JOB));
        assertTrue(damaged.getMessage().startsWith("the checkpoint manifest " + dir.resolve("checkpoint-2/part-0/manifest.json")
                + " is damaged: "), damaged.getMessage());
    }

    @Test
    void aDirectoryThatCannotBeMadeIsNamedWithWhy() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "in the way");
        assertEquals("cannot make the checkpoint directory " + file + ": " + file + ": a file of that name is in the way",
                assertThrows(IOException.class, () -> new CheckpointStore(file, spill, CheckpointStore.Sharing.JOB)).getMessage());
        assertEquals("cannot make the checkpoint directory /proc/ck: /proc/ck: no such file or directory",
                assertThrows(IOException.class, () -> new CheckpointStore(Path.of("/proc/ck"), spill, CheckpointStore.Sharing.JOB))
                        .getMessage());
    }

    @Test
    void aCheckpointCutShortIsIgnoredAndRemoved() throws IOException {
        CheckpointStore store = new CheckpointStore(dir, spill, CheckpointStore.Sharing.JOB);
        store.writePart(1, 0, 1, 1, Map.of(0, inline("complete")), List.of());
        store.commit(1, 1);
        store.writePart(2, 0, 1, 1, Map.of(0, inline("half")), List.of());

        CheckpointStore reopened = new CheckpointStore(dir, spill, CheckpointStore.Sharing.JOB);
        assertEquals(1, reopened.latest().sequence(), "the committed checkpoint is the latest");
        reopened.removeIncomplete();
        assertEquals(List.of("checkpoint-1"), names(dir));
    }

    /** Three nodes share the directory: the checkpoint exists once node 0 commits every part, and holds them all. */
    @Test
    void theNodesOfASharedDirectoryCommitTogether() throws IOException {
        CheckpointStore[] nodes = new CheckpointStore[3];
        for (int n = 0; n < 3; n++) {
            nodes[n] = new CheckpointStore(dir, spill, CheckpointStore.Sharing.SHARED);
        }
        nodes[1].writePart(1, 1, 3, 3, Map.of(1, inline("one")), List.of());
        nodes[0].writePart(1, 0, 3, 3, Map.of(0, inline("zero")), List.of());
        IOException missing = assertThrows(IOException.class, () -> nodes[0].commit(1, 3));
        assertTrue(missing.getMessage().contains("node 2's part is not in " + dir), missing.getMessage());
        assertEquals(List.of(".incoming-1"), names(dir), "nothing is committed without every part");

        nodes[2].writePart(1, 2, 3, 3, Map.of(2, inline("two")), List.of(
                new CheckpointStore.StoredMessageFor(2, new StoredMessage(0, 0, 5, 0, inline("for two")))));
        nodes[0].commit(1, 3);
        nodes[1].committed(1);
        nodes[2].committed(1);

        CheckpointStore reader = new CheckpointStore(dir, spill, CheckpointStore.Sharing.SHARED);
        CheckpointStore.Checkpoint c = reader.latest();
        assertEquals(List.of(0, 1, 2), c.parts().stream().map(CheckpointStore.Part::node).toList());
        assertEquals(3, c.worldSize());
        assertEquals(1, nodes[2].latest().sequence());
        reader.exportToSpill(c.parts().get(2).messages().get(0).file(), c.parts().get(2).messages().get(0).length(), "m");
        assertEquals("for two", Files.readString(spill.resolve("m")));
    }

    /**
     * Two nodes with directories of their own: each holds its part and its buddy's copy of the
     * other's, file by file as they come over MPI; a master lost before it heard of the commit is
     * brought up to it from its complete {@code .incoming-N}.
     */
    @Test
    void aNodeLocalDirectoryHoldsItsPartAndItsBuddysCopy(@TempDir Path other) throws IOException {
        CheckpointStore zero = new CheckpointStore(dir, spill, CheckpointStore.Sharing.NODE_LOCAL);
        CheckpointStore one = new CheckpointStore(other, spill, CheckpointStore.Sharing.NODE_LOCAL);
        assertTrue(zero.nodeLocal());
        List<String> files = one.writePart(1, 1, 2, 2, Map.of(1, inline("one")), List.of(
                new CheckpointStore.StoredMessageFor(1, new StoredMessage(0, 0, 5, 0, inline("for one")))));
        assertEquals(List.of("rank-1.state", "message-0", "manifest.json"), files, "the manifest goes last");
        zero.writePart(1, 0, 2, 2, Map.of(0, inline("zero")), List.of());
        for (String f : files) {
            Files.copy(one.partDir(1, 1).resolve(f), spill.resolve("net-" + f));
            boolean complete = zero.writeBuddyFile(1, 1, f, new Payload.Spilled("net-" + f, Files.size(spill.resolve("net-" + f))));
            assertEquals(f.equals("manifest.json"), complete, f);
        }
        IOException bad = assertThrows(IOException.class, () -> zero.writeBuddyFile(1, 1, "../escape", inline("x")));
        assertTrue(bad.getMessage().contains("not a part's file"), bad.getMessage());

        zero.commit(1, 2);
        assertEquals(List.of(0, 1), zero.latest().parts().stream().map(CheckpointStore.Part::node).toList());
        zero.exportToSpill("part-1/rank-1.state", 3, "restore-1");
        assertEquals("one", Files.readString(spill.resolve("restore-1")));
        assertNull(CheckpointStore.latestIn(other, CheckpointStore.Sharing.NODE_LOCAL), "node 1 never heard of the commit");
        // What each directory tells bdmpiexec: node 0 its committed part and copy, node 1 its part waiting for the commit.
        assertEquals(List.of("1 true 0 [0]", "1 true 1 [1]"), held(dir));
        assertEquals(List.of("1 false 1 [1]"), held(other));
        assertEquals(List.of(), CheckpointStore.heldIn(other.resolve("none")), "a directory not there holds nothing");
        assertEquals(1, CheckpointStore.commitIn(other, 1).sequence());
        assertEquals(List.of("1 true 1 [1]"), held(other));
        assertEquals(List.of("checkpoint-1"), names(other));
        assertThrows(IOException.class, () -> CheckpointStore.commitIn(other, 2));
    }

    /** What {@code d} holds, one {@code "SEQUENCE COMMITTED NODE [RANKS]"} a part. */
    private static List<String> held(Path d) throws IOException {
        return CheckpointStore.heldIn(d).stream()
                .map(h -> h.part().sequence() + " " + h.committed() + " " + h.part().node() + " " + h.part().ranks()).toList();
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
