package io.bdmpi.tests;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.RecycledSpill;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A master receives the large messages of other nodes into recycled spill files, and the sending
 * slave takes back its own files once its master sent them (see
 * {@link RecycledSpill}): one file carries a stream of messages one after the other, a file that
 * held a longer message holds a shorter one intact, messages buffered at once each have their own
 * file; and no recycled file outlives the job (the harness checks {@code -wd}), whether it ends
 * well, its receiver dies with messages in recycled files, or its receiving master is killed.
 */
class RecycledSpillTest {

    private static final int INTS = 100_000;
    private static final int MESSAGES = 12;

    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void recycledFilesCarryEveryMessageIntact(MpiAbi library) {
        JobResult r = JobRunner.job(RecycledSpill.class).nodes(2).mpi(library).ranks(1).running(1).inlineMax(4096)
                .args(INTS, MESSAGES).run();
        Expect.successfulRun(r, 2, 1, 1);
        Expect.okFromEveryRank(r, "RecycledSpill", 2);
    }

    @Test
    void aReceiverThatDiesWithMessagesInRecycledFilesLeavesNothingBehind() {
        JobResult r = JobRunner.job(RecycledSpill.class).nodes(2).ranks(1).running(1).inlineMax(4096)
                .args(INTS, MESSAGES, "halt").run();
        r.assertFailed();
        Expect.that(r, r.stderr().stream().anyMatch(l -> l.contains("rank 1")), "the failure names rank 1");
    }

    @Test
    void aKilledReceivingMasterLeavesNoRecycledFile() {
        JobResult r = JobRunner.job(RecycledSpill.class).nodes(2).ranks(1).running(1).inlineMax(4096)
                .args(INTS, MESSAGES, "hold")
                .whenStdoutHas("RecycledSpill rank 1 holds messages", (launcher, workDir) ->
                        JobRunner.send(JobRunner.slaveOfRank(launcher, 1).parent().orElseThrow(), JobRunner.Signal.KILL))
                .run();
        r.assertFailed();
    }
}
