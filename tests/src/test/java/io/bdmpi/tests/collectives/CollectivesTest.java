package io.bdmpi.tests.collectives;

import io.bdmpi.tests.programs.collectives.Collectives;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

/**
 * Every blocking collective (and its in-place forms) on COMM_WORLD, on the uneven parts of a
 * split running at the same time, on a dup and on COMM_SELF, against references the ranks compute
 * themselves; see {@link Collectives}. Sizes 1, 2, 3, 7, 16 with {@code -nr} 1 and more; arrays,
 * direct buffers and both mixed in one call; blocks over {@code -im} that go through disk; one
 * 64-rank job.
 */
class CollectivesTest {

    @ParameterizedTest(name = "-ns {0} -nr {1}, blocks of {2}, {3}")
    @CsvSource({
        "1,1,5,arrays",
        "2,1,4,mixed",
        "2,2,3,direct",
        "3,1,5,mixed",
        "3,3,4,arrays",
        "7,1,3,direct",
        "7,3,5,mixed",
        "7,7,4,mixed",
        "16,1,2,mixed",
        "16,3,3,arrays",
    })
    void smallBlocks(int ranks, int running, int block, String mode) {
        JobResult r = JobRunner.job(Collectives.class).ranks(ranks).running(running).inlineMax(4096)
                .args(block, mode).run();
        Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "Collectives", ranks);
    }

    /** 16400 elements per block: 16 to 128 KiB, all over -im 4096, so data moves through disk. */
    @ParameterizedTest(name = "-ns {0} -nr {1}, blocks of {2} over -im 4096, {3}")
    @CsvSource({"3,1,16400,mixed", "7,2,16400,mixed", "5,5,16400,mixed"})
    void largeBlocks(int ranks, int running, int block, String mode) {
        JobResult r = JobRunner.job(Collectives.class).ranks(ranks).running(running).inlineMax(4096)
                .args(block, mode).timeout(Duration.ofSeconds(120)).run();
        Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "Collectives", ranks);
    }

    /** COMM_WORLD and the split parts only (the dup and COMM_SELF rounds add nothing at this size). */
    @Test
    void sixtyFourRanks() {
        JobResult r = JobRunner.job(Collectives.class).ranks(64).running(4).inlineMax(4096)
                .args(2, "mixed", "world+split").timeout(Duration.ofSeconds(180)).run();
        Expect.successfulRun(r, 64, 4);
        Expect.okFromEveryRank(r, "Collectives", 64);
    }
}
