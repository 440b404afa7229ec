package io.bdmpi.tests.support;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The end-of-run statistics a master writes with {@code --stats}, as documented:
 * <pre>
 * {"wallTimeSeconds": d, "exitCode": n,
 *  "nodes":  [{"node","slaves","running","maxRunning","messages","bytesInline","bytesSpilled","spillFiles",
 *              "runSeconds","blockedSeconds","runnableSeconds","resumes","pollYields","preemptions","peakRssBytes",
 *              "runningAuto","nrunningChanges":[{"timeSeconds","from","to","budgetBytes","restBytes",
 *              "perRunningSlaveBytes","requiredBytes","reason"}]}],
 *  "slaves": [{"rank","node","pid","exitCode","runSeconds","blockedSeconds","runnableSeconds","resumes",
 *              "pollYields","preemptions","messagesSent","bytesSentInline","bytesSentSpilled","peakRssBytes"}],
 *  "total":  {the fields of a node, every node's summed; "node": -1}}
 * </pre>
 * Every documented field is required (a missing one fails the parse, so a schema drift is caught);
 * extra fields are allowed.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Stats(double wallTimeSeconds, int exitCode, List<Node> nodes, List<Slave> slaves, List<Recovery> recoveries, Node total) {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    /**
     * One node's totals; {@code maxRunning} is the most slaves ever RUNNING at once on it; times, resumes, peak RSS
     * summed over its slaves. Under -nr auto ({@code runningAuto}), {@code running} is the most it allowed and
     * {@code nrunningChanges} lists its changes.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Node(int node, int slaves, int running, int maxRunning, long messages, long bytesInline,
                       long bytesSpilled, long spillFiles, double runSeconds, double blockedSeconds,
                       double runnableSeconds, long resumes, long pollYields, long preemptions, long peakRssBytes,
                       boolean runningAuto, List<NrunningChange> nrunningChanges) {
    }

    /** A change of the count of slaves allowed to run at once under -nr auto. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NrunningChange(double timeSeconds, int from, int to, long budgetBytes, long restBytes,
                                 long perRunningSlaveBytes, long requiredBytes, String reason) {
    }

    /** One slave (rank). Times are seconds spent in each state. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Slave(int rank, int node, long pid, int exitCode, double runSeconds, double blockedSeconds,
                        double runnableSeconds, long resumes, long pollYields, long preemptions, long messagesSent,
                        long bytesSentInline, long bytesSentSpilled, long peakRssBytes) {
    }

    /** A roll-back to a checkpoint ({@code --recover}). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Recovery(int recovery, String failure, int checkpoint, double lostSeconds, double restartSeconds) {
    }

    /** Parses a stats file. */
    public static Stats read(Path file) throws IOException {
        return MAPPER.readValue(file.toFile(), Stats.class);
    }

    /** The only node of a single-node job. */
    public Node node0() {
        if (nodes.size() != 1) {
            throw new AssertionError("expected stats of exactly one node, got " + nodes.size() + ": " + nodes);
        }
        return nodes.get(0);
    }

    /** The slave of the given world rank. */
    public Slave rank(int rank) {
        return slaves.stream().filter(s -> s.rank() == rank).findFirst()
                .orElseThrow(() -> new AssertionError("no stats for rank " + rank + " in " + slaves));
    }
}
