package io.bdmpi.bench;

import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
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
 * on a file 4x the job's {@code --memory-limit}, against {@code dd} writing (with {@code conv=fsync})
 * and reading the same size on the same disk, the page cache dropped ({@link PageCache}) before
 * each read, for both alike. Each figure is the median of {@code repeats} runs, dd's and bdmpi's
 * interleaved so that a slow spell of the shared disk hits both.
 *
 * <p>Properties: {@code bench.fileio.limitMiB} (512), {@code .chunkMiB} (8), {@code .ranks}
 * ("2,4"; -nr 2), {@code .repeats} (3).
 */
@Tag("benchmark")
class FileIoBenchmarkTest {

    private static final Target TARGET = Target.atLeast(0.7);
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(10);

    private final int limitMiB = BenchConfig.integer("bench.fileio.limitMiB", 512, 256);
    private final int chunkMiB = BenchConfig.integer("bench.fileio.chunkMiB", 8, 8);
    private final List<Integer> rankCounts = BenchConfig.integers("bench.fileio.ranks", List.of(2, 4), List.of(2));
    private final int repeats = BenchConfig.integer("bench.fileio.repeats", 3, 1);

    @Test
    void collectiveBandwidthAgainstDd() {
        int fileMiB = 4 * limitMiB;
        Report report = Report.of("fileio", "MPI-IO bandwidth, a file of " + fileMiB + " MiB (4x --memory-limit "
                        + limitMiB + "m)",
                column("config", "configuration"),
                column("writeMBs", "write MB/s"),
                column("readMBs", "read MB/s"),
                column("writeRatio", "write ratio to dd"),
                column("readRatio", "read ratio to dd"),
                column("target", "target"),
                column("met", "met"));
        String dropped;
        List<List<Double>> dd = List.of(new ArrayList<>(), new ArrayList<>());
        Map<Integer, List<List<Double>>> bdmpi = new LinkedHashMap<>();
        try (TempDirectory dir = TempDirectory.create("bench-fileio-")) {
            Path file = dir.path().resolve("data");
            for (int round = 0; round < repeats; round++) {
                dropped = dd(file, fileMiB, dd);
                for (int ranks : rankCounts) {
                    JobResult r = JobRunner.job(FileBandwidth.class).ranks(ranks).running(2)
                            .options("--memory-limit", limitMiB + "m")
                            .args(file.toString(), fileMiB / ranks, chunkMiB).timeout(JOB_TIMEOUT).run();
                    r.assertSucceeded();
                    List<List<Double>> times = bdmpi.computeIfAbsent(ranks, k -> List.of(new ArrayList<>(), new ArrayList<>()));
                    times.get(0).add(seconds(r, "WRITE"));
                    times.get(1).add(seconds(r, "READ"));
                    System.out.printf(Locale.ROOT, "fileio round %d: dd write %.2f s read %.2f s; -ns %d write %.2f s read %.2f s%n",
                            round, dd.get(0).get(round), dd.get(1).get(round), ranks, times.get(0).get(round),
                            times.get(1).get(round));
                    if (!r.stdoutMatching(".*DROPPED .*").get(0).endsWith(dropped)) {
                        throw new AssertionError("dd and bdmpi dropped the page cache differently: " + r.stdout());
                    }
                }
            }
        }
        double ddWrite = Samples.of(dd.get(0)).median();
        double ddRead = Samples.of(dd.get(1)).median();
        report.row("baseline: dd bs=" + chunkMiB + "M", mbPerSecond(fileMiB, ddWrite), mbPerSecond(fileMiB, ddRead),
                1.0, 1.0, null, null);
        bdmpi.forEach((ranks, times) -> {
            double write = Samples.of(times.get(0)).median();
            double read = Samples.of(times.get(1)).median();
            double writeRatio = ddWrite / write;
            double readRatio = ddRead / read;
            report.row("bdmpi -ns " + ranks + " -nr 2", mbPerSecond(fileMiB, write), mbPerSecond(fileMiB, read),
                    writeRatio, readRatio, TARGET.toString(), TARGET.metBy(Math.min(writeRatio, readRatio)));
        });
        report.note("Each rank writes and reads its contiguous share in " + chunkMiB + " MiB writeAtAll/readAtAll calls"
                        + " from a direct ByteBuffer; the write time includes File.sync (dd: conv=fsync). Before each read"
                        + " the file is synced and the page cache dropped (as root: drop_caches, else dd iflag=nocache),"
                        + " for dd as for bdmpi. Median of " + repeats + " rounds, dd and bdmpi interleaved.")
                .note("Target: bdmpi bandwidth " + TARGET + " dd's, for both directions (ratio = dd seconds / bdmpi seconds).")
                .publish();
    }

    /**
     * Adds the seconds dd takes to write (fsync included) and to read back {@code mib} MiB to
     * {@code times}; says how the page cache was dropped.
     */
    private String dd(Path file, int mib, List<List<Double>> times) {
        times.get(0).add(run("dd", "if=/dev/zero", "of=" + file, "bs=" + chunkMiB + "M", "count=" + mib / chunkMiB,
                "conv=fsync", "status=none"));
        String dropped;
        try {
            dropped = PageCache.drop(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        times.get(1).add(run("dd", "if=" + file, "of=/dev/null", "bs=" + chunkMiB + "M", "status=none"));
        run("rm", "-f", file.toString());
        return dropped;
    }

    private static double run(String... command) {
        try {
            long start = System.nanoTime();
            Process p = new ProcessBuilder(command).inheritIO().start();
            if (p.waitFor() != 0) {
                throw new AssertionError(String.join(" ", command) + " failed");
            }
            return (System.nanoTime() - start) / 1e9;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static double seconds(JobResult r, String what) {
        return Double.parseDouble(r.stdoutMatching(".*" + what + " [0-9.]+").get(0).replaceAll(".*" + what + " ", ""));
    }

    private static double mbPerSecond(int mib, double seconds) {
        return mib * 1.048576 / seconds;
    }
}
