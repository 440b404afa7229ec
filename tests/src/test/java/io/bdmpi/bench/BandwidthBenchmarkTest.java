package io.bdmpi.bench;

import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.bdmpi.bench.Report.column;

/**
 * One-way slave-to-slave bandwidth for small (inline, through master memory) and large (spill
 * file) messages, against plain file I/O of the same messages on the same file system: each
 * message written to a new file with a {@link FileChannel}, then every file read back and deleted,
 * which is what a spilled message costs at least. The median round is compared.
 *
 * <p>Properties: {@code bench.bandwidth.sizes} (bytes, "4096,1048576,67108864"),
 * {@code .bytesPerRound} (512 MiB; the message count is this over the size, from 2 to
 * {@value #MAX_MESSAGES}), {@code .rounds} (3, after one warm-up round), {@code .running}
 * (-nr values, "1,2").
 */
@Tag("benchmark")
class BandwidthBenchmarkTest {

    private static final int KIB = 1024;
    private static final int MIB = 1024 * KIB;
    private static final int MAX_MESSAGES = 16384;
    /** Sizes from here on are "large": the target applies to them. */
    private static final int LARGE = MIB;
    private static final Target TARGET = Target.atLeast(0.6);
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(5);

    private final List<Integer> sizes = BenchConfig.integers("bench.bandwidth.sizes",
            List.of(4 * KIB, MIB, 64 * MIB), List.of(4 * KIB, MIB, 64 * MIB));
    private final int bytesPerRound = BenchConfig.integer("bench.bandwidth.bytesPerRound", 512 * MIB, 8 * MIB);
    private final int rounds = BenchConfig.integer("bench.bandwidth.rounds", 3, 1);
    private final List<Integer> runningCounts =
            BenchConfig.integers("bench.bandwidth.running", List.of(1, 2), List.of(1, 2));

    @Test
    void oneWayBandwidth() {
        Report report = Report.of("bandwidth", "Slave-to-slave bandwidth (one way)",
                column("message", "message"),
                column("messages", "messages / round"),
                column("config", "bdmpi configuration"),
                column("path", "path"),
                column("bdmpiMBps", "bdmpi MB/s"),
                column("fileMBps", "file write+read MB/s (baseline)"),
                column("ratio", "ratio"),
                column("target", "target"),
                column("met", "met"));
        for (int size : sizes) {
            int messages = messagesPerRound(size);
            double file = Samples.of(fileRounds(size, messages)).median();
            for (int running : runningCounts) {
                Transfer bdmpi = bdmpiTransfer(size, messages, running);
                double ratio = bdmpi.megabytesPerSecond() / file;
                boolean large = size >= LARGE;
                report.row(humanSize(size), messages, "-ns 2 -nr " + running, bdmpi.path(), bdmpi.megabytesPerSecond(),
                        file, ratio, large ? TARGET.toString() : null, large ? TARGET.metBy(ratio) : null);
            }
        }
        report.note("MB = 10^6 bytes. Median of " + rounds + " timed rounds after one warm-up round, each way.")
                .note("bdmpi: rank 0 sends every message of a round, then waits for rank 1's one-byte ack; timed on"
                        + " rank 0 from the first send to the ack. Default -im (128 KiB): the path column says whether"
                        + " the job's messages went inline through master memory or through spill files.")
                .note("Baseline: in the test JVM, each message written to a new file from a direct buffer with a"
                        + " FileChannel, then each file read back into a direct buffer and deleted, in a temp directory"
                        + " on the file system of the jobs' work directories; nothing is fsynced, as bdmpi does not.")
                .note("Target: " + TARGET + " the baseline for messages of 1 MiB and more.")
                .publish();
    }

    private int messagesPerRound(int size) {
        return (int) Math.max(2, Math.min(MAX_MESSAGES, (long) bytesPerRound / size));
    }

    /** Rate of one bdmpi job's timed rounds, and which way its messages went. */
    private record Transfer(double megabytesPerSecond, String path) {
    }

    private Transfer bdmpiTransfer(int size, int messages, int running) {
        JobResult r = JobRunner.job(Bandwidth.class).ranks(2).running(running).args(size, messages, rounds)
                .timeout(JOB_TIMEOUT).run();
        Stats stats = Expect.successfulRun(r, 2, running);
        List<Measured> lines = Measured.from(r.stdout(), "Bandwidth");
        Expect.that(r, lines.size() == rounds, "expected " + rounds + " Bandwidth lines, got " + lines.size());
        double rate = Samples.of(lines.stream()
                .map(m -> megabytesPerSecond(m.get("bytes") * m.get("messages"), m.get("ns"))).toList()).median();
        Stats.Node node = stats.node0();
        return new Transfer(rate, node.bytesSpilled() == 0 ? "inline" : "spill files");
    }

    /** MB/s of each timed round of plain file I/O (after one warm-up round). */
    private List<Double> fileRounds(int size, int messages) {
        List<Double> rates = new ArrayList<>();
        try (TempDirectory dir = TempDirectory.create("bench-file-")) {
            ByteBuffer message = ByteBuffer.allocateDirect(size);
            for (int round = 0; round <= rounds; round++) {
                long start = System.nanoTime();
                writeAndReadBack(dir.path(), message, messages);
                long ns = System.nanoTime() - start;
                if (round > 0) {
                    rates.add(megabytesPerSecond((long) size * messages, ns));
                }
            }
        }
        return rates;
    }

    private static void writeAndReadBack(Path dir, ByteBuffer message, int messages) {
        try {
            for (int i = 0; i < messages; i++) {
                try (FileChannel ch = FileChannel.open(dir.resolve("m" + i), StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE)) {
                    message.clear();
                    while (message.hasRemaining()) {
                        ch.write(message);
                    }
                }
            }
            for (int i = 0; i < messages; i++) {
                Path file = dir.resolve("m" + i);
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    message.clear();
                    while (message.hasRemaining() && ch.read(message) >= 0) {
                        // read until the buffer is full
                    }
                }
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("file baseline failed in " + dir, e);
        }
    }

    private static double megabytesPerSecond(long bytes, long nanos) {
        return bytes / 1e6 / (nanos / 1e9);
    }

    private static String humanSize(int bytes) {
        return bytes >= MIB && bytes % MIB == 0 ? bytes / MIB + " MiB"
                : bytes >= KIB && bytes % KIB == 0 ? bytes / KIB + " KiB" : bytes + " B";
    }
}
