package io.bdmpi.tests.checkpoint;

import io.bdmpi.examples.data.RmatGenerator;
import io.bdmpi.examples.pagerank.PageRank;
import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.checkpoint.Checkpointed;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.MasterProcess;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job of three nodes loses one: the master of node 1 is killed (SIGKILL) once checkpoint 2 is
 * committed. MPI ends the whole job; bdmpiexec ({@code --recover 1}) names the lost node, starts the
 * job again on the two surviving nodes with the same ranks and goes on from the last checkpoint,
 * and the job's results are those of an unbroken run, bit for bit. Over MPICH (which reports the
 * dead master's pid) and Open MPI (which reports its rank); the harness checks that nothing is left
 * on any node (processes, work directories, shared memory).
 */
class LostNodeRecoveryTest {

    private static final int RANKS = 6;
    /** Three masters and six slaves, twice for a recovery, on a machine shared with other jobs. */
    private static final Duration TIMEOUT = JobRunner.DEFAULT_TIMEOUT.multipliedBy(3);

    @TempDir
    static Path data;
    @TempDir
    Path temp;

    static Path graph;

    @BeforeAll
    static void generate() throws IOException {
        graph = data.resolve("graph.csr");
        new RmatGenerator(11, 8, 17).write(graph, 4096, 2, 1 << 20);
    }

    /**
     * The ring of {@link Checkpointed}: small and spilled messages cross nodes at every checkpoint.
     * Node 1's master is killed (SIGKILL) or stops answering (SIGSTOP): bdmpiexec names it and goes
     * on without it.
     */
    @ParameterizedTest
    @CsvSource({"MPICH, KILL", "OPEN_MPI, KILL", "MPICH, STOP", "OPEN_MPI, STOP"})
    void theRingGoesOnWithoutALostNode(MpiAbi mpi, String signal) throws Exception {
        Object[] args = {18, 3, 200_000, 300_000};
        List<String> expected = SeveralNodesCheckpointTest.results(JobRunner.job(Checkpointed.class).mpi(mpi).nodes(3).ranks(2)
                .running(1).args(args).timeout(TIMEOUT).run().assertSucceeded(), RANKS);
        Path dir = Files.createDirectory(temp.resolve("checkpoints"));

        JobResult r = signalNode1AfterCheckpoint2(signal, dir, JobRunner.job(Checkpointed.class).mpi(mpi).nodes(3).ranks(2)
                .running(1).args(args));
        assertEquals(expected, SeveralNodesCheckpointTest.results(r, RANKS));
        Expect.that(r, r.stdoutMatching("RESTORED rank \\d at iteration \\d+").size() == RANKS,
                "every rank goes on from the checkpoint");
        if (signal.equals("STOP")) {
            Expect.that(r, r.stderrContaining("node 1 was lost: its master on \\S+ stopped answering").size() == 1,
                    "the stopped node is named");
        }
    }

    @ParameterizedTest
    @EnumSource(MpiAbi.class)
    void pageRankGoesOnWithoutALostNode(MpiAbi mpi) throws Exception {
        Path expected = temp.resolve("unbroken.pr");
        JobResult unbroken = pageRank(mpi, expected).timeout(TIMEOUT).run().assertSucceeded();
        Path recovered = temp.resolve("recovered.pr");
        Path dir = Files.createDirectory(temp.resolve("checkpoints"));

        JobResult r = signalNode1AfterCheckpoint2("KILL", dir, pageRank(mpi, recovered, "--checkpoint-every", 2));
        Expect.that(r, Arrays.equals(Files.readAllBytes(expected), Files.readAllBytes(recovered)),
                "the recovered job's rank vector differs from the unbroken one's");
        assertEquals(unbroken.stdoutMatching("PageRank:.*"), r.stdoutMatching("PageRank:.*"));
    }

