package io.bdmpi.tests.checkpoint;

import io.bdmpi.tests.programs.checkpoint.Checkpointed;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints, restarts and recovery with real jobs: a job that dies and goes on from its last
 * checkpoint (by itself with {@code --recover}, or with {@code --restart}) prints the same results
 * as one that never died, including the messages that were in flight, small and on disk, when the
 * checkpoint was taken.
 */
class CheckpointTest {

    private static final int RANKS = 4;
    private static final int ITERATIONS = 12;
    private static final int EVERY = 3;
    /** Over the default -im: these messages are spill files when the checkpoint is taken. */
    private static final int BIG = 200_000;
    private static final int STATE = 300_000;

    @TempDir
    Path temp;

    private static JobRunner job(Object... crash) {
        return JobRunner.job(Checkpointed.class).ranks(RANKS).running(2).args(Checkpointed.args(ITERATIONS, EVERY, BIG, STATE, crash));
    }

    private static List<String> results(JobResult r) {
        List<String> lines = r.stdoutMatching("RESULT .*").stream().sorted().toList();
        assertEquals(RANKS, lines.size(), "one RESULT line per rank\n" + r.describe());
        return lines;
    }

    @Test
    void aRecoveredJobPrintsWhatAnUnbrokenOnePrints() {
        List<String> expected = results(job().run().assertSucceeded());

        JobResult recovered = job(2, 8, "once").options("--recover", "1").run().assertSucceeded();

        assertEquals(expected, results(recovered));
        Expect.that(recovered, recovered.stderrContaining("rank 2 \\(pid \\d+\\) was killed by signal 9.*rolling back to"
                + " checkpoint 2 \\(recovery 1 of 1\\)").size() == 1, "one line announces the roll-back");
        Expect.that(recovered, recovered.stdoutMatching("RESTORED rank \\d at iteration 6").size() == RANKS,
                "every rank goes on from iteration 6");
        List<Stats.Recovery> recoveries = recovered.requireStats().recoveries();
        assertEquals(1, recoveries.size(), recoveries.toString());
        assertEquals(2, recoveries.get(0).checkpoint());
        assertTrue(recoveries.get(0).failure().startsWith("rank 2 "), recoveries.toString());
        assertTrue(recoveries.get(0).restartSeconds() > 0 && recoveries.get(0).lostSeconds() >= 0, recoveries.toString());
    }

    /** Small messages in flight wait in the off-heap store: a checkpoint copies them and leaves them there. */
    @Test
    void aRecoveredJobWithOffHeapMessagesPrintsWhatAnUnbrokenOnePrints() {
        List<String> expected = results(job().run().assertSucceeded());
        JobResult recovered = job(2, 8, "once").options("--recover", "1", "--offheap-messages").run().assertSucceeded();
        assertEquals(expected, results(recovered));
        Expect.that(recovered, recovered.stdoutMatching("RESTORED rank \\d at iteration 6").size() == RANKS,
                "every rank goes on from iteration 6");
    }

    @Test
    void recoveriesAreBounded() {
        JobResult r = job(1, 5, "always").options("--recover", "2").run().assertFailed();
        Expect.that(r, r.stderrContaining("rolling back to checkpoint 1 \\(recovery 2 of 2\\)").size() == 1,
                "the second roll-back is announced");
        Expect.that(r, r.stderrContaining("job failed: rank 1 \\(pid \\d+\\) was killed by signal 9").size() == 1,
                "the third death ends the job");
    }

    @Test
    void aDeathBeforeTheFirstCheckpointIsNotRecovered() {
        JobResult r = job(3, 2, "once").options("--recover", "3").run().assertFailed();
        Expect.that(r, r.stderrContaining("rolling back").isEmpty(), "nothing to roll back to");
        Expect.that(r, r.stderrContaining("job failed: rank 3 .*killed by signal 9").size() == 1, "the death is reported");
    }

    @Test
    void aDeathInsideACheckpointRollsBackToThePreviousOne() {
        List<String> expected = results(job().run().assertSucceeded());
        JobResult r = job(0, 9, "in-checkpoint").options("--recover", "1").run().assertSucceeded();
        assertEquals(expected, results(r));
        Expect.that(r, r.stderrContaining("rolling back to checkpoint 2 ").size() == 1,
                "checkpoint 3 was never complete, so checkpoint 2 is used");
    }

    @Test
    void aJobRestartsFromItsCheckpointDirectoryWithAnotherNrunning() throws IOException {
        List<String> expected = results(job().run().assertSucceeded());
        Path dir = Files.createDirectory(temp.resolve("checkpoints"));

        JobResult died = job(1, 10, "once").options("--checkpoint-dir", dir.toString()).run().assertFailed();
        Expect.that(died, died.stderrContaining("job failed: rank 1 .*killed by signal 9").size() == 1, "the death is reported");
        assertEquals(List.of("checkpoint-3"), list(dir), "only the last checkpoint is kept");

        Path elsewhere = temp.resolve("elsewhere");
        JobResult restartedElsewhere = JobRunner.job(Checkpointed.class).ranks(RANKS).running(RANKS).args(ITERATIONS, EVERY, BIG, STATE)
                .options("--restart", dir.toString(), "--checkpoint-dir", elsewhere.toString()).run().assertSucceeded();
        assertEquals(expected, results(restartedElsewhere));
        assertEquals(List.of("checkpoint-4"), list(elsewhere), "checkpoints written elsewhere are numbered after the restored one");
        assertEquals(List.of("checkpoint-3"), list(dir), "the restart directory is left as it was");

        JobResult restarted = JobRunner.job(Checkpointed.class).ranks(RANKS).running(RANKS)
                .args(ITERATIONS, EVERY, BIG, STATE).options("--restart", dir.toString()).run().assertSucceeded();
        assertEquals(expected, results(restarted));
        Expect.that(restarted, restarted.stdoutMatching("RESTORED rank \\d at iteration 9").size() == RANKS,
                "every rank goes on from iteration 9");
        Expect.that(restarted, restarted.stdoutMatching("CHECKPOINT 4 rank \\d at iteration 12").size() == RANKS,
                "checkpoint numbers go on across the restart");
        assertEquals(List.of("checkpoint-4"), list(dir), "the restarted job's checkpoint replaced the old one");
    }

    @Test
    void aRestartNeedsTheSameNumberOfRanks() throws IOException {
        Path dir = Files.createDirectory(temp.resolve("checkpoints"));
        job(1, 4, "once").options("--checkpoint-dir", dir.toString()).run().assertFailed();

        JobResult r = JobRunner.job(Checkpointed.class).ranks(RANKS - 1).running(1).args(ITERATIONS, EVERY, BIG, STATE)
                .options("--restart", dir.toString()).run().assertFailed();
        Expect.that(r, r.stderrContaining("checkpoint 1 in " + dir + " has 4 ranks but this job has -ns 3").size() == 1,
                "the mismatch is named");
        JobResult none = JobRunner.job(Checkpointed.class).ranks(RANKS).running(1).args(ITERATIONS, EVERY, BIG, STATE)
                .options("--restart", temp.toString()).run().assertFailed();
        Expect.that(none, none.stderrContaining("no checkpoint to restart from in " + temp).size() == 1,
                "an empty directory is named");
    }

    @Test
    void aCheckpointWithAPendingReceiveStopsTheJob() {
        JobResult r = job(2, 3, "pending").run().assertFailed();
        Expect.that(r, r.stderrContaining("rank 2 called BDMPI_Checkpoint with nonblocking operations pending").size() == 1,
                "the misuse is named");
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
