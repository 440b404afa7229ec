package io.bdmpi.tests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bdmpi.tests.programs.Switches;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The nrunning invariant under the master's fast paths: requests handled on the thread that reads
 * them, replies written from there, switches thousands of times a second. {@link Switches}
 * ping-pongs between pairs of ranks and runs small collectives; two independent records must
 * never show more than {@code -nr} slaves running at once: the master's {@code --trace} (its
 * RUNNING intervals) and the ranks' own clock readings of when their code ran (which lie inside
 * those intervals, so they check that a slave only runs once its reply came).
 */
class SwitchInvariantTest {

    private static final int ROUNDS = 300;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"2,1", "6,1", "6,2", "8,3"})
    void neverMoreThanNrunningRunAtOnce(int ranks, int running) throws IOException {
        Path trace = dir.resolve("trace.json");
        JobResult r = JobRunner.job(Switches.class).ranks(ranks).running(running).args(ROUNDS, dir)
                .options("--trace", trace.toString()).run();
        Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "Switches", ranks);

        List<long[]> ran = new ArrayList<>();
        for (int rank = 0; rank < ranks; rank++) {
            List<String> lines = Files.readAllLines(dir.resolve("runs-" + rank + ".txt"));
            // Init to the first call, then every round: one stretch before the ping-pong wait, barrier, allReduce; then to the end.
            Expect.that(r, lines.size() == 3 * ROUNDS + 1, "rank " + rank + " recorded " + lines.size() + " stretches");
            for (String line : lines) {
                String[] f = line.split(" ");
                ran.add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])});
            }
        }
        Overlap byRanks = mostAtOnce(ran);
        Expect.that(r, byRanks.count() <= running, byRanks.count() + " ranks ran their own code at once (nanoTime "
                + byRanks.at() + "), more than -nr " + running);

        List<long[]> runningIntervals = runningIntervals(trace);
        Expect.that(r, runningIntervals.size() >= (long) ranks * ROUNDS, "only " + runningIntervals.size()
                + " RUNNING intervals in the trace: the job did not switch at every message");
        Overlap byMaster = mostAtOnce(runningIntervals);
        Expect.that(r, byMaster.count() <= running, byMaster.count() + " slaves RUNNING at once in the trace (at "
                + byMaster.at() + " ns), more than -nr " + running);
    }

    /** The most intervals that hold one instant, and the first such instant; an end and a start at one instant do not overlap. */
    private record Overlap(int count, long at) {
    }

    private static Overlap mostAtOnce(List<long[]> intervals) {
        List<long[]> edges = new ArrayList<>();
        for (long[] i : intervals) {
            edges.add(new long[] {i[0], 1});
            edges.add(new long[] {i[1], -1});
        }
        edges.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        int now = 0;
        Overlap most = new Overlap(0, 0);
        for (long[] e : edges) {
            now += (int) e[1];
            if (now > most.count()) {
                most = new Overlap(now, e[0]);
            }
        }
        return most;
    }

    /** The trace's RUNNING intervals as {start, end} in nanoseconds (the trace has microseconds with fractions). */
    private static List<long[]> runningIntervals(Path trace) throws IOException {
        List<long[]> out = new ArrayList<>();
        for (JsonNode e : new ObjectMapper().readTree(trace.toFile()).get("traceEvents")) {
            if (e.get("ph").asText().equals("X") && e.get("cat").asText().equals("RUNNING")) {
                double ts = e.get("ts").asDouble();
                out.add(new long[] {Math.round(ts * 1000), Math.round((ts + e.get("dur").asDouble()) * 1000)});
            }
        }
        return out;
    }
}
