package io.bdmpi.tests;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.LargeStream;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;

/**
 * Messages of several 8 MiB chunks from one node to a slow receiver on another (see
 * {@link LargeStream}), which its master receives straight into its mappings of recycled spill
 * files: every element of every message arrives intact, in rounds where files are new, reused,
 * grown or holding a shorter message, while the receiver reads some and others arrive; and a
 * receiving master killed while a round streams in leaves nothing behind (the harness checks
 * {@code -wd}, {@code /dev/shm} and the processes).
 */
class LargeStreamTest {

    private static final int MIB = 1024 * 1024;
    private static final Object[] STREAM = {3, 6, 9 * MIB, 26 * MIB + 12_344, 100};

    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void everyElementOfEveryLargeMessageArrives(MpiAbi library) {
        JobResult r = JobRunner.job(LargeStream.class).nodes(2).mpi(library).ranks(1).running(1).args(STREAM).run();
        Expect.successfulRun(r, 2, 1, 1);
        Expect.okFromEveryRank(r, "LargeStream", 2);
    }

    @Test
    void aReceivingMasterKilledWhileMessagesStreamInLeavesNothingBehind() {
        Object[] args = Arrays.copyOf(STREAM, STREAM.length + 1);
        args[STREAM.length] = "hold";
        JobResult r = JobRunner.job(LargeStream.class).nodes(2).ranks(1).running(1).args(args)
                .whenStdoutHas("LargeStream rank 1 round 2", (launcher, workDir) ->
                        JobRunner.send(JobRunner.slaveOfRank(launcher, 1).parent().orElseThrow(), JobRunner.Signal.KILL))
                .run();
        r.assertFailed();
    }
}
