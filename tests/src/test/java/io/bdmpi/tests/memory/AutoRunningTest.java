package io.bdmpi.tests.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bdmpi.tests.programs.Phases;
import io.bdmpi.tests.programs.memory.HeapUser;
import io.bdmpi.tests.programs.memory.OffHeapUser;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code -nr auto}: the master raises and lowers the number of running slaves from the memory
 * the node's limit leaves and the slaves' footprints. Checked from the job's statistics (every
 * change recorded) and its trace (no slave was resumed while as many as allowed ran).
 */
class AutoRunningTest {

    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    /** Small slaves and no limit: from 1 at the start, auto rises to -ns and all of them run at once. */
    @Test
    void smallSlavesWithoutALimitRiseToAllSlaves() throws IOException {
        int ranks = 4;
        Path trace = dir.resolve("trace.json");
        JobResult r = JobRunner.job(Phases.class).ranks(ranks).runningAuto()
                .options("--progress", "1", "--trace", trace.toString()).args(8, 300, 1024).run();
        Stats stats = successfulAutoRun(r, ranks, trace);
        List<Stats.NrunningChange> changes = stats.node0().nrunningChanges();
        Expect.that(r, changes.get(0).from() == 1, "auto starts at 1: " + changes);
        Expect.that(r, changes.get(changes.size() - 1).to() == ranks, "auto did not rise to -ns=" + ranks + ": " + changes);
        Expect.that(r, stats.node0().maxRunning() == ranks, "never all " + ranks + " slaves at once: " + stats.node0());
        Expect.that(r, changes.get(0).reason().contains(" available less twice a "), "no limit: the node's memory counts, "
                + changes.get(0).reason());
        Expect.that(r, !r.stderrContaining("bdmpiexec: .* slaves, -nr auto " + ranks + " \\(1->" + ranks + " at 0:0\\d\\)").isEmpty(),
                "the progress summaries show the count and its change");
    }

    /**
     * Six slaves with 96 MiB of off-heap data each (576 MiB in all) under a limit of 768 MiB, which
     * also holds the master's and the six slaves' JVMs (some 200 MiB): not every slave's data fits at
     * once. Auto rises from 1 once a slave has run, but stays below -ns, at a count whose slaves fit.
     */
    @Test
    void offHeapSlavesUnderALimitSettleOnACountThatFits() throws IOException {
        Assumptions.assumeTrue(MemoryLimitTest.cgroupsAvailable(), "no memory cgroup here");
        int ranks = 6;
        int mibPerRank = 96;
        long limit = 768 * MIB;
        Path trace = dir.resolve("trace.json");
        JobResult r = JobRunner.job(OffHeapUser.class).ranks(ranks).runningAuto()
                .options("--memory-limit", (limit / MIB) + "m", "--slave-jvm-opts", "-Xmx32m", "--trace", trace.toString())
                .args(mibPerRank, "NONE", 6).timeout(Duration.ofSeconds(180)).run();
        Stats stats = successfulAutoRun(r, ranks, trace);
        for (int rank = 0; rank < ranks; rank++) {
            r.assertStdoutHasLine("rank " + rank + " ok");
        }
        List<Stats.NrunningChange> changes = stats.node0().nrunningChanges();
        System.out.println("AutoRunningTest: " + changes);
        // Once slaves finish, what is left may run at once: the count that matters is the one before.
        int settled = allowedAt(changes, events(trace, "FINALIZED").get(0)[0]);
        long largestSlave = stats.slaves().stream().mapToLong(Stats.Slave::peakRssBytes).max().orElseThrow();
        Expect.that(r, settled >= 2 && settled < ranks, "settled on " + settled + " of " + ranks + ": " + changes);
        Expect.that(r, settled * largestSlave <= limit, settled + " slaves of up to " + largestSlave / MIB
                + " MiB peak RSS do not fit the limit");
        for (Stats.NrunningChange c : changes) {
            Expect.that(r, c.budgetBytes() == limit && c.reason().contains("MiB --memory-limit"), "the limit is the budget: " + c);
            Expect.that(r, c.perRunningSlaveBytes() >= mibPerRank * MIB * 9 / 10,
                    "a running slave needs its arrays, at least " + mibPerRank + " MiB: " + c);
        }
    }

