package io.bdmpi.tests.topology;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.topology.TopologyTraffic;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random cartesian grids (createCart with createDims, periods, fewer ranks than the parent, shift,
 * getRank with wrapping and errors, getCoords, sub, map), graphs (createGraph with self-loops and
 * repeated edges, getDims, getNeighbors, map) and distributed graphs (createDistGraphAdjacent and
 * createDistGraph, weighted or not) over COMM_WORLD or the parts of a random split, each checked
 * by every rank against a model, with blocking and nonblocking neighbourhood collectives whose
 * every received block (and every PROC_NULL block and gap, which must keep their sentinels) is
 * checked against MPI's neighbour order, sendRecv along shifts and allReduce (see
 * {@link TopologyTraffic}).
 */
class TopologyTrafficTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, seed {3}")
    @CsvSource({"1,6,2,1", "1,5,1,2", "2,3,2,3"})
    void everyTopologyAndNeighbourhoodMatchesTheModel(int nodes, int perNode, int running, long seed) {
        int rounds = 50;
        JobRunner job = JobRunner.job(TopologyTraffic.class).nodes(nodes).ranks(perNode).running(running)
                .args(rounds, seed);
        if (nodes > 1) {
            job.mpi(MpiAbi.MPICH);
        }
        JobResult r = job.run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "TopologyTraffic", nodes * perNode);
    }
}
