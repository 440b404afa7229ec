package io.bdmpi.tests.collectives;

import io.bdmpi.tests.programs.collectives.NonBlockingCollectives;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

/**
 * The nonblocking collectives and their in-place forms, completed with waitFor, waitAll, test and
 * testAll, several outstanding at once, mixed with iSend/iRecv and with blocking collectives, on
 * COMM_WORLD and a split; see {@link NonBlockingCollectives}.
 */
class NonBlockingCollectivesTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, blocks of {3}")
    @CsvSource({"1,1,1,3", "1,2,1,4", "1,3,3,5", "1,7,2,3", "1,4,2,16400", "2,2,1,4", "3,2,2,16400"})
    void requestsCompleteWithCorrectResults(int nodes, int perNode, int running, int block) {
        JobResult r = JobRunner.job(NonBlockingCollectives.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(block).timeout(Duration.ofSeconds(90)).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "NonBlockingCollectives", nodes * perNode);
    }
}
