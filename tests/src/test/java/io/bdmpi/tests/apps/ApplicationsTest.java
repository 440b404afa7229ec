package io.bdmpi.tests.apps;

import io.bdmpi.examples.data.CsrBlock;
import io.bdmpi.examples.data.CsrFile;
import io.bdmpi.examples.data.DocTermGenerator;
import io.bdmpi.examples.data.RatingGenerator;
import io.bdmpi.examples.data.RmatGenerator;
import io.bdmpi.examples.data.VectorFile;
import io.bdmpi.examples.kmeans.KMeans;
import io.bdmpi.examples.kmeans.KMeansSerial;
import io.bdmpi.examples.pagerank.PageRank;
import io.bdmpi.examples.pagerank.PageRankCore;
import io.bdmpi.examples.pagerank.PageRankSerial;
import io.bdmpi.examples.sgd.Sgd;
import io.bdmpi.examples.sgd.SgdSerial;
import io.bdmpi.examples.store.HeapStorage;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The paper's three applications as real jobs on small generated inputs: their results must equal
 * the serial out-of-core baselines' bit for bit, whatever -ns and -nr. That is exact, not a
 * tolerance, because every cross-rank sum in PageRank and K-means is an exact fixed-point integer
 * sum (so the order of terms does not matter), and SGD visits the ratings in the same order in both
 * programs when the serial run uses the same grid. PageRank is also checked against an
 * independent, plain in-memory implementation, within 1e-12 relative (only the rounding of the
 * fixed-point sums, at most 2^-61 per term, separates them).
 */
class ApplicationsTest {

    @TempDir
    static Path data;
    @TempDir
    Path out;

    static Path graph;
    static Path documents;
    static Path ratings;

    @BeforeAll
    static void generate() throws IOException {
        graph = data.resolve("graph.csr");
        new RmatGenerator(11, 8, 17).write(graph, 4096, 2, 1 << 20);
        documents = data.resolve("docs.csr");
        new DocTermGenerator(900, 300, 25, 3).write(documents, 100, 2);
        ratings = data.resolve("ratings.csr");
        new RatingGenerator(700, 240, 25, 5).write(ratings, 100, 2);
    }

    // ---------------------------------------------------------------- PageRank

    @ParameterizedTest(name = "PageRank --style {0} -ns {1} -nr {2} equals the serial baseline")
    @CsvSource({"heap,1,1", "heap,4,2", "heap,7,3", "mlock,1,1", "mlock,5,2", "ooc,1,1", "ooc,4,2"})
    void pageRankEqualsSerialBitForBit(String style, int ranks, int running) throws IOException {
        Path serial = out.resolve("serial.pr");
        String summary = PageRankSerial.run(graph, serial, 12, 0, 3000).summary();
        Path parallel = out.resolve("mpi.pr");
        JobResult r = JobRunner.job(PageRank.class).ranks(ranks).running(running)
                .args("--graph", graph, "--out", parallel, "--iterations", 12, "--tolerance", 0, "--style", style).run();
        Expect.successfulRun(r, ranks, running);
        r.assertStdoutHasLine(summary);
        List<String> timing = r.stdoutMatching("PageRank timing: 12 iterations, [0-9.]+ s per iteration, [0-9.]+ s set-up, peak RSS ([0-9.]+) MiB, "
                + "start-up [0-9.]+ s, first iteration [0-9.]+ s, CPU [0-9.]+ s, " + ranks + " processes, peak RSS summed ([0-9.]+) MiB; "
                + "iterations \\(s\\):( [0-9.]+){12}");
        Expect.that(r, timing.size() == 1, "rank 0 prints one timing line, with the figures of all " + ranks + " ranks and every iteration");
        Matcher rss = Pattern.compile("peak RSS ([0-9.]+) MiB.*peak RSS summed ([0-9.]+) MiB").matcher(timing.get(0));
        Expect.that(r, rss.find() && Double.parseDouble(rss.group(1)) > 0
                        && Double.parseDouble(rss.group(2)) >= Double.parseDouble(rss.group(1)) * (ranks == 1 ? 1 : 1.5),
                "the summed peak RSS covers every rank: " + timing);
        Expect.that(r, Arrays.equals(Files.readAllBytes(serial), Files.readAllBytes(parallel)),
                "the rank vectors of the job and of the serial baseline differ");
    }

