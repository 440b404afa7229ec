package io.bdmpi.tests;

import io.bdmpi.tests.programs.Deadlock;
import io.bdmpi.tests.programs.Fail;
import io.bdmpi.tests.programs.FailingInitializer;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A failing rank ends the job: bdmpiexec exits non-zero within seconds, names the rank, and (as
 * the harness checks after every job) leaves no process and no file behind.
 */
class FailureTest {

    /** Start-up of 3 slave JVMs included; the failure itself must be noticed in about a second. */
    static final long MAX_SECONDS = 20;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"exit, 3", "throw, 1", "exit0, 0", "before-init, 4"})
    void dyingRankEndsTheJob(String mode, int status) {
        JobResult r = JobRunner.job(Fail.class).ranks(3).running(1).inlineMax(4096).args(mode, 1).run();
        checkFailed(r, status);
    }

    @Test
    void failingStaticInitializerEndsTheJob() {
        JobResult r = JobRunner.job(FailingInitializer.class).ranks(3).running(1).run();
        checkFailed(r, 1);
        Expect.that(r, !r.stderrContaining("^bdmpi: rank 1: uncaught exception in main: java.lang.ExceptionInInitializerError").isEmpty(),
                "rank 1's failed initializer is not said as its uncaught exception");
        Expect.that(r, !r.stderrContaining("^Caused by: java.lang.IllegalStateException: rank 1's static initializer fails").isEmpty(),
                "the initializer's own exception is not shown");
    }

    @Test
    void abortEndsTheJob() {
        JobResult r = JobRunner.job(Fail.class).ranks(3).running(1).inlineMax(4096).args("abort", 1).run();
        checkFailed(r, null);
    }

    @Test
    void killedRankEndsTheJob() {
        JobResult r = JobRunner.job(Fail.class).ranks(3).running(1).inlineMax(4096).args("sigkill", 1).run();
        checkFailed(r, null);
        Expect.that(r, !r.stderrContaining("^bdmpiexec:.*\\brank\\W+1\\b.*(?i)(signal\\W+9|SIGKILL|KILL)").isEmpty(),
                "bdmpiexec's report does not say rank 1 was killed by signal 9");
    }

    /** The other ranks sleep outside MPI (all running): the master must kill them. */
    @Test
    void dyingRankEndsComputingRanks() {
        JobResult r = JobRunner.job(Fail.class).ranks(3).running(3).inlineMax(4096).args("compute", 1).run();
        checkFailed(r, 3);
    }

    @Test
    void deadlockIsReported() {
        JobResult r = JobRunner.job(Deadlock.class).ranks(3).running(1).run();
        r.assertFailed();
        Expect.that(r, !r.stderrContaining("(?i)deadlock").isEmpty(), "stderr does not report a deadlock");
        Expect.that(r, r.elapsed().toSeconds() < MAX_SECONDS, "the deadlock took " + r.elapsed().toSeconds() + " s to end the job");
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")), "a rank got past its receive");
    }

    /**
     * Failed fast, and bdmpiexec's own report names rank 1 (the program writes nothing to stderr
     * itself); for a rank that died, also its pid and exit status, as DESIGN.md asks.
     */
    private static void checkFailed(JobResult r, Integer status) {
        r.assertFailed();
        Expect.that(r, r.elapsed().toSeconds() < MAX_SECONDS, "the job took " + r.elapsed().toSeconds() + " s to fail");
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")), "a rank got past the barrier");
        List<String> report = r.stderrContaining("^bdmpiexec:.*\\brank\\W+1\\b");
        Expect.that(r, !report.isEmpty(), "no 'bdmpiexec: ...' line on stderr names rank 1");
        if (status != null) {
            Expect.that(r, report.stream().anyMatch(l -> Pattern.compile("(?i)status\\W+" + status + "\\b").matcher(l).find()),
                    "the report does not give exit status " + status + ": " + report);
            if (r.stats() != null) {
                long pid = r.stats().rank(1).pid();
                Expect.that(r, report.stream().anyMatch(l -> l.contains(Long.toString(pid))),
                        "the report does not give rank 1's pid " + pid + ": " + report);
            }
        }
    }
}
