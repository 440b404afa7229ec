package io.bdmpi.tests;

import io.bdmpi.tests.programs.Datatypes;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every basic datatype, small (inline) and large (over {@code -im 4096}, spilled), as arrays,
 * direct buffers, and slices/heap buffers; see {@link Datatypes}.
 */
class DatatypesTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"arrays", "direct", "slices"})
    void everyTypeArrivesIntact(String mode) {
        JobResult r = JobRunner.job(Datatypes.class).ranks(3).running(1).inlineMax(4096).args(mode, 7, 20_000).run();
        Stats s = Expect.successfulRun(r, 3, 1);
        Expect.okFromEveryRank(r, "Datatypes " + mode, 3);
        Expect.that(r, s.node0().bytesInline() > 0, "small messages should be inline: " + s.node0());
        Expect.that(r, s.node0().bytesSpilled() > 0 && s.node0().spillFiles() > 0,
                "messages of 20000 elements should be spilled under -im 4096: " + s.node0());
    }
}
