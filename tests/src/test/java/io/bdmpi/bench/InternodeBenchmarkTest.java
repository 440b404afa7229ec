package io.bdmpi.bench;

import io.bdmpi.master.internode.MpiLauncher;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import static io.bdmpi.bench.Report.column;

/**
 * Slave-to-slave transfers between two nodes (two masters on this machine over MPICH, one slave
 * each: {@code -nn 2 -ns 1 -nr 1}) against raw MPI between two processes started the same way
 * ({@code mpiexec -n 2 java ...}, as the masters are) with the masters' own binding: {@link RawMpi}.
 * Both run {@link Bandwidth} and {@link PingPong}'s exchanges and print the same lines. The two
 * alternate, run by run, so both see the same load from whatever else the machine runs. With each
 * bandwidth run, {@link SpillStages} times what bdmpi's path adds to MPI's copy, stage by stage, and
 * the report derives from it the ceiling of that path on this machine.
 *
 * <p>Properties: {@code bench.internode.sizes} (bytes, "67108864,1048576"),
 * {@code .bytesPerRound} (512 MiB; the message count is this over the size, at least 2),
 * {@code .rounds} (3 timed rounds per run), {@code .warmUpRounds} (10 rounds before them, about 5 GiB:
 * a long job's bandwidth is that of masters whose JIT compilers are done, and they compile for some
 * seconds), {@code .repeats} (3 runs of each, alternating), {@code .warmUp} (2000 round trips),
 * {@code .roundTrips} (500 per batch), {@code .batches} (5).
 */
@Tag("benchmark")
class InternodeBenchmarkTest {

    private static final int MIB = 1024 * 1024;
    /** The target applies to this size. */
    private static final int TARGET_SIZE = 64 * MIB;
    private static final Target TARGET = Target.atLeast(0.5);
    private static final int LATENCY_BYTES = 8;
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(5);
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private final List<Integer> sizes = BenchConfig.integers("bench.internode.sizes",
            List.of(TARGET_SIZE, MIB), List.of(TARGET_SIZE, MIB));
    private final int bytesPerRound = BenchConfig.integer("bench.internode.bytesPerRound", 512 * MIB, 128 * MIB);
    private final int rounds = BenchConfig.integer("bench.internode.rounds", 3, 1);
    private final int warmUpRounds = BenchConfig.integer("bench.internode.warmUpRounds", 10, 1);
    private final int repeats = BenchConfig.integer("bench.internode.repeats", 3, 1);
    private final int warmUp = BenchConfig.integer("bench.internode.warmUp", 2000, 100);
    private final int perBatch = BenchConfig.integer("bench.internode.roundTrips", 500, 100);
    private final int batches = BenchConfig.integer("bench.internode.batches", 5, 3);

