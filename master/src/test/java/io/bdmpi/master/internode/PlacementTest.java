package io.bdmpi.master.internode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlacementTest {

    @Test
    void blockKeepsEachNodesRanksTogetherAndCyclicWorldDealsThemOut() {
        Placement p = Placement.of("block", 3, 2);
        assertEquals(6, p.worldSize());
        assertArrayEquals(new int[] {2, 3}, p.ranksOn(1));
        assertEquals(2, p.nodeOf(5));
        // CWORLD rank c is local slave c / 3 of node c % 3.
        assertArrayEquals(new int[] {0, 2, 4, 1, 3, 5}, p.cyclicWorld());
    }

    @Test
    void cyclicDealsOutWorldRanks() {
        Placement p = Placement.of("cyclic", 2, 3);
        assertArrayEquals(new int[] {0, 2, 4}, p.ranksOn(0));
        assertArrayEquals(new int[] {1, 3, 5}, p.ranksOn(1));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, p.cyclicWorld());
    }

    @Test
    void aFileGivesEachRanksNode(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("placement"), "# rank -> node\n1\n0\n\n0\n1 # last\n");
        Placement p = Placement.of(f.toString(), 2, 2);
        assertArrayEquals(new int[] {1, 2}, p.ranksOn(0));
        assertArrayEquals(new int[] {0, 3}, p.ranksOn(1));
    }

    /** Nodes of 3 and 1 slaves (the config file's per-node counts): 4 ranks. */
    @Test
    void unevenNodesInBlocksDealtOutAndFromAFile(@TempDir Path dir) throws IOException {
        Placement block = Placement.of("block", new int[] {3, 1});
        assertEquals(4, block.worldSize());
        assertArrayEquals(new int[] {0, 1, 2}, block.ranksOn(0));
        assertArrayEquals(new int[] {3}, block.ranksOn(1));
        // CWORLD: local slave 0 of each node, then local slaves 1 and 2 of node 0 alone.
        assertArrayEquals(new int[] {0, 3, 1, 2}, block.cyclicWorld());

        Placement cyclic = Placement.of("cyclic", new int[] {1, 3, 2});
        assertArrayEquals(new int[] {0}, cyclic.ranksOn(0));
        assertArrayEquals(new int[] {1, 3, 5}, cyclic.ranksOn(1));
        assertArrayEquals(new int[] {2, 4}, cyclic.ranksOn(2));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, cyclic.cyclicWorld());

        Path f = Files.writeString(dir.resolve("placement"), "1\n0\n0\n0\n");
        Placement file = Placement.of(f.toString(), new int[] {3, 1});
        assertArrayEquals(new int[] {1, 2, 3}, file.ranksOn(0));
        assertArrayEquals(new int[] {0}, file.ranksOn(1));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of(f.toString(), new int[] {2, 2}))
                .getMessage().contains("places 4 ranks as [3, 1] per node; the nodes have [2, 2] slaves"));
    }

    @Test
    void aListGivesEachRanksNodeLikeAFile() {
        Placement list = Placement.of("0,2,0,1,1,2", new int[] {2, 2, 2});
        assertArrayEquals(new int[] {0, 2}, list.ranksOn(0));
        assertArrayEquals(new int[] {3, 4}, list.ranksOn(1));
        assertArrayEquals(new int[] {1, 5}, list.ranksOn(2));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of("0,0,1", new int[] {1, 2}))
                .getMessage().contains("--placement 0,0,1 places 3 ranks as [2, 1] per node; the nodes have [1, 2] slaves"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of("0,3", new int[] {1, 1}))
                .getMessage().contains("rank 1: node 3 is not between 0 and 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of("0,-1", new int[] {1, 1}))
                .getMessage().contains("--placement 0,-1 rank 1: node -1 is not between 0 and 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of("0, one", new int[] {1, 1}))
                .getMessage().contains("rank 1: 'one' is not a node number"));
        assertArrayEquals(new int[] {1}, Placement.of("0, 1,", new int[] {1, 1}).ranksOn(1));
    }

    @Test
    void aBadFileIsRefusedWithItsLine(@TempDir Path dir) throws IOException {
        Path uneven = Files.writeString(dir.resolve("uneven"), "0\n0\n0\n1\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of(uneven.toString(), 2, 2))
                .getMessage().contains("places 4 ranks as [3, 1] per node; the nodes have [2, 2] slaves"));
        Path bad = Files.writeString(dir.resolve("bad"), "0\nx\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of(bad.toString(), 2, 1))
                .getMessage().contains("line 2"));
        Path outOfRange = Files.writeString(dir.resolve("range"), "0\n2\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of(outOfRange.toString(), 2, 1))
                .getMessage().contains("not between 0 and 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of(dir.resolve("none").toString(), 2, 1))
                .getMessage().contains("cannot read"));
    }
}