    /** Several nodes: each master decides for its own node, and each node's changes are in the joined stats. */
    @Test
    void eachNodeDecidesForItself() {
        int perNode = 3;
        JobResult r = JobRunner.job(Phases.class).nodes(2).ranks(perNode).runningAuto().args(8, 300, 1024)
                .timeout(Duration.ofSeconds(120)).run();
        Stats stats = Expect.successfulRun(r, 2, perNode, perNode);
        for (Stats.Node node : stats.nodes()) {
            List<Stats.NrunningChange> changes = node.nrunningChanges();
            Expect.that(r, node.runningAuto() && !changes.isEmpty() && changes.get(0).from() == 1
                    && changes.get(changes.size() - 1).to() == perNode, "node " + node.node() + " did not rise to -ns: " + changes);
        }
    }

    @Test
    void badCountsAreUsageErrors() {
        for (String bad : List.of("autox", "0", "-1", "Auto", "")) {
            JobResult r = JobRunner.launch(Duration.ofSeconds(30), "-ns", "4", "-nr", bad, "-cp", JobRunner.testClassPath(),
                    HeapUser.class.getName(), "1");
            Expect.that(r, r.exitCode() == 2 && r.stderr().stream().filter(l -> l.startsWith("bdmpiexec: ")).count() == 1
                    && (r.stderr().get(0).contains("'" + bad + "' is neither a number of slaves nor auto")
                    || r.stderr().get(0).contains("-nr=" + bad + " must be between 1 and -ns=4")), "-nr " + bad + " accepted");
        }
    }

    /**
     * The job succeeded under -nr auto, its changes are recorded and in range, and the trace shows
     * that no slave was resumed while as many slaves ran as were allowed then.
     */
    private static Stats successfulAutoRun(JobResult r, int ranks, Path trace) throws IOException {
        Stats stats = r.requireStats();
        Stats.Node node = stats.node0();
        Expect.successfulRun(r, ranks, node.running());
        Expect.that(r, node.runningAuto(), "runningAuto is not set");
        List<Stats.NrunningChange> changes = node.nrunningChanges();
        Expect.that(r, !changes.isEmpty(), "no change of nrunning recorded");
        int allowed = 1;
        int most = 1;
        double last = 0;
        for (Stats.NrunningChange c : changes) {
            Expect.that(r, c.from() == allowed && c.to() != c.from() && c.to() >= 1 && c.to() <= ranks
                    && c.timeSeconds() >= last && c.timeSeconds() <= stats.wallTimeSeconds(), "change out of order: " + c);
            Expect.that(r, c.reason().startsWith((c.to() > c.from() ? "raised" : "lowered") + " from " + c.from() + " to " + c.to()),
                    "reason: " + c);
            allowed = c.to();
            most = Math.max(most, allowed);
            last = c.timeSeconds();
        }
        Expect.that(r, node.running() == most, "running " + node.running() + " is not the most allowed, " + most);
        checkResumesAgainstAllowed(r, trace, changes);
        return stats;
    }

    /** At every start of a RUNNING interval, at most the count allowed at that time were RUNNING (itself included). */
    private static void checkResumesAgainstAllowed(JobResult r, Path trace, List<Stats.NrunningChange> changes) throws IOException {
        List<double[]> running = events(trace, "RUNNING");
        Expect.that(r, !running.isEmpty(), "no RUNNING interval in the trace");
        for (double[] resumed : running) {
            int allowed = allowedAt(changes, resumed[0]);
            long atOnce = running.stream().filter(i -> i[0] <= resumed[0] && resumed[0] < i[1]).count();
            Expect.that(r, atOnce <= allowed, atOnce + " slaves RUNNING at " + resumed[0] + " us, when " + allowed + " were allowed");
        }
    }

    /** The count allowed at {@code us} microseconds after the master's start (1 before any change). */
    private static int allowedAt(List<Stats.NrunningChange> changes, double us) {
        int allowed = 1;
        for (Stats.NrunningChange c : changes) {
            if (c.timeSeconds() * 1e6 <= us) {
                allowed = c.to();
            }
        }
        return allowed;
    }

    /** The trace's intervals in {@code state}, as {start, end} in microseconds, by start. */
    private static List<double[]> events(Path trace, String state) throws IOException {
        List<double[]> out = new ArrayList<>();
        for (JsonNode e : new ObjectMapper().readTree(trace.toFile()).get("traceEvents")) {
            if (e.get("ph").asText().equals("X") && e.get("cat").asText().equals(state)) {
                out.add(new double[] {e.get("ts").asDouble(), e.get("ts").asDouble() + e.get("dur").asDouble()});
            }
        }
        out.sort(Comparator.comparingDouble(i -> i[0]));
        return out;
    }
}
