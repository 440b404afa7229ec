package io.bdmpi.tests.memory;

import io.bdmpi.tests.programs.Ordering;
import io.bdmpi.tests.programs.Probe;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code --offheap-messages}: the same programs give the same results when buffered small
 * messages wait in the master's Chronicle Map; inline and spilled messages mixed, probes included,
 * on one node and on two.
 */
class OffHeapMessagesTest {

    /** With the progress line on, which counts the messages held, off-heap ones too, every 50 ms. */
    @Test
    void orderAndContentsHoldOffHeap() {
        JobResult r = JobRunner.job(Ordering.class).ranks(4).running(1).inlineMax(4096)
                .options("--offheap-messages", "--progress=0.05").args(300, 20, 3000).run();
        Expect.successfulRun(r, 4, 1);
        Expect.okFromEveryRank(r, "Ordering", 4);
    }

    /** Every node's master keeps its buffered messages in its own map (it needs the same JVM options as one master). */
    @Test
    void orderAndContentsHoldOffHeapOnEveryNode() {
        JobResult r = JobRunner.job(Ordering.class).nodes(2).ranks(2).running(1).inlineMax(4096)
                .options("--offheap-messages").args(300, 20, 3000).run();
        Expect.successfulRun(r, 2, 2, 1);
        Expect.okFromEveryRank(r, "Ordering", 4);
    }

    /**
     * Chronicle makes a "target" directory in the temporary directory unless a build directory is
     * above the working one (this module's is, so the job runs elsewhere): it goes with the job.
     */
    @Test
    void leavesNoDirectoryOutsideItsWorkDirectory(@TempDir Path elsewhere) {
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "target");
        Assumptions.assumeFalse(Files.exists(target), target + " exists already: nothing to tell by it");
        JobResult r = JobRunner.job(Ordering.class).ranks(2).running(1).inDirectory(elsewhere)
                .options("--offheap-messages").args(30, 20, 3000).run();
        Expect.successfulRun(r, 2, 1);
        Expect.that(r, !Files.exists(target), "the job left " + target + " behind");
    }

    @Test
    void probesSeeOffHeapMessages() {
        JobResult r = JobRunner.job(Probe.class).ranks(3).running(1).inlineMax(4096).options("--offheap-messages")
                .args(30, 5000).run();
        Expect.successfulRun(r, 3, 1);
        Expect.okFromEveryRank(r, "Probe", 3);
    }
}
