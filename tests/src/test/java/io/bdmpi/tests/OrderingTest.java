package io.bdmpi.tests;

import io.bdmpi.tests.programs.Ordering;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Many senders, many numbered messages each (inline and spilled mixed), one receiver: per-source
 * and per-(source, tag) order holds with ANY_SOURCE, with specific sources, and with specific
 * (source, tag); see {@link Ordering}.
 */
class OrderingTest {

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"4,1", "4,3"})
    void messagesNeverOvertake(int ranks, int running) {
        int perSender = 300;
        JobResult r = JobRunner.job(Ordering.class).ranks(ranks).running(running).inlineMax(4096)
                .args(perSender, 20, 3000).run();
        Stats s = Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "Ordering", ranks);
        long expected = 3L * (ranks - 1) * perSender;
        Expect.that(r, s.node0().messages() >= expected, "messages " + s.node0().messages() + " < " + expected);
        Expect.that(r, s.node0().spillFiles() >= 3L * (ranks - 1) * (perSender / 20),
                "every 20th message (12 KB) should be spilled under -im 4096: " + s.node0());
    }
}
