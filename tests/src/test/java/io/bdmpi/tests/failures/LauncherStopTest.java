package io.bdmpi.tests.failures;

import io.bdmpi.tests.programs.Sleeper;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.JobRunner.Signal;
import io.bdmpi.tests.support.Reaper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * bdmpiexec is stopped by a signal while every rank computes outside MPI. SIGTERM and SIGINT
 * (Ctrl-C): it stops the job, ends the slaves, removes its files, says so once and exits
 * 128+signal within 2 s, the exit code its statistics give. SIGKILL: its slaves notice and exit,
 * and its janitor removes the work directory, within 2 s as well.
 */
class LauncherStopTest {

    /** INT_GROUP: Ctrl-C in a terminal reaches the slaves too; they leave the stop to bdmpiexec. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"TERM, 143", "INT, 130", "INT_GROUP, 130"})
    void signalStopsTheJobCleanly(Signal signal, int exitCode) {
        AtomicLong sentAt = new AtomicLong();
        JobRunner job = JobRunner.job(Sleeper.class).ranks(3).running(3).timeout(Duration.ofSeconds(60));
        if (signal == Signal.INT_GROUP) {
            job.ownProcessGroup();
        }
        JobResult r = job
                .whenStdoutHas("Sleeper rank 2 sleeping", (launcher, wd) -> {
                    sentAt.set(System.currentTimeMillis());
                    JobRunner.send(launcher, signal);
                }).run();
        Expect.that(r, r.exitCode() == exitCode, "bdmpiexec exited " + r.exitCode() + " on SIG" + signal + ", expected " + exitCode);
        Expect.that(r, r.requireStats().exitCode() == exitCode, "the statistics say exit code " + r.requireStats().exitCode()
                + " where bdmpiexec exited " + exitCode);
        String report = Failed.report(r);
        Expect.that(r, report.matches("bdmpiexec: .*stopped by a signal.*"), "unexpected report: " + report);
        long ms = r.exitedAtMillis() - sentAt.get();
        Failed.record("bdmpiexec SIG" + signal, ms + " ms\t" + report);
        Expect.that(r, ms <= Failed.MAX_MILLIS_AFTER_EVENT, "bdmpiexec exited " + ms + " ms after SIG" + signal);
    }

    @ParameterizedTest(name = "KILL")
    @CsvSource("KILL")
    void sigkilledLauncherTakesItsSlavesAndFilesWithIt(Signal signal) {
        AtomicLong goneAfter = new AtomicLong(-1);
        JobResult r = JobRunner.job(Sleeper.class).ranks(3).running(3).timeout(Duration.ofSeconds(60))
                .whenStdoutHas("Sleeper rank 2 sleeping", (launcher, wd) -> {
                    long sent = System.currentTimeMillis();
                    JobRunner.send(launcher, signal);
                    long deadline = sent + 10_000;
                    while (System.currentTimeMillis() < deadline) {
                        if (Reaper.find(wd).isEmpty() && isEmpty(wd)) {
                            goneAfter.set(System.currentTimeMillis() - sent);
                            return;
                        }
                        Thread.sleep(20);
                    }
                }).run();
        Expect.that(r, r.exitCode() == 128 + 9, "bdmpiexec should have died of SIGKILL, exit code " + r.exitCode());
        long ms = goneAfter.get();
        Failed.record("bdmpiexec SIGKILL (slaves and files gone)", ms + " ms");
        Expect.that(r, ms >= 0 && ms <= Failed.MAX_MILLIS_AFTER_EVENT,
                "the slaves and work files were gone " + ms + " ms after bdmpiexec was SIGKILLed (-1: not within 10 s)");
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }
}
