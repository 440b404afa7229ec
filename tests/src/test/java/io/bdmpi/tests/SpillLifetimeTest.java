package io.bdmpi.tests;

import io.bdmpi.tests.programs.SpillLifetime;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spill files never outlive their message (the program checks the spill directory between
 * phases) nor the job (messages never received are removed with it: the harness checks -wd).
 */
class SpillLifetimeTest {

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"2,2", "3,1"})
    void spillFilesGoWithTheirMessages(int ranks, int running) {
        JobResult r = JobRunner.job(SpillLifetime.class).ranks(ranks).running(running).inlineMax(4096).args(4096, 10).run();
        Stats s = Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "SpillLifetime", ranks);
        long expected = 3L * ranks * 10 + 1 + 3;
        Expect.that(r, s.node0().spillFiles() >= expected, "spillFiles " + s.node0().spillFiles() + " < " + expected);
    }
}
