package io.bdmpi.tests.checkpoint;

import io.bdmpi.tests.programs.checkpoint.Checkpointed;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Checkpoints of a job of three nodes (MPICH) in a directory every master sees: the ring's small
 * and spilled messages cross nodes and are in flight at every checkpoint; a job that died goes on
 * with {@code --restart} on two nodes ({@code -nr auto}) or on four of uneven sizes (a placement
 * file: the same six ranks placed anew) and prints what an unbroken job prints; a checkpoint that
 * one node did not finish is never used.
 */
class SeveralNodesCheckpointTest {

    private static final int RANKS = 6;
    private static final int ITERATIONS = 12;
    private static final int EVERY = 3;
    /** Over the default -im: spill files, forwarded between masters in chunks. */
    private static final int BIG = 200_000;
    private static final int STATE = 300_000;

    /** The RESULT lines of an unbroken job of three nodes, run once for the class. */
    private static List<String> unbroken;

    @TempDir
    Path temp;

    private static synchronized List<String> unbroken() {
        if (unbroken == null) {
            unbroken = results(job(3, 2).run().assertSucceeded(), RANKS);
        }
        return unbroken;
    }

    private static JobRunner job(int nodes, int perNode, Object... crash) {
        return JobRunner.job(Checkpointed.class).nodes(nodes).ranks(perNode).running(1).args(Checkpointed.args(ITERATIONS, EVERY, BIG, STATE, crash))
                .timeout(JobRunner.DEFAULT_TIMEOUT.multipliedBy(3));
    }

    static List<String> results(JobResult r, int ranks) {
        List<String> lines = r.stdoutMatching("RESULT .*").stream().sorted().toList();
        assertEquals(ranks, lines.size(), "one RESULT line per rank\n" + r.describe());
        return lines;
    }

    /** A job of three nodes dies after checkpoint 3 (iteration 9); checkpoint-3 holds one part per node. */
    private Path diedAfterCheckpoint3() throws IOException {
        Path dir = Files.createDirectory(temp.resolve("checkpoints"));
        JobResult died = job(3, 2, 4, 10, "once").options("--checkpoint-dir", dir.toString()).run().assertFailed();
        Expect.that(died, died.stderrContaining("rank 4 .*killed by signal 9").size() == 1, "the death is reported");
        Expect.that(died, died.stdoutMatching("CHECKPOINT 3 rank 4 at iteration 9").size() == 1,
                "rank 4 leaves checkpoint 3, then dies");
        assertEquals(List.of("checkpoint-3"), list(dir), "only the last checkpoint is kept, and no part of another");
        assertEquals(List.of("part-0", "part-1", "part-2"), list(dir.resolve("checkpoint-3")));
        return dir;
    }

    @Test
    void aJobOfThreeNodesRestartsOnTwo() throws IOException {
        List<String> expected = unbroken();
        Path dir = diedAfterCheckpoint3();

        JobResult restarted = job(2, 3).runningAuto().options("--restart", dir.toString()).run().assertSucceeded();
        assertEquals(expected, results(restarted, RANKS));
        Expect.that(restarted, restarted.stdoutMatching("RESTORED rank \\d at iteration 9").size() == RANKS,
                "every rank goes on from iteration 9");
        Expect.that(restarted, restarted.stdoutMatching("CHECKPOINT 4 rank \\d at iteration 12").size() == RANKS,
                "checkpoint numbers go on across the restart");
        assertEquals(List.of("checkpoint-4"), list(dir));
        assertEquals(List.of("part-0", "part-1"), list(dir.resolve("checkpoint-4")), "two nodes wrote it");
    }

    @Test
    void aJobOfThreeNodesRestartsOnFourOfUnevenSizes() throws IOException {
        List<String> expected = unbroken();
        Path dir = diedAfterCheckpoint3();
        Path config = Files.writeString(temp.resolve("four.yaml"), """
                per-node:
                  - slaves: 2
                  - slaves: 2
                  - slaves: 1
                  - slaves: 1
                """);

        // Rank r on node PLACED[r]: two ranks on nodes 0 and 1, one on nodes 2 and 3, none where it was.
        Path placement = Files.writeString(temp.resolve("placement"), "3\n2\n1\n0\n1\n0\n");
        JobResult restarted = job(4, 2).config(config).options("--restart", dir.toString(), "--placement", placement.toString())
                .run().assertSucceeded();
        assertEquals(expected, results(restarted, RANKS));
        Expect.that(restarted, restarted.stdoutMatching("RESTORED rank \\d at iteration 9").size() == RANKS,
                "every rank goes on from iteration 9");
        assertEquals(List.of("part-0", "part-1", "part-2", "part-3"), list(dir.resolve("checkpoint-4")));
    }

