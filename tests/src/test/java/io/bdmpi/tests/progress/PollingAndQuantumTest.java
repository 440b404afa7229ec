package io.bdmpi.tests.progress;

import io.bdmpi.tests.programs.NoMpi;
import io.bdmpi.tests.programs.PollForever;
import io.bdmpi.tests.programs.Polling;
import io.bdmpi.tests.programs.Spinner;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Progress under oversubscription: programs that wait by polling, or hold their slot without any
 * MPI call, still run to their end at any {@code -nr}; a job that only polls for what nobody sends
 * is a deadlock; a program that never uses MPI is an ordinary successful job.
 */
class PollingAndQuantumTest {

    /** A rank polls for its partner's message while holding the only slot (-nr 1); at -nr = -ns nobody yields. */
    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,4,1", "1,4,2", "1,4,4", "2,2,1"})
    void pollingRanksMakeProgressAtAnyNr(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(Polling.class).nodes(nodes).ranks(perNode).running(running).args(20).run();
        Stats stats = Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "Polling", nodes * perNode);
        long yields = stats.slaves().stream().mapToLong(Stats.Slave::pollYields).sum();
        if (running == perNode) {
            Expect.that(r, yields == 0, "with a slot for every rank a poll is a plain round trip: " + yields + " yields");
        } else {
            Expect.that(r, yields > 0, "a poll that found nothing gave its slot to a waiting rank");
        }
    }

    @Test
    void aRankSpinningWithoutMpiCallsIsStoppedAfterItsQuantum(@TempDir Path flags) {
        JobResult r = JobRunner.job(Spinner.class).ranks(2).running(1).options("--quantum", "0.5")
                .args(flags, "barrier", 30).run();
        Stats stats = Expect.successfulRun(r, 2, 1);
        Expect.okFromEveryRank(r, "Spinner", 2);
        Expect.that(r, stats.node0().preemptions() >= 1, "the spinner was stopped to let the other rank run");
    }

    @Test
    void withoutAQuantumTheSpinnerHoldsTheOnlySlot(@TempDir Path flags) {
        JobResult r = JobRunner.job(Spinner.class).ranks(2).running(1).options("--quantum", "0")
                .args(flags, "barrier", 3).run();
        r.assertFailed();
        Expect.that(r, !r.stderrContaining("nobody set the flag").isEmpty(), "the spinner gave up: nobody else ran");
    }

    /** The aborting rank ends the job at once although the other rank never calls MPI again. */
    @ParameterizedTest(name = "-nr {0}")
    @CsvSource({"2", "1"})
    void anAbortEndsTheJobWhileAnotherRankSpins(int running, @TempDir Path flags) {
        JobResult r = JobRunner.job(Spinner.class).ranks(2).running(running).options("--quantum", "0.5")
                .args(flags, "abort", 60).timeout(Duration.ofSeconds(30)).run();
        Expect.that(r, r.exitCode() == 7, "the job ends with the abort's error code, got " + r.exitCode());
        Expect.that(r, !r.stderrContaining("aborted the job \\(error code 7\\)").isEmpty(), "bdmpiexec says who aborted");
    }

    /**
     * SIGKILL of bdmpiexec while the spinner is stopped (the other rank has its slot for the next
     * second): the stopped slave cannot see its master die, so the janitor continues it, and it ends
     * like the others. The runner fails the test on any process or file left behind.
     */
    @Test
    void aStoppedSlaveEndsWhenItsMasterIsKilled(@TempDir Path flags) {
        JobResult r = JobRunner.job(Spinner.class).ranks(2).running(1).options("--quantum", "1")
                .args(flags, "hold", 30).signalWhenStdoutHas("Spinner set the flag", JobRunner.Signal.KILL).run();
        Expect.that(r, r.exitCode() == 128 + 9, "bdmpiexec should have died of SIGKILL, exit code " + r.exitCode());
    }

    @Test
    void ranksThatOnlyPollForWhatNobodySendsAreADeadlock() {
        JobResult r = JobRunner.job(PollForever.class).ranks(3).running(1).timeout(Duration.ofSeconds(60)).run();
        r.assertFailed();
        Expect.that(r, !r.stderrContaining("deadlock: .*rank 0: polling MPI_Iprobe\\(source=1, tag=99").isEmpty(),
                "the deadlock names each rank's poll");
    }

    @Test
    void aProgramThatNeverCallsMpiInitIsASuccessfulJob() {
        JobResult r = JobRunner.job(NoMpi.class).ranks(3).running(1).run();
        r.assertSucceeded();
        Expect.that(r, r.stdoutMatching("NoMpi ran without MPI").size() == 3, "every rank ran its main");
    }
}
