package io.bdmpi.tests;

import io.bdmpi.tests.programs.Crowd;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * Hundreds of slaves on one node: 512 ranks, 2 running, with the default memory settings, run
 * barriers, small allReduces and an allToAllv, each checking its results, and leave nothing behind
 * (the harness checks). The 1024-slave run is {@code io.bdmpi.bench.CrowdBenchmarkTest}.
 */
class ManySlavesTest {

    static final int SLAVES = 512;

    @Test
    void fiveHundredTwelveSlavesRunCollectivesAndCheckThem() {
        JobResult r = JobRunner.job(Crowd.class).ranks(SLAVES).running(2).timeout(Duration.ofMinutes(10)).run();
        Expect.successfulRun(r, SLAVES, 2);
        Expect.that(r, r.stdoutMatching("Crowd rank [0-9]+ OK").size() == SLAVES, "every rank checked its results");
        Expect.that(r, r.stderr().isEmpty(), "stderr should be empty");
    }
}
