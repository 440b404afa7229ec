package io.bdmpi.bench;

import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.bdmpi.bench.Report.column;

/**
 * The master's heap and garbage collection with many buffered small messages ({@link SmallMessages}):
 * on the heap (default) against off-heap in Chronicle Map ({@code --offheap-messages}), in the same
 * run. While every message is buffered, the benchmark reads the master JVM's accumulated GC time
 * ({@code jcmd PerfCounter.print}), forces a full GC and reads the heap in use ({@code jcmd GC.heap_info}).
 *
 * <p>Properties: {@code bench.mastermem.messages} (1000000; quick 100000), {@code .bytes} (64).
 */
@Tag("benchmark")
class MasterMemoryBenchmarkTest {

    private static final Pattern USED = Pattern.compile("used (\\d+)K");
    private static final Pattern COUNTER = Pattern.compile("sun\\.gc\\.collector\\.\\d+\\.time=(\\d+)");
    private static final Pattern FREQUENCY = Pattern.compile("sun\\.os\\.hrt\\.frequency=(\\d+)");

    private final int messages = BenchConfig.integer("bench.mastermem.messages", 1_000_000, 100_000);
    private final int bytes = BenchConfig.integer("bench.mastermem.bytes", 64, 64);

    @Test
    void masterHeapWithBufferedMessages() {
        Report report = Report.of("mastermem", messages + " buffered messages of " + bytes + " bytes: the master's heap",
                column("store", "messages kept"),
                column("heapMiB", "master heap in use after full GC, MiB"),
                column("gcMs", "master GC time until then, ms"),
                column("sendRate", "buffered messages/s"),
                column("wallSeconds", "job wall s"));
        for (boolean offHeap : List.of(false, true)) {
            long[] measured = new long[2];
            JobRunner job = JobRunner.job(SmallMessages.class).ranks(2).running(1).args(messages, bytes)
                    .timeout(Duration.ofMinutes(10))
                    .whenStdoutHas("SmallMessages buffered", (launcher, wd) -> {
                        measured[0] = gcMillis(launcher.pid());
                        jcmd(launcher.pid(), "GC.run");
                        measured[1] = heapUsedKiB(launcher.pid());
                        Files.createFile(wd.resolve("go"));
                    });
            if (offHeap) {
                job.options("--offheap-messages");
            }
            JobResult r = job.run();
            Expect.successfulRun(r, 2, 1);
            Measured sent = Measured.of(r.stdoutMatching("SmallMessages buffered .*").get(0), "SmallMessages");
            r.assertStdoutHasLine("SmallMessages received n=" + messages);
            report.row(offHeap ? "off-heap (Chronicle Map)" : "on the heap", measured[1] / 1024.0, measured[0],
                    messages / (sent.get("ns") / 1e9), r.elapsed().toMillis() / 1000.0);
        }
        report.note("Rank 0 sends every message to rank 1, parked, then the benchmark measures the master (the bdmpiexec"
                        + " JVM, default collector and heap): GC time from its perf counters, then heap in use after a full GC.")
                .note("Off-heap keeps inline messages up to 4 KiB in a Chronicle Map persisted in the job's work directory;"
                        + " opening it costs about a second at start.")
                .publish();
    }

    private static long gcMillis(long pid) throws IOException, InterruptedException {
        String out = jcmd(pid, "PerfCounter.print");
        Matcher f = FREQUENCY.matcher(out);
        if (!f.find()) {
            throw new AssertionError("no sun.os.hrt.frequency in PerfCounter.print");
        }
        long ticks = 0;
        Matcher m = COUNTER.matcher(out);
        while (m.find()) {
            ticks += Long.parseLong(m.group(1));
        }
        return ticks * 1000 / Long.parseLong(f.group(1));
    }

    private static long heapUsedKiB(long pid) throws IOException, InterruptedException {
        Matcher m = USED.matcher(jcmd(pid, "GC.heap_info"));
        if (!m.find()) {
            throw new AssertionError("no heap use in GC.heap_info");
        }
        return Long.parseLong(m.group(1));
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new AssertionError("jcmd " + pid + " " + command + " failed: " + out);
        }
        return out;
    }
}
