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
 * schema (docs/statistics.md). {@code total} is the job's: every node's numbers summed
 * ({@link Node#sum}).
 */
public record JobStats(double wallTimeSeconds, int exitCode, String failure, List<Node> nodes, List<Slave> slaves,
                       List<Recovery> recoveries, Node total) {

    /**
     * Statistics whose total is the sum of {@code nodes}.
     *
     * @param wallTimeSeconds from the start to the end of the job
     * @param exitCode        the job's exit code
     * @param failure         why it failed, or null
     * @param nodes           each node's numbers
     * @param slaves          each slave's
     * @param recoveries      the roll-backs to a checkpoint
     */
    public JobStats(double wallTimeSeconds, int exitCode, String failure, List<Node> nodes, List<Slave> slaves,
                    List<Recovery> recoveries) {
        this(wallTimeSeconds, exitCode, failure, nodes, slaves, recoveries, Node.sum(nodes));
    }

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

        /**
         * The job's total over {@code nodes}: every count and time summed, {@code node} -1, no
         * -nr changes. {@code running} and {@code maxRunning} are the nodes' summed too: the most
         * that could run at once in the whole job, and an upper bound of the most that did.
         *
         * @param nodes the nodes' numbers
         * @return their sum
         */
        public static Node sum(List<Node> nodes) {
            int slaves = 0;
            int running = 0;
            int maxRunning = 0;
            long messages = 0;
            long inline = 0;
            long spilled = 0;
            long files = 0;
            double run = 0;
            double blocked = 0;
            double runnable = 0;
            long resumes = 0;
            long yields = 0;
            long preemptions = 0;
            long rss = 0;
            boolean auto = false;
            for (Node n : nodes) {
                slaves += n.slaves;
                running += n.running;
                maxRunning += n.maxRunning;
                messages += n.messages;
                inline += n.bytesInline;
                spilled += n.bytesSpilled;
                files += n.spillFiles;
                run += n.runSeconds;
                blocked += n.blockedSeconds;
                runnable += n.runnableSeconds;
                resumes += n.resumes;
                yields += n.pollYields;
                preemptions += n.preemptions;
                rss += n.peakRssBytes;
                auto |= n.runningAuto;
            }
            return new Node(-1, slaves, running, maxRunning, messages, inline, spilled, files, run, blocked, runnable, resumes,
                    yields, preemptions, rss, auto, List.of());
        }
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

    /** {@code lostNode} of {@link #merge} when bdmpiexec lost no node. */
    public static final int NO_LOST_NODE = -1;

    /**
     * Whether {@code node}'s part of an output, at {@code part}, goes into the joined output: not
     * when its master never wrote it, nor when bdmpiexec named that node lost. A lost master can
     * still write its part after bdmpiexec gave up on it (a stopped one that mpiexec resumes to end
     * it: Open MPI sends SIGCONT before SIGTERM), so whether it does is a race; leaving it out always
     * gives the same record of the same loss.
     */
    static boolean partOfTheRecord(Path part, int node, int lostNode) {
        return node != lostNode && Files.exists(part);
    }

    /**
     * Joins the nodes' parts into {@code stats} (one document, as one node writes, with every node's
     * section and the job's total) and removes them. A missing or unreadable part (its master died,
     * or was ended while writing it) is left out and named in {@code failure} if there is none; so
     * is the lost node's ({@link #partOfTheRecord}).
     *
     * @param exitCode   the job's exit code, as the launcher saw it
     * @param jobFailure the launcher's own reason for the failure (a lost node), which comes first; or null
     * @param lostNode   the node bdmpiexec named lost, or {@link #NO_LOST_NODE}
     * @param recoveries the times bdmpiexec started the job again after a lost node, before this last run
     */
    public static void merge(Path stats, int nodes, int exitCode, String jobFailure, int lostNode,
                             List<Recovery> recoveries) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<JobStats> parts = new ArrayList<>();
        List<Integer> missing = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            Path part = partFile(stats, n);
            if (!partOfTheRecord(part, n, lostNode)) {
                missing.add(n);
                Files.deleteIfExists(part);
                continue;
            }
            try {
                parts.add(json.readValue(part.toFile(), JobStats.class));
            } catch (IOException unreadable) {
                missing.add(n); // its master was ended while writing it
            }
            Files.delete(part);
        }
        join(parts, missing, exitCode, jobFailure).withRecoveries(recoveries).write(stats);
    }

    /**
     * The job's statistics from its nodes': nodes and slaves together (slaves by rank), the
     * longest wall time, and the first failure: {@code jobFailure}, else a node's, else the
     * missing nodes named.
     *
     * @param parts      the nodes' statistics
     * @param missing    nodes without statistics
     * @param exitCode   the job's exit code
     * @param jobFailure the launcher's own reason for the failure, or null
     * @return the joined statistics
     */
    static JobStats join(List<JobStats> parts, List<Integer> missing, int exitCode, String jobFailure) {
        List<Node> allNodes = new ArrayList<>();
        List<Slave> allSlaves = new ArrayList<>();
        double wall = 0;
        String failure = jobFailure;
        for (JobStats s : parts) {
            allNodes.addAll(s.nodes());
            allSlaves.addAll(s.slaves());
            wall = Math.max(wall, s.wallTimeSeconds());
            failure = failure != null ? failure : s.failure();
        }
        if (failure == null && !missing.isEmpty()) {
            failure = "no statistics from node(s) " + missing;
        }
        allNodes.sort(Comparator.comparingInt(Node::node));
        allSlaves.sort(Comparator.comparingInt(Slave::rank));
        return new JobStats(wall, exitCode, failure, allNodes, allSlaves, List.of());
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
