package io.bdmpi.bench;

import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.bdmpi.bench.Report.column;

/**
 * Parallel write and read bandwidth of {@code writeAtAll}/{@code readAtAll} ({@link FileBandwidth})
 * on a file 4x the job's {@code --memory-limit}, against {@code dd} writing (with {@code conv=fsync})
 * and reading the same size on the same disk, the page cache dropped before each read.
 *
 * <p>Properties: {@code bench.fileio.limitMiB} (512), {@code .chunkMiB} (8), {@code .ranks}
 * ("2,4"; -nr 2).
 */
@Tag("benchmark")
class FileIoBenchmarkTest {

    private static final Target TARGET = Target.atLeast(0.7);
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(10);

    private final int limitMiB = BenchConfig.integer("bench.fileio.limitMiB", 512, 256);
    private final int chunkMiB = BenchConfig.integer("bench.fileio.chunkMiB", 8, 8);
    private final List<Integer> rankCounts = BenchConfig.integers("bench.fileio.ranks", List.of(2, 4), List.of(2));

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
        try (TempDirectory dir = TempDirectory.create("bench-fileio-")) {
            Path file = dir.path().resolve("data");
            double[] dd = dd(file, fileMiB);
            report.row("baseline: dd bs=" + chunkMiB + "M", mbPerSecond(fileMiB, dd[0]), mbPerSecond(fileMiB, dd[1]),
                    1.0, 1.0, null, null);
            for (int ranks : rankCounts) {
                JobResult r = JobRunner.job(FileBandwidth.class).ranks(ranks).running(2)
                        .options("--memory-limit", limitMiB + "m")
                        .args(file.toString(), fileMiB / ranks, chunkMiB).timeout(JOB_TIMEOUT).run();
                r.assertSucceeded();
                double write = seconds(r, "WRITE");
                double read = seconds(r, "READ");
                double writeRatio = dd[0] / write;
                double readRatio = dd[1] / read;
                report.row("bdmpi -ns " + ranks + " -nr 2", mbPerSecond(fileMiB, write), mbPerSecond(fileMiB, read),
                        writeRatio, readRatio, TARGET.toString(), TARGET.metBy(Math.min(writeRatio, readRatio)));
            }
        }
        report.note("Each rank writes and reads its contiguous share in " + chunkMiB + " MiB writeAtAll/readAtAll calls"
                        + " from a direct ByteBuffer; the write time includes File.sync, and the file's pages are dropped"
                        + " (dd iflag=nocache) before the read, for dd as for bdmpi.")
                .note("Target: bdmpi bandwidth " + TARGET + " dd's, for both directions (ratio = dd seconds / bdmpi seconds).")
                .publish();
    }

    /** Seconds dd takes to write (fsync included) and to read back {@code mib} MiB. */
    private double[] dd(Path file, int mib) {
        double write = run("dd", "if=/dev/zero", "of=" + file, "bs=" + chunkMiB + "M", "count=" + mib / chunkMiB,
                "conv=fsync", "status=none");
        run("dd", "if=" + file, "iflag=nocache", "count=0", "status=none");
        double read = run("dd", "if=" + file, "of=/dev/null", "bs=" + chunkMiB + "M", "status=none");
        run("rm", "-f", file.toString());
        return new double[] {write, read};
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
