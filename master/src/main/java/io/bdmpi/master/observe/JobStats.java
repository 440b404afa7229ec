package io.bdmpi.master.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * End-of-run statistics, written as JSON by {@code --stats}. The field names are the documented
 * schema (docs/statistics.md).
 */
public record JobStats(double wallTimeSeconds, int exitCode, String failure, List<Node> nodes, List<Slave> slaves,
                       List<Recovery> recoveries) {

    /**
     * One node's totals. {@code maxRunning} is the most slaves ever RUNNING at once; the times,
     * resumes and {@code peakRssBytes} are its slaves' values summed. {@code running} is -nr, or
     * under {@code -nr auto} ({@code runningAuto}) the largest count it allowed, and
     * {@code nrunningChanges} says when and why it changed (empty for a fixed -nr).
     */
    public record Node(int node, int slaves, int running, int maxRunning, long messages, long bytesInline,
                       long bytesSpilled, long spillFiles, double runSeconds, double blockedSeconds,
                       double runnableSeconds, long resumes, long pollYields, long preemptions, long peakRssBytes,
                       boolean runningAuto, List<NrunningChange> nrunningChanges) {
    }

    /**
     * A change of the number of slaves allowed to run at once under {@code -nr auto} (see
     * {@link io.bdmpi.master.scheduler.RunningController}).
     *
     * @param timeSeconds          since the master started
     * @param from                 the count allowed before
     * @param to                   the count allowed from now on
     * @param budgetBytes          memory the job may use: its --memory-limit, or MemAvailable plus what it holds
     * @param restBytes            memory held whoever runs: the master's and every slave's anonymous memory at rest
     * @param perRunningSlaveBytes the most a running slave was seen to need beyond its memory at rest
     * @param requiredBytes        what {@code to} slaves running at once would need
     * @param reason               the same in words
     */
    public record NrunningChange(double timeSeconds, int from, int to, long budgetBytes, long restBytes,
                                 long perRunningSlaveBytes, long requiredBytes, String reason) {
    }

    /**
     * One slave. Times are spent in each state; {@code exitCode} is -1 if the process never ended.
     * {@code pollYields}: how often a poll that found nothing gave its slot up to a waiting slave;
     * {@code preemptions}: how often it was stopped for running past the quantum without an MPI call.
     */
    public record Slave(int rank, int node, long pid, int exitCode, double runSeconds, double blockedSeconds,
                        double runnableSeconds, long resumes, long pollYields, long preemptions, long messagesSent,
                        long bytesSentInline, long bytesSentSpilled, long peakRssBytes) {
    }

    /** Where the master of {@code node} of a job of several nodes writes its part; {@link #merge} joins the parts. */
    public static Path partFile(Path stats, int node) {
        return stats.resolveSibling(stats.getFileName() + ".node" + node);
    }

    /**
     * Joins the nodes' parts into {@code stats} (one document, as one node writes) and removes them.
     * A missing part (its master died) is left out and named in {@code failure} if there is none.
     *
     * @param exitCode the job's exit code, as the launcher saw it
     */
    public static void merge(Path stats, int nodes, int exitCode) throws IOException {
        merge(stats, nodes, exitCode, List.of());
    }

    /**
     * {@link #merge(Path, int, int)} of the last run of a job that bdmpiexec started again after a
     * lost node, with those recoveries.
     */
    public static void merge(Path stats, int nodes, int exitCode, List<Recovery> recoveries) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Node> allNodes = new ArrayList<>();
        List<Slave> allSlaves = new ArrayList<>();
        double wall = 0;
        String failure = null;
        List<Integer> missing = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            Path part = partFile(stats, n);
            if (!Files.exists(part)) {
                missing.add(n);
                continue;
            }
            JobStats s = json.readValue(part.toFile(), JobStats.class);
            Files.delete(part);
            allNodes.addAll(s.nodes());
            allSlaves.addAll(s.slaves());
            wall = Math.max(wall, s.wallTimeSeconds());
            failure = failure != null ? failure : s.failure();
        }
        if (failure == null && !missing.isEmpty()) {
            failure = "no statistics from node(s) " + missing;
        }
        allSlaves.sort(Comparator.comparingInt(Slave::rank));
        new JobStats(wall, exitCode, failure, allNodes, allSlaves, List.copyOf(recoveries)).write(stats);
    }

    /**
     * One roll-back to a checkpoint ({@code --recover}). {@code lostSeconds}: work done since the
     * checkpoint (or since the start of the run that failed) and thrown away; {@code restartSeconds}:
     * from the failure until every rank had its state back, -1 if they never got it.
     */
    public record Recovery(int recovery, String failure, int checkpoint, double lostSeconds, double restartSeconds) {

        public Recovery restoredAfter(long nanos) {
            return new Recovery(recovery, failure, checkpoint, lostSeconds, nanos > 0 ? nanos / 1e9 : -1);
        }
    }

    /** The same statistics (of the last run) with the job's recoveries. */
    public JobStats withRecoveries(List<Recovery> list) {
        return new JobStats(wallTimeSeconds, exitCode, failure, nodes, slaves, List.copyOf(list));
    }

    /** Writes this as indented JSON. */
    public void write(Path file) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), this);
    }
}
