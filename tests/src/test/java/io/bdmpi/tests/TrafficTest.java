package io.bdmpi.tests;

import io.bdmpi.tests.programs.Traffic;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random traffic on three communicators that reuse the same tags, received with exact sources and
 * tags, with wildcards after a polling probe, and per source; every byte and every order checked
 * by the ranks (see {@link Traffic}).
 */
class TrafficTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, seed {3}")
    @CsvSource({"1,6,2,1", "3,2,1,2"})
    void everyMessageArrivesWhereAndInTheOrderItWasSent(int nodes, int perNode, int running, long seed) {
        int rounds = 4;
        int perRound = 300;
        JobResult r = JobRunner.job(Traffic.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(rounds, perRound, 30000, seed).run();
        Stats.Node total = Expect.successfulRun(r, nodes, perNode, running).total();
        Expect.okFromEveryRank(r, "Traffic", nodes * perNode);
        Expect.that(r, total.spillFiles() > 0, "some messages over -im 4096 should be spilled: " + total);
    }
}
