package io.bdmpi.tests;

import io.bdmpi.tests.programs.CancelRace;
import io.bdmpi.tests.programs.NonBlocking;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

/**
 * iSend/iRecv with 200 outstanding requests, waitAll/waitAllStatus, waitAny, waitSome, and the
 * test family; see {@link NonBlocking}. Cancels racing their messages; see {@link CancelRace}.
 */
class NonBlockingTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,2,1", "1,3,2", "1,3,3", "2,2,1", "3,1,1"})
    void requestsComplete(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(NonBlocking.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096).args(3000).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "NonBlocking", nodes * perNode);
    }

    /**
     * Every message arrives exactly once and in order while most receives are cancelled as they
     * are posted, some before their message and some after it (on two nodes, while it crosses
     * between the masters). Each rank runs on a slot of its own, so that the receiver polls
     * faster than the sender sends.
     */
    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,2,2", "2,1,1"})
    void aCancelledReceiveLeavesItsMessageAndAFailedCancelDeliversIt(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(CancelRace.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(1000, 5000).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "CancelRace", nodes * perNode);
        List<String> counts = r.stdoutMatching("CancelRace cancelled [1-9][0-9]*");
        Expect.that(r, counts.size() == 1, "no cancel succeeded: the race was not run");
    }
}
