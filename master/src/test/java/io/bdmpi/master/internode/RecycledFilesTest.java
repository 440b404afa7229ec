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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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

    private static RecycledFiles.Taken take(RecycledFiles pool, int length, byte fill) throws Exception {
        RecycledFiles.Taken t = pool.take(length);
        byte[] bytes = new byte[length];
        java.util.Arrays.fill(bytes, fill);
        t.channel().write(ByteBuffer.wrap(bytes), 0);
        t.channel().close();
        return t;
    }

    private long files() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }
}
