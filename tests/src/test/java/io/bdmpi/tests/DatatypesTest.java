package io.bdmpi.tests;

import io.bdmpi.tests.programs.Datatypes;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every basic datatype, small (inline) and large (over {@code -im 4096}, spilled), as arrays,
 * direct buffers, and slices/heap buffers; see {@link Datatypes}.
 */
class DatatypesTest {

    /** On several nodes ranks 0 and 1, the pair that exchanges, live on different nodes. */
    @ParameterizedTest(name = "{0}, -nn {1} -ns {2}")
    @CsvSource({"arrays,1,3", "direct,1,3", "slices,1,3", "arrays,2,1", "direct,2,1", "slices,3,1"})
    void everyTypeArrivesIntact(String mode, int nodes, int perNode) {
        JobResult r = JobRunner.job(Datatypes.class).nodes(nodes).ranks(perNode).running(1).inlineMax(4096)
                .args(mode, 7, 20_000).run();
        Stats.Node total = Expect.successfulRun(r, nodes, perNode, 1).total();
        Expect.okFromEveryRank(r, "Datatypes " + mode, nodes * perNode);
        Expect.that(r, total.bytesInline() > 0, "small messages should be inline: " + total);
        Expect.that(r, total.bytesSpilled() > 0 && total.spillFiles() > 0,
                "messages of 20000 elements should be spilled under -im 4096: " + total);
    }
}
