package io.bdmpi.tests.failures;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.Fail;
import io.bdmpi.tests.programs.Sleeper;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failures of a job of several nodes (masters on this machine, over MPICH and over Open MPI): the master of the
 * failing rank reports it in the same one line as on one node, every other node stops at once
 * (its ranks were sleeping outside MPI for minutes), bdmpiexec exits with the job's code, and (the
 * harness checks) nothing of the job is left on any node.
 */
class SeveralNodesFailureTest {

    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void aRankExitingOnOneNodeStopsEveryNode(MpiAbi library) {
        JobResult r = JobRunner.job(Fail.class).nodes(2).mpi(library).ranks(2).running(2).args("compute", 3)
                .timeout(Duration.ofSeconds(60)).run();
        Expect.that(r, r.exitCode() == 1, "exit code " + r.exitCode() + ", expected 1");
        Expect.that(r, r.elapsed().toSeconds() < 30, "the job took " + r.elapsed() + " (the other ranks sleep 10 minutes)");
        long failures = r.stderr().stream().filter(l -> l.startsWith("bdmpiexec: job failed: ")).count();
        Expect.that(r, failures == 1, failures + " failure lines, expected exactly one");
        Expect.that(r, r.stderr().stream().anyMatch(l -> l.matches(
                "^bdmpiexec: job failed: rank 3 \\(pid \\d+\\) exited with status 3 before MPI_Finalize; last MPI call: .*")),
                "no failure line naming rank 3");
    }

    /**
     * Every rank aborts at once: each node's master has a failure of its own, and one line reports
     * the job's (the lowest failing node's). Before, both masters printed theirs in one run of five.
     */
    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void failuresAtOnceOnEveryNodeAreReportedInOneLine(MpiAbi library) {
        for (int run = 0; run < 3; run++) {
            JobResult r = JobRunner.job(Fail.class).nodes(2).mpi(library).ranks(2).running(2).args("abort", -1)
                    .timeout(Duration.ofSeconds(60)).run();
            Expect.that(r, r.exitCode() == 7, "exit code " + r.exitCode() + ", expected abort's 7");
            long failures = r.stderr().stream().filter(l -> l.startsWith("bdmpiexec: job failed: ")).count();
            Expect.that(r, failures == 1, failures + " failure lines, expected exactly one");
        }
    }

    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void aMasterKilledOnOneNodeStopsTheOthers(MpiAbi library) {
        AtomicLong killedAt = new AtomicLong();
        JobResult r = JobRunner.job(Sleeper.class).nodes(2).mpi(library).ranks(2).running(2).timeout(Duration.ofSeconds(60))
                .whenStdoutHas("Sleeper rank 3 sleeping", (launcher, workDir) -> {
                    ProcessHandle master = JobRunner.slaveOfRank(launcher, 3).parent().orElseThrow();
                    killedAt.set(System.currentTimeMillis());
                    JobRunner.send(master, JobRunner.Signal.KILL);
                }).run();
        r.assertFailed();
        Expect.that(r, killedAt.get() > 0, "the master of node 1 was never found");
        long ms = r.exitedAtMillis() - killedAt.get();
        Expect.that(r, ms < 10_000, "bdmpiexec exited " + ms + " ms after the master of node 1 was killed");
    }
}
