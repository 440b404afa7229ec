package io.bdmpi.bench;

import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;

import static io.bdmpi.bench.Report.column;

/**
 * One-sided communication between two ranks ({@link WinTransfer}). On one node
 * ({@code -ns 2 -nr 2}): put and get bandwidth into a window, and the rate of {@code fetchAndOp},
 * against the same work on plain shared memory in one JVM (this one): bulk copies between two
 * direct buffers, and {@code VarHandle.getAndAdd} on a direct buffer. On two nodes
 * ({@code -nn 2 -ns 1 -nr 1}, the masters carry every operation): the same against raw MPI
 * between two processes ({@link RawMpi}, as {@link InternodeBenchmarkTest} runs it): one-way
 * bandwidth of messages of the put's size, and round trips of 8 bytes.
 *
 * <p>Properties: {@code bench.win.windowMiB} (64), {@code .chunkKiB} (1024), {@code .passes} (10),
 * {@code .ops} (1000000), {@code .remoteOps} (2000).
 */
@Tag("benchmark")
class WinBenchmarkTest {

    private static final Target BANDWIDTH_TARGET = Target.atLeast(0.5);
    private static final Target ATOMIC_TARGET = Target.atLeast(0.1);
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final int windowMiB = BenchConfig.integer("bench.win.windowMiB", 64, 8);
    private final int chunkKiB = BenchConfig.integer("bench.win.chunkKiB", 1024, 1024);
    private final int passes = BenchConfig.integer("bench.win.passes", 10, 2);
    private final int ops = BenchConfig.integer("bench.win.ops", 1_000_000, 10_000);
    private final int remoteOps = BenchConfig.integer("bench.win.remoteOps", 2_000, 200);

    @Test
    void putGetAndFetchAndOpAgainstPlainSharedMemory() {
        Report report = Report.of("win", "One-sided communication between two ranks of one node, window of "
                        + windowMiB + " MiB, " + chunkKiB + " KiB per put/get",
                column("what", "operation"),
                column("bdmpi", "bdmpi"),
                column("plain", "plain, one JVM"),
                column("ratio", "ratio to plain"),
                column("target", "target"),
                column("met", "met"));
        double mb = (double) windowMiB * passes * 1.048576;
        double[] plain = plain();
        JobResult r = JobRunner.job(WinTransfer.class).ranks(2).running(2)
                .args(windowMiB, chunkKiB, passes, ops).timeout(Duration.ofMinutes(10)).run();
        r.assertSucceeded();
        double put = mb / seconds(r, "PUT");
        double get = mb / seconds(r, "GET");
        double fop = ops / seconds(r, "FOP") / 1e6;
        double fopLock = ops / 10 / seconds(r, "FOPLOCK") / 1e6;
        double copy = mb / plain[0];
        double atomics = ops / plain[1] / 1e6;
        report.row("put, MB/s", put, copy, put / copy, BANDWIDTH_TARGET.toString(), BANDWIDTH_TARGET.metBy(put / copy));
        report.row("get, MB/s", get, copy, get / copy, BANDWIDTH_TARGET.toString(), BANDWIDTH_TARGET.metBy(get / copy));
        report.row("fetchAndOp in one lockAll epoch, M ops/s", fop, atomics, fop / atomics, ATOMIC_TARGET.toString(),
                ATOMIC_TARGET.metBy(fop / atomics));
        report.row("lock + fetchAndOp + unlock, M ops/s", fopLock, atomics, fopLock / atomics, null, null);
        report.note("bdmpi: rank 0 puts (then gets) the whole window of rank 1 " + passes + " times in " + chunkKiB
                        + " KiB pieces from a direct ByteBuffer inside one shared lock epoch; fetchAndOp adds 1 to a long"
                        + " of rank 0's window (" + ops + " times in one lockAll epoch, " + ops / 10
                        + " times each in its own exclusive lock).")
                .note("Plain: the same bytes copied between two direct ByteBuffers in this JVM (ByteBuffer.put), and "
                        + ops + " VarHandle.getAndAdd on a long of a direct buffer.")
                .note("Targets: put and get " + BANDWIDTH_TARGET + " of a plain copy; fetchAndOp " + ATOMIC_TARGET
                        + " of a plain atomic add (an add in place under a cross-process lock word).")
                .publish();
    }

