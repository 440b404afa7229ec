package io.bdmpi.tests.programs.topology;

import mpi.CartComm;
import mpi.CartParms;
import mpi.Datatype;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;

/**
 * Process topologies and their collectives on any number of ranks, each rank checking what it got
 * from each neighbour:
 * <ol>
 *   <li>a periodic ring (1-D grid): shift and sendRecv, neighbour allGather;</li>
 *   <li>a 2-D grid from createDims, periodic in dimension 0 only: a shift exchange per dimension
 *       (MPI.PROC_NULL at the edges), getCoords and getRank, neighbour allToAll;</li>
 *   <li>sub: the rows of the grid, with an allReduce over each;</li>
 *   <li>a graph (each node's neighbours: the previous and the next rank): neighbour allGather and allToAll;</li>
 *   <li>an adjacent distributed graph (to the next two ranks, from the previous two, weighted):
 *       neighbour allToAllv with a count per neighbour;</li>
 *   <li>allToAllw on COMM_WORLD, an int or a double block per peer at byte displacements, and iAllToAllw;</li>
 *   <li>the nonblocking neighbour forms, several outstanding, completed by waitAll.</li>
 * </ol>
 */
public final class Topologies {

    private static int rank;
    private static int size;

    private Topologies() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        rank = MPI.COMM_WORLD.getRank();
        size = MPI.COMM_WORLD.getSize();
        CartComm ring = ring();
        CartComm grid = grid();
        rows(grid);
        graph();
        GraphComm dist = distGraph();
        allToAllw();
        nonblocking(ring, dist);
        ring.free();
        grid.free();
        dist.free();
        MPI.COMM_WORLD.barrier();
        System.out.println("Topologies rank " + rank + " OK");
        MPI.Finalize();
    }

    private static CartComm ring() throws MPIException {
        CartComm ring = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {true}, false);
        check(ring.getTopology() == MPI.CART, "the ring is cartesian");
        ShiftParms s = ring.shift(0, 1);
        int prev = (rank + size - 1) % size;
        int next = (rank + 1) % size;
        equal(prev, s.getRankSource(), "ring shift source");
        equal(next, s.getRankDest(), "ring shift destination");
        int[] got = {-1};
        ring.sendRecv(new int[] {rank}, 1, MPI.INT, s.getRankDest(), 0, got, 1, MPI.INT, s.getRankSource(), 0);
        equal(prev, got[0], "ring sendRecv from the source");
        int[] both = new int[2];
        ring.neighborAllGather(new int[] {rank}, 1, MPI.INT, both, 1, MPI.INT);
        check(Arrays.equals(new int[] {prev, next}, both), "ring neighbour allGather got " + Arrays.toString(both));
        return ring;
    }

    private static CartComm grid() throws MPIException {
        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        check(dims[0] * dims[1] == size && dims[0] >= dims[1], "createDims gave " + Arrays.toString(dims));
        boolean[] periods = {true, false};
        CartComm grid = MPI.COMM_WORLD.createCart(dims, periods, true);
        CartParms p = grid.getTopo();
        int[] me = grid.getCoords(rank);
        equal(rank, grid.getRank(me), "getRank of getCoords");
        equal(me[1], p.getCoord(1), "getTopo coordinate");
        int[] neighbours = new int[4];
        for (int d = 0; d < 2; d++) {
            ShiftParms s = grid.shift(d, 1);
            int[] below = me.clone();
            below[d]--;
            int[] above = me.clone();
            above[d]++;
            equal(at(grid, below, dims, periods), s.getRankSource(), "grid shift source in dimension " + d);
            equal(at(grid, above, dims, periods), s.getRankDest(), "grid shift destination in dimension " + d);
            neighbours[2 * d] = s.getRankSource();
            neighbours[2 * d + 1] = s.getRankDest();
            int[] got = {-1};
            Status st = grid.sendRecv(new int[] {rank}, 1, MPI.INT, s.getRankDest(), d, got, 1, MPI.INT, s.getRankSource(), d);
            equal(s.getRankSource(), st.getSource(), "shift status source in dimension " + d);
            equal(s.getRankSource() == MPI.PROC_NULL ? -1 : s.getRankSource(), got[0], "shift exchange in dimension " + d);
        }
        // Block j goes to neighbour j; a neighbour's block for this rank is the one for the opposite direction.
        int[] out = new int[4];
        for (int j = 0; j < 4; j++) {
            out[j] = 100 * rank + j;
        }
        int[] in = {-1, -1, -1, -1};
        grid.neighborAllToAll(out, 1, MPI.INT, in, 1, MPI.INT);
        for (int i = 0; i < 4; i++) {
            int expected = neighbours[i] == MPI.PROC_NULL ? -1 : 100 * neighbours[i] + (i ^ 1);
            equal(expected, in[i], "grid neighbour allToAll block " + i);
        }
        return grid;
    }

    /** The rank at {@code coords}, or PROC_NULL past a non-periodic edge. */
    private static int at(CartComm grid, int[] coords, int[] dims, boolean[] periods) throws MPIException {
        for (int d = 0; d < dims.length; d++) {
            if (!periods[d] && (coords[d] < 0 || coords[d] >= dims[d])) {
                return MPI.PROC_NULL;
            }
        }
        return grid.getRank(coords);
    }

    private static void rows(CartComm grid) throws MPIException {
        CartParms p = grid.getTopo();
        CartComm row = grid.sub(new boolean[] {false, true});
        CartParms r = row.getTopo();
        equal(1, r.getDimCount(), "a row has one dimension");
        equal(p.getDim(1), row.getSize(), "row size");
        equal(p.getCoord(1), row.getRank(), "rank in the row");
        int[] sum = new int[1];
        row.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        int width = p.getDim(1);
        int first = p.getCoord(0) * width;
        equal((long) width * first + (long) width * (width - 1) / 2, sum[0], "sum of world ranks over the row");
        row.free();
    }

    private static void graph() throws MPIException {
        int[] index = new int[size];
        int[] edges = new int[2 * size];
        for (int i = 0; i < size; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i + size - 1) % size;
            edges[2 * i + 1] = (i + 1) % size;
        }
        GraphComm g = MPI.COMM_WORLD.createGraph(index, edges, false);
        check(g.getTopology() == MPI.GRAPH, "the graph is a graph");
        int[] mine = g.getNeighbors(rank);
        int[] all = new int[2];
        g.neighborAllGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
        check(Arrays.equals(mine, all), "graph neighbour allGather got " + Arrays.toString(all));
        int[] in = new int[2];
        g.neighborAllToAll(new int[] {10 * rank, 10 * rank + 1}, 1, MPI.INT, in, 1, MPI.INT);
        for (int i = 0; i < 2; i++) {
            int n = mine[i];
            equal(10 * n + blockFor(g.getNeighbors(n), n, mine, i), in[i], "graph neighbour allToAll block " + i);
        }
        g.free();
    }

    /**
     * Which of neighbour {@code n}'s blocks lands in this rank's block {@code i}: between two ranks
     * blocks keep their order, so the k-th time n is listed here gets the k-th block n sends here.
     */
    private static int blockFor(int[] theirs, int n, int[] mine, int i) {
        int k = 0;
        for (int j = 0; j < i; j++) {
            k += mine[j] == n ? 1 : 0;
        }
        for (int j = 0; j < theirs.length; j++) {
            if (theirs[j] == rank && k-- == 0) {
                return j;
            }
        }
        throw new AssertionError("rank " + n + " sends nothing to " + rank);
    }

    private static GraphComm distGraph() throws MPIException {
        int[] to = {(rank + 1) % size, (rank + 2) % size};
        int[] from = {(rank + size - 1) % size, (rank + size - 2) % size};
        GraphComm dist = MPI.COMM_WORLD.createDistGraphAdjacent(from, new int[] {1, 2}, to, new int[] {3, 4},
                MPI.INFO_NULL, false);
        DistGraphNeighbors n = dist.getDistGraphNeighbors();
        check(n.isWeighted() && n.getInDegree() == 2 && n.getOutDegree() == 2 && n.getDestination(1) == to[1]
                && n.getSourceWeight(1) == 2, "distributed graph neighbours");
        // Block j to destination j: rank + j + 1 items of 1000 * rank + j.
        int[] sendCounts = {rank + 1, rank + 2};
        int[] sendDispls = {0, rank + 1};
        int[] out = new int[2 * rank + 3];
        Arrays.fill(out, 0, rank + 1, 1000 * rank);
        Arrays.fill(out, rank + 1, out.length, 1000 * rank + 1);
        int[] recvCounts = new int[2];
        int[] recvDispls = new int[2];
        int[] block = new int[2];
        for (int i = 0; i < 2; i++) {
            int s = from[i];
            block[i] = blockFor(new int[] {(s + 1) % size, (s + 2) % size}, s, from, i);
            recvCounts[i] = s + block[i] + 1;
            recvDispls[i] = i == 0 ? 0 : recvCounts[0];
        }
        int[] in = new int[recvCounts[0] + recvCounts[1]];
        dist.neighborAllToAllv(out, sendCounts, sendDispls, MPI.INT, in, recvCounts, recvDispls, MPI.INT);
        for (int i = 0; i < 2; i++) {
            for (int k = 0; k < recvCounts[i]; k++) {
                equal(1000 * from[i] + block[i], in[recvDispls[i] + k], "distributed graph allToAllv block " + i);
            }
        }
        return dist;
    }

    private static boolean ints(int r, int p) {
        return (r + p) % 2 == 0;
    }

    private static int count(int r, int p) {
        return (r + p) % 3 + 1;
    }

    private static void allToAllw() throws MPIException {
        int[] sendCounts = new int[size];
        int[] sendDispls = new int[size];
        Datatype[] sendTypes = new Datatype[size];
        int[] recvCounts = new int[size];
        int[] recvDispls = new int[size];
        Datatype[] recvTypes = new Datatype[size];
        // A 1-byte gap before each block puts most of them at displacements no array could take.
        int sendBytes = layout(rank, true, sendCounts, sendDispls, sendTypes);
        int recvBytes = layout(rank, false, recvCounts, recvDispls, recvTypes);
        ByteBuffer out = MPI.newByteBuffer(sendBytes);
        for (int p = 0; p < size; p++) {
            for (int k = 0; k < sendCounts[p]; k++) {
                if (ints(rank, p)) {
                    out.putInt(sendDispls[p] + 4 * k, 100 * rank + p);
                } else {
                    out.putDouble(sendDispls[p] + 8 * k, 100 * rank + p + 0.5);
                }
            }
        }
        for (boolean blocking : new boolean[] {true, false}) {
            ByteBuffer in = MPI.newByteBuffer(recvBytes);
            if (blocking) {
                MPI.COMM_WORLD.allToAllw(out, sendCounts, sendDispls, sendTypes, in, recvCounts, recvDispls, recvTypes);
            } else {
                Request.waitAll(new Request[] {MPI.COMM_WORLD.iAllToAllw(out, sendCounts, sendDispls, sendTypes,
                        in, recvCounts, recvDispls, recvTypes)});
            }
            for (int q = 0; q < size; q++) {
                for (int k = 0; k < recvCounts[q]; k++) {
                    double got = ints(q, rank) ? in.getInt(recvDispls[q] + 4 * k) : in.getDouble(recvDispls[q] + 8 * k);
                    double expected = 100 * q + rank + (ints(q, rank) ? 0 : 0.5);
                    check(got == expected, (blocking ? "allToAllw" : "iAllToAllw") + " from rank " + q + " item " + k
                            + ": expected " + expected + ", got " + got);
                }
            }
        }
    }

    /** Per peer the count, byte displacement and type of this rank's blocks; returns the bytes in all. */
    private static int layout(int me, boolean sending, int[] counts, int[] displs, Datatype[] types) {
        int at = 0;
        for (int p = 0; p < size; p++) {
            int from = sending ? me : p;
            int to = sending ? p : me;
            boolean asInts = ints(from, to);
            types[p] = asInts ? MPI.INT : MPI.DOUBLE;
            counts[p] = count(from, to);
            displs[p] = at + 1;
            at = displs[p] + counts[p] * (asInts ? 4 : 8);
        }
        return at;
    }

    private static void nonblocking(CartComm ring, GraphComm dist) throws MPIException {
        int prev = (rank + size - 1) % size;
        int next = (rank + 1) % size;
        IntBuffer gathered = MPI.newIntBuffer(2);
        IntBuffer toAll = MPI.newIntBuffer(2).put(0, 10 * rank).put(1, 10 * rank + 1);
        IntBuffer fromAll = MPI.newIntBuffer(2);
        IntBuffer v = MPI.newIntBuffer(4);
        IntBuffer dv = MPI.newIntBuffer(4);
        IntBuffer distIn = MPI.newIntBuffer(2);
        Request[] requests = {
            ring.iNeighborAllGather(MPI.newIntBuffer(1).put(0, rank), 1, MPI.INT, gathered, 1, MPI.INT),
            ring.iNeighborAllToAll(toAll, 1, MPI.INT, fromAll, 1, MPI.INT),
            ring.iNeighborAllGatherv(MPI.newIntBuffer(1).put(0, rank + 7), 1, MPI.INT, v, new int[] {1, 1},
                    new int[] {3, 0}, MPI.INT),
            dist.iNeighborAllToAllv(MPI.newIntBuffer(2).put(0, rank).put(1, -rank), new int[] {1, 1}, new int[] {0, 1},
                    MPI.INT, distIn, new int[] {1, 1}, new int[] {0, 1}, MPI.INT),
            dist.iNeighborAllToAll(MPI.newIntBuffer(2).put(0, 5).put(1, 6), 1, MPI.INT, dv, 1, MPI.INT),
        };
        Request.waitAll(requests);
        for (Request r : requests) {
            check(r.isNull(), "waitAll completes every request");
        }
        check(gathered.get(0) == prev && gathered.get(1) == next, "iNeighborAllGather on the ring");
        check(fromAll.get(0) == 10 * prev + 1 && fromAll.get(1) == 10 * next, "iNeighborAllToAll on the ring");
        check(v.get(3) == prev + 7 && v.get(0) == next + 7, "iNeighborAllGatherv on the ring");
        int[] from = {(rank + size - 1) % size, (rank + size - 2) % size};
        for (int i = 0; i < 2; i++) {
            int j = blockFor(new int[] {(from[i] + 1) % size, (from[i] + 2) % size}, from[i], from, i);
            equal(j == 0 ? from[i] : -from[i], distIn.get(i), "iNeighborAllToAllv on the distributed graph, block " + i);
            equal(5 + j, dv.get(i), "iNeighborAllToAll on the distributed graph, block " + i);
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("CHECK FAILED on rank " + rank + ": " + what);
        }
    }

    private static void equal(long expected, long actual, String what) {
        check(expected == actual, what + ": expected " + expected + ", got " + actual);
    }
}
