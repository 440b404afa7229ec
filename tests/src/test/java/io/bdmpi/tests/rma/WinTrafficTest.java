package io.bdmpi.tests.rma;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.rma.WinTraffic;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

/**
 * Random one-sided traffic ({@link WinTraffic}): fence, passive-target, post/start/complete/wait
 * and request-based rounds of put, get, accumulate, getAccumulate, fetchAndOp and compareAndSwap
 * over created, allocated and dynamic windows with several displacement units, with vector and
 * indexed datatypes; every rank checks its part of every window and every fetched value against a
 * model of the plan.
 * On two nodes (over MPICH) the masters carry the operations between the nodes.
 */
class WinTrafficTest {

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}, seed {3}")
    @CsvSource({"1,4,2,1", "1,3,1,2", "2,2,1,3"})
    void everyWindowHoldsWhatThePlanSays(int nodes, int perNode, int running, long seed) {
        int rounds = 8;
        int opsPerRound = 60;
        JobResult r = JobRunner.job(WinTraffic.class).nodes(nodes).ranks(perNode).running(running).mpi(MpiAbi.MPICH)
                .args(rounds, opsPerRound, seed).timeout(Duration.ofSeconds(120)).run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "WinTraffic", nodes * perNode);
    }
}
