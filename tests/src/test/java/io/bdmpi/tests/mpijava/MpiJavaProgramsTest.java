package io.bdmpi.tests.mpijava;

import io.bdmpi.tests.programs.mpijava.MpjCollectives;
import io.bdmpi.tests.programs.mpijava.MpjPointToPoint;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Programs written in mpiJava 1.2 style (MPJ Express) run under bdmpiexec with MPJ's results, at
 * -nr 1 and more, on one node and on two (masters on this machine over MPI).
 */
class MpiJavaProgramsTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,1,1", "1,4,1", "1,3,2", "2,2,1", "2,2,2"})
    void pointToPoint(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(MpjPointToPoint.class).nodes(nodes).ranks(perNode).running(running)
                .inlineMax(4096).args("first", "second").run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "MpjPointToPoint", nodes * perNode);
        r.assertStdoutHasLine("MpjPointToPoint args [first, second]");
    }

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,1,1", "1,4,1", "1,3,2", "2,2,1", "2,2,2"})
    void collectives(int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(MpjCollectives.class).nodes(nodes).ranks(perNode).running(running)
                .inlineMax(4096).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "MpjCollectives", nodes * perNode);
    }
}
