package io.bdmpi.tests.memory;

import io.bdmpi.examples.Ring;
import io.bdmpi.examples.data.RmatGenerator;
import io.bdmpi.examples.pagerank.PageRank;
import io.bdmpi.tests.programs.memory.ParkedHeap;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The slaves' memory defaults (heap limit and heap on park from the budget, -ns and -nr) let jobs
 * run without a -Xmx or a flag the user must pick, and warn only about what cannot fit.
 */
class MemoryDefaultsTest {

    @TempDir
    Path dir;

    /**
     * PageRank's {@code ooc} style on a 16 M-edge graph, 8 ranks, 2 running, under a 512 MiB limit
     * with no other option: each rank saves its data before blocking calls, and its parked heap,
     * garbage after the save, is collected and given back. Without that (the defaults before) the
     * parked heaps added up and the kernel killed a rank for the limit. Needs root and a cgroup
     * memory controller; skipped otherwise.
     */
    @Test
    void pageRankOocFitsAHalfGiBLimitWithDefaultOptions() throws IOException {
        Path graph = dir.resolve("graph.csr");
        new RmatGenerator(20, 16, 1).write(graph, 1 << 20, 2, 256L << 20);
        JobResult r = JobRunner.job(PageRank.class).ranks(8).running(2)
                .options("--memory-limit", "512m")
                .args("--graph", graph, "--out", dir.resolve("ranks.f64"), "--iterations", 3, "--style", "ooc")
                .timeout(Duration.ofMinutes(5)).run();
        Assumptions.assumeFalse(r.exitCode() == 2 && !r.stderrContaining("--memory-limit: ").isEmpty(),
                () -> "no memory cgroup here: " + r.stderr());
        Expect.successfulRun(r, 8, 2);
        Expect.that(r, r.stdoutMatching("PageRank: 1048576 vertices, [0-9]+ edges, 3 iterations, .*").size() == 1,
                "rank 0 prints its summary");
        Expect.that(r, r.stderrContaining("warning").isEmpty(), "the defaults fit: no warning");
    }

    /**
     * With default options, a parked slave whose heap has grown past its share of what the running
     * slaves leave collects and gives the free heap back, even when that share is small: rank 0
     * drops 20 MiB of heap and parks (8 slaves, 1 running, 512 MiB: a share of 13 MiB). Its RSS is
     * compared with the same job's under --no-shrink-heap-on-park. (With a share of at least
     * 32 MiB, the rule before, it kept the 20 MiB.)
     */
    @Test
    void aParkedSlaveGivesBackHeapBeyondASmallShare() {
        long kept = parkedRssKiB("--no-shrink-heap-on-park");
        long byDefault = parkedRssKiB();
        System.out.println("MemoryDefaultsTest: parked RSS after dropping 20 MiB under 512 MiB: " + kept / 1024
                + " MiB with --no-shrink-heap-on-park, " + byDefault / 1024 + " MiB by default");
        if (byDefault > kept - 10 * 1024) {
            throw new AssertionError("parked RSS " + byDefault + " KiB by default, " + kept + " KiB when kept");
        }
    }

    private long parkedRssKiB(String... options) {
        JobResult r = JobRunner.job(ParkedHeap.class).ranks(8).running(1).args(20)
                .options("--memory-limit", "512m").options(options).run();
        Assumptions.assumeFalse(r.exitCode() == 2 && !r.stderrContaining("--memory-limit: ").isEmpty(),
                () -> "no memory cgroup here: " + r.stderr());
        Expect.successfulRun(r, 8, 1);
        String line = r.stdoutMatching("parked rank 0 rssKiB=\\d+").get(0);
        return Long.parseLong(line.substring(line.indexOf('=') + 1));
    }

    /** A small job on a node without swap hears nothing about memory. */
    @Test
    void aFourRankRingPrintsNoWarning() {
        JobResult r = JobRunner.job(Ring.class).ranks(4).running(2).run();
        Expect.successfulRun(r, 4, 2);
        Expect.that(r, r.stderr().isEmpty(), "stderr should be empty");
    }

    /** More slaves than a limit holds parked are told, before they start, how many would fit. */
    @Test
    void tooManySlavesForTheLimitAreToldHowManyFit() {
        JobResult r = JobRunner.job(Ring.class).ranks(24).running(1).options("--memory-limit", "512m").args(16)
                .timeout(Duration.ofMinutes(3)).run();
        Assumptions.assumeFalse(r.exitCode() == 2 && !r.stderrContaining("--memory-limit: ").isEmpty(),
                () -> "no memory cgroup here: " + r.stderr());
        Expect.that(r, r.stderrContaining("bdmpiexec: warning: 24 slaves do not fit the --memory-limit of 512 MiB").size() == 1
                && !r.stderrContaining(Pattern.quote("Run at most 17 slaves on this node (-ns)")).isEmpty(),
                "the warning says how many fit");
    }
}
