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

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,2,1", "1,3,2", "1,3,3", "2,2,1", "3,1,1"})
    void requestsComplete(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(NonBlocking.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096).args(3000).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "NonBlocking", nodes * perNode);
    }
}
