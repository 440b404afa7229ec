package io.bdmpi.tests.memory;

import io.bdmpi.tests.programs.memory.BigWindow;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * A one-sided window larger than the job's memory ({@link BigWindow}): four ranks with 160 MiB of
 * window each (640 MiB) run to the end under a {@code --memory-limit} of 320 MiB that also holds
 * five JVMs, one rank at a time: window memory is file-backed and leaves RAM without swap. On two
 * nodes each node's 320 MiB holds its master too, whose heap takes the puts, gets and accumulates
 * that cross to the other node. Needs a memory cgroup (root); skipped otherwise.
 */
class WindowOutOfCoreTest {

    @BeforeAll
    static void needsCgroups() {
        Assumptions.assumeTrue(MemoryLimitTest.cgroupsAvailable(), "no memory cgroup here");
    }

    @Test
    void windowSeveralTimesTheLimitCompletes() {
        JobResult r = JobRunner.job(BigWindow.class).ranks(4).running(1)
                .options("--memory-limit", "320m", "--slave-jvm-opts", "-Xmx32m").args(160)
                .timeout(Duration.ofSeconds(240)).run();
        Expect.successfulRun(r, 4, 1);
        for (int rank = 0; rank < 4; rank++) {
            r.assertStdoutHasLine("rank " + rank + " ok");
        }
    }

    /** A master's JVM sizes its heap for the node's limit: with the machine's default it was OOM-killed. */
    @Test
    void windowSeveralTimesTheLimitOfEachOfTwoNodesCompletes() {
        JobResult r = JobRunner.job(BigWindow.class).nodes(2).ranks(2).running(1)
                .options("--memory-limit", "320m", "--slave-jvm-opts", "-Xmx32m").args(160)
                .timeout(Duration.ofSeconds(240)).run();
        Expect.successfulRun(r, 2, 2, 1);
        for (int rank = 0; rank < 4; rank++) {
            r.assertStdoutHasLine("rank " + rank + " ok");
        }
    }
}