    @Test
    void pageRankConvergesAlikeUnderATinyInlineLimit() throws IOException {
        Path serial = out.resolve("serial.pr");
        String summary = PageRankSerial.run(graph, serial, 1000, 1e-10, 1 << 20).summary();
        Path parallel = out.resolve("mpi.pr");
        JobResult r = JobRunner.job(PageRank.class).ranks(4).running(1).inlineMax(1024)
                .args("--graph", graph, "--out", parallel, "--tolerance", 1e-10).run();
        Expect.successfulRun(r, 4, 1);
        r.assertStdoutHasLine(summary);
        Expect.that(r, !summary.contains(" 1000 iterations"), "PageRank should converge well before 1000 iterations: " + summary);
        Expect.that(r, Arrays.equals(Files.readAllBytes(serial), Files.readAllBytes(parallel)),
                "the converged rank vectors differ");
    }

    @Test
    void pageRankAgreesWithAPlainInMemoryImplementation() throws IOException {
        Path serial = out.resolve("serial.pr");
        PageRankSerial.run(graph, serial, 30, 0, 1000);
        double[] expected = plainPageRank(graph, 30);
        double[] actual = VectorFile.readDoubles(serial);
        if (expected.length != actual.length) {
            throw new AssertionError(actual.length + " ranks, expected " + expected.length);
        }
        double sum = 0;
        for (int v = 0; v < expected.length; v++) {
            sum += actual[v];
            if (Math.abs(actual[v] - expected[v]) > 1e-12 * expected[v]) {
                throw new AssertionError("vertex " + v + ": " + actual[v] + ", plain PageRank gives " + expected[v]);
            }
        }
        if (Math.abs(sum - 1) > 1e-9) {
            throw new AssertionError("ranks add up to " + sum);
        }
    }

    /** Textbook power iteration with doubles, all in memory. */
    private static double[] plainPageRank(Path graph, int iterations) throws IOException {
        try (CsrFile f = CsrFile.open(graph)) {
            int n = (int) f.rows();
            CsrBlock g = f.read(0, n, HeapStorage.INSTANCE);
            double[] pr = new double[n];
            Arrays.fill(pr, 1.0 / n);
            for (int it = 0; it < iterations; it++) {
                double[] next = new double[n];
                double dangling = 0;
                for (int u = 0; u < n; u++) {
                    int start = g.rowPtr().get(u);
                    int end = g.rowPtr().get(u + 1);
                    if (start == end) {
                        dangling += pr[u];
                    }
                    for (int k = start; k < end; k++) {
                        next[g.cols().get(k)] += pr[u] / (end - start);
                    }
                }
                for (int v = 0; v < n; v++) {
                    next[v] = (1 - PageRankCore.DAMPING) / n + PageRankCore.DAMPING * (next[v] + dangling / n);
                }
                pr = next;
            }
            return pr;
        }
    }

    // ---------------------------------------------------------------- K-means

    @ParameterizedTest(name = "K-means --style {0} -ns {1} -nr {2} equals the serial baseline")
    @CsvSource({"heap,1,1", "heap,3,2", "heap,4,4", "mlock,1,1", "mlock,3,2", "ooc,1,1", "ooc,4,3"})
    void kMeansEqualsSerialBitForBit(String style, int ranks, int running) throws IOException {
        Path serial = out.resolve("serial.assign");
        String summary = KMeansSerial.run(documents, serial, 7, 30, 11, ranks, 2000).summary();
        Path parallel = out.resolve("mpi.assign");
        JobResult r = JobRunner.job(KMeans.class).ranks(ranks).running(running)
                .args("--matrix", documents, "--out", parallel, "--k", 7, "--iterations", 30, "--seed", 11, "--style", style).run();
        Expect.successfulRun(r, ranks, running);
        r.assertStdoutHasLine(summary);
        int[] assignment = VectorFile.readInts(parallel);
        Expect.that(r, Arrays.equals(VectorFile.readInts(serial), assignment),
                "the assignments of the job and of the serial baseline differ");
        long used = Arrays.stream(assignment).distinct().count();
        Expect.that(r, assignment.length == 900 && Arrays.stream(assignment).allMatch(c -> c >= 0 && c < 7) && used > 3,
                "900 rows in clusters 0..6, several of them used; got " + used + " clusters");
    }

