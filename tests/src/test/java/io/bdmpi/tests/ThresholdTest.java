package io.bdmpi.tests;

import io.bdmpi.tests.programs.Threshold;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code -im} is the largest message kept in memory: exactly -im bytes inline, one more spilled. */
class ThresholdTest {

    @ParameterizedTest(name = "-im {0}")
    @ValueSource(ints = {0, 1000, 4096})
    void inlineLimitIsInclusive(int im) {
        JobResult r = JobRunner.job(Threshold.class).ranks(2).running(1).inlineMax(im).args(im).run();
        Stats s = Expect.successfulRun(r, 2, 1);
        Expect.okFromEveryRank(r, "Threshold", 2);
        Stats.Node n = s.node0();
        Expect.that(r, n.messages() == 2 && n.bytesInline() == im && n.bytesSpilled() == im + 1 && n.spillFiles() == 1,
                "expected " + im + " bytes inline and " + (im + 1) + " bytes in one spill file, got " + n);
    }
}
