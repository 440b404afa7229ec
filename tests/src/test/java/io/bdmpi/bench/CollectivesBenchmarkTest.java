package io.bdmpi.bench;

import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.bdmpi.bench.Report.column;

/**
 * Cost of collectives as the number of slaves grows, with {@code -nr 1} (every member is resumed
 * in turn): barrier, allReduce of 8 B and 1 MiB, and allToAllv moving 256 MiB in total. The
 * master's part is linear in S (each member's start is paired once), so the cost per slave should
 * stay about flat: the baseline is the per-slave cost at the smallest S of the same run.
 *
 * <p>Baseline of the growth with S: {@link RawStar}, a hub JVM resuming S plain JVMs in turn over
 * Unix-domain sockets, as many rounds as barriers, after the same warm-up: what the machine alone
 * charges per member at each S (wake-ups, caches shared by S processes).
 *
 * <p>Properties: {@code bench.collectives.sizes} ("8,32,128"), {@code bench.collectives.allToAllMiB}
 * (256), {@code bench.collectives.calls} (calls of barrier, allReduce 8 B, allReduce 1 MiB and
 * allToAllv: "10000,10000,20,3"; each slave JVM compiles the collective path with C2 only after some thousand calls,
 * so fewer small calls time the interpreter and C1 more than bdmpi).
 */
@Tag("benchmark")
class CollectivesBenchmarkTest {

    private static final String[] OPERATIONS = {"barrier", "allReduce 8 B", "allReduce 1 MiB", "allToAllv (total)"};
    /** Per-slave cost at S within this factor of that at the smallest S counts as linear growth. */
    private static final double LINEAR_TOLERANCE = 2.0;
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(15);

    private final List<Integer> sizes = BenchConfig.integers("bench.collectives.sizes", List.of(8, 32, 128), List.of(4, 8));
    private final int allToAllMiB = BenchConfig.integer("bench.collectives.allToAllMiB", 256, 16);
    private final List<Integer> calls = BenchConfig.integers("bench.collectives.calls", List.of(10000, 10000, 20, 3),
            List.of(50, 50, 2, 1));
    /** Unmeasured calls before each operation's timed ones, in percent of their count: 300 times the steady state. */
    private final int warmUpPercent = BenchConfig.integer("bench.collectives.warmUpPercent", 10, 10);

    @Test
    void costPerSlave() {
        Report report = Report.of("collectives", "Collectives with -nr 1: cost per call and per slave",
                column("operation", "operation"),
                column("slaves", "S"),
                column("msPerCall", "ms / call"),
                column("usPerCallPerSlave", "µs / call / slave"),
                column("ratio", "per-slave cost vs smallest S"),
                column("cpuUsPerCallPerSlave", "job CPU µs / call / slave"),
                column("cpuRatio", "per-slave CPU vs smallest S"),
                column("jitUsPerCallPerSlave", "of which JIT compilers, µs"),
                column("rawStarUsPerMember", "raw star µs / member"),
                column("rawStarRatio", "raw star vs smallest S"),
                column("linear", "linear in S (ratio <= " + LINEAR_TOLERANCE + ")"));
        Map<Integer, Double> smallestPerSlave = new HashMap<>();
        Map<Integer, Double> smallestCpuPerSlave = new HashMap<>();
        double smallestStar = 0;
        for (int slaves : sizes) {
            double starUs = rawStarMicrosPerMember(slaves);
            smallestStar = smallestStar == 0 ? starUs : smallestStar;
            JobResult job = JobRunner.job(CollectiveCost.class).ranks(slaves).running(1).timeout(JOB_TIMEOUT)
                    .args((long) allToAllMiB << 20, calls.get(0), calls.get(1), calls.get(2), calls.get(3), warmUpPercent / 100.0)
                    .run();
            Expect.successfulRun(job, slaves, 1);
            List<Measured> lines = Measured.from(job.stdout(), "CollectiveCost");
            Expect.that(job, lines.size() == OPERATIONS.length, "expected " + OPERATIONS.length + " figures: " + lines);
            for (Measured m : lines) {
                int op = (int) m.get("op");
                double ms = m.get("nanosPerCall") / 1e6;
                double usPerSlave = ms * 1000 / slaves;
                double ratio = usPerSlave / smallestPerSlave.computeIfAbsent(op, k -> usPerSlave);
                double cpuUsPerSlave = m.get("cpuNanosPerCall") / 1e3 / slaves;
                double cpuRatio = cpuUsPerSlave / smallestCpuPerSlave.computeIfAbsent(op, k -> cpuUsPerSlave);
                double jitUsPerSlave = m.get("jitNanosPerCall") / 1e3 / slaves;
                report.row(OPERATIONS[op], slaves, ms, usPerSlave, ratio, cpuUsPerSlave, cpuRatio, jitUsPerSlave,
                        starUs, starUs / smallestStar, ratio <= LINEAR_TOLERANCE);
            }
        }
        report.note("One job per S, -ns S -nr 1, default -im. Rank 0 times each operation between barriers after "
                        + warmUpPercent + " % as many unmeasured warm-up calls; calls per operation: " + calls + ".")
                .note("allToAllv moves " + allToAllMiB + " MiB in total: each rank sends " + allToAllMiB
                        + " MiB / S, in S equal blocks; send buffers over -im go through one spill file per rank.")
                .note("Job CPU: the CPU time of the master and every slave (all threads, /proc/PID/task/TID/schedstat)"
                        + " over the timed calls; on a loaded machine it grows far less than the wall time. The JIT part is that of"
                        + " the JVMs' compiler threads, which compile the same code once per slave JVM.")
                .note("Raw star: RawStar, a hub JVM writing one byte to each of S plain JVMs in turn over Unix-domain sockets"
                        + " and reading its answer, as many rounds as barriers after the same warm-up (the same figure on every row of an S).")
                .note("Results are checked in the program (sums, and the first and last byte of every block).")
                .publish();
    }

    /** {@link RawStar}'s cost per member at {@code members}, in µs, rounds and warm-up as the barrier's. */
    private double rawStarMicrosPerMember(int members) {
        int rounds = calls.get(0);
        try (TempDirectory dir = TempDirectory.create("star");
             ChildJvm hub = ChildJvm.start(RawStar.class, "hub", dir.path().toString(), Integer.toString(members),
                     Integer.toString(rounds), Integer.toString(Math.max(1, rounds * warmUpPercent / 100)))) {
            Measured m = Measured.of(hub.readLine(), "RawStar");
            hub.awaitSuccess(60);
            return m.get("nanosPerMember") / 1e3;
        }
    }
}
