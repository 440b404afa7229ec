package io.bdmpi.master.scheduler;

import io.bdmpi.master.memory.MemorySample;
import io.bdmpi.master.observe.JobStats;
import io.bdmpi.master.scheduler.RunningController.Phase;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.bdmpi.master.scheduler.RunningController.Phase.AT_REST;
import static io.bdmpi.master.scheduler.RunningController.Phase.FIRST_RUN;
import static io.bdmpi.master.scheduler.RunningController.Phase.GONE;
import static io.bdmpi.master.scheduler.RunningController.Phase.NEW;
import static io.bdmpi.master.scheduler.RunningController.Phase.RUNNING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The arithmetic of -nr auto, in MiB: budget 1000, reserve 100 (10%), master 100, slaves of 50 MiB heap at rest. */
class RunningControllerTest {

    private static final long MIB = 1 << 20;

    private long now;
    private final RunningController c = new RunningController(4, 0);

    /** Four slaves in these phases, each with 50 MiB of anonymous memory and {@code dataMiB[i]} of arrays. */
    private JobStats.NrunningChange sample(long budgetMiB, Phase[] phases, long... dataMiB) {
        long[] anon = new long[4];
        Arrays.fill(anon, 50 * MIB);
        return sample(budgetMiB, phases, anon, dataMiB);
    }

    private JobStats.NrunningChange sample(long budgetMiB, Phase[] phases, long[] anon, long... dataMiB) {
        long[] data = Arrays.stream(dataMiB).map(d -> d * MIB).toArray();
        return c.onSample(now, new MemorySample(budgetMiB * MIB, true, 100 * MIB, anon, data), i -> phases[i], true);
    }

    private static Phase[] phases(Phase... p) {
        return p;
    }

    @Test
    void startsAtOneAndDecidesNothingBeforeASlaveHasFinishedARun() {
        assertEquals(1, c.allowed());
        assertNull(sample(1000, phases(NEW, NEW, NEW, NEW), 0, 0, 0, 0));
        assertNull(sample(1000, phases(FIRST_RUN, NEW, NEW, NEW), 0, 0, 0, 0), "its first run is not over");
        assertEquals(1, c.allowed());
    }

    @Test
    void raisesToWhatFitsWithTwoReservesAssumingUnknownSlavesNeedAsMuch() {
        // at rest 100 + 4 x 50 = 300; slave 0 ran with 200 of arrays: k running need 300 + 200k.
        JobStats.NrunningChange change = sample(1000, phases(AT_REST, NEW, NEW, NEW), 200, 0, 0, 0);
        assertNotNull(change);
        assertEquals(2, c.allowed(), "700 fits 1000 - 2 x 100; 900 would not");
        assertEquals(1, change.from());
        assertEquals(2, change.to());
        assertEquals(1000 * MIB, change.budgetBytes());
        assertEquals(300 * MIB, change.restBytes());
        assertEquals(200 * MIB, change.perRunningSlaveBytes());
        assertEquals(700 * MIB, change.requiredBytes());
        assertEquals("raised from 1 to 2: 2 running need 700 MiB of the 1000 MiB --memory-limit less twice a 100 MiB reserve"
                + " (at rest: master and slaves 300 MiB; a running slave needs up to 200 MiB more)", change.reason());
    }

    @Test
    void raisesOnlyWhileASlaveWaitsForASlot() {
        long[] anon = {50 * MIB, 50 * MIB, 50 * MIB, 50 * MIB};
        long[] data = {0, 0, 0, 0};
        MemorySample s = new MemorySample(1000 * MIB, true, 100 * MIB, anon, data);
        assertNull(c.onSample(now, s, i -> i == 0 ? AT_REST : NEW, false));
        assertNotNull(c.onSample(now, s, i -> i == 0 ? AT_REST : NEW, true));
        assertEquals(4, c.allowed());
    }

    @Test
    void neverAboveTheSlavesNorBelowOne() {
        sample(100_000, phases(AT_REST, NEW, NEW, NEW), 1, 0, 0, 0);
        assertEquals(4, c.allowed(), "plenty of memory: every slave");
        now += RunningController.HOLD_NS;
        sample(100, phases(RUNNING, FIRST_RUN, FIRST_RUN, FIRST_RUN), 1, 1, 1, 1);
        assertEquals(1, c.allowed(), "nothing fits: still one");
    }

    @Test
    void lowersAtOnceWhenTheCountNoLongerFitsWithOneReserve() {
        sample(1000, phases(AT_REST, NEW, NEW, NEW), 150, 0, 0, 0);
        assertEquals(3, c.allowed(), "300 + 3 x 150 = 750 fits 800, 900 does not");
        now += 1; // well within the hold time: lowering does not wait
        JobStats.NrunningChange change = sample(1000, phases(RUNNING, RUNNING, RUNNING, NEW), 150, 250, 250, 0);
        // extras 150, 250, 250, unknown 250: need[2] = 800 <= 900, need[3] = 1050 > 900
        assertNotNull(change);
        assertEquals(2, c.allowed());
        assertTrue(change.reason().startsWith("lowered from 3 to 2: 3 running would need 1050 MiB, over the 1000 MiB "
                + "--memory-limit less a 100 MiB reserve"), change.reason());
    }

    @Test
    void holdsBetweenRaisesAndDoesNotOscillateInsideTheBand() {
        sample(1000, phases(AT_REST, NEW, NEW, NEW), 200, 0, 0, 0);
        assertEquals(2, c.allowed());
        // slave 1 needs less, the unknown are taken as the hungriest (200): need[2] = 700, need[3] = 900
        now += RunningController.HOLD_NS / 2;
        assertNull(sample(1000, phases(RUNNING, AT_REST, NEW, NEW), 200, 150, 0, 0), "900 fits one reserve only: neither up nor down");
        // The slaves that had not run are gone: need[3] = 100 + 2 x 50 + 200 + 150 = 550 fits twice, but too soon
        Phase[] twoLeft = phases(RUNNING, AT_REST, GONE, GONE);
        assertNull(sample(1000, twoLeft, 200, 150, 0, 0), "raises wait for the hold time");
        now += RunningController.HOLD_NS / 2;
        assertNotNull(sample(1000, twoLeft, 200, 150, 0, 0));
        assertEquals(4, c.allowed(), "two slaves left: any count fits");
        for (int i = 0; i < 10; i++) {
            now += RunningController.HOLD_NS;
            assertNull(sample(1000, twoLeft, 200 + i % 2, 150, 0, 0), "steady footprints, steady count");
        }
    }

    @Test
    void heapThatStaysWhileParkedCostsNothingMoreToRun() {
        sample(1000, phases(AT_REST, NEW, NEW, NEW), 0, 0, 0, 0);
        assertEquals(4, c.allowed());
    }

    @Test
    void aRunningSlaveNeedsItsPeakMinusWhatItHoldsAtRest() {
        // Slave 0's heap grows to 250 MiB while it runs, and is 50 again when parked: it needs 200 more to run.
        assertNull(sample(1000, phases(FIRST_RUN, NEW, NEW, NEW), new long[] {250 * MIB, 50 * MIB, 50 * MIB, 50 * MIB}, 0, 0, 0, 0));
        JobStats.NrunningChange change = sample(1000, phases(AT_REST, NEW, NEW, NEW), 0, 0, 0, 0);
        assertNotNull(change);
        assertEquals(200 * MIB, change.perRunningSlaveBytes());
        assertEquals(2, c.allowed());
    }
}
