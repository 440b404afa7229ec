package io.bdmpi.tests.checkpoint;

import io.bdmpi.examples.data.RmatGenerator;
import io.bdmpi.examples.pagerank.PageRank;
import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.checkpoint.Checkpointed;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code --restart DIR-%n} on another number of nodes than the job that wrote the checkpoint, in
 * directories of each node's own: a job of three nodes (the ring of {@link Checkpointed}, with small
 * and spilled messages in flight at every checkpoint) dies after checkpoint 3; node k's directory
 * holds part k and its buddy copy of part k-1. Restarted on two nodes, or on four with every rank
 * placed elsewhere, each master fetches the parts it lacks from another master over MPI, and the
 * results are an unbroken run's, bit for bit (PageRank's too); nothing is left but the
 * checkpoints (the harness checks processes and work directories).
 */
class ResizeRestartTest {

    private static final int RANKS = 6;
    private static final int ITERATIONS = 12;
    private static final int EVERY = 3;
    /** Over the default -im: spill files, forwarded between masters in chunks. */
    private static final int BIG = 200_000;
    /** Over Internode.CHUNK_BYTES (8 MiB): a staged state file streams in two chunks. */
    private static final int STATE = 9_000_000;
    private static final Duration TIMEOUT = JobRunner.DEFAULT_TIMEOUT.multipliedBy(3);

    @TempDir
    Path temp;

    private static JobRunner ring(MpiAbi mpi, int nodes, int perNode, Object... crash) {
        return JobRunner.job(Checkpointed.class).mpi(mpi).nodes(nodes).ranks(perNode).running(1)
                .args(Checkpointed.args(ITERATIONS, EVERY, BIG, STATE, crash)).timeout(TIMEOUT);
    }

    /** A ring of three nodes that died after checkpoint 3 in {@code base}'s {@code node-%n}; checks what each directory holds. */
    static void diedAfterCheckpoint3(JobRunner died, Path base) throws IOException {
        JobResult r = died.options("--checkpoint-dir", base.resolve("node-%n").toString()).run().assertFailed();
        Expect.that(r, r.stdoutMatching("CHECKPOINT 3 rank 4 at iteration 9").size() == 1, "rank 4 leaves checkpoint 3, then dies");
        for (int k = 0; k < 3; k++) {
            Path dir = base.resolve("node-" + k);
            assertEquals(List.of("checkpoint-3"), SeveralNodesCheckpointTest.list(dir));
            assertEquals(List.of("part-" + Math.min(k, (k + 2) % 3), "part-" + Math.max(k, (k + 2) % 3)),
                    SeveralNodesCheckpointTest.list(dir.resolve("checkpoint-3")), "its part and its copy of its neighbour's");
        }
    }

    /** Node {@code k}'s directory of {@code base} holds checkpoint 4 only, its part and its buddy copy of another. */
    private static void assertCheckpoint4Of(Path base, int nodes) throws IOException {
        for (int k = 0; k < nodes; k++) {
            Path dir = base.resolve("node-" + k);
            assertEquals(List.of("checkpoint-4"), SeveralNodesCheckpointTest.list(dir), "nothing staged is left in " + dir);
            List<String> parts = SeveralNodesCheckpointTest.list(dir.resolve("checkpoint-4"));
            assertEquals(2, parts.size(), dir + ": " + parts);
        }
    }

    private static void copy(Path from, Path to) throws IOException, InterruptedException {
        assertEquals(0, new ProcessBuilder("cp", "-a", from.toString(), to.toString()).inheritIO().start().waitFor());
    }

