package io.bdmpi.bench;

import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.bdmpi.bench.Report.column;

/**
 * Parallel write and read bandwidth of {@code writeAtAll}/{@code readAtAll} ({@link FileBandwidth})
 * on a file 4x the job's {@code --memory-limit}, against {@code dd} writing (then one fsync of the
 * file, {@code sync FILE}) and reading the same size on the same disk: as one stream, and as one
 * stream per rank (each its share, all at once), the same I/O pattern as the job's. The dd
 * processes run in a memory cgroup of the job's limit ({@link BenchCgroup}), so their dirty and
 * cached pages are bounded as the job's are. Before each
 * read the file is synced and the page cache dropped ({@link PageCache}), for dd as for bdmpi.
 * Each figure is the median of {@code repeats} rounds, dd's and bdmpi's interleaved within a
 * round so that a slow spell of the shared disk hits both.
 *
 * <p>Properties: {@code bench.fileio.limitMiB} (512), {@code .chunkMiB} (8), {@code .ranks}
 * ("2,4"; -nr 2), {@code .repeats} (3).
 */
@Tag("benchmark")
class FileIoBenchmarkTest {

    private static final Target TARGET = Target.atLeast(0.7);
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration DD_TIMEOUT = Duration.ofMinutes(5);

    private final int limitMiB = BenchConfig.integer("bench.fileio.limitMiB", 512, 256);
    private final int chunkMiB = BenchConfig.integer("bench.fileio.chunkMiB", 8, 8);
    private final List<Integer> rankCounts = BenchConfig.integers("bench.fileio.ranks", List.of(2, 4), List.of(2));
    private final int repeats = BenchConfig.integer("bench.fileio.repeats", 3, 1);

    /** Write and read seconds of one configuration, a pair per round. */
    private record Times(List<Double> write, List<Double> read) {
        Times() {
            this(new ArrayList<>(), new ArrayList<>());
        }

        double writeMedian() {
            return Samples.of(write).median();
        }

        double readMedian() {
            return Samples.of(read).median();
        }

        String spread() {
            return String.format(Locale.ROOT, "write %.1f-%.1f s, read %.1f-%.1f s", Samples.of(write).min(),
                    Samples.of(write).max(), Samples.of(read).min(), Samples.of(read).max());
        }
    }

    @Test
    void collectiveBandwidthAgainstDd() throws IOException, InterruptedException {
        int fileMiB = 4 * limitMiB;
        Report report = Report.of("fileio", "MPI-IO bandwidth, a file of " + fileMiB + " MiB (4x --memory-limit "
                        + limitMiB + "m)",
                column("config", "configuration"),
                column("writeMBs", "write MB/s"),
                column("readMBs", "read MB/s"),
                column("writeRatio", "write ratio to dd, same streams"),
                column("readRatio", "read ratio to dd, same streams"),
                column("target", "target"),
                column("met", "met"),
                column("spread", "min-max of the rounds"));
        Map<Integer, Times> dd = new LinkedHashMap<>();
        Map<Integer, Times> bdmpi = new LinkedHashMap<>();
        try (TempDirectory dir = TempDirectory.create("bench-fileio-")) {
            Path file = dir.path().resolve("data");
            for (int round = 0; round < repeats; round++) {
                String dropped = dd(file, fileMiB, 1, dd.computeIfAbsent(1, k -> new Times()));
                for (int ranks : rankCounts) {
                    dd(file, fileMiB, ranks, dd.computeIfAbsent(ranks, k -> new Times()));
                    JobResult r = JobRunner.job(FileBandwidth.class).ranks(ranks).running(2)
                            .options("--memory-limit", limitMiB + "m")
                            .args(file.toString(), fileMiB / ranks, chunkMiB).timeout(JOB_TIMEOUT).run();
                    r.assertSucceeded();
                    if (!r.stdoutMatching(".*DROPPED .*").get(0).endsWith(dropped)) {
                        throw new AssertionError("dd and bdmpi dropped the page cache differently: " + r.stdout());
                    }
                    Times t = bdmpi.computeIfAbsent(ranks, k -> new Times());
                    t.write().add(seconds(r, "WRITE"));
                    t.read().add(seconds(r, "READ"));
                    System.out.printf(Locale.ROOT, "fileio round %d, %d streams: dd write %.2f s read %.2f s;"
                                    + " bdmpi write %.2f s read %.2f s%n", round, ranks, last(dd.get(ranks).write()),
                            last(dd.get(ranks).read()), last(t.write()), last(t.read()));
                }
            }
        }
        dd.forEach((streams, t) -> report.row("baseline: dd bs=" + chunkMiB + "M, " + streams + " stream(s)",
                mbPerSecond(fileMiB, t.writeMedian()), mbPerSecond(fileMiB, t.readMedian()), null, null, null, null,
                t.spread()));
        bdmpi.forEach((ranks, t) -> {
            double writeRatio = dd.get(ranks).writeMedian() / t.writeMedian();
            double readRatio = dd.get(ranks).readMedian() / t.readMedian();
            report.row("bdmpi -ns " + ranks + " -nr 2", mbPerSecond(fileMiB, t.writeMedian()), mbPerSecond(fileMiB, t.readMedian()),
                    writeRatio, readRatio, TARGET.toString(), TARGET.metBy(Math.min(writeRatio, readRatio)), t.spread());
        });
        report.note("Each rank writes and reads its contiguous share in " + chunkMiB + " MiB writeAtAll/readAtAll calls"
                        + " from a direct ByteBuffer; the write time includes File.sync (dd: one sync FILE once every stream has"
                        + " written). Before each read"
                        + " the file is synced and the page cache dropped (as root: drop_caches, else dd iflag=nocache),"
                        + " for dd as for bdmpi. Median of " + repeats + " rounds, dd and bdmpi interleaved.")
                .note("Target: bdmpi bandwidth " + TARGET + " that of dd with one stream per rank (each its share, all at"
                        + " once), for both directions (ratio = dd seconds / bdmpi seconds). dd runs in a memory cgroup"
                        + " limited to the job's --memory-limit, so both sides have the same room for dirty and cached pages.")
                .publish();
    }

