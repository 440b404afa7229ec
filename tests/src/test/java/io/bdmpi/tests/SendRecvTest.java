package io.bdmpi.tests;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.SendRecv;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * sendRecv and sendRecvReplace around a ring, small and spilled; see {@link SendRecv}. On several
 * nodes (masters on this machine, over MPICH or Open MPI) the ring crosses from node to node, so messages of
 * both sizes are forwarded between masters.
 */
class SendRecvTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,1,1", "1,3,1", "1,4,2", "3,2,2"})
    void ringExchange(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(SendRecv.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(20_000).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "SendRecv", nodes * perNode);
    }

    /**
     * Two nodes over each MPI library (both installed by .ci/run). The library is the one asked
     * for: bdmpiexec starts the masters with that library's launcher, and a master of another
     * library would not find the other master in its MPI job (the run fails "-nn=2 but the MPI job
     * has 1 masters").
     */
    @ParameterizedTest(name = "-nn 2 -ns 2 -nr 1 over {0}")
    @EnumSource(MpiAbi.class)
    void ringAcrossTwoNodesOverEachMpiLibrary(MpiAbi library) {
        JobResult r = JobRunner.job(SendRecv.class).nodes(2).mpi(library).ranks(2).running(1).inlineMax(4096)
                .args(20_000).run();
        Expect.successfulRun(r, 2, 2, 1);
        Expect.okFromEveryRank(r, "SendRecv", 4);
    }

    /** Cyclic placement: rank r lives on node r % N, so every neighbour in the ring is on another node. */
    @ParameterizedTest(name = "-nn {0} -ns {1} --placement cyclic")
    @CsvSource({"2,2", "3,2"})
    void ringAcrossCyclicallyPlacedRanks(int nodes, int perNode) {
        JobResult r = JobRunner.job(SendRecv.class).nodes(nodes).ranks(perNode).running(1).inlineMax(4096)
                .options("--placement", "cyclic").args(20_000).run();
        r.assertSucceeded();
        Expect.okFromEveryRank(r, "SendRecv", nodes * perNode);
        for (Stats.Slave s : r.requireStats().slaves()) {
            Expect.that(r, s.node() == s.rank() % nodes, "rank " + s.rank() + " ran on node " + s.node());
        }
    }
}
