package io.bdmpi.tests;

import io.bdmpi.examples.Hello;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;

/** Usage errors make bdmpiexec exit 2 with a message, before any slave starts. */
class LauncherUsageTest {

    @Test
    void moreRunningThanRanksIsAUsageError() {
        checkUsageError(JobRunner.job(Hello.class).ranks(2).running(3).run());
    }

    @Test
    void unknownOptionIsAUsageError() {
        checkUsageError(JobRunner.job(Hello.class).ranks(2).running(1).options("--no-such-option").run());
    }

    private static void checkUsageError(JobResult r) {
        Expect.that(r, r.exitCode() == 2, "usage errors exit 2, got " + r.exitCode());
        Expect.that(r, !r.stderr().isEmpty(), "no message on stderr");
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.startsWith("Hello")), "a slave ran");
    }
}
