package io.bdmpi.master;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * End-of-run statistics, written as JSON by {@code --stats}. The field names are the documented
 * schema (README, "Statistics").
 */
public record JobStats(double wallTimeSeconds, int exitCode, String failure, List<Node> nodes, List<Slave> slaves,
                       List<Recovery> recoveries) {

    /** One node's totals. {@code maxRunning} is the most slaves ever RUNNING at once. */
    public record Node(int node, int slaves, int running, int maxRunning, long messages, long bytesInline,
                       long bytesSpilled, long spillFiles) {
    }

    /** One slave. Times are spent in each state; {@code exitCode} is -1 if the process never ended. */
    public record Slave(int rank, int node, long pid, int exitCode, double runSeconds, double blockedSeconds,
                        double runnableSeconds, long resumes, long messagesSent, long bytesSentInline,
                        long bytesSentSpilled, long peakRssBytes) {
    }

    /**
     * One roll-back to a checkpoint ({@code --recover}). {@code lostSeconds}: work done since the
     * checkpoint (or since the start of the run that failed) and thrown away; {@code restartSeconds}:
     * from the failure until every rank had its state back, -1 if they never got it.
     */
    public record Recovery(int recovery, String failure, int checkpoint, double lostSeconds, double restartSeconds) {

        Recovery restoredAfter(long nanos) {
            return new Recovery(recovery, failure, checkpoint, lostSeconds, nanos > 0 ? nanos / 1e9 : -1);
        }
    }

    /** The same statistics (of the last run) with the job's recoveries. */
    JobStats withRecoveries(List<Recovery> list) {
        return new JobStats(wallTimeSeconds, exitCode, failure, nodes, slaves, List.copyOf(list));
    }

    /** Writes this as indented JSON. */
    public void write(Path file) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), this);
    }
}
