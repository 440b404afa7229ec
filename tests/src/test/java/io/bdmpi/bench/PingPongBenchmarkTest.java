package io.bdmpi.bench;

import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.bdmpi.bench.Report.column;

/**
 * Slave-to-slave round-trip latency of a small message, against a raw Unix-domain-socket round
 * trip between two plain JVMs. Both sides run the same warm-up and the same batches of round trips
 * timed with {@link System#nanoTime}; the median batch is compared.
 *
 * <p>Properties: {@code bench.pingpong.bytes} (8), {@code .warmUp} (5000), {@code .roundTrips} per
 * batch (2000), {@code .batches} (9), {@code .running} (-nr values, "1,2").
 */
@Tag("benchmark")
class PingPongBenchmarkTest {

    private static final Target TARGET = Target.atMost(1.5);
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(5);

    private final int bytes = BenchConfig.integer("bench.pingpong.bytes", 8, 8);
    private final int warmUp = BenchConfig.integer("bench.pingpong.warmUp", 5000, 100);
    private final int perBatch = BenchConfig.integer("bench.pingpong.roundTrips", 2000, 200);
    private final int batches = BenchConfig.integer("bench.pingpong.batches", 9, 3);
    private final List<Integer> runningCounts =
            BenchConfig.integers("bench.pingpong.running", List.of(1, 2), List.of(1, 2));

    @Test
    void roundTripLatency() {
        Samples baseline = unixSocketRoundTrips();
        Report report = Report.of("pingpong", "Ping-pong latency (" + bytes + "-byte message)",
                column("config", "configuration"),
                column("roundTrips", "round trips timed"),
                column("medianUs", "µs / round trip (median batch)"),
                column("bestUs", "µs / round trip (best batch)"),
                column("ratio", "ratio to baseline (median)"),
                column("target", "target"),
                column("met", "met"));
        report.row("baseline: Unix socket between 2 plain JVMs", baseline.count() * perBatch, baseline.median(),
                baseline.min(), 1.0, null, null);
        for (int running : runningCounts) {
            Samples bdmpi = bdmpiRoundTrips(running);
            double ratio = bdmpi.median() / baseline.median();
            report.row("bdmpi slave to slave, -ns 2 -nr " + running, bdmpi.count() * perBatch, bdmpi.median(),
                    bdmpi.min(), ratio, TARGET.toString(), TARGET.metBy(ratio));
        }
        report.note("Each side: " + warmUp + " warm-up round trips, then " + batches + " batches of " + perBatch
                        + " timed with System.nanoTime in the sending JVM; figures are per round trip.")
                .note("With -nr 1 every message switches the running slave: the sender parks in recv and the master"
                        + " resumes the other rank. With -nr 2 both ranks hold a slot and only the master relays.")
                .note("Target: bdmpi round trip " + TARGET + " the Unix-socket baseline.")
                .publish();
    }

    /** µs per round trip of each batch, over a raw Unix socket to an echoing plain JVM. */
    private Samples unixSocketRoundTrips() {
        try (TempDirectory dir = TempDirectory.create("bench-echo-")) {
            Path socket = dir.path().resolve("echo.sock");
            try (ChildJvm echo = ChildJvm.start(EchoServer.class, socket.toString())) {
                String ready = echo.readLine();
                if (!ready.equals("READY")) {
                    throw new AssertionError("echo server said '" + ready + "' instead of READY");
                }
                Samples samples = timeRoundTrips(socket);
                echo.awaitSuccess(10);
                return samples;
            }
        }
    }

    private Samples timeRoundTrips(Path socket) {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer message = ByteBuffer.allocateDirect(bytes);
            roundTrips(channel, message, warmUp);
            List<Double> micros = new ArrayList<>();
            for (int b = 0; b < batches; b++) {
                long start = System.nanoTime();
                roundTrips(channel, message, perBatch);
                micros.add(microsPerRoundTrip(System.nanoTime() - start, perBatch));
            }
            return Samples.of(micros);
        } catch (IOException e) {
            throw new UncheckedIOException("Unix-socket ping-pong failed", e);
        }
    }

    private static void roundTrips(SocketChannel channel, ByteBuffer message, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            message.clear();
            while (message.hasRemaining()) {
                channel.write(message);
            }
            message.clear();
            while (message.hasRemaining()) {
                if (channel.read(message) < 0) {
                    throw new IOException("echo server closed the socket");
                }
            }
        }
    }

    /** µs per round trip of each batch that rank 0 of a bdmpi job timed. */
    private Samples bdmpiRoundTrips(int running) {
        JobResult r = JobRunner.job(PingPong.class).ranks(2).running(running).args(bytes, warmUp, perBatch, batches)
                .timeout(JOB_TIMEOUT).run();
        Expect.successfulRun(r, 2, running);
        List<Measured> lines = Measured.from(r.stdout(), "PingPong");
        Expect.that(r, lines.size() == batches, "expected " + batches + " PingPong lines, got " + lines.size());
        return Samples.of(lines.stream().map(m -> microsPerRoundTrip(m.get("ns"), m.get("roundTrips"))).toList());
    }

    private static double microsPerRoundTrip(long nanos, long roundTrips) {
        return nanos / 1000.0 / roundTrips;
    }
}
