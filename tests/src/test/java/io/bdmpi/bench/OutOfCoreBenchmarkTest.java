package io.bdmpi.bench;

import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.bdmpi.bench.Report.column;

/**
 * One computation ({@link OocCompute}), one memory limit, data several times the limit: where a
 * rank's data lives decides whether and how fast the job runs. Rows: plain heap arrays; off-heap
 * arrays left to the OS, under the FIFO and the "most resident first" policies; off-heap arrays
 * released on park and prefetched on resume (SEQUENTIAL, WILLNEED); and heap arrays saved before
 * each blocking call and loaded after it (with --shrink-heap-on-park). Each job runs -nr 1.
 *
 * <p>Properties: {@code bench.ooc.ranks} (8), {@code .mibPerRank} (512), {@code .limitMiB} (1024),
 * {@code .rounds} (3), {@code .modes} (all; else a comma list of {@link OocCompute} modes, e.g.
 * "heap,saveload"). Quick: 4 ranks of 64 MiB under 320 MiB, 2 rounds (data 0.8x the limit).
 */
@Tag("benchmark")
class OutOfCoreBenchmarkTest {

    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(20);
    private static final double MB = 1e6;

    private final int ranks = BenchConfig.integer("bench.ooc.ranks", 8, 4);
    private final int mibPerRank = BenchConfig.integer("bench.ooc.mibPerRank", 512, 64);
    private final int limitMiB = BenchConfig.integer("bench.ooc.limitMiB", 1024, 320);
    private final int rounds = BenchConfig.integer("bench.ooc.rounds", 3, 2);

    /** One way of running the computation. */
    private record Variant(String label, String mode, String policy, boolean shrinkHeap) {
    }

    @Test
    void dataLargerThanTheMemoryLimit() {
        Report report = Report.of("outofcore", "Data " + String.format("%.1f", (double) ranks * mibPerRank / limitMiB)
                        + "x the memory limit: " + ranks + " ranks x " + mibPerRank + " MiB under --memory-limit "
                        + limitMiB + "m, -nr 1, " + rounds + " rounds",
                column("variant", "data in"),
                column("policy", "policy"),
                column("result", "result"),
                column("wallSeconds", "wall s"),
                column("readMB", "read MB"),
                column("writtenMB", "written MB"),
                column("majorFaults", "major faults"),
                column("peakRssMiB", "peak RSS of a slave, MiB"));
        List<Variant> variants = List.of(
                new Variant("heap (double[])", "heap", "resident", false),
                new Variant("off-heap, NONE (left to the OS)", "offheap-NONE", "fifo", false),
                new Variant("off-heap, NONE (left to the OS)", "offheap-NONE", "resident", false),
                new Variant("off-heap, SEQUENTIAL prefetch", "offheap-SEQUENTIAL", "resident", false),
                new Variant("off-heap, WILLNEED prefetch", "offheap-WILLNEED", "resident", false),
                new Variant("save/load (double[]), --shrink-heap-on-park", "saveload", "resident", true));
        List<Long> checksums = new ArrayList<>();
        List<String> only = List.of(System.getProperty("bench.ooc.modes", "").split(","));
        for (Variant v : variants) {
            if (!only.equals(List.of("")) && !only.contains(v.mode())) {
                continue;
            }
            JobResult r = run(v);
            if (r.exitCode() != 0) {
                String why = r.stderrContaining("bdmpiexec: job failed: ").stream().findFirst().orElse("exit " + r.exitCode());
                report.row(v.label(), v.policy(), "failed: " + why.replace("bdmpiexec: job failed: ", ""),
                        r.elapsed().toMillis() / 1000.0, null, null, null, null);
                continue;
            }
            Stats stats = Expect.successfulRun(r, ranks, 1);
            List<Measured> lines = Measured.from(r.stdout(), "OocCompute");
            Expect.that(r, lines.size() == ranks, "expected " + ranks + " OocCompute lines");
            long sum = lines.stream().mapToLong(m -> m.get("checksum") * 31 + m.get("rank")).sum();
            checksums.add(sum);
            Expect.that(r, checksums.get(0) == sum, "variant " + v + " computed another result than the first");
            report.row(v.label(), v.policy(), "ok", r.elapsed().toMillis() / 1000.0,
                    lines.stream().mapToLong(m -> m.get("readBytes")).sum() / MB,
                    lines.stream().mapToLong(m -> m.get("writeBytes")).sum() / MB,
                    lines.stream().mapToLong(m -> m.get("majflt")).sum(),
                    stats.slaves().stream().mapToLong(Stats.Slave::peakRssBytes).max().orElse(0) / (double) (1 << 20));
        }
        report.note("Each rank: fill its data, then " + rounds + " times: park in a barrier, update and sum every element."
                        + " Every successful variant computed the same checksums.")
                .note("wall s: bdmpiexec from start to exit, slave start-up included. read/written MB (10^6 bytes) and major"
                        + " faults: sums over the slaves of /proc/self/io read_bytes, write_bytes and majflt at the end.")
                .note("Peak RSS: the largest VmHWM of a slave (its own high-water mark; mapped file pages it touched count).")
                .note("No swap: heap data of parked slaves cannot leave RAM, so the heap variant is killed once the data"
                        + " outgrows the limit.")
                .publish();
    }

    private JobResult run(Variant v) {
        List<String> options = new ArrayList<>(List.of("--memory-limit", limitMiB + "m", "--policy", v.policy()));
        // The serial collector's old generation (2/3 of the heap) must hold the whole array.
        int heapMiB = v.mode().startsWith("offheap") ? 64 : 2 * mibPerRank + 64;
        options.add("--slave-jvm-opts");
        options.add("-Xmx" + heapMiB + "m");
        if (v.shrinkHeap()) {
            options.add("--shrink-heap-on-park");
        }
        return JobRunner.job(OocCompute.class).ranks(ranks).running(1).options(options.toArray(String[]::new))
                .args(v.mode(), mibPerRank, rounds).timeout(JOB_TIMEOUT).run();
    }
}
