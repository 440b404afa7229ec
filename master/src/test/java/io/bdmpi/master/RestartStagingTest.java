package io.bdmpi.master;

import io.bdmpi.master.internode.MasterMessage.HeldPart;
import io.bdmpi.master.internode.MasterMessage.RestartPlan;
import io.bdmpi.master.internode.MasterMessage.Transfer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Node 0's plan of a restart from node-local directories on other nodes. */
class RestartStagingTest {

    /** Checkpoint 4 of a job of three nodes, two ranks each: node k's directory holds part k and its copy of part k-1. */
    private static List<List<HeldPart>> threeNodesWrote(int sequence, boolean committed) {
        return List.of(
                List.of(part(sequence, committed, 0), part(sequence, committed, 2)),
                List.of(part(sequence, committed, 0), part(sequence, committed, 1)),
                List.of(part(sequence, committed, 1), part(sequence, committed, 2)));
    }

    private static HeldPart part(int sequence, boolean committed, int node) {
        return new HeldPart(sequence, committed, node, 3, 6, List.of(2 * node, 2 * node + 1));
    }

    @Test
    void theSamePlacementMovesNothing() {
        RestartPlan plan = RestartStaging.plan(threeNodesWrote(4, true), List.of(0, 0, 1, 1, 2, 2), "ck-%n");
        assertEquals(new RestartPlan(4, "", List.of()), plan);
    }

    @Test
    void twoNodesFetchWhatTheirDirectoriesLack() {
        // Blocks of three: node 0 gets ranks 0-2 (parts 0, 1), node 1 ranks 3-5 (parts 1, 2).
        List<List<HeldPart>> held = threeNodesWrote(4, true).subList(0, 2);
        RestartPlan plan = RestartStaging.plan(held, List.of(0, 0, 0, 1, 1, 1), "ck-%n");
        assertEquals("", plan.refusal());
        // Part 1 is on node 1 only (its own), part 2 on node 0 only (its buddy copy of node 2's part).
        assertEquals(List.of(new Transfer(1, 1, 0), new Transfer(2, 0, 1)), plan.transfers());
    }

    @Test
    void aNewNodeGetsItsPartsFromTheNodesThatSendTheLeast() {
        // Four nodes: ranks 0,1 | 2,3 | 4 | 5; node 3's directory is new and holds nothing.
        List<List<HeldPart>> held = new java.util.ArrayList<>(threeNodesWrote(7, true));
        held.add(List.of());
        RestartPlan plan = RestartStaging.plan(held, List.of(0, 0, 1, 1, 2, 3), "ck-%n");
        assertEquals(List.of(new Transfer(2, 2, 3)), plan.transfers());
    }

    @Test
    void theNewestCommittedCheckpointCountsAndItsUncommittedPartsToo() {
        List<List<HeldPart>> held = List.of(
                List.of(part(4, true, 0), part(4, true, 2), part(5, false, 0)),
                List.of(part(4, false, 0), part(4, false, 1)), // lost before it heard checkpoint 4 was committed
                List.of(part(3, true, 1), part(3, true, 2)));  // a directory left behind by an older job
        RestartPlan plan = RestartStaging.plan(held, List.of(0, 0, 1, 1, 2, 2), "ck-%n");
        assertEquals(4, plan.sequence());
        assertEquals(List.of(new Transfer(2, 0, 2)), plan.transfers());
    }

    @Test
    void aPartOnNoNodeIsRefusedByName() {
        List<List<HeldPart>> held = List.of(List.of(part(4, true, 0), part(4, true, 2)), List.of(part(4, true, 0)));
        RestartPlan plan = RestartStaging.plan(held, List.of(0, 0, 0, 1, 1, 1), "/ck-%n");
        assertEquals("part 1 of checkpoint 4 (written by 3 nodes) is in no directory of this job's 2 nodes (/ck-%n):"
                + " the job cannot go on from it", plan.refusal());
        assertTrue(plan.transfers().isEmpty());
    }

    @Test
    void noCheckpointOrAnotherWorldIsRefused() {
        assertEquals("no checkpoint to restart from in ck-%n on any of the 2 nodes",
                RestartStaging.plan(List.of(List.of(), List.of(part(4, false, 0))), List.of(0, 1), "ck-%n").refusal());
        assertEquals("checkpoint 4 in ck-%n has 6 ranks but this job has 4",
                RestartStaging.plan(threeNodesWrote(4, true), List.of(0, 0, 1, 2), "ck-%n").refusal());
    }
}
