package io.bdmpi.tests;

import io.bdmpi.tests.programs.Truncate;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/** A receive smaller than its message: ERR_TRUNCATE under ERRORS_RETURN, job failure by default. */
class TruncationTest {

    @Test
    void errorsReturnRaisesErrTruncate() {
        JobResult r = JobRunner.job(Truncate.class).ranks(2).running(1).inlineMax(4096).args("return", 5000).run();
        Expect.successfulRun(r, 2, 1);
        Expect.okFromEveryRank(r, "Truncate return", 2);
        long reported = r.stdout().stream().filter(l -> l.contains("MPIException ERR_TRUNCATE")).count();
        Expect.that(r, reported == 3, reported + " truncations reported by rank 1, expected 3");
    }

    @Test
    void defaultHandlerFailsTheJob() {
        JobResult r = JobRunner.job(Truncate.class).ranks(2).running(1).args("fatal").timeout(Duration.ofSeconds(60)).run();
        r.assertFailed();
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")),
                "the truncated recv returned under ERRORS_ARE_FATAL");
        Expect.that(r, !r.stderrContaining("(?i)rank\\W+1\\b").isEmpty(), "stderr does not name rank 1");
        Expect.that(r, !r.stderrContaining("(?i)truncat").isEmpty(), "stderr does not mention the truncation");
        Expect.that(r, r.elapsed().toSeconds() < 30, "the job took " + r.elapsed().toSeconds() + " s to fail");
    }
}
