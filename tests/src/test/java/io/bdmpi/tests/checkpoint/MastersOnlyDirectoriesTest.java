package io.bdmpi.tests.checkpoint;

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
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Node-local checkpoint directories that only the masters see, as on a cluster where each node's
 * directory is on its own disk: bdmpiexec is given an MPI launcher ({@code --mpiexec}) that starts
 * the real one in a mount namespace of its own where the checkpoint directories' parent is bound
 * over an empty directory. So the masters (and their slaves) read and write the node directories,
 * and bdmpiexec, outside that namespace, sees an empty directory under the same path. A node lost
 * after a checkpoint is recovered all the same: the masters tell bdmpiexec what their directories
 * hold. (Were bdmpiexec to read the directories itself it would find no checkpoint and stop.)
 */
class MastersOnlyDirectoriesTest {

    private static final int RANKS = 6;
    private static final Object[] ARGS = {18, 3, 200_000, 300_000};
    /** Three masters and six slaves, twice for a recovery, on a machine shared with other jobs. */
    private static final Duration TIMEOUT = JobRunner.DEFAULT_TIMEOUT.multipliedBy(3);

    @TempDir
    Path temp;

    private static JobRunner ring(MpiAbi mpi) {
        return JobRunner.job(Checkpointed.class).mpi(mpi).nodes(3).ranks(2).running(1).args(ARGS).timeout(TIMEOUT);
    }

    /**
     * An MPI launcher named like {@code mpi}'s own (so that bdmpiexec takes it for that library's)
     * that runs the real one in a new mount namespace with {@code disks} bound over {@code seen}.
     */
    private static Path launcherWithHiddenDisks(Path bin, MpiAbi mpi, Path disks, Path seen) throws IOException {
        String real = mpi == MpiAbi.MPICH ? "mpiexec.mpich" : "mpiexec.openmpi";
        Path script = Files.createDirectories(bin).resolve(real);
        Files.writeString(script, "#!/bin/sh\nexec unshare --mount --propagation private sh -c 'mount --bind \"$1\" \"$2\" && shift 2"
                + " && exec \"$@\"' sh '" + disks + "' '" + seen + "' /usr/bin/" + real + " \"$@\"\n");
        assertTrue(script.toFile().setExecutable(true));
        return script;
    }

