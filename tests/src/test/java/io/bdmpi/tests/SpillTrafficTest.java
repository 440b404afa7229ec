package io.bdmpi.tests;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.SpillTraffic;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random large messages and collectives between ranks of the same node and of other nodes, whose
 * spill files the masters return to their writers once sent and the writers take back, often for
 * shorter messages: every element, the sentinel past every message, each status, and the spill
 * directories between rounds (no message file left, returned and recycled files within their
 * bound) are checked by the ranks (see {@link SpillTraffic}).
 */
class SpillTrafficTest {

    private static final int ROUNDS = 6;
    private static final int MESSAGES_PER_ROUND = 24;

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2} over {3}, seed {4}")
    @CsvSource({"2,3,2,MPICH,1", "3,2,1,MPICH,2", "2,2,1,OPEN_MPI,3"})
    void largeMessagesArriveIntactThroughReturnedAndRecycledFiles(int nodes, int perNode, int running, MpiAbi library,
                                                                   long seed) {
        JobResult r = JobRunner.job(SpillTraffic.class).nodes(nodes).mpi(library).ranks(perNode).running(running)
                .inlineMax(4096).args(ROUNDS, MESSAGES_PER_ROUND, seed).run();
        Stats.Node total = Expect.successfulRun(r, nodes, perNode, running).total();
        Expect.okFromEveryRank(r, "SpillTraffic", nodes * perNode);
        Expect.that(r, total.spillFiles() > 0, "messages over -im 4096 should be spilled: " + total);
        for (int node = 0; node < nodes; node++) {
            String line = "SpillTraffic node " + node + ": ";
            Expect.that(r, r.stdout().stream().anyMatch(l -> l.startsWith(line)), "no line \"" + line + "...\" in stdout");
        }
    }
}
