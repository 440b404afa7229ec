package io.bdmpi.tests;

import io.bdmpi.tests.programs.Sleeper;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.JobRunner.Signal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * bdmpiexec itself is stopped while every rank sleeps outside MPI. Whatever the signal, no slave
 * and no file may survive (the harness checks, 3 s after bdmpiexec is gone).
 */
class LauncherSignalTest {

    /** Ctrl-C or kill: the job is stopped, cleaned up, and bdmpiexec exits non-zero; on several nodes every master stops. */
    @ParameterizedTest(name = "-nn {0} -ns {1}")
    @CsvSource({"1,3", "2,2"})
    void sigtermStopsTheJobCleanly(int nodes, int perNode) {
        int last = nodes * perNode - 1;
        JobResult r = JobRunner.job(Sleeper.class).nodes(nodes).ranks(perNode).running(perNode)
                .signalWhenStdoutHas("Sleeper rank " + last + " sleeping", Signal.TERM).run();
        r.assertFailed();
        Expect.that(r, r.elapsed().toSeconds() < 20, "bdmpiexec took " + r.elapsed().toSeconds() + " s to stop");
    }

    /** SIGKILL: the slaves notice their master is gone, the janitor removes the work directory. */
    @ParameterizedTest(name = "-nn {0} -ns {1}")
    @CsvSource({"1,3", "2,2"})
    void sigkilledLauncherLeavesNothingBehind(int nodes, int perNode) {
        int last = nodes * perNode - 1;
        JobResult r = JobRunner.job(Sleeper.class).nodes(nodes).ranks(perNode).running(perNode)
                .signalWhenStdoutHas("Sleeper rank " + last + " sleeping", Signal.KILL).run();
        Expect.that(r, r.exitCode() == 128 + 9, "bdmpiexec should have died of SIGKILL, exit code " + r.exitCode());
    }
}
