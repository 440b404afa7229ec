package io.bdmpi.tests;

import io.bdmpi.tests.programs.NodeQueries;
import io.bdmpi.tests.programs.SendRecv;
import io.bdmpi.tests.programs.collectives.Collectives;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Two nodes of 3 and 1 slaves (the config file's per-node {@code slaves}), {@code running: 2}:
 * the masters spawn their own counts, COMM_WORLD has 4 ranks placed by the counts, node 1 runs
 * its one slave, and point-to-point, collectives and the BDMPI node queries follow the placement.
 */
class UnevenNodesTest {

    private static final String CONFIG = """
            running: 2
            per-node:
              - slaves: 3
              - slaves: 1
            """;
    /** The node of each world rank: blocks of 3 and 1; dealt out, node 1 full after its first. */
    private static final int[] BLOCK_NODES = {0, 0, 0, 1};
    private static final int[] CYCLIC_NODES = {0, 1, 0, 0};

    @TempDir
    Path dir;

    @Test
    void ringCrossesBetweenNodesOfThreeAndOneSlaves() throws IOException {
        JobResult r = job(SendRecv.class).inlineMax(4096).args(20_000).run();
        checkRun(r, BLOCK_NODES);
        Expect.okFromEveryRank(r, "SendRecv", 4);
    }

    @Test
    void collectivesOverNodesOfThreeAndOneSlaves() throws IOException {
        JobResult r = job(Collectives.class).inlineMax(4096).args(4, "direct").run();
        checkRun(r, BLOCK_NODES);
        Expect.okFromEveryRank(r, "Collectives", 4);
    }

    /** Blocks: COMM_CWORLD takes local slave 0 of each node (ranks 0, 3), then node 0's others (1, 2). */
    @Test
    void nodeQueriesFollowBlockPlacement() throws IOException {
        JobResult r = job(NodeQueries.class).run();
        checkRun(r, BLOCK_NODES);
        // rank: node, local rank/size, local root, node's sum of ranks, CWORLD rank; CWORLD sum 0*0+3*1+1*2+2*3 = 11.
        checkQueries(r, 11, List.of(
                "node=0 local=0/3 root=0 nodeComm=0/3 nodeSum=3 cworld=0/4",
                "node=0 local=1/3 root=0 nodeComm=1/3 nodeSum=3 cworld=2/4",
                "node=0 local=2/3 root=0 nodeComm=2/3 nodeSum=3 cworld=3/4",
                "node=1 local=0/1 root=3 nodeComm=0/1 nodeSum=3 cworld=1/4"));
    }

    /** Dealt out: ranks 0, 2, 3 on node 0 and 1 on node 1, so COMM_CWORLD is COMM_WORLD's order. */
    @Test
    void nodeQueriesFollowCyclicPlacement() throws IOException {
        JobResult r = job(NodeQueries.class).options("--placement", "cyclic").run();
        checkRun(r, CYCLIC_NODES);
        checkQueries(r, 0 + 1 + 4 + 9, List.of(
                "node=0 local=0/3 root=0 nodeComm=0/3 nodeSum=5 cworld=0/4",
                "node=1 local=0/1 root=1 nodeComm=0/1 nodeSum=1 cworld=1/4",
                "node=0 local=1/3 root=0 nodeComm=1/3 nodeSum=5 cworld=2/4",
                "node=0 local=2/3 root=0 nodeComm=2/3 nodeSum=5 cworld=3/4"));
    }

    private JobRunner job(Class<?> program) throws IOException {
        return JobRunner.job(program).nodes(2).config(Files.writeString(dir.resolve("uneven.yaml"), CONFIG));
    }

    /** Succeeded; node k spawned its own count and ran at most min(2, count) at once; each rank on its node. */
    private static void checkRun(JobResult r, int[] nodeOf) {
        r.assertSucceeded();
        Stats s = r.requireStats();
        Expect.that(r, s.nodes().stream().map(Stats.Node::slaves).toList().equals(List.of(3, 1)), "slaves per node " + s.nodes());
        Expect.that(r, s.nodes().stream().map(Stats.Node::running).toList().equals(List.of(2, 1)), "running per node " + s.nodes());
        for (Stats.Node n : s.nodes()) {
            Expect.that(r, n.maxRunning() >= 1 && n.maxRunning() <= n.running(), "node " + n.node() + " ran " + n.maxRunning()
                    + " slaves at once, -nr there is " + n.running());
        }
        Expect.that(r, s.slaves().size() == nodeOf.length, s.slaves().size() + " slaves in the statistics, expected " + nodeOf.length);
        for (Stats.Slave sl : s.slaves()) {
            Expect.that(r, sl.node() == nodeOf[sl.rank()] && sl.exitCode() == 0,
                    "rank " + sl.rank() + " ran on node " + sl.node() + " and exited " + sl.exitCode() + ", expected node "
                            + nodeOf[sl.rank()] + " and 0");
        }
    }

    private static void checkQueries(JobResult r, long cworldSum, List<String> perRank) {
        for (int rank = 0; rank < perRank.size(); rank++) {
            String expected = perRank.get(rank);
            int root = Integer.parseInt(expected.replaceAll(".* root=(\\d+) .*", "$1"));
            r.assertStdoutHasLine("NodeQueries rank=" + rank + " size=4 nodes=2 " + expected + " cworldSum=" + cworldSum
                    + " nodeRoot=" + root);
        }
    }
}
