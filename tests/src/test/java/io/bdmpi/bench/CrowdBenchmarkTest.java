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
 * every rank checking its results) with -ns S -nr 2 and the default memory settings: its wall
 * time, the time until all ranks have passed the first barrier, and from {@code /proc} during the
 * run the peaks of the slaves' PSS summed and of the master's RSS and threads. No baseline: the
 * figures are whether it finishes, how fast, and what it takes.
 *
 * <p>Properties: {@code bench.crowd.sizes} (S values, "256,1024").
 */
@Tag("benchmark")
class CrowdBenchmarkTest {

    private static final double KIB_PER_MIB = 1024;
    private static final double KIB_PER_GIB = 1024 * 1024;
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(15);

    private final List<Integer> sizes = BenchConfig.integers("bench.crowd.sizes", List.of(256, 1024), List.of(16));

    @Test
    void aThousandSlavesRunCollectives() {
        Report report = Report.of("crowd", "S slaves on one node run collectives",
                column("slaves", "S"),
                column("wallSeconds", "job wall (s)"),
                column("msPerSlave", "ms / slave"),
                column("readySeconds", "all past the first barrier (s)"),
                column("slavesPssGiB", "slaves' PSS, peak sum (GiB)"),
                column("pssPerSlaveMiB", "PSS / slave at that peak (MiB)"),
                column("masterRssMiB", "master RSS peak (MiB)"),
                column("masterThreads", "master threads peak"));
        for (int slaves : sizes) {
            String marker = "crowd-" + slaves + "-" + System.nanoTime();
            long startMs = System.currentTimeMillis();
            JobResult r;
            JobSampler.Peaks peaks;
            try (JobSampler sampler = new JobSampler(marker)) {
                r = JobRunner.job(Crowd.class).ranks(slaves).running(2).args(marker).timeout(JOB_TIMEOUT).run();
                peaks = sampler.peaks();
            }
            Expect.successfulRun(r, slaves, 2);
            Expect.that(r, r.stdoutMatching("Crowd rank [0-9]+ OK").size() == slaves, "every rank checked its results");
            List<String> ready = r.stdoutMatching("Crowd ready epochMs [0-9]+");
            Expect.that(r, ready.size() == 1, "rank 0 says when all are ready");
            double readySeconds = (Long.parseLong(ready.get(0).substring(ready.get(0).lastIndexOf(' ') + 1)) - startMs) / 1e3;
            double wall = r.elapsed().toNanos() / 1e9;
            report.row(slaves, wall, wall * 1000 / slaves, readySeconds, peaks.slavesPssKiB() / KIB_PER_GIB,
                    peaks.slavesInPss() == 0 ? 0 : peaks.slavesPssKiB() / KIB_PER_MIB / peaks.slavesInPss(),
                    peaks.masterRssKiB() / KIB_PER_MIB, peaks.masterThreads());
        }
        report.note("Job wall: from starting bdmpiexec until it exited; each rank: Init, barrier, 3 x (allReduce of 3 longs,"
                        + " allReduce MAX of an int, barrier), an allToAllv of 0 to 2 ints per pair, barrier, Finalize,"
                        + " each result checked by every rank. -nr 2, no memory limit, default options.")
                .note("Peaks sampled from /proc while the job ran (a pass over the slaves' smaps_rollup takes a moment, so"
                        + " they may miss a short spike); the PSS per slave is the peak sum over the slaves it counted.")
                .publish();
    }
}