    /**
     * Adds the seconds {@code streams} dd processes take, all at once, to write {@code mib} MiB,
     * each its own contiguous share, followed by one fsync of the file ({@code sync FILE}), and to
     * read it back; says how the page cache was dropped. Not {@code conv=fsync} on each: an fsync
     * flushes the whole file, so the first stream's would wait for the others' writes still under
     * way (measured: 4 streams took 3x as long as 2) where the job syncs once all ranks have written.
     */
    private String dd(Path file, int mib, int streams, Times times) throws IOException, InterruptedException {
        int blocks = mib / chunkMiB / streams;
        try (BenchCgroup cgroup = BenchCgroup.limited((long) limitMiB << 20)) {
            List<List<String>> writes = new ArrayList<>();
            List<List<String>> reads = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                writes.add(cgroup.wrap(List.of("dd", "if=/dev/zero", "of=" + file, "bs=" + chunkMiB + "M",
                        "count=" + blocks, "seek=" + (long) s * blocks, "conv=notrunc", "status=none")));
                reads.add(cgroup.wrap(List.of("dd", "if=" + file, "of=/dev/null", "bs=" + chunkMiB + "M",
                        "count=" + blocks, "skip=" + (long) s * blocks, "status=none")));
            }
            double written = runAll(writes);
            times.write().add(written + runAll(List.of(cgroup.wrap(List.of("sync", file.toString())))));
            String dropped = PageCache.drop(file);
            times.read().add(runAll(reads));
            runAll(List.of(List.of("rm", "-f", file.toString())));
            return dropped;
        }
    }

    /** Seconds from starting all {@code commands} at once until the last has ended. */
    private static double runAll(List<List<String>> commands) throws IOException, InterruptedException {
        long start = System.nanoTime();
        List<Process> running = new ArrayList<>();
        for (List<String> command : commands) {
            running.add(new ProcessBuilder(command).inheritIO().start());
        }
        for (int i = 0; i < running.size(); i++) {
            Process p = running.get(i);
            if (!p.waitFor(DD_TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                running.forEach(Process::destroyForcibly);
                throw new AssertionError(String.join(" ", commands.get(i)) + " took over " + DD_TIMEOUT);
            }
            if (p.exitValue() != 0) {
                throw new AssertionError(String.join(" ", commands.get(i)) + " failed");
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static double last(List<Double> values) {
        return values.get(values.size() - 1);
    }

    private static double seconds(JobResult r, String what) {
        return Double.parseDouble(r.stdoutMatching(".*" + what + " [0-9.]+").get(0).replaceAll(".*" + what + " ", ""));
    }

    private static double mbPerSecond(int mib, double seconds) {
        return mib * 1.048576 / seconds;
    }
}