    // ---------------------------------------------------------------- SGD

    @ParameterizedTest(name = "SGD --style {0} -ns {1} -nr {2} equals the serial baseline on the same grid")
    @CsvSource({"heap,1,1", "heap,4,2", "heap,9,2", "heap,9,9", "mlock,1,1", "mlock,4,2", "ooc,1,1", "ooc,9,2"})
    void sgdEqualsSerialBitForBit(String style, int ranks, int running) throws IOException {
        int q = (int) Math.round(Math.sqrt(ranks));
        List<String> lines = new ArrayList<>();
        String summary = SgdSerial.run(ratings, out.resolve("serial").toString(), new SgdSerial.Settings(8, 6, 0.02, 0.05, 3),
                q, 500, lines::add).summary();
        JobResult r = JobRunner.job(Sgd.class).ranks(ranks).running(running)
                .args("--ratings", ratings, "--out", out.resolve("mpi"), "--factors", 8, "--iterations", 6,
                        "--rate", 0.02, "--reg", 0.05, "--seed", 3, "--style", style).run();
        var stats = Expect.successfulRun(r, ranks, running);
        long handOvers = q == 1 ? 0 : 2L * ranks * (6 + 1); // user and item factors, 6 training passes and 1 measuring
        Expect.that(r, stats.node0().messages() == handOvers,
                "every rank passes its two factor blocks on once per pass: " + handOvers + " messages expected");
        for (String line : lines) {
            r.assertStdoutHasLine(line);
        }
        r.assertStdoutHasLine(summary);
        for (String suffix : List.of(".users", ".items")) {
            Expect.that(r, Arrays.equals(Files.readAllBytes(out.resolve("serial" + suffix)),
                    Files.readAllBytes(out.resolve("mpi" + suffix))), "the " + suffix + " factors differ");
        }
        double first = rmse(lines.get(0));
        double last = rmse(summary);
        Expect.that(r, last < 0.6 * first && last < 1.2, "SGD should learn: RMSE " + first + " -> " + last);
    }

    private static double rmse(String line) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    // ---------------------------------------------------------------- bad input

    @Test
    void sgdOnANonSquareNumberOfRanksFailsClearly() {
        JobResult r = JobRunner.job(Sgd.class).ranks(3).running(3)
                .args("--ratings", ratings, "--out", out.resolve("x")).run();
        r.assertFailed();
        Expect.that(r, r.exitCode() == 2 && !r.stderrContaining("square number of ranks").isEmpty(),
                "exit code 2 and a message about the square number of ranks expected");
    }

    @Test
    void missingInputFailsClearly() {
        JobResult r = JobRunner.job(PageRank.class).ranks(2).running(1)
                .args("--graph", out.resolve("no-such-graph"), "--out", out.resolve("x")).run();
        r.assertFailed();
        Expect.that(r, r.exitCode() == 2 && !r.stderrContaining("no-such-graph").isEmpty(),
                "exit code 2 and a message naming the missing file expected");
    }

    @Test
    void unknownStyleFailsClearly() {
        JobResult r = JobRunner.job(KMeans.class).ranks(2).running(1)
                .args("--matrix", documents, "--out", out.resolve("x"), "--k", 3, "--style", "swap").run();
        r.assertFailed();
        Expect.that(r, r.exitCode() == 2 && !r.stderrContaining("unknown --style 'swap': use heap, mlock or ooc").isEmpty(),
                "exit code 2 and a message listing the available styles expected");
    }
}
