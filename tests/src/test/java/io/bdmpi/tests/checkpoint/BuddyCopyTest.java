package io.bdmpi.tests.checkpoint;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.checkpoint.Checkpointed;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.MasterProcess;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints in directories of each node's own ({@code --checkpoint-dir DIR/node-%n}), with no
 * directory every node sees: each node's part also goes to its buddy, node (k+1) mod 3, over MPI.
 * On one machine a node's directory stands for its own disk: the test removes the lost node's
 * directory as soon as its master is killed, so the recovery can only use the buddy copies.
 */
class BuddyCopyTest {

    private static final int RANKS = 6;
    private static final Object[] ARGS = {18, 3, 200_000, 300_000};
    /** Three masters and six slaves, twice for a recovery, on a machine shared with other jobs. */
    private static final Duration TIMEOUT = JobRunner.DEFAULT_TIMEOUT.multipliedBy(3);

    @TempDir
    Path temp;

    /**
     * Once checkpoint 2 (or a later one) is in node 1's directory {@code lost}, sends node 1's master
     * (of the job whose command line has {@code mark}: see {@link MasterProcess}) {@code signal}
     * ({@code -KILL}, or {@code -STOP}: a master that stops answering) and removes the directory, as
     * if its disk went with it (once a killed master has died); completes with the master's pid (-1
     * if checkpoint 2 never came within 120 s).
     */
    static CompletableFuture<Long> loseAtCheckpointTwo(Path lost, String mark, String signal) {
        return CompletableFuture.supplyAsync(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            try {
                while (System.nanoTime() < deadline) {
                    long pid = SeveralNodesCheckpointTest.committedFrom(lost, 2) ? MasterProcess.pidOf(mark, 1) : -1;
                    if (pid > 0) {
                        new ProcessBuilder("kill", signal, Long.toString(pid)).start().waitFor();
                        if (signal.equals("-KILL")) {
                            MasterProcess.awaitEnd(pid, 5_000); // kill returns before the process has died
                        }
                        new ProcessBuilder("rm", "-rf", lost.toString()).start().waitFor(); // its disk goes with it
                        return pid;
                    }
                    Thread.sleep(5);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return -1L;
        });
    }

    /**
     * The job {@code r}, whose node 1 {@code lostMaster} lost ({@link #loseAtCheckpointTwo}), went on
     * from a checkpoint of 2 or later on the two other nodes, once, with an unbroken run's results.
     */
    static void assertWentOnWithoutNodeOne(JobResult r, CompletableFuture<Long> lostMaster, List<String> expected)
            throws Exception {
        long pid = lostMaster.get(5, TimeUnit.SECONDS);
        assertTrue(pid > 0, "checkpoint 2 never came\n" + r.describe());
        r.assertSucceeded();
        assertEquals(expected, SeveralNodesCheckpointTest.results(r, RANKS));
        Expect.that(r, r.stdoutMatching("RESTORED rank \\d at iteration \\d+").size() == RANKS,
                "every rank goes on from the checkpoint");
        Expect.that(r, r.stderrContaining("node 1 was lost: its master .*; going on from checkpoint \\d+ on 2"
                + " nodes \\(recovery 1 of 1\\)").size() == 1, "the lost node is named and the recovery announced");
        List<Stats.Recovery> recoveries = r.requireStats().recoveries();
        assertEquals(1, recoveries.size(), recoveries.toString());
        assertTrue(recoveries.get(0).checkpoint() >= 2, recoveries.toString());
    }

    private static JobRunner ring(MpiAbi mpi) {
        return JobRunner.job(Checkpointed.class).mpi(mpi).nodes(3).ranks(2).running(1).args(ARGS).timeout(TIMEOUT);
    }

    /**
     * Node 1's master is SIGKILLed once checkpoint 2 is committed and its directory is gone with it:
     * node 1's part comes from node 2's copy, node 2 takes node 1's ranks, and the results are an
     * unbroken run's, bit for bit.
     */
    @ParameterizedTest
    @EnumSource(MpiAbi.class)
    void aLostNodesPartComesFromItsBuddysCopy(MpiAbi mpi) throws Exception {
        List<String> expected = SeveralNodesCheckpointTest.results(ring(mpi).run().assertSucceeded(), RANKS);
        Path base = Files.createDirectory(temp.resolve("checkpoints"));
        Path lost = base.resolve("node-1");
        CompletableFuture<Long> killed = loseAtCheckpointTwo(lost, base.toString(), "-KILL");

        JobResult r = ring(mpi).options("--checkpoint-dir", base.resolve("node-%n").toString(), "--recover", "1").run();
        assertWentOnWithoutNodeOne(r, killed, expected);
        assertEquals(2, r.requireStats().nodes().size(), "the last run had two nodes");

        assertFalse(Files.exists(lost), "nothing wrote to the lost node's directory again");
        // The two survivors kept their directories, and each holds its part and its buddy's copy of the other's.
        for (String node : List.of("node-0", "node-2")) {
            List<String> left = SeveralNodesCheckpointTest.list(base.resolve(node));
            assertEquals(1, left.size(), "only the last checkpoint is left in " + node + ": " + left);
            assertTrue(left.get(0).startsWith("checkpoint-"), left.toString());
            assertEquals(List.of("part-0", "part-1"), SeveralNodesCheckpointTest.list(base.resolve(node).resolve(left.get(0))));
        }
    }

    /**
     * The host file lists a fourth host, a spare: after node 1 is lost with its disk, the spare takes
     * its place with a new directory (node-3), gets ranks like the survivors, and its master fetches
     * their parts from them; the job keeps its three nodes and an unbroken run's results.
     */
    @ParameterizedTest
    @EnumSource(value = MpiAbi.class, names = "MPICH")
    void aSpareHostTakesTheLostNodesPlaceAndFetchesItsParts(MpiAbi mpi) throws Exception {
        List<String> expected = SeveralNodesCheckpointTest.results(ring(mpi).run().assertSucceeded(), RANKS);
        Path base = Files.createDirectory(temp.resolve("checkpoints"));
        Path hosts = Files.writeString(temp.resolve("hosts"), "localhost\nlocalhost\nlocalhost\nlocalhost\n");
        CompletableFuture<Long> killed = loseAtCheckpointTwo(base.resolve("node-1"), base.toString(), "-KILL");

        JobResult r = ring(mpi).options("--hostfile", hosts.toString(), "--checkpoint-dir", base.resolve("node-%n").toString(),
                "--recover", "1").run();
        assertTrue(killed.get(5, TimeUnit.SECONDS) > 0, "checkpoint 2 never came\n" + r.describe());
        r.assertSucceeded();
        assertEquals(expected, SeveralNodesCheckpointTest.results(r, RANKS));
        Expect.that(r, r.stderrContaining("node 1 was lost: its master .*; going on from checkpoint \\d+ on 3"
                + " nodes \\(recovery 1 of 1\\)").size() == 1, "the spare keeps the job on three nodes");
        Expect.that(r, r.stdoutMatching("RESTORED rank \\d at iteration \\d+").size() == RANKS, "every rank goes on from the checkpoint");
        assertEquals(3, r.requireStats().nodes().size(), "the last run had three nodes");
        assertFalse(Files.exists(base.resolve("node-1")), "nothing wrote to the lost node's directory again");
        for (String node : List.of("node-0", "node-2", "node-3")) {
            List<String> left = SeveralNodesCheckpointTest.list(base.resolve(node));
            assertEquals(1, left.size(), "only the last checkpoint is left in " + node + ": " + left);
            assertEquals(2, SeveralNodesCheckpointTest.list(base.resolve(node).resolve(left.get(0))).size(), node);
        }
    }

    /**
     * Node 1 cannot store its copy of node 0's part of checkpoint 3 (a file stands where the copy
     * goes, planted once checkpoint 1 is committed): every part is written, yet checkpoint 3 is
     * never committed, the job fails saying why, and a restart goes on from checkpoint 2.
     */
    @ParameterizedTest
    @EnumSource(MpiAbi.class)
    void aCheckpointWhoseBuddyCopyIsCutShortIsNeverUsed(MpiAbi mpi) throws Exception {
        List<String> expected = SeveralNodesCheckpointTest.results(ring(mpi).run().assertSucceeded(), RANKS);
        Path base = Files.createDirectory(temp.resolve("checkpoints"));
        Path buddy = base.resolve("node-1");
        CompletableFuture<Boolean> planted = CompletableFuture.supplyAsync(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            try {
                while (System.nanoTime() < deadline) {
                    if (Files.isDirectory(buddy.resolve("checkpoint-1"))) {
                        Files.createDirectories(buddy.resolve(".incoming-3"));
                        Files.writeString(buddy.resolve(".incoming-3/part-0"), "in the way");
                        return true;
                    }
                    Thread.sleep(2);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return false;
        });
        String dirs = base.resolve("node-%n").toString();
        JobResult failed = ring(mpi).options("--checkpoint-dir", dirs).run().assertFailed();
        assertTrue(planted.get(5, TimeUnit.SECONDS), "checkpoint 1 never came\n" + failed.describe());
        Expect.that(failed, failed.stderrContaining("cannot store node 0's copy of checkpoint 3").size() >= 1,
                "the failed copy is named");
        Expect.that(failed, failed.stdoutMatching("CHECKPOINT 3 .*").isEmpty(), "no rank leaves checkpoint 3");
        for (String node : List.of("node-0", "node-1", "node-2")) {
            Path dir = base.resolve(node);
            assertTrue(Files.isDirectory(dir.resolve("checkpoint-2")), node + ": " + SeveralNodesCheckpointTest.list(dir));
            assertFalse(Files.exists(dir.resolve("checkpoint-3")), node + ": " + SeveralNodesCheckpointTest.list(dir));
        }

        JobResult restarted = ring(mpi).options("--restart", dirs).run().assertSucceeded();
        assertEquals(expected, SeveralNodesCheckpointTest.results(restarted, RANKS));
        Expect.that(restarted, restarted.stdoutMatching("RESTORED rank \\d at iteration 6").size() == RANKS,
                "the restart goes on from checkpoint 2");
        for (String node : List.of("node-0", "node-1", "node-2")) {
            assertEquals(List.of("checkpoint-6"), SeveralNodesCheckpointTest.list(base.resolve(node)),
                    "the cut-short checkpoint is gone from " + node);
        }
    }
}
