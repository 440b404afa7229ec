package io.bdmpi.bench;

import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static io.bdmpi.bench.Report.column;

/**
 * One computation ({@link OocCompute}), one memory limit, data several times the limit: where a
 * rank's data lives decides whether and how fast the job runs. Rows: plain heap arrays; off-heap
 * arrays left to the OS, under the FIFO and the "most resident first" policies; off-heap arrays
 * released on park and prefetched on resume (SEQUENTIAL, WILLNEED); and heap arrays saved before
 * each blocking call and loaded after it (with --shrink-heap-on-park). Each job runs -nr 1, but for
 * one row of off-heap arrays left to the OS under -nr auto (the master's choice, from the limit).
 *
 * <p>Properties: {@code bench.ooc.ranks} (8), {@code .mibPerRank} (512), {@code .limitMiB} (1024),
 * {@code .rounds} (3), {@code .modes} (all; else a comma list of {@link OocCompute} modes, e.g.
 * "heap,saveload"). Quick: 4 ranks of 64 MiB under 320 MiB, 2 rounds (data 0.8x the limit).
 *
 * <p>A second table compares -nr auto with fixed counts (see {@link #runningCountFromTheMemoryLimit}):
 * {@code bench.ooc.auto.ranks} (8), {@code .mibPerRank} (128), {@code .limitMiB} (1024); quick 4,
 * 48, 448.
 */
@Tag("benchmark")
class OutOfCoreBenchmarkTest {

    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(20);
    private static final double MB = 1e6;
    /** The columns {@link #measure} fills. */
    private static final List<Report.Column> MEASURED = List.of(
            column("nrunning", "-nr"),
            column("result", "result"),
            column("wallSeconds", "wall s"),
            column("readMB", "read MB"),
            column("writtenMB", "written MB"),
            column("majorFaults", "major faults"),
            column("peakRssMiB", "peak RSS of a slave, MiB"),
            column("maxRunning", "most running at once"));

    private final Shape shape = new Shape(BenchConfig.integer("bench.ooc.ranks", 8, 4),
            BenchConfig.integer("bench.ooc.mibPerRank", 512, 64), BenchConfig.integer("bench.ooc.limitMiB", 1024, 320),
            BenchConfig.integer("bench.ooc.rounds", 3, 2));
    private final Shape autoShape = new Shape(BenchConfig.integer("bench.ooc.auto.ranks", 8, 4),
            BenchConfig.integer("bench.ooc.auto.mibPerRank", 128, 48), BenchConfig.integer("bench.ooc.auto.limitMiB", 1024, 448),
            shape.rounds());

    /** One way of running the computation; {@code nrunning} is -nr: a count or "auto". */
    private record Variant(String label, String mode, String policy, boolean shrinkHeap, String nrunning) {
        Variant(String label, String mode, String policy, boolean shrinkHeap) {
            this(label, mode, policy, shrinkHeap, "1");
        }

        boolean auto() {
            return nrunning.equals("auto");
        }
    }

    /** The size of a job. */
    private record Shape(int ranks, int mibPerRank, int limitMiB, int rounds) {
        String describe() {
            return String.format(Locale.ROOT, "%.1fx the memory limit: %d ranks x %d MiB under --memory-limit %dm, %d rounds",
                    (double) ranks * mibPerRank / limitMiB, ranks, mibPerRank, limitMiB, rounds);
        }
    }

    @Test
    void dataLargerThanTheMemoryLimit() {
        List<Report.Column> columns = new ArrayList<>(List.of(column("variant", "data in"), column("policy", "policy")));
        columns.addAll(MEASURED);
        Report report = Report.of("outofcore", "Data " + shape.describe(), columns.toArray(Report.Column[]::new));
        List<Variant> variants = List.of(
                new Variant("heap (double[])", "heap", "resident", false),
                new Variant("off-heap, NONE (left to the OS)", "offheap-NONE", "fifo", false),
                new Variant("off-heap, NONE (left to the OS)", "offheap-NONE", "resident", false),
                new Variant("off-heap, NONE (left to the OS)", "offheap-NONE", "resident", false, "auto"),
                new Variant("off-heap, SEQUENTIAL prefetch", "offheap-SEQUENTIAL", "resident", false),
                new Variant("off-heap, WILLNEED prefetch", "offheap-WILLNEED", "resident", false),
                new Variant("save/load (double[]), --shrink-heap-on-park", "saveload", "resident", true));
        List<Long> checksums = new ArrayList<>();
        List<String> only = List.of(System.getProperty("bench.ooc.modes", "").split(","));
        for (Variant v : variants) {
            if (only.equals(List.of("")) || only.contains(v.mode())) {
                List<Object> row = new ArrayList<>(List.of(v.label(), v.policy()));
                row.addAll(measure(v, shape, checksums));
                report.row(row.toArray());
            }
        }
        notes(report, shape).note("No swap: heap data of parked slaves cannot leave RAM, so the heap variant is killed once"
                + " the data outgrows the limit.").publish();
    }

