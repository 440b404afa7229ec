package io.bdmpi.tests;

import io.bdmpi.tests.programs.SynchronousSend;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * sSend and isSend complete only once a receive has matched their message; see
 * {@link SynchronousSend}. On one node the master completes the send itself; across nodes (block
 * placement with one rank per node, or cyclic placement) the receiver's master tells the sender's.
 */
class SynchronousSendTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2} --placement {3}")
    @CsvSource({"1,2,1,block", "1,2,2,block", "2,1,1,block", "2,2,2,cyclic"})
    void synchronousSendsWaitForTheirReceive(int nodes, int perNode, int running, String placement) {
        JobResult r = JobRunner.job(SynchronousSend.class).nodes(nodes).ranks(perNode).running(running)
                .options("--placement", placement).run();
        r.assertSucceeded();
        Expect.okFromEveryRank(r, "SynchronousSend", nodes * perNode);
    }
}