    @Test
    void acrossTwoNodesAgainstRawMpi() {
        Report report = Report.of("win-internode", "One-sided communication between two ranks on two nodes, window of "
                        + windowMiB + " MiB, " + chunkKiB + " KiB per put/get",
                column("what", "operation"),
                column("bdmpi", "bdmpi"),
                column("raw", "raw MPI"),
                column("ratio", "ratio to raw MPI"));
        int chunk = chunkKiB << 10;
        int messages = (int) Math.max(2, ((long) windowMiB << 20) / chunk);
        double rawBandwidth = Samples.of(InternodeBenchmarkTest.rates(InternodeBenchmarkTest.raw("bandwidth",
                Integer.toString(chunk), Integer.toString(messages), Integer.toString(passes)))).median();
        double rawMicros = Samples.of(InternodeBenchmarkTest.micros(InternodeBenchmarkTest.raw("pingpong", "8", "100",
                Integer.toString(remoteOps), "5"))).median();
        JobResult r = JobRunner.job(WinTransfer.class).nodes(2).ranks(1).running(1)
                .args(windowMiB, chunkKiB, passes, remoteOps, 1).timeout(Duration.ofMinutes(10)).run();
        r.assertSucceeded();
        double mb = (double) windowMiB * passes * 1.048576;
        double put = mb / seconds(r, "PUT");
        double get = mb / seconds(r, "GET");
        double fop = remoteOps / seconds(r, "FOP") / 1e3;
        double fopLock = remoteOps / 10 / seconds(r, "FOPLOCK") / 1e3;
        double roundTrips = 1e3 / rawMicros;
        report.row("put, MB/s (raw: one-way messages of the same size)", put, rawBandwidth, put / rawBandwidth);
        report.row("get, MB/s (raw: one-way messages of the same size)", get, rawBandwidth, get / rawBandwidth);
        report.row("fetchAndOp in one lockAll epoch, k ops/s (raw: 8 B round trips/s)", fop, roundTrips, fop / roundTrips);
        report.row("lock + fetchAndOp + unlock, k ops/s (raw: 8 B round trips/s)", fopLock, roundTrips,
                fopLock / roundTrips);
        report.note("bdmpi: bdmpiexec -nn 2 -ns 1 -nr 1 (two masters on this machine, rank 0 on node 0, rank 1 on node"
                        + " 1); rank 0 puts (then gets) the whole window of rank 1 " + passes + " times in " + chunkKiB
                        + " KiB pieces inside one shared lock epoch, each a round trip slave - master - MPI - master (which"
                        + " maps rank 1's part and applies it) and back; then " + remoteOps + " fetchAndOp on a long of"
                        + " rank 1's window in one lockAll epoch, and " + remoteOps / 10 + " each in its own exclusive lock.")
                .note("Raw MPI: RawMpi under mpiexec -n 2 with the masters' binding: " + passes + " rounds of " + messages
                        + " one-way messages of " + chunkKiB + " KiB (median round), and batches of " + remoteOps
                        + " round trips of 8 bytes (median batch).")
                .publish();
    }

    /** Seconds to copy the same bytes between two direct buffers, and to do {@link #ops} atomic adds. */
    private double[] plain() {
        int chunk = chunkKiB << 10;
        ByteBuffer window = ByteBuffer.allocateDirect(windowMiB << 20);
        ByteBuffer buf = ByteBuffer.allocateDirect(chunk);
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 3; round++) { // the first warms up
            long start = System.nanoTime();
            for (int p = 0; p < passes; p++) {
                for (int at = 0; at + chunk <= window.capacity(); at += chunk) {
                    window.put(at, buf, 0, chunk);
                }
            }
            best = Math.min(best, (System.nanoTime() - start) / 1e9);
        }
        ByteBuffer counter = ByteBuffer.allocateDirect(8);
        double atomics = Double.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                LONGS.getAndAdd(counter, 0, 1L);
            }
            atomics = Math.min(atomics, (System.nanoTime() - start) / 1e9);
        }
        return new double[] {best, atomics};
    }

    private static double seconds(JobResult r, String what) {
        return Double.parseDouble(r.stdoutMatching(what + " [0-9.]+").get(0).substring(what.length() + 1));
    }
}
