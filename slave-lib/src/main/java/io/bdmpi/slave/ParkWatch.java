package io.bdmpi.slave;

import io.bdmpi.ooc.ArrayStore;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Releases a rank's memory while it is parked: its off-heap arrays (prefetched again when it
 * resumes) and, if asked, free Java heap (a full GC, which gives heap back to the OS when the JVM
 * runs with {@link SlaveEnvironment#HEAP_SHRINK_JVM_OPTIONS}).
 *
 * <p>A slave cannot tell whether the master will answer a blocking call at once or park it until
 * other ranks have run: the reply is the go-signal, and nothing else is said. So a wait for a reply
 * that lasts longer than {@link #PARK_DELAY_MS} counts as parked: a timer thread then releases the
 * arrays, while the slave's own thread stays blocked in its read. Short waits (a message already
 * there, a free running slot) cost no I/O; and as the master resumes another rank at once, a few
 * milliseconds late is early enough for the memory to go to it.
 *
 * <p>Used by the one thread that holds the {@link SlaveRuntime}'s lock.
 */
final class ParkWatch implements AutoCloseable {

    /** How long a wait for the master's reply must last before the rank counts as parked. */
    static final long PARK_DELAY_MS = 5;

    private final int rank;
    private final boolean shrinkHeap;
    private ArrayStore store;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bdmpi-park-release");
        t.setDaemon(true);
        return t;
    });
    private ScheduledFuture<?> pendingRelease;
    private boolean warned;

    /**
     * @param shrinkHeap run a full GC while parked, so the JVM can give free heap back
     */
    ParkWatch(int rank, boolean shrinkHeap) {
        this.rank = rank;
        this.shrinkHeap = shrinkHeap;
    }

    /** From now on, release and prefetch the arrays of this store too. */
    void watch(ArrayStore arrays) {
        store = arrays;
    }

    /** The slave is about to wait for the master's reply. */
    void waiting() {
        boolean arrays = store != null && !store.arrays().isEmpty();
        if (pendingRelease == null && (arrays || shrinkHeap)) {
            ArrayStore toRelease = arrays ? store : null;
            pendingRelease = timer.schedule(() -> {
                try {
                    if (toRelease != null) {
                        toRelease.release();
                    }
                } catch (IOException | RuntimeException e) {
                    warn("release", e);
                }
                if (shrinkHeap) {
                    System.gc();
                }
            }, PARK_DELAY_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** The reply (or part of it) arrived: if the arrays were released meanwhile, bring them back. */
    void resumed() {
        ScheduledFuture<?> release = pendingRelease;
        pendingRelease = null;
        if (release == null || release.cancel(false)) {
            return;
        }
        try {
            release.get();
            if (store != null) {
                store.prefetch();
            }
        } catch (IOException | RuntimeException | ExecutionException e) {
            warn("prefetch", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A failed release or prefetch costs speed, not data: say so once, then carry on. */
    private synchronized void warn(String what, Exception e) {
        if (!warned) {
            warned = true;
            System.err.println("bdmpi: rank " + rank + ": cannot " + what + " off-heap arrays (" + e
                    + "); they stay correct but may run slower");
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