    /**
     * The host file lists four hosts (this machine four times: the fourth is a spare): after node
     * 1 is lost, the spare takes its place and the job goes on on three nodes.
     */
    @ParameterizedTest
    @EnumSource(MpiAbi.class)
    void aSpareHostFromTheHostFileTakesTheLostNodesPlace(MpiAbi mpi) throws Exception {
        Object[] args = {18, 3, 200_000, 300_000};
        List<String> expected = SeveralNodesCheckpointTest.results(JobRunner.job(Checkpointed.class).mpi(mpi).nodes(3).ranks(2)
                .running(1).args(args).timeout(TIMEOUT).run().assertSucceeded(), RANKS);
        Path dir = Files.createDirectory(temp.resolve("checkpoints"));
        Path hosts = Files.writeString(temp.resolve("hosts"), "localhost\nlocalhost\nlocalhost\nlocalhost\n");

        CompletableFuture<Long> killed = signalWhenCommitted(dir, "KILL");
        JobResult r = JobRunner.job(Checkpointed.class).mpi(mpi).nodes(3).ranks(2).running(1).args(args)
                .options("--hostfile", hosts.toString(), "--checkpoint-dir", dir.toString(), "--recover", "1").timeout(TIMEOUT)
                .run();
        assertTrue(killed.get(5, TimeUnit.SECONDS) > 0, "checkpoint 2 never came\n" + r.describe());
        r.assertSucceeded();
        assertEquals(expected, SeveralNodesCheckpointTest.results(r, RANKS));
        Expect.that(r, r.stderrContaining("node 1 was lost: its master .*; going on from checkpoint \\d+ on 3"
                + " nodes \\(recovery 1 of 1\\)").size() == 1, "the spare keeps the job on three nodes");
        assertEquals(3, r.requireStats().nodes().size(), "the last run had three nodes");
    }

    private static JobRunner pageRank(MpiAbi mpi, Path result, Object... more) {
        Object[] args = {"--graph", graph, "--out", result, "--iterations", 16, "--tolerance", 0};
        Object[] all = Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return JobRunner.job(PageRank.class).mpi(mpi).nodes(3).ranks(2).running(1).args(all);
    }

    /**
     * Runs {@code job} with {@code --checkpoint-dir dir --recover 1} and sends {@code signal} to node
     * 1's master as soon as checkpoint 2 is committed; checks the recovery.
     */
    private static JobResult signalNode1AfterCheckpoint2(String signal, Path dir, JobRunner job) throws Exception {
        CompletableFuture<Long> killed = signalWhenCommitted(dir, signal);
        JobResult r = job.options("--checkpoint-dir", dir.toString(), "--recover", "1").timeout(TIMEOUT)
                .run();
        long pid = killed.get(5, TimeUnit.SECONDS);
        assertTrue(pid > 0, "checkpoint 2 never came\n" + r.describe());
        r.assertSucceeded();
        Expect.that(r, r.stderrContaining("node 1 was lost: its master .*; going on from checkpoint \\d+ on 2"
                + " nodes \\(recovery 1 of 1\\)").size() == 1, "the lost node is named and the recovery announced");
        List<Stats.Recovery> recoveries = r.requireStats().recoveries();
        assertEquals(1, recoveries.size(), recoveries.toString());
        assertTrue(recoveries.get(0).checkpoint() >= 2, recoveries.toString());
        assertEquals(2, r.requireStats().nodes().size(), "the last run had two nodes");
        List<String> left = SeveralNodesCheckpointTest.list(dir);
        assertEquals(1, left.size(), "only the last checkpoint is left: " + left);
        assertTrue(left.get(0).startsWith("checkpoint-"), left.toString());
        return r;
    }

    /** Sends {@code signal} to node 1's master (of the job checkpointing in {@code dir}) once checkpoint 2 (or a later one) is committed; its pid, or -1. */
    private static CompletableFuture<Long> signalWhenCommitted(Path dir, String signal) {
        return CompletableFuture.supplyAsync(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            try {
                while (System.nanoTime() < deadline) {
                    long pid = SeveralNodesCheckpointTest.committedFrom(dir, 2) ? MasterProcess.pidOf(dir.toString(), 1) : -1;
                    if (pid > 0) {
                        new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor();
                        return pid;
                    }
                    Thread.sleep(10);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return -1L;
        });
    }
}
