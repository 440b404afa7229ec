package io.bdmpi.tests.apps;

import io.bdmpi.examples.data.DocTermGenerator;
import io.bdmpi.examples.data.RatingGenerator;
import io.bdmpi.examples.data.VectorFile;
import io.bdmpi.examples.kmeans.KMeans;
import io.bdmpi.examples.kmeans.KMeansSerial;
import io.bdmpi.examples.sgd.Sgd;
import io.bdmpi.examples.sgd.SgdSerial;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code mlock} and {@code ooc} styles are what let an application's data outgrow memory:
 * K-means on about 270 MiB of documents, four ranks run one at a time under a {@code --memory-limit}
 * of 384 MiB that also holds five JVMs, completes in both with the serial
 * baseline's assignments, while the heap style of the same job (same heap, same
 * {@code --shrink-heap-on-park} as {@code ooc}) is killed for the limit. Needs root and a cgroup
 * memory controller; skipped otherwise.
 */
class ApplicationsUnderMemoryLimitTest {

    /** Heap for a running ooc or heap rank: its quarter of the data (about 68 MiB) and room to work. */
    private static final String DATA_ON_HEAP = "-Xmx160m";
    /** Heap for an mlock rank, whose data is off the heap. */
    private static final String DATA_OFF_HEAP = "-Xmx32m";

    @TempDir
    Path dir;

    @Test
    void kMeansInTheMlockAndOocStylesOutgrowsTheLimitWithTheSerialResult() throws IOException {
        Path documents = dir.resolve("docs.csr");
        new DocTermGenerator(720_000, 20_000, 50, 1).write(documents, 4096, 2);
        if (Files.size(documents) < 200L << 20) {
            throw new AssertionError("the documents should be over 200 MiB, are " + Files.size(documents) + " bytes");
        }

        JobResult heap = kMeans(documents, "heap", DATA_ON_HEAP);
        Assumptions.assumeFalse(heap.exitCode() == 2 && !heap.stderrContaining("--memory-limit: ").isEmpty(),
                () -> "no memory cgroup here: " + heap.stderr());
        heap.assertFailed();
        Expect.that(heap, !heap.stderrContaining("OOM killer: the job exceeded its --memory-limit").isEmpty(),
                "the heap style should be killed for the limit: the data must not fit");

        Path serial = dir.resolve("serial.assign");
        String summary = KMeansSerial.run(documents, serial, 3, 3, 5, 4, 1 << 20).summary();
        int[] expected = VectorFile.readInts(serial);
        for (String style : new String[] {"mlock", "ooc"}) {
            JobResult r = kMeans(documents, style, style.equals("mlock") ? DATA_OFF_HEAP : DATA_ON_HEAP);
            Expect.successfulRun(r, 4, 1);
            r.assertStdoutHasLine(summary);
            Expect.that(r, Arrays.equals(expected, VectorFile.readInts(dir.resolve(style + ".assign"))),
                    "the assignments of the " + style + " job and of the serial baseline differ");
        }
    }

    /**
     * SGD on 1.5 M users with 5 ratings each, 4 ranks: each rank's user factors are 60 MB (10
     * doubles per user of its half). A rank holds its factors only from the receive to the send of
     * its step and parks in a probe, so the job fits a limit of 416 MiB (it does from 352 MiB on),
     * and gives the serial baseline's factors; with every rank holding its factors throughout it
     * was killed at 448 MiB.
     */
    @Test
    void sgdRanksParkedBetweenTheirStepsHoldNoFactors() throws IOException {
        Path ratings = dir.resolve("ratings.csr");
        new RatingGenerator(1_500_000, 2_000, 5, 1).write(ratings, 4096, 2);
        List<String> lines = new ArrayList<>();
        SgdSerial.Settings settings = new SgdSerial.Settings(10, 2, 0.02, 0.05, 3);
        String summary = SgdSerial.run(ratings, dir.resolve("serial").toString(), settings, 2, 1 << 20, lines::add).summary();
        for (String style : new String[] {"mlock", "ooc"}) {
            JobResult r = JobRunner.job(Sgd.class).ranks(4).running(1)
                    .options("--memory-limit", "416m", "--shrink-heap-on-park", "--slave-jvm-opts", "-XX:+UseSerialGC " + DATA_ON_HEAP)
                    .args("--ratings", ratings, "--out", dir.resolve(style), "--factors", 10, "--iterations", 2,
                            "--rate", 0.02, "--reg", 0.05, "--seed", 3, "--style", style)
                    .timeout(Duration.ofSeconds(240)).run();
            Assumptions.assumeFalse(r.exitCode() == 2 && !r.stderrContaining("--memory-limit: ").isEmpty(),
                    () -> "no memory cgroup here: " + r.stderr());
            Expect.successfulRun(r, 4, 1);
            r.assertStdoutHasLine(summary);
            for (String suffix : List.of(".users", ".items")) {
                Expect.that(r, Arrays.equals(Files.readAllBytes(dir.resolve("serial" + suffix)),
                        Files.readAllBytes(dir.resolve(style + suffix))), "the " + style + " job's " + suffix + " factors differ");
            }
        }
    }

    private JobResult kMeans(Path documents, String style, String slaveHeap) {
        return JobRunner.job(KMeans.class).ranks(4).running(1)
                .options("--memory-limit", "384m", "--shrink-heap-on-park", "--slave-jvm-opts", slaveHeap)
                .args("--matrix", documents, "--out", dir.resolve(style + ".assign"), "--k", 3, "--iterations", 3,
                        "--seed", 5, "--style", style)
                .timeout(Duration.ofSeconds(240)).run();
    }
}
