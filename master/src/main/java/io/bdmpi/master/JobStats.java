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
public record JobStats(double wallTimeSeconds, int exitCode, String failure, List<Node> nodes, List<Slave> slaves) {

    /**
     * One node's totals. {@code maxRunning} is the most slaves ever RUNNING at once; the times,
     * resumes and {@code peakRssBytes} are its slaves' values summed.
     */
    public record Node(int node, int slaves, int running, int maxRunning, long messages, long bytesInline,
                       long bytesSpilled, long spillFiles, double runSeconds, double blockedSeconds,
                       double runnableSeconds, long resumes, long peakRssBytes) {
    }

    /** One slave. Times are spent in each state; {@code exitCode} is -1 if the process never ended. */
    public record Slave(int rank, int node, long pid, int exitCode, double runSeconds, double blockedSeconds,
                        double runnableSeconds, long resumes, long messagesSent, long bytesSentInline,
                        long bytesSentSpilled, long peakRssBytes) {
    }

    /** Writes this as indented JSON. */
    public void write(Path file) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), this);
    }
}
