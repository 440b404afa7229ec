package io.bdmpi.tests;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.CommTraffic;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random communicator and group management (dup, split with UNDEFINED colours and tied keys,
 * create with one or disjoint groups, createGroup, the group operations, Comm and Group compare,
 * intercommunicators with merge, free) checked by every rank against a model of each
 * communicator's members in rank order; every new communicator is exercised with allReduce, bcast,
 * a ring sendRecv and a barrier, and messages must not cross communicators (see {@link CommTraffic}).
 */
class CommTrafficTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, seed {3}")
    @CsvSource({"1,5,2,1", "1,4,1,2", "2,3,2,3"})
    void everyCommunicatorHasTheMembersAndOrderTheModelSays(int nodes, int perNode, int running, long seed) {
        int rounds = 120;
        JobRunner job = JobRunner.job(CommTraffic.class).nodes(nodes).ranks(perNode).running(running)
                .args(rounds, seed);
        if (nodes > 1) {
            job.mpi(MpiAbi.MPICH);
        }
        JobResult r = job.run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "CommTraffic", nodes * perNode);
    }
}
