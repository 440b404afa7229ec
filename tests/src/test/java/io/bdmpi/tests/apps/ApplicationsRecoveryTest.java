package io.bdmpi.tests.apps;

import io.bdmpi.examples.data.DocTermGenerator;
import io.bdmpi.examples.data.RmatGenerator;
import io.bdmpi.examples.kmeans.KMeans;
import io.bdmpi.examples.pagerank.PageRank;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * PageRank and K-means with {@code --checkpoint-every}: a job in which rank 1 is killed (SIGKILL,
 * {@code --die-at 1:5}) and that goes on from its last checkpoint, by itself under
 * {@code --recover 1} or with {@code --restart} and another {@code -nr}, writes the same output
 * file, bit for bit, and prints the same summary as a job that never died.
 */
class ApplicationsRecoveryTest {

    private static final int RANKS = 4;

    @TempDir
    static Path data;
    @TempDir
    Path out;

    static Path graph;
    static Path documents;

    @BeforeAll
    static void generate() throws IOException {
        graph = data.resolve("graph.csr");
        new RmatGenerator(11, 8, 17).write(graph, 4096, 2, 1 << 20);
        documents = data.resolve("docs.csr");
        new DocTermGenerator(900, 300, 25, 3).write(documents, 100, 2);
    }

    private static JobRunner pageRank(Path result, Object... more) {
        return JobRunner.job(PageRank.class).ranks(RANKS).running(2)
                .args(concat(new Object[] {"--graph", graph, "--out", result, "--iterations", 12, "--tolerance", 0}, more));
    }

    private static JobRunner kMeans(Path result, Object... more) {
        return JobRunner.job(KMeans.class).ranks(RANKS).running(2)
                .args(concat(new Object[] {"--matrix", documents, "--out", result, "--k", 7, "--iterations", 30, "--seed", 11}, more));
    }

    @Test
    void pageRankRecoversFromAKillWithTheSameRanks() throws IOException {
        Path expected = out.resolve("unbroken.pr");
        JobResult unbroken = pageRank(expected).run().assertSucceeded();
        Path recovered = out.resolve("recovered.pr");
        JobResult r = pageRank(recovered, "--checkpoint-every", 2, "--die-at", "1:5").options("--recover", "1").run();
        assertRecovered(unbroken, expected, r, recovered, "PageRank:");
    }

    @Test
    void kMeansRecoversFromAKillWithTheSameAssignment() throws IOException {
        Path expected = out.resolve("unbroken.assign");
        JobResult unbroken = kMeans(expected).run().assertSucceeded();
        Expect.that(unbroken, unbroken.stdoutMatching("KMeans timing: ([6-9]|[1-9][0-9]) iterations.*").size() == 1,
                "K-means must run past the iteration at which rank 1 is killed");
        Path recovered = out.resolve("recovered.assign");
        JobResult r = kMeans(recovered, "--checkpoint-every", 2, "--die-at", "1:5").options("--recover", "1").run();
        assertRecovered(unbroken, expected, r, recovered, "KMeans:");
    }

    @Test
    void pageRankRestartsFromItsCheckpointsWithAnotherNrunning() throws IOException {
        Path expected = out.resolve("unbroken.pr");
        JobResult unbroken = pageRank(expected).run().assertSucceeded();
        Path dir = Files.createDirectory(out.resolve("checkpoints"));
        Path restarted = out.resolve("restarted.pr");

        JobResult died = pageRank(restarted, "--checkpoint-every", 2, "--die-at", "1:5")
                .options("--checkpoint-dir", dir.toString()).run().assertFailed();
        Expect.that(died, died.stderrContaining("job failed: rank 1 .*killed by signal 9").size() == 1, "the death is reported");

        JobResult r = JobRunner.job(PageRank.class).ranks(RANKS).running(RANKS)
                .args("--graph", graph, "--out", restarted, "--iterations", 12, "--tolerance", 0, "--checkpoint-every", 2)
                .options("--restart", dir.toString()).run().assertSucceeded();
        Expect.that(r, Arrays.equals(Files.readAllBytes(expected), Files.readAllBytes(restarted)),
                "the restarted job's rank vector differs from the unbroken one's");
        assertEquals(summary(unbroken, "PageRank:"), summary(r, "PageRank:"));
    }

    private static void assertRecovered(JobResult unbroken, Path expected, JobResult r, Path recovered, String summaryPrefix)
            throws IOException {
        r.assertSucceeded();
        Expect.that(r, r.stderrContaining("rank 1 \\(pid \\d+\\) was killed by signal 9.*rolling back to checkpoint 2 "
                + "\\(recovery 1 of 1\\)").size() == 1, "one roll-back to the checkpoint of iteration 4 is announced");
        List<Stats.Recovery> recoveries = r.requireStats().recoveries();
        assertEquals(1, recoveries.size(), recoveries.toString());
        assertEquals(2, recoveries.get(0).checkpoint(), recoveries.toString());
        Expect.that(r, Arrays.equals(Files.readAllBytes(expected), Files.readAllBytes(recovered)),
                "the recovered job's output differs from the unbroken one's");
        assertEquals(summary(unbroken, summaryPrefix), summary(r, summaryPrefix));
        for (JobResult job : List.of(unbroken, r)) {
            Expect.that(job, job.stderrContaining("while cleaning up").isEmpty(), "the master cleans up without an error");
        }
    }

    private static String summary(JobResult r, String prefix) {
        List<String> lines = r.stdoutMatching(prefix + ".*");
        assertEquals(1, lines.size(), "one summary line\n" + r.describe());
        return lines.get(0);
    }

    private static Object[] concat(Object[] a, Object[] b) {
        Object[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
