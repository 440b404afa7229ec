package io.bdmpi.tests.collectives;

import io.bdmpi.tests.programs.collectives.Extensions;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The BDMPI extensions on one node: node and local sizes, ranks and roots, COMM_NODE,
 * COMM_CWORLD, and the critical section, which at most one slave may be in at a time (checked
 * with an exclusive marker file); see {@link Extensions}.
 */
class ExtensionsTest {

    static final long SLEEP_MS = 50;

    @ParameterizedTest(name = "-ns {0} -nr {1}, {2} rounds in the critical section")
    @CsvSource({"1,1,2", "4,2,3", "6,3,2"})
    void extensionsOnOneNode(int ranks, int running, int rounds, @TempDir Path dir) throws IOException {
        JobResult r = JobRunner.job(Extensions.class).ranks(ranks).running(running)
                .args(dir.toString(), rounds, SLEEP_MS).run();
        Stats s = Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "Extensions", ranks);
        Expect.that(r, !Files.exists(dir.resolve("inside")), "the critical-section marker file was left behind");
        long entries;
        try (Stream<Path> files = Files.list(dir)) {
            entries = files.filter(p -> p.getFileName().toString().startsWith("entered-")).count();
        }
        Expect.that(r, entries == (long) ranks * rounds,
                entries + " critical-section entries logged, expected " + ranks * rounds);
        double serial = ranks * rounds * SLEEP_MS / 1000.0;
        Expect.that(r, s.wallTimeSeconds() >= serial * 0.95,
                "wallTimeSeconds " + s.wallTimeSeconds() + " < " + serial + " s, the time the " + ranks * rounds
                        + " critical sections of " + SLEEP_MS + " ms take one after another: some overlapped");
    }
}
