package io.bdmpi.bench;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.checkpoint.Checkpointed;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.MasterProcess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.bdmpi.bench.Report.column;

/**
 * What checkpoints cost on three nodes, and how long a lost node takes to get over: the same job
 * ({@link Checkpointed} on {@code -nn 3}, {@code bench.nnckpt.ranks} ranks a node, each with a state
 * of {@code bench.nnckpt.stateMiB} MiB and a 1 MiB message in flight) run without checkpoints, with
 * one every 3 iterations in a directory every node sees, and with the same in node-local
 * directories ({@code DIR/node-%n}: each part also copied to its buddy node over MPI). The cost of
 * one checkpoint is the difference of a run's wall time and the first one's over the number of
 * checkpoints; the overhead at one checkpoint a minute is that cost over 60 s. Then the same
 * checkpointed jobs with node 1's master SIGKILLed once checkpoint 2 is committed, under
 * {@code --recover 1}: from the kill to the last rank back at work (its {@code BDMPI.restore}
 * returned, {@code RESUMED} line) on the two surviving nodes. Recovered results must equal the
 * unbroken run's. MPI: {@code bench.nnckpt.mpi} (MPICH or OPEN_MPI).
 */
@Tag("benchmark")
class SeveralNodesCheckpointBenchmarkTest {

    private static final int ITERATIONS = 12;
    private static final int EVERY = 3;
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final int ranks = BenchConfig.integer("bench.nnckpt.ranks", 2, 2);
    private final int stateMiB = BenchConfig.integer("bench.nnckpt.stateMiB", 32, 4);
    private final MpiAbi mpi = MpiAbi.valueOf(BenchConfig.strings("bench.nnckpt.mpi", List.of("MPICH")).get(0)
            .toUpperCase(Locale.ROOT));

    @TempDir
    Path temp;

    @Test
    void checkpointCostAndNodeRecoveryOnThreeNodes() throws Exception {
        int stateBytes = stateMiB << 20;
        Object[] plain = {ITERATIONS, ITERATIONS + 1, 1 << 20, stateBytes};
        Object[] checkpointed = {ITERATIONS, EVERY, 1 << 20, stateBytes};

        // A first job of a build makes the masters' and slaves' class-data archives: not in a measured run.
        run(new Object[] {1, 2, 0, 8});
        JobResult unbroken = run(plain);
        Path shared = Files.createDirectory(temp.resolve("shared"));
        JobResult withShared = run(checkpointed, "--checkpoint-dir", shared.toString());
        long sharedBytes = TempDirectory.bytesUnder(shared);
        Path local = Files.createDirectory(temp.resolve("local"));
        JobResult withLocal = run(checkpointed, "--checkpoint-dir", local.resolve("node-%n").toString());
        long localBytes = TempDirectory.bytesUnder(local);
        List<String> expected = results(unbroken);
        Expect.that(withLocal, expected.equals(results(withShared)) && expected.equals(results(withLocal)),
                "checkpointed runs must give the unbroken run's results");

        Path sharedAgain = Files.createDirectory(temp.resolve("shared-recovered"));
        double sharedRecovery = killNode1AfterCheckpoint2(sharedAgain, sharedAgain, checkpointed, expected);
        Path localAgain = Files.createDirectory(temp.resolve("local-recovered"));
        double localRecovery = killNode1AfterCheckpoint2(localAgain.resolve("node-%n"), localAgain.resolve("node-1"), checkpointed,
                expected);

        int checkpoints = ITERATIONS / EVERY;
        double without = unbroken.elapsedSeconds();
        double perShared = (withShared.elapsedSeconds() - without) / checkpoints;
        double perLocal = (withLocal.elapsedSeconds() - without) / checkpoints;
        Report.of("several-nodes-checkpoint", "Checkpoints on -nn 3: cost and a lost node (" + mpi.displayName() + ", -ns "
                                + ranks + " -nr 1 a node, " + stateMiB + " MiB state per rank)",
                        column("figure", "figure"), column("shared", "shared directory"),
                        column("local", "node-local + buddy copies"))
                .row("job wall time without checkpoints (s)", without, without)
                .row("job wall time with " + checkpoints + " checkpoints (s)", withShared.elapsedSeconds(), withLocal.elapsedSeconds())
                .row("cost of one checkpoint (s)", perShared, perLocal)
                .row("bytes kept of the last checkpoint (MiB)", sharedBytes / (double) (1 << 20), localBytes / (double) (1 << 20))
                .row("overhead at one checkpoint per minute (%)", 100 * perShared / 60, 100 * perLocal / 60)
                .row("node 1 killed: kill to every rank back at work (s)", sharedRecovery, localRecovery)
                .note("Node-local: each node's part is also streamed to its buddy node over MPI and synced there before"
                        + " the commit, so the kept bytes are twice the shared directory's. Back at work: the last"
                        + " rank's BDMPI.restore returned on the two surviving nodes (it includes detecting the loss,"
                        + " ending the run, starting the masters and slaves again and reading the states).")
                .publish();
    }

    /**
     * Runs the checkpointed job under {@code --recover 1} with checkpoints in {@code dir} and SIGKILLs
     * node 1's master as soon as checkpoint 2 is committed in {@code node1Dir}.
     *
     * @return seconds from the kill to the last rank's RESUMED line
     */
    private double killNode1AfterCheckpoint2(Path dir, Path node1Dir, Object[] args, List<String> expected) throws Exception {
        CompletableFuture<Long> killedAt = CompletableFuture.supplyAsync(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            try {
                while (System.nanoTime() < deadline) {
                    long pid = Files.isDirectory(node1Dir.resolve("checkpoint-2")) ? MasterProcess.pidOf(dir.toString(), 1) : -1;
                    if (pid > 0) {
                        long at = System.currentTimeMillis();
                        new ProcessBuilder("kill", "-KILL", Long.toString(pid)).start().waitFor();
                        return at;
                    }
                    Thread.sleep(5);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return -1L;
        });
        JobResult r = run(args, "--checkpoint-dir", dir.toString(), "--recover", "1");
        long killed = killedAt.get(5, TimeUnit.SECONDS);
        Expect.that(r, killed > 0, "checkpoint 2 never came");
        Expect.that(r, expected.equals(results(r)), "the recovered run must give the unbroken run's results");
        long lastResumed = r.stdoutMatching("RESUMED rank \\d+ at \\d+ ms").stream()
                .mapToLong(l -> Long.parseLong(l.replaceAll(".* at (\\d+) ms", "$1"))).max().orElse(-1);
        Expect.that(r, lastResumed > killed, "every rank resumes after the kill");
        return (lastResumed - killed) / 1000.0;
    }

    private static List<String> results(JobResult r) {
        return r.stdoutMatching("RESULT .*").stream().sorted().toList();
    }

    private JobResult run(Object[] args, String... options) {
        return JobRunner.job(Checkpointed.class).mpi(mpi).nodes(3).ranks(ranks).running(1).timeout(TIMEOUT).args(args)
                .options(options).run().assertSucceeded();
    }
}