    @Test
    void acrossTwoNodesAgainstRawMpi() {
        String loadBefore = loadAverage();
        List<List<Double>> rawRates = new ArrayList<>();
        List<List<Double>> bdmpiRates = new ArrayList<>();
        List<List<Measured>> stages = new ArrayList<>();
        sizes.forEach(s -> {
            rawRates.add(new ArrayList<>());
            bdmpiRates.add(new ArrayList<>());
            stages.add(new ArrayList<>());
        });
        List<Double> rawMicros = new ArrayList<>();
        List<Double> bdmpiMicros = new ArrayList<>();
        for (int repeat = 0; repeat < repeats; repeat++) {
            for (int i = 0; i < sizes.size(); i++) {
                int size = sizes.get(i);
                String[] args = {Integer.toString(size), Integer.toString(messagesPerRound(size)), Integer.toString(rounds),
                        Integer.toString(warmUpRounds)};
                rawRates.get(i).addAll(rates(raw("bandwidth", args)));
                bdmpiRates.get(i).addAll(rates(bdmpi(Bandwidth.class, "Bandwidth", rounds, (Object[]) args)));
                stages.get(i).addAll(spillStages(size));
            }
            rawMicros.addAll(micros(raw("pingpong", pingPongArgs())));
            bdmpiMicros.addAll(micros(bdmpi(PingPong.class, "PingPong", batches, (Object[]) pingPongArgs())));
        }
        String loadAfter = loadAverage();

        Report report = Report.of("internode", "Two nodes: slave to slave across masters vs raw MPI",
                column("measure", "measure"),
                column("rawMedian", "raw MPI (median)"),
                column("rawRange", "raw MPI (min-max)"),
                column("bdmpiMedian", "bdmpi across nodes (median)"),
                column("bdmpiRange", "bdmpi (min-max)"),
                column("ratio", "ratio bdmpi / raw"),
                column("target", "target"),
                column("met", "met"));
        for (int i = 0; i < sizes.size(); i++) {
            int size = sizes.get(i);
            Samples raw = Samples.of(rawRates.get(i));
            Samples bdmpi = Samples.of(bdmpiRates.get(i));
            double ratio = bdmpi.median() / raw.median();
            boolean targeted = size == TARGET_SIZE;
            report.row(size / MIB + " MiB one way, MB/s (" + messagesPerRound(size) + " msgs/round)", raw.median(), range(raw),
                    bdmpi.median(), range(bdmpi), ratio, targeted ? TARGET.toString() : null,
                    targeted ? TARGET.metBy(ratio) : null);
            stageRows(report, size, raw, stages.get(i));
        }
        Samples raw = Samples.of(rawMicros);
        Samples bdmpi = Samples.of(bdmpiMicros);
        report.row(LATENCY_BYTES + " B round trip, µs", raw.median(), range(raw), bdmpi.median(), range(bdmpi),
                bdmpi.median() / raw.median(), null, null);
        report.note("MB = 10^6 bytes. " + repeats + " runs of each, raw and bdmpi alternating; bandwidth: " + rounds
                        + " timed rounds per run after " + warmUpRounds + " warm-up rounds (rank 0 times from its first send to rank 1's"
                        + " one-byte ack); latency: " + batches + " batches of " + perBatch + " round trips per run after "
                        + warmUp + " warm-up ones. Medians and ranges are over all rounds or batches of all runs.")
                .note("bdmpi: bdmpiexec -nn 2 -ns 1 -nr 1 (two masters on this machine over MPICH, rank 0 on node 0,"
                        + " rank 1 on node 1), default -im: the large messages go through a spill file on each node.")
                .note("Raw MPI: RawMpi under mpiexec -n 2, the masters' launcher, JVM and MPI binding: nonblocking"
                        + " calls tested until complete, yielding in between as the pump does, from reused direct buffers"
                        + " (one copy, no files).")
                .note("Stages (SpillStages, one JVM started as slaves are, the spill code of bdmpi, a directory on the"
                        + " job's file system, one per bandwidth run, " + rounds + " timed rounds of a round's messages):"
                        + " what a large message costs besides MPI's own copy, each stage alone. MPI's copy is raw MPI's"
                        + " median time per message. The ceiling is the rate of a round if every stage overlapped"
                        + " perfectly with the others on the machine's " + CORES + " cores: the first message takes all"
                        + " its stages' time, each next one its slowest stage or its stages' total over the cores,"
                        + " whichever is longer.")
                .note("Load average (1, 5, 15 min) before: " + loadBefore + "; after: " + loadAfter
                        + ". The machine's other work slows both sides, not always equally: compare within a run.")
                .note("Target: bdmpi " + TARGET + " raw MPI's bandwidth for 64 MiB messages.")
                .publish();
    }

    /**
     * The rows of one size's stages, each in ms per message, and the ceiling they put on the path's
     * bandwidth: what bdmpi could reach on this machine with its copies as they are. A round is a
     * pipeline: its first message passes every stage, each next one follows a message time later
     * (its slowest stage, or all its stages' work shared by the cores, whichever is longer).
     */
    private void stageRows(Report report, int size, Samples raw, List<Measured> stages) {
        Samples write = msPerMessage(stages, "writeNs");
        Samples delete = msPerMessage(stages, "deleteNs");
        Samples read = msPerMessage(stages, "readNs");
        Samples rewrite = msPerMessage(stages, "rewriteNs");
        double mpiCopy = size / 1e3 / raw.median();
        String label = size / MIB + " MiB, ms per message: ";
        report.row(label + "sending slave overwrites a file its master returned", null, null, rewrite.median(),
                range(rewrite), null, null, null);
        report.row(label + "MPI's copy (raw MPI)", mpiCopy, null, null, null, null, null, null);
        report.row(label + "receiving slave maps it and copies it to its heap", null, null, read.median(), range(read),
                null, null, null);
        report.row(label + "sending slave writes a new spill file instead (none returned)", null, null, write.median(),
                range(write), null, null, null);
        report.row(label + "deleting that file", null, null, delete.median(), range(delete), null, null, null);
        ceilingRow(report, size, raw, size / MIB + " MiB, ceiling with every stage overlapped, MB/s",
                rewrite.median(), mpiCopy, read.median());
        ceilingRow(report, size, raw, size / MIB + " MiB, the same with a new sending file per message, deleted, MB/s",
                write.median(), delete.median(), mpiCopy, read.median());
    }

