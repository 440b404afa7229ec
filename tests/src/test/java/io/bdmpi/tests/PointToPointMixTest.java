package io.bdmpi.tests;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.PointToPointMix;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random point-to-point traffic mixing every send mode (standard, buffered, synchronous, ready,
 * blocking, nonblocking and persistent), every way of receiving (recv, iRecv, recvInit, matched
 * probes, probe + recv, sendRecv, sendRecvReplace) and every completion call, on COMM_WORLD and a
 * duplicate, with five datatypes; every element, status and order checked by the ranks (see
 * {@link PointToPointMix}).
 */
class PointToPointMixTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, seed {3}")
    @CsvSource({"1,5,2,1", "1,4,1,2", "3,2,1,3"})
    void everyModeDeliversEveryMessageWhereAndInTheOrderItWasSent(int nodes, int perNode, int running, long seed) {
        int rounds = 4;
        int perRound = 150;
        JobRunner job = JobRunner.job(PointToPointMix.class).nodes(nodes).ranks(perNode).running(running)
                .inlineMax(4096).args(rounds, perRound, seed);
        if (nodes > 1) {
            job.mpi(MpiAbi.MPICH);
        }
        JobResult r = job.run();
        Stats.Node total = Expect.successfulRun(r, nodes, perNode, running).total();
        Expect.okFromEveryRank(r, "PointToPointMix", nodes * perNode);
        Expect.that(r, total.spillFiles() > 0, "some messages over -im 4096 should be spilled: " + total);
    }
}
