package mpi;

import io.bdmpi.protocol.SlaveRequest;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Topology communicators against a stand-in master: this slave is world rank 1 of 4. Messages
 * a rank sends itself come back to it, so a one-rank grid or graph exchanges with itself.
 */
class TopologyCommTest extends WithMaster {

    @Test
    void shouldMakeAGridAsASplitAndAPrivateChannel() throws Exception {
        CartComm grid = MPI.COMM_WORLD.createCart(new int[] {2, 2}, new boolean[] {false, true}, true);
        List<SlaveRequest.StartSplit> splits = requests(SlaveRequest.StartSplit.class);
        assertEquals(2, splits.size(), "the grid, then its channel");
        assertEquals(MPI.CART, grid.getTopology());
        assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.getTopology());
        assertEquals(1, grid.getRank());
        assertEquals("MPI COMMUNICATOR 16 CART FROM MPI_COMM_WORLD", grid.getName());
        CartParms p = grid.getTopo();
        assertEquals(2, p.getDimCount());
        assertEquals(2, p.getDim(1));
        assertTrue(p.getPeriod(1));
        assertEquals(1, p.getCoord(1));
        assertArrayEquals(new int[] {1, 0}, grid.getCoords(2));
        assertEquals(3, grid.getRank(new int[] {1, 3}));
        ShiftParms down = grid.shift(0, 1);
        assertEquals(MPI.PROC_NULL, down.getRankSource());
        assertEquals(3, down.getRankDest());
        assertEquals(1, grid.map(new int[] {2}, new boolean[1]));
        assertEquals(MPI.UNDEFINED, grid.map(new int[] {1}, new boolean[1]));
        assertEquals(MPI.ERR_DIMS, TopologyTest.errorOf(() -> grid.shift(2, 1)));
        assertEquals(MPI.ERR_RANK, TopologyTest.errorOf(() -> grid.getCoords(4)));
        assertEquals(MPI.ERR_ARG, TopologyTest.errorOf(() -> MPI.COMM_WORLD.createCart(new int[] {5}, new boolean[1],
                false)));
    }

    @Test
    void shouldGiveRanksPastTheGridANullCommunicator() throws Exception {
        CartComm grid = MPI.COMM_WORLD.createCart(new int[] {1}, new boolean[1], false);
        assertTrue(grid.isNull());
        assertEquals(1, requests(SlaveRequest.StartSplit.class).size(), "no channel for a null communicator");
        assertEquals(MPI.ERR_COMM, TopologyTest.errorOf(grid::getTopo));
    }

    @Test
    void shouldFillEachBlockFromItsOwnDirectionOnAOneRankRing() throws Exception {
        // Both neighbours are this rank: block 0 (from below) is what it sent up (block 1), and the other way round.
        CartComm ring = MPI.COMM_SELF.createCart(new int[] {1}, new boolean[] {true}, false);
        int[] in = new int[2];
        ring.neighborAllToAll(new int[] {10, 20}, 1, MPI.INT, in, 1, MPI.INT);
        assertArrayEquals(new int[] {20, 10}, in);
        ring.neighborAllGather(new int[] {7}, 1, MPI.INT, in, 1, MPI.INT);
        assertArrayEquals(new int[] {7, 7}, in);
        IntBuffer got = MPI.newIntBuffer(2);
        IntBuffer sent = MPI.newIntBuffer(2).put(0, 1).put(1, 2);
        Request r = ring.iNeighborAllToAllv(sent, new int[] {1, 1}, new int[] {1, 0}, MPI.INT,
                got, new int[] {1, 1}, new int[] {0, 1}, MPI.INT);
        Request.waitAll(new Request[] {r});
        assertTrue(r.isNull());
        assertEquals(1, got.get(0));
        assertEquals(2, got.get(1));
        assertThrows(IllegalArgumentException.class, () -> ring.iNeighborAllGather(IntBuffer.allocate(1), 1, MPI.INT,
                got, 1, MPI.INT));
    }

    @Test
    void shouldLeaveProcNullBlocksAsTheyWere() throws Exception {
        CartComm line = MPI.COMM_SELF.createCart(new int[] {1}, new boolean[] {false}, false);
        int[] in = {-1, -1};
        line.neighborAllGather(new int[] {7}, 1, MPI.INT, in, 1, MPI.INT);
        assertArrayEquals(new int[] {-1, -1}, in);
        assertTrue(line.iNeighborAllToAll(MPI.newIntBuffer(2), 1, MPI.INT, MPI.newIntBuffer(2), 1, MPI.INT).test());
        assertTrue(requests(SlaveRequest.Send.class).isEmpty(), "nothing is sent to MPI.PROC_NULL");
    }

    @Test
    void shouldExchangeOverAGraphAndADistributedGraph() throws Exception {
        // One node with a self loop twice: the two blocks keep their order.
        GraphComm graph = MPI.COMM_SELF.createGraph(new int[] {2}, new int[] {0, 0}, false);
        assertEquals(MPI.GRAPH, graph.getTopology());
        assertArrayEquals(new int[] {0, 0}, graph.getNeighbors(0));
        GraphParms p = graph.getDims();
        assertEquals(1, p.getIndexCount());
        assertEquals(2, p.getEdgeCount());
        int[] in = new int[2];
        graph.neighborAllToAll(new int[] {3, 4}, 1, MPI.INT, in, 1, MPI.INT);
        assertArrayEquals(new int[] {3, 4}, in);
        assertEquals(MPI.ERR_TOPOLOGY, TopologyTest.errorOf(graph::getDistGraphNeighbors));

        GraphComm dist = MPI.COMM_SELF.createDistGraphAdjacent(new int[] {0}, new int[] {9}, new int[] {0, 0},
                new int[] {5, 6}, MPI.INFO_NULL, false);
        assertEquals(MPI.DIST_GRAPH, dist.getTopology());
        DistGraphNeighbors n = dist.getDistGraphNeighbors();
        assertEquals(1, n.getInDegree());
        assertEquals(2, n.getOutDegree());
        assertTrue(n.isWeighted());
        assertEquals(6, n.getDestinationWeight(1));
        assertEquals(MPI.ERR_TOPOLOGY, TopologyTest.errorOf(dist::getDims));
        int[] got = new int[3];
        dist.neighborAllGatherv(new int[] {8, 8}, 2, MPI.INT, got, new int[] {2}, new int[] {1}, MPI.INT);
        assertArrayEquals(new int[] {0, 8, 8}, got);
        GraphComm copy = dist.dup();
        assertFalse(copy.getDistGraphNeighbors().isWeighted() != n.isWeighted());
        copy.free();
        assertTrue(copy.isNull());
    }

    @Test
    void shouldMakeADistributedGraphFromEdgesGivenAnywhere() throws Exception {
        GraphComm dist = MPI.COMM_SELF.createDistGraph(new int[] {0, 0}, new int[] {1, 2}, new int[] {0, 0, 0},
                MPI.INFO_NULL, false);
        DistGraphNeighbors n = dist.getDistGraphNeighbors();
        assertEquals(3, n.getInDegree());
        assertEquals(3, n.getOutDegree());
        assertFalse(n.isWeighted());
    }

    @Test
    void shouldFactorDimsThroughTheWorldsHandler() throws Exception {
        int[] dims = new int[2];
        CartComm.createDims(6, dims);
        assertArrayEquals(new int[] {3, 2}, dims);
        assertEquals(MPI.ERR_DIMS, TopologyTest.errorOf(() -> CartComm.createDims(6, new int[] {4, 0})));
    }
}
