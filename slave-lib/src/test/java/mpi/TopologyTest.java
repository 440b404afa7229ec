package mpi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The arithmetic of topologies, without MPI: dims_create, coordinates and ranks, shifts, sub-grids, neighbours. */
class TopologyTest {

    private static final int P = -2; // MPI.PROC_NULL, without initializing MPI

    private static int[] dims(int nnodes, int... dims) throws MPIException {
        Topology.Cart.createDims("test", nnodes, dims);
        return dims;
    }

    /** The error class of what {@code call} throws. */
    static int errorOf(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(MPIException.class, call).getErrorClass();
    }

    @Test
    void shouldFactorIntoBalancedNonIncreasingDimensions() throws MPIException {
        assertArrayEquals(new int[] {3, 2, 2}, dims(12, 0, 0, 0));
        assertArrayEquals(new int[] {4, 2, 2}, dims(16, 0, 0, 0));
        assertArrayEquals(new int[] {4, 4}, dims(16, 0, 0));
        assertArrayEquals(new int[] {7, 1}, dims(7, 0, 0));
        assertArrayEquals(new int[] {6}, dims(6, 0));
        assertArrayEquals(new int[] {10, 10, 10}, dims(1000, 0, 0, 0));
        assertArrayEquals(new int[] {1, 1}, dims(1, 0, 0));
        assertArrayEquals(new int[] {}, dims(1));
        assertEquals(MPI.ERR_DIMS, errorOf(() -> dims(5)));
    }

    /** MPICH's MPI_Dims_create for these: the smallest spread, then the smallest sum (the largest factor alone is not it). */
    @Test
    void shouldBalanceAsMpichDoes() throws MPIException {
        assertArrayEquals(new int[] {5, 2, 2, 1}, dims(20, 0, 0, 0, 0));
        assertArrayEquals(new int[] {7, 3, 2, 1}, dims(42, 0, 0, 0, 0));
        assertArrayEquals(new int[] {13, 3, 2, 1}, dims(78, 0, 0, 0, 0));
        assertArrayEquals(new int[] {10, 6, 6}, dims(360, 0, 0, 0));
        assertArrayEquals(new int[] {3, 2, 2, 2, 2, 2}, dims(96, 0, 0, 0, 0, 0, 0));
        assertArrayEquals(new int[] {32, 32, 32, 32}, dims(1 << 20, 0, 0, 0, 0));
        assertArrayEquals(new int[] {33, 30, 28, 26}, dims(720720, 0, 0, 0, 0));
    }

    @Test
    void shouldKeepGivenDimensionsAsConstraints() throws MPIException {
        assertArrayEquals(new int[] {3, 2, 2}, dims(12, 3, 0, 0));
        assertArrayEquals(new int[] {2, 3, 2}, dims(12, 0, 3, 0));
        assertArrayEquals(new int[] {2, 6}, dims(12, 2, 6));
        assertEquals(MPI.ERR_DIMS, errorOf(() -> dims(12, 5, 0)));
        assertEquals(MPI.ERR_DIMS, errorOf(() -> dims(12, 2, 2)));
        assertEquals(MPI.ERR_DIMS, errorOf(() -> dims(12, -1, 0)));
        assertEquals(MPI.ERR_ARG, errorOf(() -> dims(0, 0)));
    }

    @Test
    void shouldNumberAGridInRowMajorOrder() throws MPIException {
        Topology.Cart grid = Topology.Cart.of("test", new int[] {2, 3}, new boolean[] {false, true});
        assertEquals(6, grid.ranks());
        assertArrayEquals(new int[] {1, 2}, grid.coordsOf(5));
        assertArrayEquals(new int[] {0, 1}, grid.coordsOf(1));
        for (int r = 0; r < 6; r++) {
            assertEquals(r, grid.rankOf("test", grid.coordsOf(r)));
        }
        assertEquals(3, grid.rankOf("test", new int[] {1, -3}), "the periodic dimension wraps");
        assertEquals(MPI.ERR_ARG, errorOf(() -> grid.rankOf("test", new int[] {2, 0})));
        assertEquals(MPI.ERR_ARG, errorOf(() -> grid.rankOf("test", new int[] {0})));
    }

    @Test
    void shouldShiftWithProcNullPastNonPeriodicEdges() throws MPIException {
        Topology.Cart grid = Topology.Cart.of("test", new int[] {2, 3}, new boolean[] {false, true});
        assertArrayEquals(new int[] {P, 3}, grid.shift(0, 0, 1), "rank 0 has nothing below in dimension 0");
        assertArrayEquals(new int[] {0, P}, grid.shift(3, 0, 1));
        assertArrayEquals(new int[] {2, 1}, grid.shift(0, 1, 1), "dimension 1 wraps");
        assertArrayEquals(new int[] {1, 2}, grid.shift(0, 1, -1));
        assertArrayEquals(new int[] {5, 4}, grid.shift(3, 1, 4));
        assertArrayEquals(new int[] {P, 3, 2, 1}, grid.sources(0), "per dimension the -1, then the +1 neighbour");
        assertArrayEquals(grid.sources(4), grid.destinations(4));
    }

