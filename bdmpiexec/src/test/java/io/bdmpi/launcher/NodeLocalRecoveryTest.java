package io.bdmpi.launcher;

import io.bdmpi.master.control.ControlMessage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the ranks of a job with node-local checkpoint directories go after a lost node, from what
 * the survivors' masters say their directories hold, laid out as three nodes of two ranks each
 * leave them (node k holds its part and its buddy copy of node k-1's).
 */
class NodeLocalRecoveryTest {

    /** What the directory of node {@code k} of three holds of checkpoint {@code sequence}: its part and the copy of node k-1's. */
    private static List<ControlMessage.HeldPart> threeNodes(int k, int sequence, boolean committed) {
        List<ControlMessage.HeldPart> held = new ArrayList<>();
        for (int part : new int[] {k, (k + 2) % 3}) {
            held.add(new ControlMessage.HeldPart(sequence, committed, part, 3, 6, List.of(2 * part, 2 * part + 1)));
        }
        return held;
    }

    private static List<ControlMessage.HeldPart> both(List<ControlMessage.HeldPart> a, List<ControlMessage.HeldPart> b) {
        List<ControlMessage.HeldPart> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    @Test
    void aLostNodesRanksGoToTheSurvivorThatHoldsTheirPart() throws NodeLocalRecovery.Refused {
        NodeLocalRecovery plan = NodeLocalRecovery.plan(List.of(0, 2), List.of(threeNodes(0, 2, true), threeNodes(2, 2, true)));
        assertEquals(2, plan.sequence());
        assertEquals(6, plan.worldSize());
        // Part 0 is on node 0 only, part 1 on node 2 only (its buddy); part 2, on both, is split to even the load.
        assertEquals(List.of(0, 0, 1, 1, 0, 1), plan.nodeOf());
        assertEquals(new ControlMessage.Placed(2, List.of(0, 0, 1, 1, 0, 1)), plan.placed());
    }

    @Test
    void aSurvivorThatMissedTheCommitGoesOnFromItsWaitingParts() throws NodeLocalRecovery.Refused {
        // Nodes 0 and 1 committed checkpoint 3; node 2 was lost before it heard so: it still holds 2, and 3 uncommitted.
        NodeLocalRecovery plan = NodeLocalRecovery.plan(List.of(1, 2),
                List.of(threeNodes(1, 3, true), both(threeNodes(2, 2, true), threeNodes(2, 3, false))));
        assertEquals(3, plan.sequence());
        assertEquals(List.of(0, 0, 0, 1, 1, 1), plan.nodeOf(), "part 0 from node 1's copy, part 1 split");
    }

    @Test
    void aCheckpointNoSurvivorCommittedIsNotUsed() throws NodeLocalRecovery.Refused {
        // Checkpoint 3 was cut short: no directory committed it, so the job goes on from 2.
        NodeLocalRecovery plan = NodeLocalRecovery.plan(List.of(0, 1, 2), List.of(both(threeNodes(0, 2, true),
                threeNodes(0, 3, false)), threeNodes(1, 2, true), both(threeNodes(2, 2, true), threeNodes(2, 3, false))));
        assertEquals(2, plan.sequence());
        assertEquals(List.of(0, 1, 2, 1, 0, 2), plan.nodeOf(), "two ranks a node, each of a part its directory holds");
    }

    @Test
    void everySurvivorKeepsARank() throws NodeLocalRecovery.Refused {
        // Part 0 (rank 0) on directories 0 and 2, part 1 (ranks 1, 2) on 0 and 1: evening the load alone gives
        // rank 0 and rank 2 to directory 0 and none to 2, whose master runs all the same; so 2 takes rank 0.
        ControlMessage.HeldPart part0 = new ControlMessage.HeldPart(4, true, 0, 2, 3, List.of(0));
        ControlMessage.HeldPart part1 = new ControlMessage.HeldPart(4, true, 1, 2, 3, List.of(1, 2));
        NodeLocalRecovery plan = NodeLocalRecovery.plan(List.of(0, 1, 2), List.of(List.of(part0, part1), List.of(part1),
                List.of(part0)));
        assertEquals(List.of(2, 1, 0), plan.nodeOf());
        // A survivor that holds only a part of one rank, which its co-holder cannot spare, is refused.
        NodeLocalRecovery.Refused e = assertThrows(NodeLocalRecovery.Refused.class, () -> NodeLocalRecovery.plan(List.of(0, 1, 2),
                List.of(List.of(part0), List.of(part1), List.of(part0))));
        assertTrue(e.getMessage().contains("directory 2 holds no rank of checkpoint 4 that another survivor can spare"),
                e.getMessage());
    }

    @Test
    void aPartOnNoSurvivorIsRefusedAndNoCheckpointIsNoPlan() {
        assertNull(assertDoesNotThrow(() -> NodeLocalRecovery.plan(List.of(0, 1), List.of(List.of(), List.of()))));
        NodeLocalRecovery.Refused e = assertThrows(NodeLocalRecovery.Refused.class,
                () -> NodeLocalRecovery.plan(List.of(0), List.of(threeNodes(0, 2, true))));
        assertTrue(e.getMessage().contains("node 1's part of checkpoint 2 is on no surviving node"), e.getMessage());
    }

    @Test
    void aSpareWhoseDirectoryIsNewTakesRanksFromTheBusiest() throws NodeLocalRecovery.Refused {
        // Node 1 of three lost; directories 0 and 2 survive, and a spare with directory 3 holds nothing.
        NodeLocalRecovery plan = NodeLocalRecovery.plan(List.of(0, 2, 3), List.of(threeNodes(0, 2, true),
                threeNodes(2, 2, true), List.of()));
        assertEquals(2, plan.sequence());
        long[] load = new long[3];
        plan.nodeOf().forEach(n -> load[n]++);
        assertEquals(List.of(2L, 2L, 2L), java.util.Arrays.stream(load).boxed().toList(), plan.nodeOf().toString());
    }
}
