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

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"1,1", "2,1", "3,2", "7,1", "16,3"})
    void communicatorsBehave(int ranks, int running) {
        JobResult r = JobRunner.job(Communicators.class).ranks(ranks).running(running).run();
        Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "Communicators", ranks);
    }
}