    /** With {@code --recover}, a rank's death on one of three nodes: bdmpiexec starts the job again on the same nodes. */
    @Test
    void aRankThatDiesOnOneOfThreeNodesIsRecovered() throws IOException {
        List<String> expected = unbroken();
        Path dir = Files.createDirectory(temp.resolve("checkpoints"));

        JobResult r = job(3, 2, 4, 10, "once").options("--checkpoint-dir", dir.toString(), "--recover", "1").run()
                .assertSucceeded();
        assertEquals(expected, results(r, RANKS));
        Expect.that(r, r.stderrContaining("bdmpiexec: rank 4 \\(pid \\d+\\) was killed by signal 9.*; going on from checkpoint 3"
                + " on 3 nodes \\(recovery 1 of 1\\)").size() == 1, "the recovery is announced");
        Expect.that(r, r.stderrContaining("job failed").isEmpty(), "a job that goes on is not said to have failed");
        Expect.that(r, r.stdoutMatching("RESTORED rank \\d at iteration 9").size() == RANKS, "every rank goes on from iteration 9");
        assertEquals(1, r.requireStats().recoveries().size());
        assertEquals(List.of("checkpoint-4"), list(dir), "nothing but the last checkpoint is left");
    }

    /** The same rank dies again after its recovery: no recovery is left, and bdmpiexec says so once. */
    @Test
    void aRankThatDiesAgainEndsTheJobOnceItsRecoveriesAreUsed() throws IOException {
        Path dir = Files.createDirectory(temp.resolve("checkpoints"));
        JobResult r = job(2, 3, 4, 10, "always").options("--checkpoint-dir", dir.toString(), "--recover", "1").run()
                .assertFailed();
        Expect.that(r, r.stderrContaining("going on from checkpoint 3 on 2 nodes \\(recovery 1 of 1\\)").size() == 1,
                "the first death is recovered");
        Expect.that(r, r.stderrContaining("bdmpiexec: job failed: rank 4 \\(pid \\d+\\) was killed by signal 9").size() == 1,
                "the second death is the job's failure, said once");
        Expect.that(r, r.stderrContaining("bdmpiexec: the job cannot go on: no recovery left \\(--recover 1\\)").size() == 1,
                "why it does not go on");
    }

    /**
     * Node 2 never finished its part of checkpoint 4: the directory holds {@code .incoming-4} with
     * the parts of nodes 0 and 1 only, as a node lost while writing leaves it. A restart goes on from
     * checkpoint 3 and removes the rest.
     */
    @Test
    void aCheckpointCutShortOnOneNodeIsNeverUsed() throws IOException {
        List<String> expected = unbroken();
        Path dir = diedAfterCheckpoint3();
        Path cut = Files.createDirectory(dir.resolve(".incoming-4"));
        for (String part : List.of("part-0", "part-1")) {
            copyTree(dir.resolve("checkpoint-3").resolve(part), cut.resolve(part));
        }

        JobResult restarted = job(3, 2).options("--restart", dir.toString()).run().assertSucceeded();
        assertEquals(expected, results(restarted, RANKS));
        Expect.that(restarted, restarted.stdoutMatching("RESTORED rank \\d at iteration 9").size() == RANKS,
                "the restart goes on from checkpoint 3");
        assertEquals(List.of("checkpoint-4"), list(dir), "the half-written checkpoint is gone");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectory(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Files.copy(p, to.resolve(p.getFileName()));
            }
        }
    }

    static List<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** Whether {@code dir} holds a committed checkpoint numbered {@code from} or later (each commit discards the one before it). */
    static boolean committedFrom(Path dir, int from) {
        try {
            return list(dir).stream().filter(n -> n.matches("checkpoint-\\d+"))
                    .anyMatch(n -> Integer.parseInt(n.substring("checkpoint-".length())) >= from);
        } catch (IOException notYet) {
            return false;
        }
    }
}
