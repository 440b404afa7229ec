package io.bdmpi.bench;

import io.bdmpi.tests.programs.Crowd;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.bdmpi.bench.Report.column;

/**
 * A thousand slaves on one node: the {@link Crowd} job (barriers, small allReduces, an allToAllv,
 * every rank checking its results) with -ns S -nr 2 and the default memory settings, and its wall
 * time. No baseline: the figure is whether and how fast it finishes.
 *
 * <p>Properties: {@code bench.crowd.sizes} (S values, "256,1024").
 */
@Tag("benchmark")
class CrowdBenchmarkTest {

    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(15);

    private final List<Integer> sizes = BenchConfig.integers("bench.crowd.sizes", List.of(256, 1024), List.of(16));

    @Test
    void aThousandSlavesRunCollectives() {
        Report report = Report.of("crowd", "S slaves on one node run collectives",
                column("slaves", "S"),
                column("wallSeconds", "job wall (s)"),
                column("msPerSlave", "ms / slave"));
        for (int slaves : sizes) {
            JobResult r = JobRunner.job(Crowd.class).ranks(slaves).running(2).timeout(JOB_TIMEOUT).run();
            Expect.successfulRun(r, slaves, 2);
            Expect.that(r, r.stdoutMatching("Crowd rank [0-9]+ OK").size() == slaves, "every rank checked its results");
            double wall = r.elapsed().toNanos() / 1e9;
            report.row(slaves, wall, wall * 1000 / slaves);
        }
        report.note("Job wall: from starting bdmpiexec until it exited; each rank: Init, barrier, 3 x (allReduce of 3 longs,"
                        + " allReduce MAX of an int, barrier), an allToAllv of 0 to 2 ints per pair, barrier, Finalize,"
                        + " each result checked by every rank. -nr 2, no memory limit, default options.")
                .publish();
    }
}
