package io.bdmpi.tests;

import io.bdmpi.tests.programs.SendRecv;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * sendRecv and sendRecvReplace around a ring, small and spilled; see {@link SendRecv}. On several
 * nodes (masters on this machine, over MPICH) the ring crosses from node to node, so messages of
 * both sizes are forwarded between masters.
 */
class SendRecvTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,1,1", "1,3,1", "1,4,2", "2,2,1", "3,2,2"})
    void ringExchange(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(SendRecv.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(20_000).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "SendRecv", nodes * perNode);
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
