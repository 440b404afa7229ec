package io.bdmpi.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the ranks of a job with node-local checkpoint directories go after a lost node: the
 * directories are laid out as three nodes of two ranks each leave them (node k holds its part and
 * its buddy copy of node k-1's).
 */
class NodeLocalRecoveryTest {

    @TempDir
    Path base;

    /** Writes checkpoint {@code sequence} of three nodes into {@code node-K}: its part and the copy of node K-1's. */
    private void threeNodes(int sequence, String prefix) throws IOException {
        for (int k = 0; k < 3; k++) {
            for (int part : new int[] {k, (k + 2) % 3}) {
                Path p = Files.createDirectories(base.resolve("node-" + k).resolve(prefix + sequence).resolve("part-" + part));
                Files.writeString(p.resolve("manifest.json"), "{\"sequence\":" + sequence + ",\"node\":" + part
                        + ",\"nodes\":3,\"worldSize\":6,\"states\":[{\"rank\":" + 2 * part + ",\"file\":\"part-" + part
                        + "/rank-" + 2 * part + ".state\",\"length\":1},{\"rank\":" + (2 * part + 1) + ",\"file\":\"part-"
                        + part + "/rank-" + (2 * part + 1) + ".state\",\"length\":1}],\"messages\":[]}");
            }
        }
    }

    @Test
    void aLostNodesRanksGoToTheSurvivorThatHoldsTheirPart() throws IOException {
        threeNodes(2, "checkpoint-");
        NodeLocalRecovery plan = NodeLocalRecovery.plan(base.resolve("node-%n"), List.of(0, 2));
        assertEquals(2, plan.sequence());
        assertEquals(List.of(0, 2), plan.slots());
        // Part 0 is on node 0 only, part 1 on node 2 only (its buddy); part 2, on both, is split to even the load.
        assertArrayEquals(new int[] {0, 0, 1, 1, 0, 1}, plan.nodeOf());
        assertArrayEquals(new int[] {3, 3}, plan.slavesPerNode());
        assertEquals("0,0,1,1,0,1", plan.placement());
    }

    @Test
    void aSurvivorThatMissedTheCommitIsBroughtUpToIt() throws IOException {
        threeNodes(2, "checkpoint-");
        threeNodes(3, ".incoming-");
        for (int k : new int[] {0, 1}) {
            Files.move(base.resolve("node-" + k + "/.incoming-3"), base.resolve("node-" + k + "/checkpoint-3"));
        }
        NodeLocalRecovery plan = NodeLocalRecovery.plan(base.resolve("node-%n"), List.of(1, 2));
        assertEquals(3, plan.sequence());
        assertTrue(Files.isDirectory(base.resolve("node-2/checkpoint-3")), "node 2's part of checkpoint 3 is committed");
        assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1}, plan.nodeOf(), "part 0 from node 1's copy, part 1 split");
    }

    @Test
    void aPartOnNoSurvivorIsRefusedAndNoCheckpointIsNoPlan() throws IOException {
        assertNull(NodeLocalRecovery.plan(base.resolve("node-%n"), List.of(0, 1)));
        threeNodes(2, "checkpoint-");
        IOException e = assertThrows(IOException.class, () -> NodeLocalRecovery.plan(base.resolve("node-%n"), List.of(0)));
        assertTrue(e.getMessage().contains("node 1's part of checkpoint 2 is on no surviving node"), e.getMessage());
    }
}
