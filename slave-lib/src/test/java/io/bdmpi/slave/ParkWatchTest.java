package io.bdmpi.slave;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;


import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The park watcher's thread runs only for waits that have something to release: a wait with no
 * arrays and a heap within its allowance must not wake (here: start) it, as with many ranks every
 * wait outlasts the park delay and each wake-up costs as much as a good part of the switch.
 */
class ParkWatchTest {

    private static final String WATCHER = "bdmpi-park-release";

    @Test
    void aWaitWithNothingToReleaseLeavesTheWatcherAsleep() throws InterruptedException {
        try (ParkWatch watch = new ParkWatch(0, Long.MAX_VALUE)) {
            Set<Thread> before = watchers();
            longWait(watch);
            Set<Thread> after = watchers();
            after.removeAll(before);
            assertEquals(Set.of(), after, "a watcher thread ran for a wait with nothing to release");
        }
    }

    @Test
    void aWaitWithAHeapOverItsAllowanceStartsTheWatcher() throws InterruptedException {
        assertStartsWatcher(1); // the heap is over a one-byte allowance, and has grown since no collection
    }

    @Test
    void aWaitStartsTheWatcherWhenEveryParkCollects() throws InterruptedException {
        assertStartsWatcher(0); // --shrink-heap-on-park
    }

    private static void assertStartsWatcher(long shrinkAbove) throws InterruptedException {
        Set<Thread> before = watchers();
        try (ParkWatch watch = new ParkWatch(0, shrinkAbove)) {
            longWait(watch);
            Set<Thread> after = watchers();
            after.removeAll(before);
            assertEquals(1, after.size(), "no watcher thread for a wait whose park collects");
        }
    }

    /** A wait that outlasts the park delay, as a parked rank's does. */
    private static void longWait(ParkWatch watch) throws InterruptedException {
        watch.waiting();
        Thread.sleep(ParkWatch.PARK_DELAY_MS * 4);
        watch.resumed();
    }

    /** The watcher threads alive now. */
    private static Set<Thread> watchers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && WATCHER.equals(t.getName()))
                .collect(Collectors.toCollection(HashSet::new));
    }
}
