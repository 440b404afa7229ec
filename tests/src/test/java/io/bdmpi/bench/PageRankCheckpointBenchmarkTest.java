package io.bdmpi.bench;

import io.bdmpi.examples.data.RmatGenerator;
import io.bdmpi.examples.pagerank.PageRank;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;

import static io.bdmpi.bench.Report.column;

/**
 * What checkpoints cost a real application: PageRank ({@code -ns 4 -nr 2}) on an R-MAT graph of
 * scale {@code bench.prckpt.scale}, {@code bench.prckpt.iterations} iterations, run without
 * checkpoints, with {@code --checkpoint-every bench.prckpt.every}, and with the same checkpoints
 * and rank 1 killed ({@code --die-at}) two iterations after the second checkpoint under
 * {@code --recover 1}. The cost of one checkpoint is the difference of the first two wall times
 * divided by the number of checkpoints; the overhead at one checkpoint a minute is that cost over
 * 60 s. Recovery time is the stats' {@code restartSeconds}. The recovered job's rank vector must
 * equal the unbroken one's.
 */
@Tag("benchmark")
class PageRankCheckpointBenchmarkTest {

    private static final int RANKS = 4;
    private static final Duration TIMEOUT = Duration.ofMinutes(15);

    private final int scale = BenchConfig.integer("bench.prckpt.scale", 19, 14);
    private final int iterations = BenchConfig.integer("bench.prckpt.iterations", 40, 8);
    private final int every = BenchConfig.integer("bench.prckpt.every", 10, 2);

    @TempDir
    Path temp;
    private Path graph;

    @Test
    void pageRankCheckpointCostAndRecovery() throws IOException {
        graph = temp.resolve("graph.csr");
        new RmatGenerator(scale, 16, 1).write(graph, 1 << 20, Runtime.getRuntime().availableProcessors(), 256L << 20);
        Path plainOut = temp.resolve("plain.pr");
        Path checkpointedOut = temp.resolve("checkpointed.pr");
        Path recoveredOut = temp.resolve("recovered.pr");

        double without = run(plainOut).elapsedSeconds();
        Path dir = Files.createDirectory(temp.resolve("checkpoints"));
        double with = run(checkpointedOut, "--checkpoint-dir", dir.toString()).elapsedSeconds();
        long size = TempDirectory.bytesUnder(dir);
        JobResult recovered = run(recoveredOut, "--recover", "1");
        Stats.Recovery recovery = recovered.requireStats().recoveries().get(0);
        Expect.that(recovered, Arrays.equals(Files.readAllBytes(plainOut), Files.readAllBytes(recoveredOut))
                && Arrays.equals(Files.readAllBytes(plainOut), Files.readAllBytes(checkpointedOut)),
                "checkpointed and recovered rank vectors must equal the plain one");

        int checkpoints = iterations / every;
        double perCheckpoint = (with - without) / checkpoints;
        Report.of("pagerank-checkpoint", "PageRank checkpoints: cost and recovery (scale " + scale + ", " + iterations
                                + " iterations, -ns " + RANKS + " -nr 2, every " + every + " iterations)",
                        column("figure", "figure"), column("value", "value"))
                .row("job wall time without checkpoints (s)", without)
                .row("job wall time with " + checkpoints + " checkpoints (s)", with)
                .row("cost of one checkpoint (s)", perCheckpoint)
                .row("checkpoint size (MiB)", size / (double) (1 << 20))
                .row("overhead at one checkpoint per minute (%)", 100 * perCheckpoint / 60)
                .row("job wall time with a kill and --recover 1 (s)", recovered.elapsedSeconds())
                .row("recovery: death to every rank restored (s)", recovery.restartSeconds())
                .row("recovery: work lost since the checkpoint (s)", recovery.lostSeconds())
                .note("A checkpoint holds each rank's rank vector (8 bytes a vertex), its iteration and last sums;"
                        + " the graph is read again from its file on restore.")
                .publish();
    }

    /** PageRank with the benchmark's settings; checkpoints unless the options are empty, killed under --recover. */
    private JobResult run(Path out, String... options) {
        Object[] args = {"--graph", graph, "--out", out, "--iterations", iterations, "--tolerance", 0};
        if (options.length > 0) {
            args = Stream.concat(Arrays.stream(args), Stream.of("--checkpoint-every", every)).toArray();
        }
        if (Arrays.asList(options).contains("--recover")) {
            args = Stream.concat(Arrays.stream(args), Stream.of("--die-at", "1:" + (2 * every + 2))).toArray();
        }
        return JobRunner.job(PageRank.class).ranks(RANKS).running(2).timeout(TIMEOUT).args(args).options(options)
                .run().assertSucceeded();
    }
}
