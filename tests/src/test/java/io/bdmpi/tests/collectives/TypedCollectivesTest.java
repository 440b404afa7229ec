package io.bdmpi.tests.collectives;

import io.bdmpi.tests.programs.collectives.TypedCollectives;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Randomized collectives over derived send and receive types (different type maps, matching
 * signatures) on COMM_WORLD, a split with undefined colours, a dup and a created communicator,
 * with arrays, direct buffers, in-place and nonblocking forms; see {@link TypedCollectives}.
 * Several nodes run over MPICH (the default library); {@code -im} 4096 sends the large parts
 * through disk, 131072 is bdmpiexec's default.
 */
class TypedCollectivesTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, seed {3}, -im {4}")
    @CsvSource({
        "1,5,2,1,4096",
        "1,4,1,2,131072",
        "2,3,2,3,131072",
    })
    void randomRounds(int nodes, int perNode, int running, long seed, int inlineMax) {
        JobResult r = JobRunner.job(TypedCollectives.class).nodes(nodes).ranks(perNode).running(running)
                .inlineMax(inlineMax).args(60, seed).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "TypedCollectives", nodes * perNode);
    }
}
