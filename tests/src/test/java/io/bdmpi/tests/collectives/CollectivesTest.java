package io.bdmpi.tests.collectives;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.collectives.Collectives;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

/**
 * Every blocking collective (and its in-place forms) on COMM_WORLD, on the uneven parts of a
 * split running at the same time, on a dup and on COMM_SELF, against references the ranks compute
 * themselves; see {@link Collectives}. Sizes 1, 2, 3, 7, 16 with {@code -nr} 1 and more; arrays,
 * direct buffers and both mixed in one call; blocks over {@code -im} that go through disk; one
 * 64-rank job.
 */
class CollectivesTest {

    /** On several nodes (masters on this machine over MPICH, the default) every operation also crosses between masters. */
    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, blocks of {3}, {4}")
    @CsvSource({
        "1,1,1,5,arrays",
        "1,2,1,4,mixed",
        "1,2,2,3,direct",
        "1,3,1,5,mixed",
        "1,3,3,4,arrays",
        "1,7,1,3,direct",
        "1,7,3,5,mixed",
        "1,7,7,4,mixed",
        "1,16,1,2,mixed",
        "1,16,3,3,arrays",
        "2,1,1,5,mixed",
        "3,2,1,3,arrays",
    })
    void smallBlocks(int nodes, int perNode, int running, int block, String mode) {
        JobResult r = JobRunner.job(Collectives.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(block, mode).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "Collectives", nodes * perNode);
    }

    /** Two nodes over each MPI library; see SendRecvTest for why success shows the library asked for was used. */
    @ParameterizedTest(name = "-nn 2 -ns 3 -nr 2, blocks of 4, direct, over {0}")
    @EnumSource(MpiAbi.class)
    void twoNodesOverEachMpiLibrary(MpiAbi library) {
        JobResult r = JobRunner.job(Collectives.class).nodes(2).mpi(library).ranks(3).running(2).inlineMax(4096)
                .args(4, "direct").run();
        Expect.successfulRun(r, 2, 3, 2);
        Expect.okFromEveryRank(r, "Collectives", 6);
    }

    /** 16400 elements per block: 16 to 128 KiB, all over -im 4096, so data moves through disk. */
    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, blocks of {3} over -im 4096, {4}")
    @CsvSource({"1,3,1,16400,mixed", "1,7,2,16400,mixed", "1,5,5,16400,mixed", "2,2,1,16400,mixed", "3,1,1,16400,mixed"})
    void largeBlocks(int nodes, int perNode, int running, int block, String mode) {
        JobResult r = JobRunner.job(Collectives.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(block, mode).timeout(Duration.ofSeconds(120)).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "Collectives", nodes * perNode);
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
