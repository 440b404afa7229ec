package io.bdmpi.tests;

import io.bdmpi.tests.programs.SendRecv;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** sendRecv and sendRecvReplace around a ring, small and spilled; see {@link SendRecv}. */
class SendRecvTest {

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"1,1", "3,1", "4,2"})
    void ringExchange(int ranks, int running) {
        JobResult r = JobRunner.job(SendRecv.class).ranks(ranks).running(running).inlineMax(4096).args(20_000).run();
        Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "SendRecv", ranks);
    }
}
