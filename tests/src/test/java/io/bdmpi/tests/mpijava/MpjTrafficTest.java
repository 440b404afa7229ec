package io.bdmpi.tests.mpijava;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.mpijava.MpjTraffic;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random traffic written against the mpiJava 1.2 API only: point-to-point in every send mode and
 * every way of receiving and completing, with every basic type, MPI.OBJECT and derived types at
 * random offsets, Sendrecv and Sendrecv_replace, and every mpiJava collective with random roots,
 * counts, displacements, predefined and user-defined ops on COMM_WORLD, a clone and a Split; every
 * element, sentinel and status checked against a model by the ranks (see {@link MpjTraffic}).
 */
class MpjTrafficTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2} -im {3}, seed {4}")
    @CsvSource({"1,5,2,4096,1", "1,4,1,0,2", "2,3,2,4096,3"})
    void everyCallDeliversWhatTheModelSays(int nodes, int perNode, int running, int inlineMax, long seed) {
        int rounds = 10;
        JobRunner job = JobRunner.job(MpjTraffic.class).nodes(nodes).ranks(perNode).running(running)
                .args(rounds, seed);
        if (inlineMax > 0) {
            job.inlineMax(inlineMax);
        }
        if (nodes > 1) {
            job.mpi(MpiAbi.MPICH);
        }
        JobResult r = job.run();
        Stats.Node total = Expect.successfulRun(r, nodes, perNode, running).total();
        Expect.okFromEveryRank(r, "MpjTraffic", nodes * perNode);
        if (inlineMax > 0) {
            Expect.that(r, total.spillFiles() > 0, "some messages over -im " + inlineMax + " should be spilled: "
                    + total);
        }
    }
}
