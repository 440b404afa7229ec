package io.bdmpi.tests.memory;

import io.bdmpi.bench.Bandwidth;
import io.bdmpi.tests.programs.Sleeper;
import io.bdmpi.tests.programs.memory.CgroupPaths;
import io.bdmpi.tests.programs.memory.HeapUser;
import io.bdmpi.tests.programs.memory.OffHeapUser;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.JobRunner.Signal;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code --memory-limit}: the slaves run in a fresh memory cgroup of the job, which is gone after
 * the job whatever happened, and a slave the kernel kills for the limit is named as such. Needs
 * root and a cgroup memory controller; skipped otherwise.
 */
class MemoryLimitTest {

    /** Skips the tests where bdmpiexec says it cannot make a memory cgroup (not root, no controller). */
    @BeforeAll
    static void needsCgroups() {
        Assumptions.assumeTrue(cgroupsAvailable(), "no memory cgroup here");
    }

    /** Whether bdmpiexec can make a memory cgroup here (it says so when it cannot: not root, no controller). */
    static boolean cgroupsAvailable() {
        JobResult probe = JobRunner.launch(Duration.ofSeconds(60), "--memory-limit", "256m", "-cp",
                JobRunner.testClassPath(), HeapUser.class.getName(), "1");
        return !(probe.exitCode() == 2 && !probe.stderrContaining("--memory-limit: ").isEmpty());
    }

    @Test
    void jobRunsInItsOwnCgroupWhichIsRemovedAfterwards() throws Exception {
        String before = CgroupPaths.own();
        JobResult r = JobRunner.job(HeapUser.class).ranks(4).running(2)
                .options("--memory-limit", "512m").args(16).run();
        Expect.successfulRun(r, 4, 2);
        Set<String> cgroups = cgroupsOf(r);
        Expect.that(r, cgroups.size() == 1, "every rank should be in one cgroup, got " + cgroups);
        String cgroup = cgroups.iterator().next();
        Expect.that(r, cgroup.startsWith(before.equals("/") ? "/bdmpi-" : before + "/bdmpi-"),
                "the job's cgroup " + cgroup + " is not a fresh child of the test's cgroup " + before);
        Expect.that(r, !CgroupPaths.exists(cgroup), "the job's cgroup " + cgroup + " is still there");
        for (int rank = 0; rank < 4; rank++) {
            r.assertStdoutHasLine("rank " + rank + " ok");
        }
    }

    /**
     * Off-heap arrays can leave memory without swap: four ranks with 160 MiB each (640 MiB of
     * data) run to the end under a limit of 320 MiB that also holds five JVMs, one rank at a time.
     */
    @Test
    void offHeapDataSeveralTimesTheLimitCompletes() {
        JobResult r = JobRunner.job(OffHeapUser.class).ranks(4).running(1)
                .options("--memory-limit", "320m", "--slave-jvm-opts", "-Xmx32m").args(160, "SEQUENTIAL", 3)
                .timeout(Duration.ofSeconds(180)).run();
        Expect.successfulRun(r, 4, 1);
        for (int rank = 0; rank < 4; rank++) {
            r.assertStdoutHasLine("rank " + rank + " ok");
        }
    }

    /**
     * A sender far ahead of its parked receiver: 2 rounds of 1024 messages of 100 kB (under the
     * default -im, so inline) wait in the master, 102 MB a round, under a limit of 320 MiB. The
     * master's JVM sizes its heap for the limit and holds an eighth of it of such messages at
     * most, the rest in spill files. Before, the master's heap grew past the limit (the kernel
     * killed the job in its second round).
     */
    @Test
    void messagesWaitingForAParkedReceiverStayWithinTheLimit() {
        JobResult r = JobRunner.job(Bandwidth.class).ranks(2).running(1).options("--memory-limit", "320m")
                .args(100_000, 1024, 2, 1).timeout(Duration.ofSeconds(120)).run();
        Expect.successfulRun(r, 2, 1);
        Expect.that(r, r.stdoutMatching("Bandwidth round=[12] bytes=100000 messages=1024 ns=\\d+").size() == 2,
                "both rounds measured, every message checked");
    }

