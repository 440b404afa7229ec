package io.bdmpi.tests;

import io.bdmpi.tests.programs.Busy;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The nrunning invariant: at most R slaves of a node run at once, and R do when there is work
 * for them. Every rank of {@link Busy} computes for a fixed time twice, with a barrier after each.
 */
class SchedulingTest {

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"3,1", "5,2", "6,3", "4,4"})
    void busyRanksFillExactlyTheRunningSlots(int ranks, int running) {
        JobResult r = JobRunner.job(Busy.class).ranks(ranks).running(running).args(100).run();
        Stats s = Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "Busy", ranks);
        Expect.that(r, s.node0().maxRunning() == running,
                "every rank has work, so maxRunning should reach -nr = " + running + ": " + s.node0());
    }

    /**
     * S=8, R=2, 300 ms twice per rank: 4.8 s of computing that at most 2 may do at once, so the job
     * takes at least 2.4 s, however fast the machine; each rank runs at least its 0.6 s.
     */
    @Test
    void runningSlotsBoundTheWallTime() {
        int ranks = 8;
        int running = 2;
        long millis = 300;
        JobResult r = JobRunner.job(Busy.class).ranks(ranks).running(running).args(millis).run();
        Stats s = Expect.successfulRun(r, ranks, running);
        Expect.that(r, s.node0().maxRunning() == running, "maxRunning should be exactly 2: " + s.node0());
        double minWall = ranks * 2 * millis / 1000.0 / running;
        Expect.that(r, s.wallTimeSeconds() >= minWall * 0.95,
                "wallTimeSeconds " + s.wallTimeSeconds() + " < " + minWall + ": more than " + running + " ranks computed at once");
        for (Stats.Slave sl : s.slaves()) {
            Expect.that(r, sl.runSeconds() >= 2 * millis / 1000.0 * 0.95,
                    "rank " + sl.rank() + " computed for " + 2 * millis + " ms but runSeconds is " + sl.runSeconds());
            Expect.that(r, sl.resumes() >= 1, "rank " + sl.rank() + " was never resumed: " + sl);
        }
    }
}
