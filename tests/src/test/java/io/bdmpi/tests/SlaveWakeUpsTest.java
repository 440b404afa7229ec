package io.bdmpi.tests;

import io.bdmpi.tests.programs.WakeUps;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parked slave sleeps once per wait and is woken only by its reply. Blocked in the socket's
 * read, it was also woken each time the master read its request (the kernel signals room to write
 * on the same wait queue), an extra sleep and wake-up per slave switch; and the timer task its
 * park watch scheduled per wait woke a second thread. {@link WakeUps} counts its own thread's
 * sleeps per collective call, read from /proc; with the sleep per wait and the few that class
 * loading, compilation and garbage collection add, that stays under 1.3 (0.9 to 1.0 measured; 1.55 to 1.9
 * before). Its master watchdog, asleep in a read of stdin until the master is gone, does not
 * wake at all over the calls and a second's sleep (it polled every 200 ms before).
 */
class SlaveWakeUpsTest {

    private static final int CALLS = 3000;
    private static final double MOST_SLEEPS_PER_CALL = 1.3;
    private static final Pattern FIGURE = Pattern.compile("WakeUps rank=(\\d+) sleepsPerCall=([0-9.]+) watchdogWakeUps=(\\d+)");

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"5,1", "4,2"})
    void aParkedSlaveSleepsOncePerWait(int ranks, int running) {
        JobResult r = JobRunner.job(WakeUps.class).ranks(ranks).running(running).args(CALLS).run();
        Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "WakeUps", ranks);
        List<String> figures = r.stdoutMatching(FIGURE.pattern());
        Expect.that(r, figures.size() == ranks, "expected one figure per rank: " + figures);
        for (String line : figures) {
            Matcher m = FIGURE.matcher(line);
            Expect.that(r, m.matches(), "unreadable figure " + line);
            double sleeps = Double.parseDouble(m.group(2));
            Expect.that(r, sleeps <= MOST_SLEEPS_PER_CALL, "rank " + m.group(1) + " slept " + sleeps
                    + " times per collective call, more than " + MOST_SLEEPS_PER_CALL + ": woken for nothing");
            Expect.that(r, Long.parseLong(m.group(3)) == 0, "rank " + m.group(1) + "'s master watchdog woke " + m.group(3)
                    + " times while its master lived");
        }
    }
}
