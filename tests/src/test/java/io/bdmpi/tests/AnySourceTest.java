package io.bdmpi.tests;

import io.bdmpi.tests.programs.AnySource;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ANY_SOURCE / ANY_TAG receives report the real source, tag and count; see {@link AnySource}. */
class AnySourceTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,4,1", "1,5,2", "2,2,1", "3,2,2"})
    void statusNamesTheRealSourceTagAndCount(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(AnySource.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096).args(5000).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "AnySource", nodes * perNode);
    }
}