    @ParameterizedTest
    @EnumSource(MpiAbi.class)
    void aRingOfThreeNodesRestartsOnTwoAndOnFour(MpiAbi mpi) throws Exception {
        List<String> expected = SeveralNodesCheckpointTest.results(ring(mpi, 3, 2).run().assertSucceeded(), RANKS);
        Path base = Files.createDirectory(temp.resolve("checkpoints"));
        diedAfterCheckpoint3(ring(mpi, 3, 2, 4, 10, "once"), base);
        Path again = temp.resolve("again");
        copy(base, again);

        // Two nodes of three ranks: node 0 lacks part 1, node 1 lacks part 2 (on node 2's disk, and node 0's copy).
        JobResult two = ring(mpi, 2, 3).options("--restart", base.resolve("node-%n").toString()).run().assertSucceeded();
        assertEquals(expected, SeveralNodesCheckpointTest.results(two, RANKS));
        Expect.that(two, two.stdoutMatching("RESTORED rank \\d at iteration 9").size() == RANKS, "every rank goes on from iteration 9");
        Expect.that(two, two.stdoutMatching("CHECKPOINT 4 rank \\d at iteration 12").size() == RANKS,
                "checkpoint numbers go on across the restart");
        assertCheckpoint4Of(base, 2);
        assertEquals(List.of("part-0", "part-1"), SeveralNodesCheckpointTest.list(base.resolve("node-0/checkpoint-4")));
        assertEquals(List.of("checkpoint-3"), SeveralNodesCheckpointTest.list(base.resolve("node-2")),
                "the node the job no longer has keeps its directory untouched");

        // Four nodes of 2, 2, 1 and 1 ranks, none where it was; node 3's directory is new.
        Path config = fourUnevenNodes();
        Path placement = Files.writeString(temp.resolve("placement"), "3\n2\n1\n0\n1\n0\n");
        JobResult four = ring(mpi, 4, 2).config(config).options("--restart", again.resolve("node-%n").toString(),
                "--placement", placement.toString()).run().assertSucceeded();
        assertEquals(expected, SeveralNodesCheckpointTest.results(four, RANKS));
        Expect.that(four, four.stdoutMatching("RESTORED rank \\d at iteration 9").size() == RANKS, "every rank goes on from iteration 9");
        assertCheckpoint4Of(again, 4);
    }

    /**
     * PageRank on three nodes dies at iteration 5 (checkpoint 2 holds iteration 4); restarted on two
     * nodes and, from a copy of the directories, on four, it writes an unbroken run's rank vector, bit
     * for bit.
     */
    @ParameterizedTest
    @EnumSource(value = MpiAbi.class, names = "MPICH")
    void pageRankOfThreeNodesRestartsOnTwoAndOnFour(MpiAbi mpi) throws Exception {
        Path graph = temp.resolve("graph.csr");
        new RmatGenerator(11, 8, 17).write(graph, 4096, 2, 1 << 20);
        Path expected = temp.resolve("unbroken.pr");
        JobResult unbroken = pageRank(mpi, graph, expected, 3, 2).run().assertSucceeded();
        Path base = Files.createDirectory(temp.resolve("checkpoints"));
        Path died = temp.resolve("died.pr");
        JobResult r = pageRank(mpi, graph, died, 3, 2, "--checkpoint-every", 2, "--die-at", "1:5")
                .options("--checkpoint-dir", base.resolve("node-%n").toString()).run().assertFailed();
        Expect.that(r, r.stderrContaining("rank 1 .*killed by signal 9").size() >= 1, "the death is reported");
        Path again = temp.resolve("again");
        copy(base, again);

        Path two = temp.resolve("two.pr");
        JobResult onTwo = pageRank(mpi, graph, two, 2, 3, "--checkpoint-every", 2)
                .options("--restart", base.resolve("node-%n").toString()).run().assertSucceeded();
        Expect.that(onTwo, Arrays.equals(Files.readAllBytes(expected), Files.readAllBytes(two)),
                "the rank vector of the restart on two nodes differs from the unbroken one's");
        assertEquals(unbroken.stdoutMatching("PageRank:.*"), onTwo.stdoutMatching("PageRank:.*"));

        Path config = fourUnevenNodes();
        Path four = temp.resolve("four.pr");
        JobResult onFour = pageRank(mpi, graph, four, 4, 2, "--checkpoint-every", 2).config(config)
                .options("--restart", again.resolve("node-%n").toString()).run().assertSucceeded();
        Expect.that(onFour, Arrays.equals(Files.readAllBytes(expected), Files.readAllBytes(four)),
                "the rank vector of the restart on four nodes differs from the unbroken one's");
        assertEquals(unbroken.stdoutMatching("PageRank:.*"), onFour.stdoutMatching("PageRank:.*"));
        for (Path dir : List.of(base.resolve("node-0"), base.resolve("node-1"), again.resolve("node-3"))) {
            assertEquals(1, SeveralNodesCheckpointTest.list(dir).size(), "only the last checkpoint is left in " + dir + ": "
                    + SeveralNodesCheckpointTest.list(dir));
        }
    }