    @Test
    void slaveKilledForTheLimitIsReportedAsSuch() throws Exception {
        JobResult r = JobRunner.job(HeapUser.class).ranks(2).running(2)
                .options("--memory-limit", "160m", "--slave-jvm-opts", "-Xmx1g -Xms8m").args(300)
                .timeout(Duration.ofSeconds(90)).run();
        r.assertFailed();
        Expect.that(r, !r.stderrContaining("bdmpiexec: job failed: rank [01] \\(pid \\d+\\) was killed by the kernel's OOM "
                + "killer: the job exceeded its --memory-limit of 160 MiB").isEmpty(), "no OOM kill reported");
        for (String cgroup : cgroupsOf(r)) {
            Expect.that(r, !CgroupPaths.exists(cgroup), "the job's cgroup " + cgroup + " is still there");
        }
    }

    /**
     * A limit too small for the master itself (8 slaves in 64 MiB, where bdmpiexec warns that they
     * need 232): whichever process the kernel kills, the job ends with a "job failed" line that
     * says why, and leaves no cgroup behind.
     */
    @Test
    void limitTooSmallForTheMasterEndsTheJobSayingWhy() throws Exception {
        JobResult r = JobRunner.job(HeapUser.class).ranks(8).running(2).options("--memory-limit", "64m").args(1)
                .timeout(Duration.ofSeconds(90)).run();
        r.assertFailed();
        Expect.that(r, !r.stderrContaining("bdmpiexec: job failed: (the master \\(pid \\d+\\) was killed by signal 9 \\(SIGKILL\\): "
                + "under the --memory-limit of 64 MiB, most likely by the kernel's OOM killer|rank \\d+ \\(pid \\d+\\) was killed by "
                + "the kernel's OOM killer)").isEmpty(), "the job's end does not say that the limit killed it");
        for (String cgroup : cgroupsOf(r)) {
            Expect.that(r, !CgroupPaths.exists(cgroup), "the job's cgroup " + cgroup + " is still there");
        }
    }

    /** bdmpiexec SIGKILLed: the janitor removes the cgroup after the slaves are gone. */
    @Test
    void sigkilledLauncherLeavesNoCgroup() throws Exception {
        String own = CgroupPaths.own();
        List<String> before = CgroupPaths.children(own);
        JobResult r = JobRunner.job(Sleeper.class).ranks(2).running(2).options("--memory-limit", "256m")
                .signalWhenStdoutHas("Sleeper rank 1 sleeping", Signal.KILL).run();
        Expect.that(r, r.exitCode() == 128 + 9, "bdmpiexec should have died of SIGKILL, exit code " + r.exitCode());
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        List<String> after = CgroupPaths.children(own);
        while (!after.equals(before) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            after = CgroupPaths.children(own);
        }
        Expect.that(r, after.equals(before), "cgroups below " + own + " before the job: " + before + ", after: " + after);
    }

    @Test
    void tooSmallLimitIsAUsageError() {
        JobResult r = JobRunner.launch(Duration.ofSeconds(30), "--memory-limit", "1m", "-cp", JobRunner.testClassPath(),
                HeapUser.class.getName(), "1");
        Expect.that(r, r.exitCode() == 2 && r.stderr().get(0).equals(
                "bdmpiexec: --memory-limit=1048576 must be at least 67108864 (64m)"), "expected a usage error");
    }

    private static Set<String> cgroupsOf(JobResult r) {
        Set<String> out = new TreeSet<>();
        for (String line : r.stdoutMatching("rank \\d+ cgroup .*")) {
            out.add(line.substring(line.indexOf(" cgroup ") + " cgroup ".length()));
        }
        return out;
    }
}