    private void ceilingRow(Report report, int size, Samples raw, String label, double... stageMillis) {
        double total = 0;
        double slowest = 0;
        for (double ms : stageMillis) {
            total += ms;
            slowest = Math.max(slowest, ms);
        }
        double perMessage = Math.max(slowest, total / CORES);
        int messages = messagesPerRound(size);
        double round = total + (messages - 1) * perMessage;
        double rate = messages * size / 1e3 / round;
        report.row(label, raw.median(), null, rate, null, rate / raw.median(), null, null);
    }

    private static Samples msPerMessage(List<Measured> stages, String key) {
        return Samples.of(stages.stream().map(m -> m.get(key) / 1e6 / m.get("messages")).toList());
    }

    private int messagesPerRound(int size) {
        return (int) Math.max(2, (long) bytesPerRound / size);
    }

    private String[] pingPongArgs() {
        return new String[] {Integer.toString(LATENCY_BYTES), Integer.toString(warmUp), Integer.toString(perBatch),
                Integer.toString(batches)};
    }

    /** The measurement lines of one bdmpi job of two nodes, one rank each. */
    private List<Measured> bdmpi(Class<?> program, String name, int expectedLines, Object... args) {
        JobResult r = JobRunner.job(program).nodes(2).ranks(1).running(1).args(args).timeout(JOB_TIMEOUT).run();
        Stats stats = Expect.successfulRun(r, 2, 1, 1);
        Expect.that(r, stats.slaves().stream().allMatch(s -> s.node() == s.rank()), "rank r must run on node r: " + stats.slaves());
        List<Measured> lines = Measured.from(r.stdout(), name);
        Expect.that(r, lines.size() == expectedLines, "expected " + expectedLines + " " + name + " lines, got " + lines.size());
        return lines;
    }

    /** The measurement lines of one run of {@link RawMpi} under the masters' MPI launcher. */
    static List<Measured> raw(String mode, String... args) {
        List<String> command = MpiLauncher.find(null, System.getenv()).command(2, null, null);
        command.addAll(java(List.of(), RawMpi.class));
        command.add(mode);
        command.addAll(List.of(args));
        return run(command, mode.equals("bandwidth") ? "Bandwidth" : "PingPong");
    }

    /** The lines of one run of {@link SpillStages} in a JVM started as slaves are, in a directory like a job's. */
    private List<Measured> spillStages(int size) {
        try (TempDirectory dir = TempDirectory.create("bench-stages-")) {
            List<String> command = java(ChildJvm.SLAVE_JVM_OPTIONS, SpillStages.class);
            command.addAll(List.of(dir.path().toString(), Integer.toString(size), Integer.toString(messagesPerRound(size)),
                    Integer.toString(rounds)));
            return run(command, "SpillStages");
        }
    }

    private static List<String> java(List<String> options, Class<?> main) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options);
        command.addAll(List.of("-cp", JobRunner.testClassPath(), main.getName()));
        return command;
    }

    /** Runs {@code command} to its end and returns its measurement lines of {@code program}; fails unless it exits 0 in time. */
    private static List<Measured> run(List<String> command, String program) {
        try (TempDirectory dir = TempDirectory.create("bench-output-")) {
            Path output = dir.path().resolve("output");
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(output.toFile()).start();
            boolean ended = p.waitFor(JOB_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (!ended) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (!ended || p.exitValue() != 0) {
                throw new AssertionError((ended ? "exit " + p.exitValue() : "timed out") + ": " + command + "\n" + text);
            }
            return Measured.from(text.lines().toList(), program);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    static List<Double> rates(List<Measured> lines) {
        return values(lines, m -> m.get("bytes") * m.get("messages") / 1e6 / (m.get("ns") / 1e9));
    }

    static List<Double> micros(List<Measured> lines) {
        return values(lines, m -> m.get("ns") / 1000.0 / m.get("roundTrips"));
    }

    private static List<Double> values(List<Measured> lines, ToDoubleFunction<Measured> value) {
        if (lines.isEmpty()) {
            throw new AssertionError("no measurement lines");
        }
        return lines.stream().map(value::applyAsDouble).toList();
    }

    private static String range(Samples s) {
        return Report.format(s.min()) + "-" + Report.format(s.max());
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }
}
