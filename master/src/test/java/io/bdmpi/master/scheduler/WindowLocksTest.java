package io.bdmpi.master.scheduler;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WindowLocksTest {

    private final WindowLocks locks = new WindowLocks();
    /** World ranks; c stands for a rank of another node, whose master passed its requests on. */
    private final int a = 0;
    private final int b = 1;
    private final int c = 7;
    private final List<Integer> woken = new ArrayList<>();

    @Test
    void sharedLocksGoTogetherAndExcludeAnExclusiveOne() {
        assertTrue(locks.request(a, 7, 0, false));
        assertTrue(locks.request(b, 7, 0, false));
        assertFalse(locks.request(c, 7, 0, true));
        assertFalse(locks.holdsWanted(c));
        assertTrue(locks.describeWait(c).contains("rank 0 of window 7, held by 2 shared holder(s)"));
        locks.release(a, 7, 0, woken::add);
        assertEquals(List.of(), woken);
        locks.release(b, 7, 0, woken::add);
        assertEquals(List.of(c), woken);
        assertTrue(locks.holdsWanted(c));
        assertNull(locks.describeWait(c));
    }

    @Test
    void waitersAreGrantedInArrivalOrderSoAnExclusiveOneIsNotStarved() {
        assertTrue(locks.request(a, 1, 3, true));
        assertFalse(locks.request(b, 1, 3, false));
        assertFalse(locks.request(c, 1, 3, true));
        assertTrue(locks.describeWait(b).contains("held by rank 0 (exclusive)"));
        locks.release(a, 1, 3, woken::add);
        assertEquals(List.of(b), woken);
        // A new shared request queues behind the waiting exclusive one.
        assertFalse(locks.request(a, 1, 3, false));
        locks.release(b, 1, 3, woken::add);
        assertEquals(List.of(b, c), woken);
        locks.release(c, 1, 3, woken::add);
        assertEquals(List.of(b, c, a), woken);
    }

    @Test
    void locksOfOtherTargetsAndWindowsAreIndependent() {
        assertTrue(locks.request(a, 1, 0, true));
        assertTrue(locks.request(b, 1, 1, true));
        assertTrue(locks.request(c, 2, 0, true));
    }

    @Test
    void aDeadHolderPassesItsLocksOn() {
        assertTrue(locks.request(a, 1, 0, true));
        assertFalse(locks.request(b, 1, 0, true));
        locks.forget(a, woken::add);
        assertEquals(List.of(b), woken);
        assertTrue(locks.holdsWanted(b));
    }

    @Test
    void misuseIsRefused() {
        assertTrue(locks.request(a, 1, 0, false));
        assertThrows(IllegalStateException.class, () -> locks.request(a, 1, 0, false));
        assertThrows(IllegalStateException.class, () -> locks.release(b, 1, 0, woken::add));
        assertThrows(IllegalStateException.class, () -> locks.release(a, 1, 1, woken::add));
    }
}
