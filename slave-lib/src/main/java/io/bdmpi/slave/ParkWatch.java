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

    /**
     * A parked slave collects again only once its heap has grown by this fraction since it last
     * did: a heap that a collection could not shrink is live data, and collecting it at every park
     * would cost a full GC each time for nothing.
     */
    static final double REGROWTH = 1.25;

    private final int rank;
    private final boolean shrinkHeap;
    /** The committed heap beyond which a parked slave collects; see {@link SlaveEnvironment#SHRINK_HEAP_ON_PARK}. */
    private final long shrinkAbove;
    /** The committed heap after the last collection on park; written by the timer thread only. */
    private long heapAfterShrink;
    private ArrayStore store;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bdmpi-park-release");
        t.setDaemon(true);
        return t;
    });
    private ScheduledFuture<?> pendingRelease;
    private boolean warned;

    /**
     * @param shrinkAbove run a full GC while parked with a committed heap larger than this, so the
     *                    JVM can give free heap back; -1: never
     */
    ParkWatch(int rank, long shrinkAbove) {
        this.rank = rank;
        this.shrinkHeap = shrinkAbove >= 0;
        this.shrinkAbove = shrinkAbove;
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
                    shrinkHeap();
                }
            }, PARK_DELAY_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * A full GC: at every park when asked for without an allowance (--shrink-heap-on-park, which
     * also frees the native buffers that dead direct buffers hold), else when the heap is over its
     * allowance and has grown since the last one.
     */
    private void shrinkHeap() {
        long committed = Runtime.getRuntime().totalMemory();
        if (shrinkAbove == 0 || committed > shrinkAbove && committed > heapAfterShrink * REGROWTH) {
            System.gc();
            heapAfterShrink = Runtime.getRuntime().totalMemory();
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
