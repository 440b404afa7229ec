package io.bdmpi.tests;

import io.bdmpi.tests.programs.Sleeper;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.JobRunner.Signal;
import org.junit.jupiter.api.Test;

/**
 * bdmpiexec itself is stopped while every rank sleeps outside MPI. Whatever the signal, no slave
 * and no file may survive (the harness checks, 3 s after bdmpiexec is gone).
 */
class LauncherSignalTest {

    /** Ctrl-C or kill: the job is stopped, cleaned up, and bdmpiexec exits non-zero. */
    @Test
    void sigtermStopsTheJobCleanly() {
        JobResult r = JobRunner.job(Sleeper.class).ranks(3).running(3)
                .signalWhenStdoutHas("Sleeper rank 2 sleeping", Signal.TERM).run();
        r.assertFailed();
        Expect.that(r, r.elapsed().toSeconds() < 20, "bdmpiexec took " + r.elapsed().toSeconds() + " s to stop");
    }

    /** SIGKILL: the slaves notice their master is gone, the janitor removes the work directory. */
    @Test
    void sigkilledLauncherLeavesNothingBehind() {
        JobResult r = JobRunner.job(Sleeper.class).ranks(3).running(3)
                .signalWhenStdoutHas("Sleeper rank 2 sleeping", Signal.KILL).run();
        Expect.that(r, r.exitCode() == 128 + 9, "bdmpiexec should have died of SIGKILL, exit code " + r.exitCode());
    }
}
