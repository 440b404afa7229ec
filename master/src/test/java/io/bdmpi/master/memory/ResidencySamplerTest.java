package io.bdmpi.master.memory;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.IntArray;
import io.bdmpi.ooc.MappedResidency;
import io.bdmpi.ooc.Residency;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sampler sees a rank's arrays leave and re-enter memory from outside the rank (its own
 * mapping and mincore), and counts them with the process's anonymous memory.
 */
class ResidencySamplerTest {

    @TempDir
    Path spill;

    @Test
    void arraysEvictedWhileParkedLowerTheFraction() throws Exception {
        long pid = ProcessHandle.current().pid();
        try (ArrayStore store = ArrayStore.open(ArrayStore.rankDirectory(spill, 0))) {
            IntArray a = store.ints("a", 64L << 20, Residency.SEQUENTIAL); // 256 MiB
            for (long i = 0; i < a.length(); i += 1024) {
                a.set(i, 1);
            }
            a.release();
            MappedResidency evicted = MappedResidency.ofStore(store.directory());
            double parked = ResidencySampler.sample(pid, store.directory());
            a.prefetch();
            MappedResidency loaded = MappedResidency.ofStore(store.directory());
            double resumed = ResidencySampler.sample(pid, store.directory());

            assertEquals(256L << 20, loaded.totalBytes());
            assertTrue(evicted.residentBytes() < loaded.totalBytes() / 10, "released: " + evicted);
            assertTrue(loaded.residentBytes() > loaded.totalBytes() * 9 / 10, "prefetched: " + loaded);
            assertTrue(resumed > 0.9 && parked < resumed - 0.3, "fraction parked " + parked + ", resumed " + resumed);
        }
        assertTrue(ResidencySampler.sample(pid, spill.resolve("none")) > 0.9, "no arrays: the heap alone, in RAM");
        assertEquals(0, ResidencySampler.sample(Long.MAX_VALUE, spill), "no such process");
    }
}