    /**
     * -nr auto against fixed counts, on off-heap arrays left to the OS, with data per rank small
     * enough that some but not all ranks' data fits the limit at once. Property
     * {@code bench.ooc.auto.running}: the fixed counts (default 1,2,4,8; quick 1,2,4).
     */
    @Test
    void runningCountFromTheMemoryLimit() {
        Report report = Report.of("outofcore-auto", "-nr auto against fixed -nr, off-heap arrays (NONE), data "
                + autoShape.describe(), MEASURED.toArray(Report.Column[]::new));
        List<Long> checksums = new ArrayList<>();
        List<String> counts = new ArrayList<>();
        BenchConfig.integers("bench.ooc.auto.running", List.of(1, 2, 4, 8), List.of(1, 2, 4)).forEach(n -> counts.add(n.toString()));
        counts.add("auto");
        for (String nrunning : counts) {
            report.row(measure(new Variant("", "offheap-NONE", "resident", false, nrunning), autoShape, checksums).toArray());
        }
        notes(report, autoShape).publish();
    }

    /**
     * Runs one variant: the cells of the {@link #MEASURED} columns (blank but for -nr, result and
     * wall time when it failed). A
     * successful run must compute the same checksums as the first one in {@code checksums}.
     */
    private List<Object> measure(Variant v, Shape shape, List<Long> checksums) {
        JobResult r = run(v, shape);
        if (r.exitCode() != 0) {
            String why = r.stderrContaining("bdmpiexec: job failed: ").stream().findFirst().orElse("exit " + r.exitCode());
            return Arrays.asList(v.nrunning(), "failed: " + why.replace("bdmpiexec: job failed: ", ""),
                    r.elapsed().toMillis() / 1000.0, null, null, null, null, null);
        }
        Stats stats = Expect.successfulRun(r, shape.ranks(), v.auto() ? r.requireStats().node0().running() : Integer.parseInt(v.nrunning()));
        List<Measured> lines = Measured.from(r.stdout(), "OocCompute");
        Expect.that(r, lines.size() == shape.ranks(), "expected " + shape.ranks() + " OocCompute lines");
        long sum = lines.stream().mapToLong(m -> m.get("checksum") * 31 + m.get("rank")).sum();
        checksums.add(sum);
        Expect.that(r, checksums.get(0) == sum, "variant " + v + " computed another result than the first");
        return Arrays.asList(v.auto() ? "auto: " + nrunningChanges(stats) : v.nrunning(), "ok", r.elapsed().toMillis() / 1000.0,
                lines.stream().mapToLong(m -> m.get("readBytes")).sum() / MB,
                lines.stream().mapToLong(m -> m.get("writeBytes")).sum() / MB,
                lines.stream().mapToLong(m -> m.get("majflt")).sum(),
                stats.slaves().stream().mapToLong(Stats.Slave::peakRssBytes).max().orElse(0) / (double) (1 << 20),
                stats.node0().maxRunning());
    }

    private static Report notes(Report report, Shape shape) {
        return report.note("-nr auto: the counts it went through (from 1), with the time of each change.")
                .note("Each rank: fill its data, then " + shape.rounds() + " times: park in a barrier, update and sum every"
                        + " element. Every successful variant computed the same checksums.")
                .note("wall s: bdmpiexec from start to exit, slave start-up included. read/written MB (10^6 bytes) and major"
                        + " faults: sums over the slaves of /proc/self/io read_bytes, write_bytes and majflt at the end.")
                .note("Peak RSS: the largest VmHWM of a slave (its own high-water mark; mapped file pages it touched count).");
    }

    /** "1" if -nr auto never changed, else e.g. "1 -> 2 (3.1 s) -> 1 (9.0 s)". */
    private static String nrunningChanges(Stats stats) {
        StringBuilder b = new StringBuilder("1");
        for (Stats.NrunningChange c : stats.node0().nrunningChanges()) {
            b.append(String.format(Locale.ROOT, " -> %d (%.1f s)", c.to(), c.timeSeconds()));
        }
        return b.toString();
    }

    private JobResult run(Variant v, Shape shape) {
        List<String> options = new ArrayList<>(List.of("--memory-limit", shape.limitMiB() + "m", "--policy", v.policy()));
        // The serial collector's old generation (2/3 of the heap) must hold the whole array.
        int heapMiB = v.mode().startsWith("offheap") ? 64 : 2 * shape.mibPerRank() + 64;
        options.add("--slave-jvm-opts");
        options.add("-Xmx" + heapMiB + "m");
        if (v.shrinkHeap()) {
            options.add("--shrink-heap-on-park");
        }
        JobRunner job = JobRunner.job(OocCompute.class).ranks(shape.ranks());
        if (v.auto()) {
            job.runningAuto();
        } else {
            job.running(Integer.parseInt(v.nrunning()));
        }
        return job.options(options.toArray(String[]::new))
                .args(v.mode(), shape.mibPerRank(), shape.rounds()).timeout(JOB_TIMEOUT).run();
    }
}
