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

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,2,2", "1,3,1", "2,2,1", "3,1,1"})
    void spillFilesGoWithTheirMessages(int nodes, int perNode, int running) {
        int ranks = nodes * perNode;
        JobResult r = JobRunner.job(SpillLifetime.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(4096, 10).run();
        Stats.Node total = Expect.successfulRun(r, nodes, perNode, running).total();
        Expect.okFromEveryRank(r, "SpillLifetime", ranks);
        long expected = 3L * ranks * 10 + 1 + 3;
        Expect.that(r, total.spillFiles() >= expected, "spillFiles " + total.spillFiles() + " < " + expected);
    }
}
