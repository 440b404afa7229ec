package io.bdmpi.master.memory;

import io.bdmpi.master.memory.SlaveMemory.HeapOnPark;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.bdmpi.master.memory.SlaveMemory.MASTER_RESERVE_BYTES;
import static io.bdmpi.master.memory.SlaveMemory.PARKED_SLAVE_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlaveMemoryTest {

    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    @Test
    void theUsersHeapLimitIsTheLastOne() {
        assertEquals(0, SlaveMemory.userHeapBytes(List.of()));
        assertEquals(512 * MIB, SlaveMemory.userHeapBytes(List.of("-Xmx1g", "-Xmx512m")));
        assertEquals(3 * GIB, SlaveMemory.userHeapBytes(List.of("-Xmx1g", "-XX:MaxHeapSize=3G")));
        assertEquals(4096, SlaveMemory.userHeapBytes(List.of("-Xmx4096")));
        assertEquals(0, SlaveMemory.userHeapBytes(List.of("-Xms1g")), "-Xms is not the limit");
    }

    @Test
    void aLimitIsSharedByTheRunningSlavesAndParkedOnesShrink() {
        // 8 slaves, 2 running, 512 MiB: 512 - 128 - 8 x 20 = 224 MiB of heaps, 112 MiB each running.
        SlaveMemory m = SlaveMemory.plan(8, 2, 0, 512 * MIB, false, HeapOnPark.AUTO, "the limit");
        long forHeaps = 512 * MIB - MASTER_RESERVE_BYTES - 8 * PARKED_SLAVE_BYTES;
        assertEquals(forHeaps / 2, m.heapBytes());
        assertTrue(m.shrinkOnPark(), "8 heaps of 112 MiB do not fit 224 MiB");
        assertEquals(SlaveMemory.PARKED_HEAP_MIN_BYTES, m.parkedHeapBytes(),
                "nothing is left for parked heaps: they keep no more than the heap-shrinking options' -Xms");
        assertEquals(List.of(), m.warnings());
    }

    @Test
    void aLargeNodeCapsTheHeapAtAQuarterAndKeepsHeapsThatFit() {
        SlaveMemory m = SlaveMemory.plan(2, 2, 0, 16 * GIB, false, HeapOnPark.AUTO, "the node");
        assertEquals(4 * GIB, m.heapBytes());
        assertFalse(m.shrinkOnPark(), "two heaps of 4 GiB fit 16 GiB");
        assertEquals(List.of(), m.warnings());
    }

    @Test
    void aFourRankRingHearsNothing() {
        SlaveMemory m = SlaveMemory.plan(4, 2, 0, 22 * GIB, false, HeapOnPark.AUTO, "the node");
        assertEquals(List.of(), m.warnings());
        assertTrue(m.parkedHeapBytes() > GIB, "a parked ring rank's small heap is never collected: " + m.parkedHeapBytes());
    }

    @Test
    void aThousandSlavesFitANodeOf22GiB() {
        SlaveMemory m = SlaveMemory.plan(1024, 2, 0, 22 * GIB, false, HeapOnPark.AUTO, "the node");
        assertEquals(List.of(), m.warnings());
        assertTrue(m.heapBytes() >= 512 * MIB, "running slaves still get a large heap: " + m.heapBytes());
        assertTrue(m.shrinkOnPark());
    }

    @Test
    void tooManySlavesForTheLimitSayHowMany() {
        SlaveMemory m = SlaveMemory.plan(64, 1, 0, 512 * MIB, false, HeapOnPark.AUTO, "the --memory-limit of 512 MiB");
        assertEquals(1, m.warnings().size());
        String w = m.warnings().get(0);
        assertTrue(w.contains("64 slaves do not fit the --memory-limit of 512 MiB") && w.contains("Run at most 17 slaves"), w);
    }

    @Test
    void aLimitThatHoldsNoSlaveSaysHowMuchOneNeeds() {
        SlaveMemory m = SlaveMemory.plan(4, 1, 0, 64 * MIB, false, HeapOnPark.AUTO, "the --memory-limit of 64 MiB");
        String w = m.warnings().get(0);
        assertTrue(w.endsWith("Give the job at least 180 MiB.") && !w.contains("Run at most"), w);
    }

    @Test
    void theUsersHeapIsKeptAndWarnedAboutOnlyWhenTheRunningOnesCannotHaveIt() {
        SlaveMemory fits = SlaveMemory.plan(4, 1, 200 * MIB, 512 * MIB, false, HeapOnPark.AUTO, "the limit");
        assertEquals(0, fits.heapBytes(), "the user's -Xmx stands");
        assertTrue(fits.shrinkOnPark(), "4 heaps of 200 MiB do not fit 304 MiB");
        assertEquals(List.of(), fits.warnings());
        SlaveMemory tooBig = SlaveMemory.plan(4, 2, 200 * MIB, 512 * MIB, false, HeapOnPark.AUTO, "the limit");
        assertEquals(1, tooBig.warnings().size());
        assertTrue(tooBig.warnings().get(0).contains("at most -Xmx152m"), tooBig.warnings().get(0));
    }

    @Test
    void keptParkedHeapsThatCannotStayAreWarnedAboutUnlessSwapTakesThem() {
        SlaveMemory kept = SlaveMemory.plan(8, 2, 0, 512 * MIB, false, HeapOnPark.KEEP, "the limit");
        assertFalse(kept.shrinkOnPark());
        assertEquals(1, kept.warnings().size());
        assertTrue(kept.warnings().get(0).contains("drop --no-shrink-heap-on-park"), kept.warnings().get(0));
        SlaveMemory swapped = SlaveMemory.plan(8, 2, 0, 512 * MIB, true, HeapOnPark.KEEP, "the node");
        assertEquals(List.of(), swapped.warnings());
        assertFalse(SlaveMemory.plan(8, 2, 0, 512 * MIB, true, HeapOnPark.AUTO, "the node").shrinkOnPark(),
                "swap takes parked heaps");
        SlaveMemory asked = SlaveMemory.plan(2, 1, 0, 16 * GIB, false, HeapOnPark.SHRINK, "the node");
        assertTrue(asked.shrinkOnPark());
        assertEquals(0, asked.parkedHeapBytes(), "asked for, a parked slave gives back whatever its heap");
    }
}
