package io.bdmpi.slave;

import io.bdmpi.ooc.ArrayStore;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Releases a rank's memory while it is parked: its off-heap arrays (prefetched again when it
 * resumes) and, if asked, free Java heap (a full GC, which gives heap back to the OS when the JVM
 * runs with {@link SlaveEnvironment#HEAP_SHRINK_JVM_OPTIONS}).
 *
 * <p>A slave cannot tell whether the master will answer a blocking call at once or park it until
 * other ranks have run: the reply is the go-signal, and nothing else is said. So a wait for a reply
 * that lasts longer than {@link #PARK_DELAY_MS} counts as parked: a watcher thread then releases the
 * arrays, while the slave's own thread stays blocked in its wait. Short waits (a message already
 * there, a free running slot) cost no I/O; and as the master resumes another rank at once, a few
 * milliseconds late is early enough for the memory to go to it.
 *
 * <p>Why a watcher that times the current wait rather than a timer task per wait: a rank in a loop
 * of barriers waits tens of thousands of times a second, and a task scheduled (and cancelled) per
 * wait woke the timer thread at most of them, which cost as much as the slave switch itself. The
 * watcher sleeps until the current wait's deadline, or without a deadline while the rank runs;
 * only a wait that finds it so idle wakes it. So a rank that switches fast wakes it about once per
 * {@link #PARK_DELAY_MS}, and a rank that parks for long once per park.
 *
 * <p>Used by the one thread that holds the {@link SlaveRuntime}'s lock.
 */
final class ParkWatch implements AutoCloseable {

    /** How long a wait for the master's reply must last before the rank counts as parked. */
    static final long PARK_DELAY_MS = 5;
    private static final long PARK_DELAY_NS = TimeUnit.MILLISECONDS.toNanos(PARK_DELAY_MS);

    /**
     * A parked slave collects again only once its heap has grown by this fraction since it last
     * did: a heap that a collection could not shrink is live data, and collecting it at every park
     * would cost a full GC each time for nothing.
     */
    static final double REGROWTH = 1.25;

    /** Where the watcher stands; changed under {@link #lock} only. */
    private enum Watcher {
        /** No thread yet: no wait has had anything to release. */
        UNSTARTED,
        /** Sleeps without a deadline: the rank runs, or its current wait is released already. */
        IDLE,
        /** Sleeps until the current wait's deadline, or releases its memory (holding the lock). */
        TIMING,
        CLOSED
    }

    private final int rank;
    private final boolean shrinkHeap;
    /** The committed heap beyond which a parked slave collects; see {@link SlaveEnvironment#SHRINK_HEAP_ON_PARK}. */
    private final long shrinkAbove;
    /**
     * The committed heap after the last collection on park; written by the watcher thread only,
     * read by the slave's thread too (whether its next wait has anything to release).
     */
    private volatile long heapAfterShrink;
    /** Set by the slave's thread only. */
    private ArrayStore store;
    /** Guards the fields below, shared by the slave's thread and the watcher. */
    private final Object lock = new Object();
    private Watcher watcher = Watcher.UNSTARTED;
    /** The slave's thread waits for the master's reply. */
    private boolean waiting;
    /** When the current wait began (System.nanoTime). */
    private long waitingSince;
    /** The arrays to release if the current wait lasts, or null. */
    private ArrayStore toRelease;
    /** The current wait's memory was released: the arrays come back when it ends. */
    private boolean released;
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

    /**
     * The slave is about to wait for the master's reply. A wait with nothing to release (no arrays,
     * and a heap the watcher would not collect) leaves the watcher asleep: with many ranks every
     * wait outlasts {@link #PARK_DELAY_MS}, and waking the watcher at its start and at its deadline
     * only to find nothing to do cost two thread wake-ups per blocking call, a good part of a
     * barrier's cost per member at S = 128. The slave's own thread does not allocate while it
     * waits, so the heap the watcher would look at is the one seen here.
     */
    void waiting() {
        boolean arrays = store != null && !store.arrays().isEmpty();
        if (!arrays && !wouldShrink()) {
            return;
        }
        synchronized (lock) {
            waiting = true;
            waitingSince = System.nanoTime();
            toRelease = arrays ? store : null;
            if (watcher == Watcher.UNSTARTED) {
                watcher = Watcher.IDLE;
                Thread t = new Thread(this::watch, "bdmpi-park-release");
                t.setDaemon(true);
                t.start();
            } else if (watcher == Watcher.IDLE) {
                lock.notifyAll();
            }
        }
    }

    /** The reply (or part of it) arrived: if the memory was released meanwhile, bring the arrays back. */
    void resumed() {
        ArrayStore prefetch;
        synchronized (lock) {
            if (!waiting) {
                return;
            }
            // A release in progress holds the lock: this waits for it, as the arrays must be whole again.
            waiting = false;
            prefetch = released ? toRelease : null;
            released = false;
            toRelease = null;
        }
        if (prefetch != null) {
            try {
                prefetch.prefetch();
            } catch (IOException | RuntimeException e) {
                warn("prefetch", e);
            }
        }
    }

    /** The watcher thread: releases the memory of each wait that outlasts {@link #PARK_DELAY_MS}. */
    private void watch() {
        synchronized (lock) {
            try {
                while (watcher != Watcher.CLOSED) {
                    long due = waitingSince + PARK_DELAY_NS - System.nanoTime();
                    if (!waiting || released) {
                        watcher = Watcher.IDLE;
                        lock.wait();
                    } else if (due > 0) {
                        watcher = Watcher.TIMING;
                        lock.wait(TimeUnit.NANOSECONDS.toMillis(due) + 1);
                    } else {
                        release(toRelease);
                        released = true;
                    }
                }
            } catch (InterruptedException e) {
                // Nobody interrupts this thread; should someone, it stops: a release only saves memory.
            }
        }
    }

    /** Under the lock: the slave's thread is blocked in its wait, and its resumed() must wait for this anyway. */
    private void release(ArrayStore arrays) {
        try {
            if (arrays != null) {
                arrays.release();
            }
        } catch (IOException | RuntimeException e) {
            warn("release", e);
        }
        if (shrinkHeap) {
            shrinkHeap();
        }
    }

    /**
     * A full GC: at every park when asked for without an allowance (--shrink-heap-on-park, which
     * also frees the native buffers that dead direct buffers hold), else when the heap is over its
     * allowance and has grown since the last one.
     */
    private void shrinkHeap() {
        if (wouldShrink()) {
            System.gc();
            heapAfterShrink = Runtime.getRuntime().totalMemory();
        }
    }

    /** Whether a park now would collect: see {@link #shrinkHeap}. */
    private boolean wouldShrink() {
        if (!shrinkHeap) {
            return false;
        }
        long committed = Runtime.getRuntime().totalMemory();
        return shrinkAbove == 0 || committed > shrinkAbove && committed > heapAfterShrink * REGROWTH;
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
        synchronized (lock) {
            watcher = Watcher.CLOSED;
            lock.notifyAll();
        }
    }
}