    private static JobRunner pageRank(MpiAbi mpi, Path graph, Path result, int nodes, int perNode, Object... more) {
        Object[] args = {"--graph", graph, "--out", result, "--iterations", 12, "--tolerance", 0};
        Object[] all = Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return JobRunner.job(PageRank.class).mpi(mpi).nodes(nodes).ranks(perNode).running(1).args(all).timeout(TIMEOUT);
    }

    /**
     * Part 1 of checkpoint 3 is on nodes 1 and 2 only, and node 1's copy is gone: restarted on two
     * nodes, the job stops at once saying which part of which checkpoint is missing, and leaves
     * nothing staged behind.
     */
    @ParameterizedTest
    @EnumSource(value = MpiAbi.class, names = "MPICH")
    void aPartOnNoNodeStopsTheRestartNamingIt(MpiAbi mpi) throws Exception {
        Path base = Files.createDirectory(temp.resolve("checkpoints"));
        diedAfterCheckpoint3(ring(mpi, 3, 2, 4, 10, "once"), base);
        assertEquals(0, new ProcessBuilder("rm", "-rf", base.resolve("node-1/checkpoint-3/part-1").toString()).start().waitFor());

        JobResult r = ring(mpi, 2, 3).options("--restart", base.resolve("node-%n").toString()).run().assertFailed();
        Expect.that(r, r.stderrContaining("part 1 of checkpoint 3 \\(written by 3 nodes\\) is in no directory of this job's 2"
                + " nodes \\(.*node-%n\\)").size() == 1, "the missing part is named, once");
        Expect.that(r, r.stdoutMatching("RESTORED.*").isEmpty(), "no rank restores");
        assertEquals(List.of("checkpoint-3"), SeveralNodesCheckpointTest.list(base.resolve("node-0")));
        assertEquals(List.of("checkpoint-3"), SeveralNodesCheckpointTest.list(base.resolve("node-1")));
    }

    /**
     * Node 1's part 1 lost a state file (its manifest still names it): node 1 cannot send the part
     * node 0 needs, tells node 0, and both stop, saying why, with nothing staged left behind.
     */
    @ParameterizedTest
    @EnumSource(value = MpiAbi.class, names = "MPICH")
    void aPartThatCannotBeSentStopsEveryMasterWaitingForIt(MpiAbi mpi) throws Exception {
        Path base = Files.createDirectory(temp.resolve("checkpoints"));
        diedAfterCheckpoint3(ring(mpi, 3, 2, 4, 10, "once"), base);
        Files.delete(base.resolve("node-1/checkpoint-3/part-1/rank-2.state"));

        JobResult r = ring(mpi, 2, 3).options("--restart", base.resolve("node-%n").toString()).run().assertFailed();
        Expect.that(r, r.stderrContaining("cannot send the parts of checkpoint 3 in .*node-1 to other nodes: .*rank-2.state")
                .size() >= 1, "the part that could not be sent is named");
        Expect.that(r, r.stdoutMatching("RESTORED.*").isEmpty(), "no rank restores");
        for (String node : List.of("node-0", "node-1")) {
            assertEquals(List.of("checkpoint-3"), SeveralNodesCheckpointTest.list(base.resolve(node)), "nothing staged is left");
        }
    }

    /** A config file of four nodes with 2, 2, 1 and 1 slaves. */
    private Path fourUnevenNodes() throws IOException {
        return Files.writeString(temp.resolve("four.yaml"), """
                per-node:
                  - slaves: 2
                  - slaves: 2
                  - slaves: 1
                  - slaves: 1
                """);
    }
}
