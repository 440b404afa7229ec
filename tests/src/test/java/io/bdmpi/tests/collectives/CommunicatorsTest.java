package io.bdmpi.tests.collectives;

import io.bdmpi.tests.programs.collectives.Communicators;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * dup, split (uneven, reversed, nested, with MPI.UNDEFINED), free, compare, COMM_SELF, and
 * point-to-point on split communicators with translated ranks; see {@link Communicators}.
 */
class CommunicatorsTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,1,1", "1,2,1", "1,3,2", "1,7,1", "1,16,3", "2,3,1", "3,2,2"})
    void communicatorsBehave(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(Communicators.class).nodes(nodes).ranks(perNode).running(running).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "Communicators", nodes * perNode);
    }
}
