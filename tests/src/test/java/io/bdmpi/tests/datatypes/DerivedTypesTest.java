package io.bdmpi.tests.datatypes;

import io.bdmpi.tests.programs.datatypes.DerivedTypes;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Raw buffers, every derived-type constructor in point-to-point calls and collectives, pack and
 * unpack, and complex reductions, checked element by element in {@link DerivedTypes}; one slave or
 * two running at a time, on one node and on two (rank 0 and the last rank then talk across nodes).
 */
class DerivedTypesTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,3,1", "1,3,2", "2,2,1"})
    void derivedTypesAndRawBuffersArriveIntact(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(DerivedTypes.class).nodes(nodes).ranks(perNode).running(running).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "DerivedTypes", nodes * perNode);
    }
}
