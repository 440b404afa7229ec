package io.bdmpi.tests;

import io.bdmpi.tests.programs.NonBlocking;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * iSend/iRecv with 200 outstanding requests, waitAll/waitAllStatus, waitAny, waitSome, and the
 * test family; see {@link NonBlocking}.
 */
class NonBlockingTest {

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"2,1", "3,2", "3,3"})
    void requestsComplete(int ranks, int running) {
        JobResult r = JobRunner.job(NonBlocking.class).ranks(ranks).running(running).inlineMax(4096).args(3000).run();
        Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "NonBlocking", ranks);
    }
}