    /** Whether this process may make a mount namespace and bind in it (root, with unshare). */
    private static boolean canBindInNamespace() {
        try {
            return new ProcessBuilder("unshare", "--mount", "--propagation", "private", "sh", "-c",
                    "mount --bind /tmp /tmp").inheritIO().start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /**
     * What every test here starts from: an unbroken job's results, the nodes' directories
     * ({@code disks}), the empty directory bdmpiexec sees in their place ({@code seen}) and the
     * launcher that binds the one over the other.
     */
    private record Setting(List<String> expected, Path disks, Path seen, Path mpiexec) {
    }

    private Setting hiddenDisks(MpiAbi mpi) throws IOException {
        assumeTrue(canBindInNamespace(), "needs root and unshare to hide the directories from bdmpiexec");
        List<String> expected = SeveralNodesCheckpointTest.results(ring(mpi).run().assertSucceeded(), RANKS);
        Path disks = Files.createDirectory(temp.resolve("disks"));
        Path seen = Files.createDirectory(temp.resolve("seen"));
        return new Setting(expected, disks, seen, launcherWithHiddenDisks(temp.resolve("bin"), mpi, disks, seen));
    }

    @ParameterizedTest
    @EnumSource(MpiAbi.class)
    void aLostNodeIsRecoveredFromDirectoriesBdmpiexecCannotSee(MpiAbi mpi) throws Exception {
        Setting h = hiddenDisks(mpi);
        // Killed: only its side channel ends without a goodbye, under MPICH too, whose hydra kills
        // the other masters' wrappers only (docs/several-nodes.md, Watching the masters).
        CompletableFuture<Long> lostMaster = BuddyCopyTest.loseAtCheckpointTwo(h.disks().resolve("node-1"), h.seen().toString(),
                "-KILL");

        JobResult r = ring(mpi).options("--mpiexec", h.mpiexec().toString(), "--checkpoint-dir",
                h.seen().resolve("node-%n").toString(), "--recover", "1").run();
        BuddyCopyTest.assertWentOnWithoutNodeOne(r, lostMaster, h.expected());
        List<String> announced = r.stderrContaining("bdmpiexec: node \\d+ \\(host ");
        Expect.that(r, announced.size() == 1 && announced.get(0).matches("bdmpiexec: node 1 \\(host \\S+\\) "
                + "is gone \\(its master's connection .*\\); ending the job"),
                "node 1, and no other, is announced lost, in one line: " + announced);

        assertEquals(List.of(), SeveralNodesCheckpointTest.list(h.seen()), "bdmpiexec's view of the directories stays empty");
        assertOnlyTheLastCheckpointIn(h.disks(), List.of("node-0", "node-2"));
    }

    /**
     * Rank 4 SIGKILLs itself at iteration 10, after checkpoint 3: its master tells bdmpiexec over
     * the side channel (the directories, where masters also note it, are out of bdmpiexec's sight),
     * and the job goes on from checkpoint 3 on the same three nodes.
     */
    @ParameterizedTest
    @EnumSource(value = MpiAbi.class, names = "MPICH")
    void aRankDeathIsRecoveredFromDirectoriesBdmpiexecCannotSee(MpiAbi mpi) throws Exception {
        Setting h = hiddenDisks(mpi);

        JobResult r = ring(mpi).args(4, 10, "once").options("--mpiexec", h.mpiexec().toString(), "--checkpoint-dir",
                h.seen().resolve("node-%n").toString(), "--recover", "1").run().assertSucceeded();
        assertEquals(h.expected(), SeveralNodesCheckpointTest.results(r, RANKS));
        Expect.that(r, r.stderrContaining("bdmpiexec: rank 4 \\(pid \\d+\\) was killed by signal 9.*; going on from checkpoint 3"
                + " on 3 nodes \\(recovery 1 of 1\\)").size() == 1, "the recovery is announced");
        Expect.that(r, r.stdoutMatching("RESTORED rank \\d at iteration 9").size() == RANKS, "every rank goes on from iteration 9");
        assertEquals(1, r.requireStats().recoveries().size());
        assertEquals(3, r.requireStats().recoveries().get(0).checkpoint(), "the checkpoint the masters went on from");
        assertEquals(List.of(), SeveralNodesCheckpointTest.list(h.seen()), "bdmpiexec's view of the directories stays empty");
        assertOnlyTheLastCheckpointIn(h.disks(), List.of("node-0", "node-1", "node-2"));
    }

    /**
     * Rank 4 dies at iteration 10 with no --recover; the job is restarted on two nodes from the
     * directories bdmpiexec cannot see: the masters agree among themselves on the parts each lacks
     * and send them to each other, and the results are an unbroken run's.
     */
    @ParameterizedTest
    @EnumSource(value = MpiAbi.class, names = "MPICH")
    void aRestartOnFewerNodesFetchesThePartsFromDirectoriesBdmpiexecCannotSee(MpiAbi mpi) throws Exception {
        Setting h = hiddenDisks(mpi);
        String dirs = h.seen().resolve("node-%n").toString();
        ring(mpi).args(4, 10, "once").options("--mpiexec", h.mpiexec().toString(), "--checkpoint-dir", dirs).run().assertFailed();

        JobResult r = ring(mpi).nodes(2).ranks(3).options("--mpiexec", h.mpiexec().toString(), "--restart", dirs).run()
                .assertSucceeded();
        assertEquals(h.expected(), SeveralNodesCheckpointTest.results(r, RANKS));
        Expect.that(r, r.stdoutMatching("RESTORED rank \\d at iteration 9").size() == RANKS, "every rank goes on from iteration 9");
        assertEquals(List.of(), SeveralNodesCheckpointTest.list(h.seen()), "bdmpiexec's view of the directories stays empty");
        assertOnlyTheLastCheckpointIn(h.disks(), List.of("node-0", "node-1"));
    }

    /**
     * Each of {@code nodes} in {@code disks} holds one checkpoint, with two parts: its node's and a
     * buddy copy.
     */
    private static void assertOnlyTheLastCheckpointIn(Path disks, List<String> nodes) throws IOException {
        for (String node : nodes) {
            List<String> left = SeveralNodesCheckpointTest.list(disks.resolve(node));
            assertEquals(1, left.size(), "only the last checkpoint is left in " + node + ": " + left);
            assertTrue(left.get(0).startsWith("checkpoint-"), left.toString());
            List<String> parts = SeveralNodesCheckpointTest.list(disks.resolve(node).resolve(left.get(0)));
            assertTrue(parts.size() == 2 && parts.stream().allMatch(p -> p.startsWith("part-")), node + ": " + parts);
        }
    }
}
