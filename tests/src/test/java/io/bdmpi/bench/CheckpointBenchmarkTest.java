package io.bdmpi.bench;

import io.bdmpi.tests.programs.checkpoint.Checkpointed;
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

import static io.bdmpi.bench.Report.column;

/**
 * What checkpoints cost: the same job ({@link Checkpointed}: S ranks, each with a state of
 * {@code bench.checkpoint.stateMiB} MiB and a large message in flight) run without checkpoints,
 * with one every 3 iterations, and with one rank killed after the second checkpoint and
 * {@code --recover 1}. The cost of one checkpoint is the difference of the first two wall times
 * divided by the number of checkpoints; the overhead at one checkpoint a minute is that cost over
 * 60 s. Recovery time is the stats' {@code restartSeconds}: from the death to every rank having
 * its state back.
 */
@Tag("benchmark")
class CheckpointBenchmarkTest {

    private static final int ITERATIONS = 12;
    private static final int EVERY = 3;
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final int ranks = BenchConfig.integer("bench.checkpoint.ranks", 8, 4);
    private final int stateMiB = BenchConfig.integer("bench.checkpoint.stateMiB", 64, 4);

    @TempDir
    Path temp;

    @Test
    void checkpointCostAndRecovery() throws IOException {
        int stateBytes = stateMiB << 20;
        Object[] plain = {ITERATIONS, ITERATIONS + 1, 1 << 20, stateBytes};
        Object[] checkpointed = {ITERATIONS, EVERY, 1 << 20, stateBytes};
        Object[] killed = {ITERATIONS, EVERY, 1 << 20, stateBytes, 1, 2 * EVERY + 2, "once"};

        double without = run(plain).elapsedSeconds();
        Path dir = Files.createDirectory(temp.resolve("checkpoints"));
        double with = run(checkpointed, "--checkpoint-dir", dir.toString()).elapsedSeconds();
        long size = TempDirectory.bytesUnder(dir);
        JobResult recovered = run(killed, "--recover", "1");
        Stats.Recovery recovery = recovered.requireStats().recoveries().get(0);

        int checkpoints = ITERATIONS / EVERY;
        double perCheckpoint = (with - without) / checkpoints;
        Report.of("checkpoint", "Checkpoints: cost and recovery (-ns " + ranks + " -nr 2, " + stateMiB + " MiB state per rank)",
                        column("figure", "figure"), column("value", "value"))
                .row("job wall time without checkpoints (s)", without)
                .row("job wall time with " + checkpoints + " checkpoints (s)", with)
                .row("cost of one checkpoint (s)", perCheckpoint)
                .row("checkpoint size (MiB)", size / (double) (1 << 20))
                .row("checkpoint write rate (MB/s)", size / 1e6 / perCheckpoint)
                .row("overhead at one checkpoint per minute (%)", 100 * perCheckpoint / 60)
                .row("job wall time with a kill and --recover 1 (s)", recovered.elapsedSeconds())
                .row("recovery: death to every rank restored (s)", recovery.restartSeconds())
                .row("recovery: work lost since the checkpoint (s)", recovery.lostSeconds())
                .note("Each rank saves its state through a DataOutputStream; the master moves the spilled states into the"
                        + " checkpoint directory and links the buffered messages; files are fsynced.")
                .publish();
    }

    private JobResult run(Object[] args, String... options) {
        return JobRunner.job(Checkpointed.class).ranks(ranks).running(2).timeout(TIMEOUT).args(args).options(options)
                .run().assertSucceeded();
    }
}
