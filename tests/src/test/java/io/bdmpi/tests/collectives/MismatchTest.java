package io.bdmpi.tests.collectives;

import io.bdmpi.tests.programs.collectives.Mismatch;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;

/**
 * Erroneous collectives end the job quickly with a non-zero exit and an error on stderr that says
 * what was wrong, instead of hanging: different roots, different counts, bcast against reduce, and
 * a rank that finalizes instead of joining a collective; see {@link Mismatch}.
 */
class MismatchTest {

    /** Start-up of the slave JVMs included; the error itself must be noticed within seconds. */
    static final long MAX_SECONDS = 20;

    @ParameterizedTest(name = "{0}, -nn {1} -ns {2} -nr {3}")
    @CsvSource(delimiter = ';', value = {
        "roots  ; 1 ; 3 ; 1 ; (?i)root",
        "roots  ; 1 ; 4 ; 3 ; (?i)root",
        "counts ; 1 ; 3 ; 1 ; (?i)(count|match|differ)",
        "kinds  ; 1 ; 3 ; 2 ; (?i)(bcast|reduce|match|differ)",
        "blocks ; 1 ; 3 ; 2 ; rank \\d called MPI_Reduce_scatter.*blocks of \\[(8, 0, 4|4, 4, 4)\\] bytes.*but rank \\d called MPI_Reduce_scatter.*blocks of \\[(4, 4, 4|8, 0, 4)\\] bytes",
        "skip   ; 1 ; 3 ; 1 ; (?i)(deadlock|finaliz)",
        "roots  ; 2 ; 2 ; 1 ; (?i)root",
        "counts ; 3 ; 1 ; 1 ; (?i)(count|match|differ)",
        "skip   ; 2 ; 2 ; 2 ; (?i)(deadlock|finaliz)",
    })
    void badCollectiveEndsTheJob(String mode, int nodes, int perNode, int running, String errorRegex) {
        JobResult r = JobRunner.job(Mismatch.class).nodes(nodes).ranks(perNode).running(running).args(mode)
                .timeout(Duration.ofSeconds(60)).run();
        r.assertFailed();
        Expect.that(r, r.elapsed().toSeconds() < MAX_SECONDS, "the job took " + r.elapsed().toSeconds() + " s to fail");
        // The correct collectives before worked (the runtime may stop the job before every rank got to the bad call).
        Expect.that(r, !r.stdoutMatching("Mismatch rank \\d+ before the bad call").isEmpty(),
                "no rank got through the correct barrier and allReduce before the bad call");
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")), "a rank got past the bad call");
        List<String> errors = r.stderrContaining(errorRegex);
        Expect.that(r, !errors.isEmpty(), "no line on stderr matches " + errorRegex + " to say what was wrong");
    }
}
