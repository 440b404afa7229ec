package io.bdmpi.tests;

import io.bdmpi.tests.programs.Truncate;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

/**
 * A receive smaller than its message: ERR_TRUNCATE under ERRORS_RETURN (ERR_IN_STATUS from a call on
 * several requests), job failure by default.
 */
class TruncationTest {

    /** With {@code -nn 2 -ns 1} the truncated messages come from the other node. */
    @ParameterizedTest(name = "-nn {0} -ns {1}")
    @CsvSource({"1,2", "2,1"})
    void errorsReturnRaisesErrTruncate(int nodes, int perNode) {
        JobResult r = JobRunner.job(Truncate.class).nodes(nodes).ranks(perNode).running(1).inlineMax(4096)
                .args("return", 5000).run();
        Expect.successfulRun(r, nodes, perNode, 1);
        Expect.okFromEveryRank(r, "Truncate return", 2);
        long reported = r.stdout().stream().filter(l -> l.contains("MPIException ERR_TRUNCATE")).count();
        Expect.that(r, reported == 3, reported + " truncations reported by rank 1, expected 3");
        Expect.that(r, r.stdout().stream().anyMatch(l -> l.contains("MPIException ERR_IN_STATUS: MPI_Waitall: 1 of the requests failed;"
                + " request 0: MPI_Waitall: message of 40 bytes")), "rank 1 did not report waitAll's ERR_IN_STATUS for request 0");
    }

    @ParameterizedTest(name = "-nn {0} -ns {1}")
    @CsvSource({"1,2", "2,1"})
    void defaultHandlerFailsTheJob(int nodes, int perNode) {
        JobResult r = JobRunner.job(Truncate.class).nodes(nodes).ranks(perNode).running(1).args("fatal")
                .timeout(Duration.ofSeconds(60)).run();
        r.assertFailed();
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")),
                "the truncated recv returned under ERRORS_ARE_FATAL");
        Expect.that(r, !r.stderrContaining("(?i)rank\\W+1\\b").isEmpty(), "stderr does not name rank 1");
        Expect.that(r, !r.stderrContaining("(?i)truncat").isEmpty(), "stderr does not mention the truncation");
        Expect.that(r, r.elapsed().toSeconds() < 30, "the job took " + r.elapsed().toSeconds() + " s to fail");
    }
}
