package io.bdmpi.tests;

import io.bdmpi.tests.programs.Collector;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;

import org.junit.jupiter.api.Test;

/** {@code --slave-jvm-opts} come after bdmpi's own slave options and override them, a collector too. */
class SlaveJvmOptionsTest {

    @Test
    void slavesRunTheSerialCollectorUnlessTheUserNamesAnother() {
        JobResult serial = JobRunner.job(Collector.class).ranks(2).running(1).run();
        Expect.successfulRun(serial, 2, 1);
        Expect.that(serial, serial.stdoutMatching("Collector rank [01] gc=Copy,MarkSweepCompact").size() == 2,
                "both slaves run the serial collector");

        JobResult parallel = JobRunner.job(Collector.class).ranks(2).running(1)
                .options("--slave-jvm-opts", "-Xmx64m -XX:+UseParallelGC").run();
        Expect.successfulRun(parallel, 2, 1);
        Expect.that(parallel, parallel.stdoutMatching("Collector rank [01] gc=PS MarkSweep,PS Scavenge").size() == 2,
                "both slaves run the collector of --slave-jvm-opts");
    }
}
