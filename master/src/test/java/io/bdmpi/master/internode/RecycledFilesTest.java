package io.bdmpi.master.internode;

import io.bdmpi.spill.SpillDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecycledFilesTest {

    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void aFileHandedBackHoldsTheNextMessageInPlaceAndNeverShrinks() throws Exception {
        RecycledFiles pool = new RecycledFiles(dir, 16 * MIB);
        RecycledFiles.Taken first = take(pool, 10, (byte) 1);
        assertTrue(SpillDirectory.isRecycled(first.name()));
        RecycledFiles.Taken busy = take(pool, 10, (byte) 2);
        assertNotEquals(first.name(), busy.name(), "a file a message holds is never handed out");
        pool.giveBack(first.name());
        RecycledFiles.Taken again = take(pool, 4, (byte) 3);
        assertEquals(first.name(), again.name());
        assertEquals(10, Files.size(dir.resolve(first.name())), "never truncated");
        assertArrayEquals(new byte[] {3, 3, 3, 3, 1, 1, 1, 1, 1, 1}, Files.readAllBytes(dir.resolve(first.name())));
        assertArrayEquals(new byte[] {2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, Files.readAllBytes(dir.resolve(busy.name())),
                "the other message is untouched");
    }

    @Test
    void takesTheShortestFileThatFitsElseTheLongest() throws Exception {
        RecycledFiles pool = new RecycledFiles(dir, 16 * MIB);
        String small = take(pool, 100, (byte) 1).name();
        String large = take(pool, 1000, (byte) 1).name();
        String middle = take(pool, 500, (byte) 1).name();
        pool.giveBack(small);
        pool.giveBack(large);
        pool.giveBack(middle);
        assertEquals(middle, take(pool, 400, (byte) 2).name());
        assertEquals(large, take(pool, 2000, (byte) 2).name(), "none fits: the longest grows");
        assertEquals(2000, Files.size(dir.resolve(large)));
        assertEquals(small, take(pool, 50, (byte) 2).name());
        assertEquals(3, files(), "no new file while an idle one was there");
    }

    @Test
    void keepsAtMostItsBoundOfIdleFilesAndIgnoresNamesItDidNotHandOut() throws Exception {
        RecycledFiles pool = new RecycledFiles(dir, 1500);
        String a = take(pool, 1000, (byte) 1).name();
        String b = take(pool, 1000, (byte) 1).name();
        assertEquals(List.of(), pool.giveBack(a), "within the bound: kept");
        assertEquals(List.of(a), pool.giveBack(b), "beyond the bound as it is handed back: the oldest idle file leaves");
        assertEquals(List.of(), pool.giveBack(a), "a name handed back again changes nothing");
        assertEquals(List.of(), pool.giveBack("pool-999"), "a name never handed out changes nothing");
        Files.delete(dir.resolve(a)); // what the master's file deleter does with what leaves the pool
        String c = take(pool, 1000, (byte) 1).name();
        assertEquals(b, c, "the newer idle file is reused");
        assertEquals(1, files(), "no new file while an idle one was there");
        pool.giveBack(c);
        assertNotEquals(a, take(pool, 2000, (byte) 1).name(), "a file that left the pool is never handed out again");
    }

    @Test
    void aBoundOfZeroRecyclesNothing() throws Exception {
        RecycledFiles pool = new RecycledFiles(dir, 0);
        String a = take(pool, 10, (byte) 1).name();
        assertEquals(List.of(a), pool.giveBack(a), "every file handed back leaves the pool");
        String b = take(pool, 10, (byte) 1).name();
        assertNotEquals(a, b);
    }

    @Test
    void aReusedFileComesMappedAndKeepsItsMappingFromOneMessageToTheNext() throws Exception {
        RecycledFiles pool = new RecycledFiles(dir, 16 * MIB);
        RecycledFiles.Taken first = take(pool, 1000, (byte) 1);
        assertNull(first.mapped(), "a new file has no pages to receive into yet: it is written");
        pool.giveBack(first.name());
        RecycledFiles.Taken second = take(pool, 600, (byte) 2);
        assertEquals(first.name(), second.name());
        assertEquals(1000, second.mapped().capacity(), "the part earlier messages wrote is mapped");
        assertNull(second.channel(), "a message the mapping holds needs no channel");
        pool.giveBack(second.name());
        RecycledFiles.Taken third = take(pool, 800, (byte) 3);
        assertSame(second.mapped(), third.mapped(), "the mapping stays from one message to the next");
        byte[] expected = new byte[1000];
        java.util.Arrays.fill(expected, 0, 800, (byte) 3);
        java.util.Arrays.fill(expected, 800, 1000, (byte) 1);
        assertArrayEquals(expected, Files.readAllBytes(dir.resolve(first.name())), "bytes put into the mapping are the file's");
        assertTrue(mapped(first.name()));
    }

    @Test
    void aFileThatGrowsIsWrittenBeyondItsMappingAndMappedWholeForTheNextMessage() throws Exception {
        RecycledFiles pool = new RecycledFiles(dir, 16 * MIB);
        String name = take(pool, 100, (byte) 1).name();
        pool.giveBack(name);
        RecycledFiles.Taken grown = take(pool, 300, (byte) 2);
        assertEquals(100, grown.mapped().capacity(), "only what was written before is mapped");
        assertNotNull(grown.channel(), "the rest is written");
        byte[] expected = new byte[300];
        java.util.Arrays.fill(expected, (byte) 2);
        assertArrayEquals(expected, Files.readAllBytes(dir.resolve(name)));
        pool.giveBack(name);
        RecycledFiles.Taken next = take(pool, 300, (byte) 3);
        assertEquals(300, next.mapped().capacity(), "mapped whole once its message is done");
        assertNull(next.channel());
    }

    @Test
    void aFileLeavesTheMastersAddressSpaceWhenItLeavesThePoolOrThePoolCloses() throws Exception {
        RecycledFiles pool = new RecycledFiles(dir, 2500);
        String a = take(pool, 1000, (byte) 1).name();
        String b = take(pool, 1000, (byte) 1).name();
        pool.giveBack(a);
        pool.giveBack(b);
        assertEquals(a, take(pool, 1000, (byte) 2).name());
        assertEquals(b, take(pool, 1000, (byte) 2).name());
        assertTrue(mapped(a) && mapped(b), "reused: mapped");
        String c = take(pool, 1000, (byte) 2).name();
        assertEquals(List.of(), pool.giveBack(a));
        assertEquals(List.of(), pool.giveBack(c));
        assertEquals(List.of(a), pool.giveBack(b), "beyond the bound: the oldest idle file leaves the pool");
        assertFalse(mapped(a), "a file that left the pool is unmapped");
        assertTrue(mapped(b), "an idle file of the pool stays mapped");
        pool.close();
        assertFalse(mapped(b), "closed: no mapping left");
    }

    private static RecycledFiles.Taken take(RecycledFiles pool, int length, byte fill) throws Exception {
        RecycledFiles.Taken t = pool.take(length);
        int inMapping = t.mapped() == null ? 0 : Math.min(length, t.mapped().capacity());
        for (int i = 0; i < inMapping; i++) {
            t.mapped().put(i, fill);
        }
        if (inMapping < length) {
            byte[] bytes = new byte[length - inMapping];
            java.util.Arrays.fill(bytes, fill);
            t.channel().write(ByteBuffer.wrap(bytes), inMapping);
            t.channel().close();
        } else {
            assertNull(t.channel(), "no channel for a message its mapping holds");
        }
        return t;
    }

    /** Whether this process maps {@code name} of the pool's directory now. */
    private boolean mapped(String name) throws Exception {
        String path = dir.resolve(name).toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().anyMatch(l -> l.endsWith(" " + path));
    }

    private long files() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }
}
