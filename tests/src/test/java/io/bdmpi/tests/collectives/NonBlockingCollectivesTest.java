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

    @ParameterizedTest(name = "-ns {0} -nr {1}, blocks of {2}")
    @CsvSource({"1,1,3", "2,1,4", "3,3,5", "7,2,3", "4,2,16400"})
    void requestsCompleteWithCorrectResults(int ranks, int running, int block) {
        JobResult r = JobRunner.job(NonBlockingCollectives.class).ranks(ranks).running(running).inlineMax(4096)
                .args(block).timeout(Duration.ofSeconds(90)).run();
        Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "NonBlockingCollectives", ranks);
    }
}