    @Test
    void shouldSendEachBlockToTheOppositeBlockOfTheNeighbour() throws MPIException {
        Topology.Cart grid = Topology.Cart.of("test", new int[] {2, 3}, new boolean[] {true, false});
        // Block 2d goes to the -1 neighbour, for which this rank is the +1 neighbour: its block 2d + 1.
        assertArrayEquals(new int[] {1, 0, 3, 2}, new int[] {grid.sendTag(0), grid.sendTag(1), grid.sendTag(2),
            grid.sendTag(3)});
        assertEquals(3, grid.receiveTag(3));
    }

    @Test
    void shouldSplitAGridIntoSubGrids() throws MPIException {
        Topology.Cart grid = Topology.Cart.of("test", new int[] {2, 3, 2}, new boolean[] {true, false, true});
        boolean[] keepLast = {false, false, true};
        Topology.Cart sub = grid.sub(keepLast);
        assertArrayEquals(new int[] {2}, sub.dims());
        assertArrayEquals(new boolean[] {true}, sub.periods());
        // Ranks 2k and 2k + 1 share their first two coordinates.
        for (int r = 0; r < 12; r++) {
            assertEquals(r / 2, grid.subGrid(r, keepLast));
        }
        boolean[] keepFirst = {true, false, false};
        assertEquals(grid.subGrid(1, keepFirst), grid.subGrid(7, keepFirst));
        assertEquals(0, grid.sub(new boolean[3]).ndims());
    }

    @Test
    void shouldRejectBadGrids() {
        assertEquals(MPI.ERR_DIMS, errorOf(() -> Topology.Cart.of("test", new int[] {2, 0}, new boolean[2])));
        assertEquals(MPI.ERR_ARG, errorOf(() -> Topology.Cart.of("test", new int[] {2, 2}, new boolean[1])));
        assertEquals(MPI.ERR_DIMS, errorOf(() -> Topology.Cart.of("test", null, new boolean[1])));
    }

    @Test
    void shouldListAGraphsNeighboursInTheOrderGiven() throws MPIException {
        // 0 - 1, 0 - 2, 1 - 2 and 2 - 3: a triangle with a tail.
        Topology.Graph g = Topology.Graph.of("test", new int[] {2, 4, 7, 8}, new int[] {1, 2, 0, 2, 3, 0, 1, 2}, 4);
        assertArrayEquals(new int[] {1, 2}, g.neighbors(0));
        assertArrayEquals(new int[] {3, 0, 1}, g.neighbors(2));
        assertArrayEquals(new int[] {2}, g.sources(3));
        assertArrayEquals(new int[] {2}, g.destinations(3));
        assertEquals(MPI.ERR_ARG, errorOf(() -> Topology.Graph.of("test", new int[] {2, 1}, new int[] {1, 0}, 4)));
        assertEquals(MPI.ERR_ARG, errorOf(() -> Topology.Graph.of("test", new int[] {1, 3}, new int[] {1, 0}, 4)));
        assertEquals(MPI.ERR_RANK, errorOf(() -> Topology.Graph.of("test", new int[] {1, 2}, new int[] {1, 2}, 4)));
        assertEquals(MPI.ERR_ARG, errorOf(() -> Topology.Graph.of("test", new int[5], new int[0], 4)));
    }

    @Test
    void shouldKeepADistributedGraphsNeighboursAndWeights() throws MPIException {
        Topology.DistGraph d = Topology.DistGraph.of("test", new int[] {3, 1}, new int[] {5, 6}, new int[] {0},
                new int[] {7}, true, 4);
        assertArrayEquals(new int[] {3, 1}, d.sources(2));
        assertArrayEquals(new int[] {0}, d.destinations(2));
        assertArrayEquals(new int[] {5, 6}, d.sourceWeights());
        Topology.DistGraph unweighted = Topology.DistGraph.of("test", new int[] {1}, null, new int[0], null, false, 4);
        assertArrayEquals(new int[] {1}, unweighted.sourceWeights());
        assertEquals(MPI.ERR_RANK, errorOf(() -> Topology.DistGraph.of("test", new int[] {4}, null, new int[0], null,
                false, 4)));
        assertEquals(MPI.ERR_ARG, errorOf(() -> Topology.DistGraph.of("test", new int[] {1}, null, new int[0], null,
                true, 4)));
    }
}
