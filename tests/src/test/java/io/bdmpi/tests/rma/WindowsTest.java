package io.bdmpi.tests.rma;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.rma.WindowCrash;
import io.bdmpi.tests.programs.rma.Windows;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

/**
 * One-sided communication by every rank ({@link Windows}): a counter of fetchAndOp tickets under
 * locks, a lock passed on by a parked rank, halo exchanges with put and fence (over a plain buffer
 * and over an off-heap array), post/start/complete/wait, exact sums of racing getAccumulates,
 * every predefined operator, compareAndSwap, request-based calls, a shared window read through
 * sharedQuery, and error classes. One and several slaves running; on two nodes, over MPICH and
 * Open MPI, with one and several slaves running, all of it over COMM_WORLD, whose ranks reach the
 * other node's parts through the masters (plus a put seen at its target after flush, a lock of the
 * other node's rank held by a parked rank, ERR_RMA_SHARED for sharedQuery of the other node's
 * rank), but the shared window and the error cases over each node's ranks. The harness checks
 * that the job's work directory, and with it every window file, is gone afterwards.
 */
class WindowsTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,1,1", "1,4,1", "1,4,3", "1,5,2"})
    void everyRankUsesWindows(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(Windows.class).nodes(nodes).ranks(perNode).running(running).args(false).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "Windows", nodes * perNode);
    }

    @ParameterizedTest(name = "-nn 2 -ns 3 -nr {1} over {0}")
    @CsvSource({"MPICH, 1", "OPEN_MPI, 1", "MPICH, 2", "OPEN_MPI, 2"})
    void ranksOfTwoNodesUseOneWindow(MpiAbi mpi, int running) {
        // Two nodes' slaves run every part on this 2-core machine: about 40 s alone, more beside other jobs.
        JobResult r = JobRunner.job(Windows.class).nodes(2).ranks(3).running(running).args(true).mpi(mpi)
                .timeout(Duration.ofSeconds(240)).run();
        Expect.successfulRun(r, 2, 3, running);
        Expect.okFromEveryRank(r, "Windows", 6);
    }

    /** A rank that dies holding windows ends the job, and the harness finds no window file left. */
    @Test
    void aRankThatDiesWithWindowsLeavesNoFile() {
        JobResult r = JobRunner.job(WindowCrash.class).ranks(3).running(1).args("halt").run();
        r.assertFailed();
        Expect.that(r, !r.stderrContaining("rank 1 \\(pid \\d+\\) exited with status 3 before MPI_Finalize").isEmpty(),
                "the dead rank is not named");
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")), "a rank went on");
    }

    /**
     * On two nodes, whose ranks have put into the other node's windows, a rank that dies ends the
     * job on both nodes, and no window file is left on either.
     */
    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void aRankThatDiesWithWindowsOverTwoNodesLeavesNoFile(MpiAbi mpi) {
        JobResult r = JobRunner.job(WindowCrash.class).nodes(2).ranks(2).running(1).mpi(mpi).args("halt")
                .timeout(Duration.ofSeconds(120)).run();
        r.assertFailed();
        Expect.that(r, !r.stderrContaining("rank 1 \\(pid \\d+\\) exited with status 3 before MPI_Finalize").isEmpty(),
                "the dead rank is not named");
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")), "a rank went on");
    }

    /** bdmpiexec (and with it the master) SIGKILLed while ranks hold windows: the janitor removes the files. */
    @Test
    void aKilledLauncherLeavesNoWindowFile() {
        JobResult r = JobRunner.job(WindowCrash.class).ranks(3).running(2).args("wait")
                .signalWhenStdoutHas("WindowCrash rank 2 holds windows", JobRunner.Signal.KILL).run();
        Expect.that(r, r.exitCode() == 128 + 9, "bdmpiexec should have died of SIGKILL, exit code " + r.exitCode());
    }
}
