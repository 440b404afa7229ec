package io.bdmpi.tests;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.Sleeper;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.JobRunner.Signal;
import io.bdmpi.tests.support.Reaper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * bdmpiexec itself is stopped while every rank sleeps outside MPI. Whatever the signal, no slave
 * and no file may survive (the harness checks, 3 s after bdmpiexec is gone).
 */
class LauncherSignalTest {

    /**
     * How soon a master that lost bdmpiexec ends by itself: well before it would end itself anyway
     * (LauncherLink.ORPHAN_LIMIT_MS, 15 s) or the watchdog would kill it (20 s after mpiexec).
     */
    private static final long OWN_END_MS = 10_000;
    /**
     * How soon after SIGTERM bdmpiexec has stopped the job: past the 15 s it gives the masters of
     * this machine before it kills them, so this catches a stop that hangs, not a slow one.
     */
    private static final long STOP_MS = 20_000;

    /**
     * Ctrl-C or kill: the job is stopped, cleaned up, and bdmpiexec exits non-zero within
     * {@link #STOP_MS} of the signal, says why and writes its statistics; on several nodes every
     * master stops, and the nodes' statistics are joined.
     */
    @ParameterizedTest(name = "-nn {0} -ns {1}")
    @CsvSource({"1,3", "2,2"})
    void sigtermStopsTheJobCleanly(int nodes, int perNode) {
        int last = nodes * perNode - 1;
        AtomicLong sentAt = new AtomicLong(-1);
        JobResult r = JobRunner.job(Sleeper.class).nodes(nodes).ranks(perNode).running(perNode)
                .whenStdoutHas("Sleeper rank " + last + " sleeping", (launcher, wd) -> {
                    sentAt.set(System.currentTimeMillis());
                    JobRunner.send(launcher, Signal.TERM);
                }).run();
        r.assertFailed();
        Expect.that(r, sentAt.get() > 0, "no rank " + last + " ever slept: SIGTERM never sent");
        long ms = r.exitedAtMillis() - sentAt.get();
        Expect.that(r, ms < STOP_MS, "bdmpiexec took " + ms + " ms to stop after SIGTERM");
        Expect.that(r, r.stderrContaining("bdmpiexec: job failed: bdmpiexec was stopped by a signal").size() == 1,
                "one line says why the job ended");
        Expect.that(r, r.requireStats().slaves().size() == nodes * perNode, "the statistics of every node are joined");
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

    /**
     * SIGKILL while the master of node 1 is stopped (SIGSTOP). The watchdog stops mpiexec, which
     * under MPICH ends neither master (each runs in a session of its own). Node 0's master stops
     * its node once its side channel ends and ends by itself at once, neither waiting for the
     * stopped master nor finalizing MPI (either would keep it past {@link #OWN_END_MS}); the
     * watchdog kills what is left of the masters of this machine, the stopped one too.
     */
    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void sigkilledLauncherWithAStoppedMasterLeavesNothingBehind(MpiAbi library) {
        AtomicLong runningGoneMs = new AtomicLong(-1);
        AtomicLong allGoneMs = new AtomicLong(-1);
        JobResult r = JobRunner.job(Sleeper.class).nodes(2).mpi(library).ranks(2).running(2).timeout(Duration.ofSeconds(150))
                .whenStdoutHasAll(List.of("Sleeper rank 0 sleeping", "Sleeper rank 3 sleeping"), (launcher, wd) -> {
                    ProcessHandle stopped = JobRunner.slaveOfRank(launcher, 3).parent().orElseThrow();
                    ProcessHandle running = JobRunner.slaveOfRank(launcher, 0).parent().orElseThrow();
                    if (new ProcessBuilder("kill", "-STOP", Long.toString(stopped.pid())).start().waitFor() != 0) {
                        throw new AssertionError("cannot stop the master of node 1");
                    }
                    long sent = System.nanoTime();
                    JobRunner.send(launcher, Signal.KILL);
                    while (System.nanoTime() - sent < TimeUnit.SECONDS.toNanos(90)) {
                        boolean runningAlive = running.isAlive(); // once: it may die between two looks
                        if (!runningAlive && runningGoneMs.get() < 0) {
                            runningGoneMs.set(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
                        }
                        if (!runningAlive && !stopped.isAlive() && Reaper.find(wd).isEmpty()) {
                            allGoneMs.set(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
                            return;
                        }
                        Thread.sleep(50);
                    }
                }).run();
        Expect.that(r, r.exitCode() == 128 + 9, "bdmpiexec should have died of SIGKILL, exit code " + r.exitCode());
        System.out.println("LauncherSignalTest over " + library + ": node 0's master gone " + runningGoneMs.get()
                + " ms after bdmpiexec's SIGKILL, every process of the job " + allGoneMs.get() + " ms after it");
        Expect.that(r, allGoneMs.get() >= 0, "processes of the job still ran 90 s after bdmpiexec was SIGKILLed");
        Expect.that(r, runningGoneMs.get() >= 0 && runningGoneMs.get() < OWN_END_MS, "node 0's master ended "
                + runningGoneMs.get() + " ms after bdmpiexec's SIGKILL, expected within " + OWN_END_MS);
    }
}
