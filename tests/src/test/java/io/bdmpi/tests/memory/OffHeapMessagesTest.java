package io.bdmpi.tests.memory;

import io.bdmpi.tests.programs.Ordering;
import io.bdmpi.tests.programs.Probe;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;

import org.junit.jupiter.api.Test;

/**
 * {@code --offheap-messages}: the same programs give the same results when buffered small
 * messages wait in the master's Chronicle Map; inline and spilled messages mixed, probes included.
 */
class OffHeapMessagesTest {

    @Test
    void orderAndContentsHoldOffHeap() {
        JobResult r = JobRunner.job(Ordering.class).ranks(4).running(1).inlineMax(4096)
                .options("--offheap-messages").args(300, 20, 3000).run();
        Expect.successfulRun(r, 4, 1);
        Expect.okFromEveryRank(r, "Ordering", 4);
    }

    @Test
    void probesSeeOffHeapMessages() {
        JobResult r = JobRunner.job(Probe.class).ranks(3).running(1).inlineMax(4096).options("--offheap-messages")
                .args(30, 5000).run();
        Expect.successfulRun(r, 3, 1);
        Expect.okFromEveryRank(r, "Probe", 3);
    }
}
