package io.bdmpi.tests.api;

import io.bdmpi.tests.programs.api.ApiFeatures;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Groups and Comm.create, matched probes with ANY_SOURCE from every rank, a persistent ring,
 * buffered sends with attached space, attributes, Info and the version strings: see
 * {@link ApiFeatures}. One node and two (masters on this machine over MPICH), one rank running at
 * a time and more.
 */
class ApiFeaturesTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,1,1", "1,4,1", "1,5,2", "2,2,1", "2,3,2"})
    void everyFeatureOnEveryRank(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(ApiFeatures.class).nodes(nodes).ranks(perNode).running(running).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "ApiFeatures", nodes * perNode);
        Expect.that(r, r.stdoutMatching(".*LIBVERSION bdmpi-java [0-9].*").size() == 1,
                "getLibVersion names bdmpi-java and its version");
    }
}
