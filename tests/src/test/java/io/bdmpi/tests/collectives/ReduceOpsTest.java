package io.bdmpi.tests.collectives;

import io.bdmpi.tests.programs.collectives.ReduceOps;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every predefined operation on every type it is defined for, MINLOC/MAXLOC on the five pair
 * types, user-defined operations (a non-commutative one whose result shows the rank order), and
 * floating-point results that must equal the left-to-right fold in rank order; see {@link ReduceOps}.
 */
class ReduceOpsTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,1,1", "1,2,2", "1,3,1", "1,7,3", "1,16,2", "2,3,1", "3,2,2"})
    void operationsGiveExactResults(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(ReduceOps.class).nodes(nodes).ranks(perNode).running(running).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "ReduceOps", nodes * perNode);
    }
}
