package io.bdmpi.tests.topology;

import io.bdmpi.tests.programs.topology.Topologies;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cartesian grids, sub-grids, graphs and distributed graphs with their blocking and nonblocking
 * neighbourhood collectives, and allToAllw, in real jobs; see {@link Topologies}. With two ranks
 * one rank is both neighbours in a periodic dimension; on two nodes neighbours sit on the other
 * node. (One rank exchanging with itself is covered by slave-lib's TopologyCommTest.)
 */
class TopologiesTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,2,2", "1,6,1", "2,3,1", "2,2,2"})
    void neighboursGetWhatTheirNeighboursSent(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(Topologies.class).nodes(nodes).ranks(perNode).running(running).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "Topologies", nodes * perNode);
    }
}
