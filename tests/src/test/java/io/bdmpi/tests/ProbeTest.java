package io.bdmpi.tests;

import io.bdmpi.tests.programs.Probe;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * probe then recv with the probed count; iProbe returns null when nothing matches; getCount is
 * UNDEFINED for a partial item; see {@link Probe}.
 */
class ProbeTest {

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"3,1", "4,2"})
    void probedCountSizesTheReceive(int ranks, int running) {
        JobResult r = JobRunner.job(Probe.class).ranks(ranks).running(running).inlineMax(4096).args(30, 5000).run();
        Expect.successfulRun(r, ranks, running);
        Expect.okFromEveryRank(r, "Probe", ranks);
    }
}
