package io.bdmpi.tests;

import io.bdmpi.tests.programs.AnySource;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ANY_SOURCE / ANY_TAG receives report the real source, tag and count; see {@link AnySource}. */
class AnySourceTest {

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"4,1", "5,2"})
    void statusNamesTheRealSourceTagAndCount(int ranks, int running) {
        JobResult r = JobRunner.job(AnySource.class).ranks(ranks).running(running).inlineMax(4096).args(5000).run();
        Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "AnySource", ranks);
    }
}
