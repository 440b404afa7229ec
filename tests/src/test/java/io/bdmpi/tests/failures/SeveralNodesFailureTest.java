package io.bdmpi.tests.failures;

import io.bdmpi.tests.programs.Fail;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * Failures of a job of several nodes (masters on this machine, over MPICH): the master of the
 * failing rank reports it in the same one line as on one node, every other node stops at once
 * (its ranks were sleeping outside MPI for minutes), bdmpiexec exits with the job's code, and (the
 * harness checks) nothing of the job is left on any node.
 */
class SeveralNodesFailureTest {

    @Test
    void aRankExitingOnOneNodeStopsEveryNode() {
        JobResult r = JobRunner.job(Fail.class).nodes(2).ranks(2).running(2).args("compute", 3)
                .timeout(Duration.ofSeconds(60)).run();
        Expect.that(r, r.exitCode() == 1, "exit code " + r.exitCode() + ", expected 1");
        Expect.that(r, r.elapsed().toSeconds() < 30, "the job took " + r.elapsed() + " (the other ranks sleep 10 minutes)");
        long failures = r.stderr().stream().filter(l -> l.startsWith("bdmpiexec: job failed: ")).count();
        Expect.that(r, failures == 1, failures + " failure lines, expected exactly one");
        Expect.that(r, r.stderr().stream().anyMatch(l -> l.matches(
                "^bdmpiexec: job failed: rank 3 \\(pid \\d+\\) exited with status 3 before MPI_Finalize; last MPI call: .*")),
                "no failure line naming rank 3");
    }
}
