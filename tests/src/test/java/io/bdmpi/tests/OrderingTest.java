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

    /** On several nodes the senders of other nodes reach rank 0 through their masters and MPI. */
    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,4,1", "1,4,3", "2,2,1", "3,2,2"})
    void messagesNeverOvertake(int nodes, int perNode, int running) {
        int perSender = 300;
        int ranks = nodes * perNode;
        JobResult r = JobRunner.job(Ordering.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(perSender, 20, 3000).run();
        Stats.Node total = Expect.successfulRun(r, nodes, perNode, running).total();
        Expect.okFromEveryRank(r, "Ordering", ranks);
        long expected = 3L * (ranks - 1) * perSender;
        Expect.that(r, total.messages() >= expected, "messages " + total.messages() + " < " + expected);
        Expect.that(r, total.spillFiles() >= 3L * (ranks - 1) * (perSender / 20),
                "every 20th message (12 KB) should be spilled under -im 4096: " + total);
    }
}
