package io.bdmpi.tests.intercomm;

import io.bdmpi.tests.programs.intercomm.Intercomms;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An intercommunicator between the even and odd ranks, with point-to-point, rooted and
 * all-to-all collectives, dup, merge, and createGroup over a subset, in real jobs; see
 * {@link Intercomms}. With an odd number of ranks the groups differ in size; on two nodes
 * (masters over MPI on this machine) both groups span both nodes.
 */
class IntercommTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,4,1", "1,5,3", "2,2,1", "2,3,2"})
    void evenAndOddRanksTalkAcrossAnIntercommunicator(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(Intercomms.class).nodes(nodes).ranks(perNode).running(running).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "Intercomms", nodes * perNode);
    }
}
