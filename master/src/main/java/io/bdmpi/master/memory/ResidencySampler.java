package io.bdmpi.master.memory;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.MappedResidency;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures, off the scheduler thread, which fraction of each slave's memory is resident, so the
 * resume policy reads a number instead of doing file I/O on the hot path. A slave's memory is its
 * anonymous memory (Java heap and the JVM's own; in RAM, or in swap: RssAnon and VmSwap of
 * /proc/PID/status) plus its off-heap arrays (memory-mapped files in its store, measured with
 * {@code mincore}: see {@link MappedResidency}). A slave whose arrays were evicted while it was
 * parked thus ranks below one whose arrays are still in memory.
 */
public final class ResidencySampler implements AutoCloseable {

    static final long PERIOD_MS = 200;
    /**
     * A sweep reads a file of /proc per slave: with a thousand slaves it takes a good part of a
     * second of CPU. The sampler then waits this many times as long as its sweep took before the
     * next one, so that it takes at most a tenth of a core from the running slaves.
     */
    static final int IDLE_PER_BUSY = 9;

    private final long[] pids;
    private final int[] worldRanks;
    private final Path spillDir;
    private final AtomicLongArray fractionBits;
    private final Thread thread;
    private volatile boolean stopped;

    /**
     * @param pids       the slaves of this node, in local order
     * @param worldRanks their world ranks, which name their array stores
     * @param spillDir   the job's spill directory, below which the slaves keep their array stores
     */
    public ResidencySampler(long[] pids, int[] worldRanks, Path spillDir) {
        this.pids = pids.clone();
        this.worldRanks = worldRanks.clone();
        this.spillDir = spillDir;
        this.fractionBits = new AtomicLongArray(pids.length);
        this.thread = new Thread(this::loop, "bdmpi-residency");
        thread.setDaemon(true);
    }

    public ResidencySampler start() {
        thread.start();
        return this;
    }

    /** Last measured resident fraction in [0, 1]; 0 before the first sample. */
    public double residentFraction(int index) {
        return Double.longBitsToDouble(fractionBits.get(index));
    }

    private void loop() {
        while (!stopped) {
            long start = System.nanoTime();
            for (int i = 0; i < pids.length && !stopped; i++) {
                fractionBits.set(i, Double.doubleToRawLongBits(sample(pids[i], ArrayStore.rankDirectory(spillDir, worldRanks[i]))));
            }
            long sweepMs = (System.nanoTime() - start) / 1_000_000;
            long wakeAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(PERIOD_MS, IDLE_PER_BUSY * sweepMs));
            while (!stopped && wakeAt - System.nanoTime() > 0) {
                LockSupport.parkNanos(wakeAt - System.nanoTime());
            }
        }
    }

    /** Resident fraction of a process's anonymous memory and of the arrays in {@code storeDir}; 0 if unknown. */
    static double sample(long pid, Path storeDir) {
        try {
            long[] anon = ProcMemory.status(pid, "RssAnon", "VmSwap");
            long anonResident = anon[0];
            long swapped = anon[1];
            MappedResidency arrays = MappedResidency.ofStore(storeDir);
            long total = anonResident + swapped + arrays.totalBytes();
            return total == 0 ? 0 : (double) (anonResident + arrays.residentBytes()) / total;
        } catch (IOException | RuntimeException | LinkageError e) {
            // The process has ended, /proc is unavailable, or libc cannot be bound: no preference.
            return 0;
        }
    }

    /**
     * Stops the sampler after its current sample. Its thread is woken, not interrupted: an
     * interrupt closes any channel the thread is reading or writing, and one that came while jffi
     * was writing out its native library on the first use of libc left an empty library file
     * behind, a stack trace on the job's output and, once, a master killed by SIGBUS.
     */
    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(thread);
    }
}
