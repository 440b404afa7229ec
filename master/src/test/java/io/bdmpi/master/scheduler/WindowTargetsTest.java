package io.bdmpi.master.scheduler;

import io.bdmpi.master.internode.MasterMessage;
import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.RmaRequest;
import io.bdmpi.protocol.WindowControl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Another node's one-sided operations applied to real window files, as the target's master does. */
class WindowTargetsTest {

    @TempDir
    Path spill;

    private Path segment;
    private Path control;
    private MappedByteBuffer memory;
    private MappedByteBuffer slots;

    private void windowOf(int bytes) throws IOException {
        segment = spill.resolve("r1").resolve("win-1");
        Files.createDirectories(segment.getParent());
        control = spill.resolve("win-1.control");
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            memory = ch.map(FileChannel.MapMode.READ_WRITE, 0, 4096 + bytes); // the segment starts at 4096
        }
        try (FileChannel ch = FileChannel.open(control, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            slots = ch.map(FileChannel.MapMode.READ_WRITE, 0, 2L * WindowControl.SLOT_BYTES);
        }
        memory.order(ByteOrder.nativeOrder());
    }

    private RmaRequest op(RmaRequest.Kind kind, byte op, ElementType element, int[] ranges, ByteBuffer data) {
        return new RmaRequest(kind, 0, segment.toString(), 4096, 64, control.toString(), 1, true, op, element, ranges, data);
    }

    private static ByteBuffer longs(long... values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.nativeOrder());
        for (long v : values) {
            b.putLong(v);
        }
        return b.flip();
    }

    @Test
    void putsGetsAccumulatesAndSwapsOverByteRanges() throws IOException {
        windowOf(64);
        WindowTargets targets = new WindowTargets(spill);
        int[] twoLongs = {8, 8, 32, 8}; // a strided target type: longs 1 and 4
        assertEquals("", targets.apply(7, op(RmaRequest.Kind.PUT, (byte) 0, ElementType.NONE, twoLongs, longs(5, 6)))
                .error());
        assertEquals(5, memory.getLong(4096 + 8));
        assertEquals(6, memory.getLong(4096 + 32));
        assertTrue(WindowControl.takeUpdated(slots, 1), "the owner of a window over its own buffer must copy it in");

        MasterMessage.RmaDone before = targets.apply(7, op(RmaRequest.Kind.GET_ACCUMULATE, ReduceOp.SUM.code,
                ElementType.LONG, twoLongs, longs(10, 20)));
        assertEquals(longs(5, 6), before.data().order(ByteOrder.nativeOrder()));
        assertEquals(15, memory.getLong(4096 + 8));
        assertEquals(26, memory.getLong(4096 + 32));

        MasterMessage.RmaDone failed = targets.apply(7, op(RmaRequest.Kind.COMPARE_AND_SWAP, (byte) 0, ElementType.LONG,
                new int[] {8, 8}, longs(99, 14)));
        assertEquals(longs(15), failed.data().order(ByteOrder.nativeOrder()));
        assertEquals(15, memory.getLong(4096 + 8), "a compare that differs swaps nothing");
        targets.apply(7, op(RmaRequest.Kind.COMPARE_AND_SWAP, (byte) 0, ElementType.LONG, new int[] {8, 8}, longs(99, 15)));
        assertEquals(99, memory.getLong(4096 + 8));

        MasterMessage.RmaDone got = targets.apply(7, op(RmaRequest.Kind.GET, (byte) 0, ElementType.NONE, twoLongs,
                ByteBuffer.allocate(0)));
        assertEquals(longs(99, 26), got.data().order(ByteOrder.nativeOrder()));
        assertEquals(0, WindowControl.takeUpdated(slots, 0) ? 1 : 0, "another member's flag is untouched");
    }

    @Test
    void anAccumulateWaitsWhileASlaveHoldsTheLockWord() throws IOException {
        windowOf(64);
        WindowTargets targets = new WindowTargets(spill);
        RmaRequest add = op(RmaRequest.Kind.ACCUMULATE, ReduceOp.SUM.code, ElementType.LONG, new int[] {0, 8}, longs(3));
        assertTrue(WindowControl.tryLock(slots, 1, 2), "a slave (window rank 1) takes the lock word");
        assertNull(targets.apply(7, add), "the master must not apply it under a slave's lock");
        assertEquals(0, memory.getLong(4096));
        WindowControl.unlock(slots, 1);
        assertNotNull(targets.apply(7, add));
        assertEquals(3, memory.getLong(4096));
        assertTrue(WindowControl.tryLock(slots, 1, 2), "the master freed the lock word");
    }

    @Test
    void filesOutsideTheSpillDirectoryAndBadLengthsAreRefused(@TempDir Path elsewhere) throws IOException {
        windowOf(64);
        WindowTargets targets = new WindowTargets(elsewhere);
        assertFalse(targets.apply(7, op(RmaRequest.Kind.PUT, (byte) 0, ElementType.NONE, new int[] {0, 8}, longs(1)))
                .error().isEmpty());
        assertEquals(0, memory.getLong(4096));
        WindowTargets here = new WindowTargets(spill);
        assertFalse(here.apply(7, op(RmaRequest.Kind.PUT, (byte) 0, ElementType.NONE, new int[] {0, 16}, longs(1)))
                .error().isEmpty(), "8 bytes of data for 16 bytes of ranges");
        assertFalse(new WindowTargets(null).apply(7, op(RmaRequest.Kind.GET, (byte) 0, ElementType.NONE,
                new int[] {0, 8}, ByteBuffer.allocate(0))).error().isEmpty());
    }
}
