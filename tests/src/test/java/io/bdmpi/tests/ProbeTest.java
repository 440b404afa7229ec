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

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,3,1", "1,4,2", "2,2,1", "3,2,2"})
    void probedCountSizesTheReceive(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(Probe.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096).args(30, 5000).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "Probe", nodes * perNode);
    }
}
