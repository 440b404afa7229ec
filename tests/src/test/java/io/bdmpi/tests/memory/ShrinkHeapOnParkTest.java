package io.bdmpi.tests.memory;

import io.bdmpi.tests.programs.memory.ParkedAfterMessages;
import io.bdmpi.tests.programs.memory.ParkedHeap;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;

/**
 * {@code --shrink-heap-on-park}: a parked rank that dropped 192 MiB of heap gives it back to the
 * OS; without the option its RSS keeps it (measured in the same test, by a rank that runs while
 * the other is parked). Nor does a parked rank keep the native buffers that a large message it
 * sent or received went through.
 */
class ShrinkHeapOnParkTest {

    private static final int MIB = 192;

    @Test
    void parkedRankGivesDroppedHeapBack() {
        long kept = parkedRssKiB(false);
        long shrunk = parkedRssKiB(true);
        System.out.println("ShrinkHeapOnParkTest: parked RSS after dropping " + MIB + " MiB: " + kept / 1024
                + " MiB without, " + shrunk / 1024 + " MiB with --shrink-heap-on-park");
        if (kept < MIB * 1024L || shrunk > kept - MIB * 1024L * 3 / 4) {
            throw new AssertionError("parked RSS " + kept + " KiB without the option, " + shrunk + " KiB with it");
        }
    }

    @Test
    void parkedRankKeepsNoBufferOfTheLargeMessagesItSentAndReceived() {
        JobResult r = JobRunner.job(ParkedAfterMessages.class).ranks(2).running(1).args(MIB)
                .options("--shrink-heap-on-park", "--slave-jvm-opts", "-Xmx512m").run();
        Expect.successfulRun(r, 2, 1);
        long parked = rssKiB(r);
        System.out.println("ShrinkHeapOnParkTest: parked RSS after sending and receiving " + MIB + " MiB: " + parked / 1024 + " MiB");
        Expect.that(r, parked < MIB * 1024L / 2, "the parked rank still holds " + parked + " KiB: the buffers of its "
                + MIB + " MiB messages were kept");
    }

    private static long parkedRssKiB(boolean shrink) {
        JobRunner job = JobRunner.job(ParkedHeap.class).ranks(2).running(1).args(MIB)
                .options("--slave-jvm-opts", "-Xmx512m");
        if (shrink) {
            job.options("--shrink-heap-on-park");
        }
        JobResult r = job.run();
        Expect.successfulRun(r, 2, 1);
        return rssKiB(r);
    }

    private static long rssKiB(JobResult r) {
        String line = r.stdoutMatching("parked rank 0 rssKiB=\\d+").get(0);
        return Long.parseLong(line.substring(line.indexOf('=') + 1));
    }
}
