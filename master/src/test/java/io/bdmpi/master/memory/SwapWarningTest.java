package io.bdmpi.master.memory;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the slaves' heaps may outgrow memory with no swap to take them. */
class SwapWarningTest {

    private static final long GIB = 1L << 30;

    @Test
    void heapLimitIsTheLastOptionOrAQuarterOfMemory() {
        assertEquals(2 * GIB, SwapWarning.maxHeapBytes(List.of(), 8 * GIB));
        assertEquals(512L << 20, SwapWarning.maxHeapBytes(List.of("-Xmx1g", "-Xmx512m"), 8 * GIB));
        assertEquals(3 * GIB, SwapWarning.maxHeapBytes(List.of("-Xmx1g", "-XX:MaxHeapSize=3G"), 8 * GIB));
        assertEquals(4096, SwapWarning.maxHeapBytes(List.of("-Xmx4096"), 8 * GIB));
        assertEquals(2 * GIB, SwapWarning.maxHeapBytes(List.of("-Xms1g"), 8 * GIB), "-Xms is not the limit");
    }

    @Test
    void warnsOnlyWithoutSwapAndWhenTheHeapsExceedWhatIsAvailable() {
        String w = SwapWarning.warning(8, GIB, 0, 4 * GIB).orElseThrow();
        assertTrue(w.startsWith("bdmpiexec: warning: there is no swap, and 8 slaves may each grow their heap to 1024 MiB"
                + " (8192 MiB in all), more than the 4096 MiB of memory available"), w);
        assertFalse(SwapWarning.warning(4, GIB, 0, 4 * GIB).isPresent(), "exactly fits");
        assertFalse(SwapWarning.warning(8, GIB, 1, 4 * GIB).isPresent(), "swap takes the rest");
    }

    @Test
    void theJobsLimitCountsAsTheMemoryAvailable() {
        // 2 x 200 MiB > 256 MiB: warned unless this machine has swap.
        assertEquals(!hasSwap(), SwapWarning.check(2, List.of("-Xmx200m"), 256L << 20).isPresent());
    }

    private static boolean hasSwap() {
        try {
            return java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/swaps")).size() > 1;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
