package io.bdmpi.tests.programs.rma;

import io.bdmpi.ooc.ByteArray;
import io.bdmpi.ooc.Residency;
import mpi.BDMPI;
import mpi.Comm;
import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.OutOfCore;
import mpi.Request;
import mpi.UserFunction;
import mpi.Win;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;

/**
 * One-sided communication by every rank of a node, every result checked:
 * <ol>
 *   <li>a distributed counter on rank 0: each rank takes {@code K} tickets with {@code fetchAndOp}
 *       and {@code getAccumulate} in turn (the fast path and the general one, atomic with each
 *       other) under an exclusive lock, {@code K} more under a shared lock (atomic all the same); the
 *       tickets of all ranks are exactly 0 .. 2·K·size-1, each once;</li>
 *   <li>a lock held by a parked rank: rank 0 locks its window, tells rank 1 and waits for a message
 *       from it; rank 1 sends it and then asks for the same lock (it is parked until rank 0 unlocks);</li>
 *   <li>a 2-D halo exchange (rows of a W-wide grid per rank) with {@code put} and {@code fence},
 *       over a plain direct buffer (copied at the fences) and over an off-heap array (used in
 *       place); ten Jacobi steps equal the same steps computed on the whole grid by one rank;</li>
 *   <li>post/start/complete/wait around a ring, ended once by {@code waitFor} and once by polling
 *       {@code test};</li>
 *   <li>{@code getAccumulate} races: every rank adds to every rank's vector under {@code lockAll},
 *       and the sums are exact; every predefined operator with {@code accumulate} under fences;
 *       a counter incremented by {@code compareAndSwap} loops; {@code rGet}/{@code rPut} under a lock;</li>
 *   <li>a shared window: each rank stores into its own part through {@code sharedQuery} and reads
 *       the others' parts after a fence;</li>
 *   <li>error classes under {@code ERRORS_RETURN}.</li>
 * </ol>
 * On several nodes, first a window over {@code COMM_WORLD} ({@link #acrossNodes}), then the
 * rest over {@code COMM_WORLD} too, whose ranks reach the other node's through the masters, but
 * the shared window and the error cases on {@code BDMPI.COMM_NODE}.
 *
 * <p>Usage: {@code Windows MULTINODE} ("true" when the job has several nodes).
 */
public final class Windows {

    private static final int K = 20;
    private static final int W = 12;
    private static final int ROWS = 3;
    private static final int STEPS = 10;

    private Windows() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        boolean multiNode = Boolean.parseBoolean(args[0]);
        Intracomm comm = MPI.COMM_WORLD;
        if (multiNode) {
            acrossNodes();
        }
        // On several nodes, over COMM_WORLD: the masters carry the operations between the nodes.
        counter(comm);
        lockHeldWhileParked(comm);
        halo(comm, false);
        halo(comm, true);
        pscw(comm);
        races(comm);
        everyOperator(comm);
        compareAndSwap(comm);
        requests(comm);
        dynamic(comm);
        if (multiNode) {
            comm = BDMPI.COMM_NODE;
        }
        shared(comm);
        errors(comm);
        System.out.println("Windows rank " + MPI.COMM_WORLD.getRank() + " OK");
        MPI.Finalize();
    }

    // ---------------------------------------------------------------- across nodes

    /**
     * A window over {@code COMM_WORLD} on several nodes, whose operations the masters carry to the
     * other node: each rank puts its rank into the part of every rank under fences (which are
     * barriers over both nodes); every rank takes tickets from a counter on rank 0 with
     * {@code fetchAndOp} under an exclusive lock and under {@code lockAll}, each ticket once; a put
     * is visible at its target of the other node once {@code flush} returns; rank 0 holds the lock
     * of the last rank of the other node while parked, and that rank gets it when rank 0 unlocks;
     * post/start/complete/wait between the pairs (0,1), (2,3), ... with a put, whether both are on
     * one node or not; and a {@code sharedQuery} of a rank of the other node is
     * {@code MPI.ERR_RMA_SHARED}, a put past its part {@code MPI.ERR_RMA_RANGE}.
     */
    private static void acrossNodes() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int me = world.getRank();
        int size = world.getSize();
        Intracomm node = BDMPI.COMM_NODE;
        int[] peers = new int[node.getSize()];
        peers[node.getRank()] = me;
        node.allGather(peers, 1, MPI.INT);
        int counterSlot = size;
        int pscwSlot = size + 1;
        int flushSlot = size + 2;
        int lockSlot = size + 3;
        Win win = new Win(size + 4, 1, MPI.INFO_NULL, world, MPI.newIntBuffer(0), Win.FLAVOR_PRIVATE);
        ByteBuffer own = win.sharedQuery(me);
        IntBuffer mine = MPI.newIntBuffer(1).put(0, me);

        win.fence(0);
        for (int r = 0; r < size; r++) {
            win.put(mine, 1, MPI.INT, r, me, 1, MPI.INT);
        }
        win.fence(0);
        for (int r = 0; r < size; r++) {
            equal(r, own.getInt(r * Integer.BYTES), "across nodes: slot " + r + " put by rank " + r);
        }
        int other = -1;
        for (int r = 0; r < size && other < 0; r++) {
            if (!contains(peers, r)) {
                other = r;
            }
        }
        check(other >= 0, "across nodes: some rank is on another node");
        int remote = other;
        win.setErrhandler(MPI.ERRORS_RETURN);
        expectError(MPI.ERR_RMA_SHARED, () -> win.sharedQuery(remote), "sharedQuery of another node's rank");
        expectError(MPI.ERR_RMA_RANGE, () -> win.put(mine, 1, MPI.INT, remote, size + 4, 1, MPI.INT),
                "a put past the part of a rank of another node");
        win.setErrhandler(MPI.ERRORS_ARE_FATAL);
        win.fence(MPI.MODE_NOSUCCEED);

        IntBuffer one = MPI.newIntBuffer(1).put(0, 1);
        IntBuffer got = MPI.newIntBuffer(1);
        int[] tickets = new int[2 * K];
        for (int i = 0; i < 2 * K; i++) {
            if (i < K) {
                win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                win.fetchAndOp(one, got, MPI.INT, 0, counterSlot, MPI.SUM);
                win.unlock(0);
            } else {
                win.lockAll(0);
                win.fetchAndOp(one, got, MPI.INT, 0, counterSlot, MPI.SUM);
                win.unlockAll();
            }
            tickets[i] = got.get(0);
            if (i % 7 == 0) {
                world.barrier(); // the ranks of both nodes take turns
            }
        }
        int[] all = new int[2 * K * size];
        world.allGather(tickets, 2 * K, MPI.INT, all, 2 * K, MPI.INT);
        Arrays.sort(all);
        for (int i = 0; i < all.length; i++) {
            equal(i, all[i], "across nodes: ticket " + i + " of rank 0's counter (each exactly once)");
        }

        // flush: the put is at the target when flush returns, before the unlock. The last rank
        // that is not on rank 0's node puts into rank 0's part.
        int[] withZero = new int[size];
        withZero[me] = contains(peers, 0) ? 1 : 0;
        world.allGather(withZero, 1, MPI.INT);
        int last = size - 1;
        while (withZero[last] == 1) {
            last--;
        }
        if (me == last) {
            win.lock(MPI.LOCK_SHARED, 0, 0);
            win.put(MPI.newIntBuffer(1).put(0, 4242), 1, MPI.INT, 0, flushSlot, 1, MPI.INT);
            win.flush(0);
            world.send(new int[] {1}, 1, MPI.INT, 0, 6);
            world.recv(new int[1], 1, MPI.INT, 0, 7);
            win.unlock(0);
        } else if (me == 0) {
            world.recv(new int[1], 1, MPI.INT, last, 6);
            win.sync();
            equal(4242, own.getInt(flushSlot * Integer.BYTES), "across nodes: a put at its target after flush");
            world.send(new int[] {1}, 1, MPI.INT, last, 7);
        }
        // A lock of another node's rank held by a parked rank.
        IntBuffer v = MPI.newIntBuffer(1);
        if (me == 0) {
            win.lock(MPI.LOCK_EXCLUSIVE, last, 0);
            world.send(new int[] {1}, 1, MPI.INT, last, 4); // "I hold it"
            world.recv(new int[1], 1, MPI.INT, last, 5); // parked holding the lock
            win.put(v.put(0, 41), 1, MPI.INT, last, lockSlot, 1, MPI.INT);
            win.unlock(last);
        } else if (me == last) {
            world.recv(new int[1], 1, MPI.INT, 0, 4);
            world.send(new int[] {1}, 1, MPI.INT, 0, 5);
            win.lock(MPI.LOCK_EXCLUSIVE, last, 0); // granted once rank 0 unlocks
            equal(41, own.getInt(lockSlot * Integer.BYTES), "across nodes: the value rank 0 put before it unlocked");
            win.unlock(last);
        }

        int partner = me ^ 1;
        if (partner < size) {
            Group pair = win.getGroup().incl(new int[] {partner});
            win.post(pair, 0);
            win.start(pair, 0);
            win.put(mine, 1, MPI.INT, partner, pscwSlot, 1, MPI.INT);
            win.complete();
            win.waitFor();
            equal(partner, own.getInt(pscwSlot * Integer.BYTES), "across nodes: PSCW put by rank " + partner);
        }
        win.free();
    }

    private static boolean contains(int[] ranks, int r) {
        for (int x : ranks) {
            if (x == r) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- counter

    private static void counter(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        Win win = new Win(rank == 0 ? 1 : 0, 1, MPI.INFO_NULL, comm, MPI.newLongBuffer(0), Win.FLAVOR_PRIVATE);
        equal(rank == 0 ? 8L : 0L, (long) (Integer) win.getAttr(MPI.WIN_SIZE), "WIN_SIZE in bytes");
        equal(8L, (long) (Integer) win.getAttr(MPI.WIN_DISP_UNIT), "WIN_DISP_UNIT in bytes");
        LongBuffer one = MPI.newLongBuffer(1).put(0, 1);
        LongBuffer got = MPI.newLongBuffer(1);
        long[] tickets = new long[2 * K];
        for (int i = 0; i < 2 * K; i++) {
            win.lock(i < K ? MPI.LOCK_EXCLUSIVE : MPI.LOCK_SHARED, 0, 0);
            if (i % 2 == 0) {
                win.fetchAndOp(one, got, MPI.LONG, 0, 0, MPI.SUM); // the fast path
            } else {
                win.getAccumulate(one, 1, MPI.LONG, got, 1, MPI.LONG, 0, 0, 1, MPI.LONG, MPI.SUM); // the general one
            }
            win.unlock(0);
            tickets[i] = got.get(0);
            if (i % 7 == 0) {
                comm.barrier(); // others take their turn: -nr 1 interleaves the ranks
            }
        }
        long[] all = new long[2 * K * size];
        comm.allGather(tickets, 2 * K, MPI.LONG, all, 2 * K, MPI.LONG);
        Arrays.sort(all);
        for (int i = 0; i < all.length; i++) {
            equal(i, all[i], "ticket " + i + " of the distributed counter (each exactly once)");
        }
        win.fence(0);
        win.get(got, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
        win.fence(MPI.MODE_NOSUCCEED);
        equal(2L * K * size, got.get(0), "the counter at the end");
        win.free();
    }

    private static void lockHeldWhileParked(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        if (comm.getSize() < 2) {
            return;
        }
        Win win = new Win(rank == 0 ? 1 : 0, 1, MPI.INFO_NULL, comm, MPI.newIntBuffer(0), Win.FLAVOR_PRIVATE);
        IntBuffer v = MPI.newIntBuffer(1);
        if (rank == 0) {
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            comm.send(new int[] {1}, 1, MPI.INT, 1, 4); // "I hold it"
            comm.recv(new int[1], 1, MPI.INT, 1, 5); // parked holding the lock
            win.put(v.put(0, 41), 1, MPI.INT, 0, 0, 1, MPI.INT);
            win.unlock(0);
        } else if (rank == 1) {
            comm.recv(new int[1], 1, MPI.INT, 0, 4);
            comm.send(new int[] {1}, 1, MPI.INT, 0, 5);
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0); // granted once rank 0 unlocks
            win.get(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
            equal(41, v.get(0), "the value rank 0 put before it released the lock");
            win.accumulate(v.put(0, 1), 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
            win.unlock(0);
        }
        win.fence(0);
        win.get(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
        win.fence(0);
        equal(42, v.get(0), "after the lock passed from rank 0 to rank 1");
        win.free();
    }

    // ---------------------------------------------------------------- halo

    private static void halo(Intracomm comm, boolean offHeap) throws MPIException, IOException {
        int rank = comm.getRank();
        int size = comm.getSize();
        int n = (ROWS + 2) * W; // a halo row above and below
        ByteBuffer bytes;
        ByteArray array = null;
        if (offHeap) {
            array = OutOfCore.store().bytes("halo", 8L * n, Residency.NONE);
            bytes = array.chunkView(0);
        } else {
            bytes = MPI.newByteBuffer(8 * n);
        }
        DoubleBuffer grid = bytes.order(ByteOrder.nativeOrder()).asDoubleBuffer();
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < W; j++) {
                grid.put((i + 1) * W + j, initial(rank * ROWS + i, j));
            }
        }
        Win win = new Win(bytes, 8 * n, 8, MPI.INFO_NULL, comm);
        DoubleBuffer row = MPI.newDoubleBuffer(W);
        for (int step = 0; step < STEPS; step++) {
            win.fence(0);
            if (rank > 0) { // my first row is the bottom halo of the rank above
                copyRow(grid, W, row);
                win.put(row, W, MPI.DOUBLE, rank - 1, (ROWS + 1) * W, W, MPI.DOUBLE);
            }
            if (rank < size - 1) { // my last row is the top halo of the rank below
                copyRow(grid, ROWS * W, row);
                win.put(row, W, MPI.DOUBLE, rank + 1, 0, W, MPI.DOUBLE);
            }
            win.fence(0);
            jacobi(grid, rank == 0, rank == size - 1);
        }
        win.fence(MPI.MODE_NOSUCCEED);
        double[][] whole = new double[size * ROWS][W];
        for (int i = 0; i < whole.length; i++) {
            for (int j = 0; j < W; j++) {
                whole[i][j] = initial(i, j);
            }
        }
        for (int step = 0; step < STEPS; step++) {
            double[][] next = new double[whole.length][];
            for (int i = 0; i < whole.length; i++) {
                next[i] = whole[i].clone();
                for (int j = 1; j < W - 1; j++) {
                    if (i > 0 && i < whole.length - 1) {
                        next[i][j] = (whole[i - 1][j] + whole[i + 1][j] + whole[i][j - 1] + whole[i][j + 1]) / 4;
                    }
                }
            }
            whole = next;
        }
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < W; j++) {
                double expected = whole[rank * ROWS + i][j];
                if (grid.get((i + 1) * W + j) != expected) {
                    throw new AssertionError("rank " + rank + ": halo" + (offHeap ? " (off-heap)" : "") + " cell (" + i
                            + "," + j + ") is " + grid.get((i + 1) * W + j) + ", expected " + expected);
                }
            }
        }
        win.free();
        if (array != null) {
            OutOfCore.store().delete("halo");
        }
    }

    private static double initial(int globalRow, int col) {
        return (globalRow * 31 + col * 7) % 17;
    }

    private static void copyRow(DoubleBuffer grid, int from, DoubleBuffer row) {
        for (int j = 0; j < W; j++) {
            row.put(j, grid.get(from + j));
        }
    }

    /** One Jacobi step of the interior; the grid's first and last global rows stay fixed. */
    private static void jacobi(DoubleBuffer g, boolean top, boolean bottom) {
        double[] next = new double[ROWS * W];
        for (int i = 1; i <= ROWS; i++) {
            boolean fixed = top && i == 1 || bottom && i == ROWS;
            for (int j = 0; j < W; j++) {
                double v = g.get(i * W + j);
                if (!fixed && j > 0 && j < W - 1) {
                    v = (g.get((i - 1) * W + j) + g.get((i + 1) * W + j) + g.get(i * W + j - 1) + g.get(i * W + j + 1)) / 4;
                }
                next[(i - 1) * W + j] = v;
            }
        }
        for (int k = 0; k < next.length; k++) {
            g.put(W + k, next[k]);
        }
    }

    // ---------------------------------------------------------------- post / start / complete / wait

    private static void pscw(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        int left = (rank + size - 1) % size;
        int right = (rank + 1) % size;
        IntBuffer mem = MPI.newIntBuffer(4);
        Win win = new Win(mem, 4, 1, MPI.INFO_NULL, comm);
        Group world = win.getGroup();
        Group from = world.incl(new int[] {left});
        Group to = world.incl(new int[] {right});
        for (int round = 0; round < 2; round++) {
            win.post(from, 0);
            win.start(to, 0);
            IntBuffer mine = MPI.newIntBuffer(4);
            for (int i = 0; i < 4; i++) {
                mine.put(i, 1000 * round + 10 * rank + i);
            }
            win.put(mine, 4, MPI.INT, right, 0, 4, MPI.INT);
            win.complete();
            if (round == 0) {
                win.waitFor();
            } else {
                while (!win.test()) {
                    Thread.onSpinWait();
                }
            }
            for (int i = 0; i < 4; i++) {
                equal(1000 * round + 10 * left + i, mem.get(i), "PSCW round " + round + ": element " + i + " from rank " + left);
            }
        }
        win.free();
    }

    // ---------------------------------------------------------------- atomics

    private static void races(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        int m = 5;
        Win win = new Win(m, 1, MPI.INFO_NULL, comm, MPI.newLongBuffer(0), Win.FLAVOR_SHARED);
        LongBuffer add = MPI.newLongBuffer(m);
        LongBuffer old = MPI.newLongBuffer(m);
        for (int i = 0; i < m; i++) {
            add.put(i, (rank + 1L) * (i + 1));
        }
        win.lockAll(0);
        for (int it = 0; it < K; it++) {
            for (int k = 0; k < size; k++) {
                int t = (rank + k) % size;
                win.getAccumulate(add, m, MPI.LONG, old, m, MPI.LONG, t, 0, m, MPI.LONG, MPI.SUM);
                for (int i = 0; i < m; i++) {
                    check(old.get(i) % (i + 1) == 0, "getAccumulate returned a torn value " + old.get(i));
                }
            }
            if (it % 5 == 0) {
                win.flushAll();
                comm.barrier();
            }
        }
        win.unlockAll();
        comm.barrier();
        win.lock(MPI.LOCK_SHARED, rank, 0);
        win.getAccumulate(null, 0, MPI.LONG, old, m, MPI.LONG, rank, 0, m, MPI.LONG, MPI.NO_OP);
        win.unlock(rank);
        long sum = (long) size * (size + 1) / 2;
        for (int i = 0; i < m; i++) {
            equal(K * sum * (i + 1), old.get(i), "exact sum of the racing getAccumulates, element " + i);
        }
        win.free();
    }

    private static void everyOperator(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        Op[] intOps = {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN, MPI.LAND, MPI.BAND, MPI.LOR, MPI.BOR, MPI.LXOR, MPI.BXOR,
            MPI.REPLACE, MPI.NO_OP};
        int n = intOps.length;
        IntBuffer ints = MPI.newIntBuffer(n);
        Win win = new Win(ints, n, 1, MPI.INFO_NULL, comm);
        DoubleBuffer doubles = MPI.newDoubleBuffer(2 + 2); // SUM, MAX, then a MINLOC pair (value, index) as 2INT below
        Win dwin = new Win(doubles, 2, 1, MPI.INFO_NULL, comm);
        IntBuffer pair = MPI.newIntBuffer(2);
        Win pwin = new Win(pair, 2, 1, MPI.INFO_NULL, comm);
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                ints.put(i, initialFor(intOps[i]));
            }
            doubles.put(0, 0.5).put(1, -1e9);
            pair.put(0, Integer.MAX_VALUE).put(1, -1);
        }
        win.fence(0);
        dwin.fence(0);
        pwin.fence(0);
        IntBuffer v = MPI.newIntBuffer(1);
        int mine = value(rank);
        for (int i = 0; i < n; i++) {
            win.accumulate(v.put(0, mine), 1, MPI.INT, 0, i, 1, MPI.INT, intOps[i]);
        }
        DoubleBuffer d = MPI.newDoubleBuffer(1).put(0, rank + 0.25);
        dwin.accumulate(d, 1, MPI.DOUBLE, 0, 0, 1, MPI.DOUBLE, MPI.SUM);
        dwin.accumulate(d, 1, MPI.DOUBLE, 0, 1, 1, MPI.DOUBLE, MPI.MAX);
        IntBuffer loc = MPI.newIntBuffer(2).put(0, 100 - rank % 3).put(1, rank);
        pwin.accumulate(loc, 1, MPI.INT2, 0, 0, 1, MPI.INT2, MPI.MINLOC);
        win.fence(MPI.MODE_NOSUCCEED);
        dwin.fence(MPI.MODE_NOSUCCEED);
        pwin.fence(MPI.MODE_NOSUCCEED);
        if (rank == 0) {
            int[] expected = new int[n];
            for (int i = 0; i < n; i++) {
                expected[i] = initialFor(intOps[i]);
            }
            for (int r = 0; r < size; r++) {
                int x = value(r);
                int[] e = expected;
                e[0] += x;
                e[1] *= x;
                e[2] = Math.max(e[2], x);
                e[3] = Math.min(e[3], x);
                e[4] = (e[4] != 0 && x != 0) ? 1 : 0;
                e[5] &= x;
                e[6] = (e[6] != 0 || x != 0) ? 1 : 0;
                e[7] |= x;
                e[8] = ((e[8] != 0) != (x != 0)) ? 1 : 0;
                e[9] ^= x;
            }
            for (int i = 0; i < 10; i++) {
                equal(expected[i], ints.get(i), "accumulate with " + intOps[i]);
            }
            boolean someRank = false;
            for (int r = 0; r < size; r++) {
                someRank |= ints.get(10) == value(r);
            }
            check(someRank, "accumulate with MPI_REPLACE left " + ints.get(10) + ", no rank's value");
            equal(initialFor(MPI.NO_OP), ints.get(11), "accumulate with MPI_NO_OP changes nothing");
            double sum = 0.5;
            for (int r = 0; r < size; r++) {
                sum += r + 0.25;
            }
            check(doubles.get(0) == sum, "double SUM " + doubles.get(0) + ", expected " + sum);
            check(doubles.get(1) == size - 1 + 0.25, "double MAX " + doubles.get(1));
            int minValue = 100 - Math.min(2, size - 1);
            int minIndex = Math.min(2, size - 1);
            equal(minValue, pair.get(0), "MINLOC value");
            equal(minIndex, pair.get(1), "MINLOC index (the lowest rank with the minimum)");
        }
        win.free();
        dwin.free();
        pwin.free();
    }

    private static int value(int rank) {
        return (rank % 5) + 3 + ((rank & 1) << 4);
    }

    private static int initialFor(Op op) {
        if (op == MPI.PROD || op == MPI.LAND) {
            return 1;
        }
        if (op == MPI.MIN || op == MPI.BAND) {
            return 0x7fffffff;
        }
        return op == MPI.NO_OP ? 77 : 0;
    }

    private static void compareAndSwap(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        Win win = new Win(rank == 0 ? 1 : 0, 1, MPI.INFO_NULL, comm, MPI.newLongBuffer(0), Win.FLAVOR_PRIVATE);
        LongBuffer expected = MPI.newLongBuffer(1);
        LongBuffer next = MPI.newLongBuffer(1);
        LongBuffer seen = MPI.newLongBuffer(1);
        win.lockAll(0);
        for (int i = 0; i < K; i++) {
            win.fetchAndOp(null, seen, MPI.LONG, 0, 0, MPI.NO_OP);
            while (true) {
                expected.put(0, seen.get(0));
                next.put(0, seen.get(0) + 1);
                win.compareAndSwap(next, expected, seen, MPI.LONG, 0, 0);
                if (seen.get(0) == expected.get(0)) {
                    break;
                }
            }
            if (i % 4 == 0) {
                comm.barrier();
            }
        }
        win.unlockAll();
        comm.barrier();
        win.lock(MPI.LOCK_SHARED, 0, 0);
        win.get(seen, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
        win.unlock(0);
        equal((long) K * size, seen.get(0), "counter incremented by compareAndSwap loops");
        win.free();
    }

    private static void requests(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        IntBuffer mem = MPI.newIntBuffer(size);
        Win win = new Win(mem, size, 1, MPI.INFO_NULL, comm);
        int right = (rank + 1) % size;
        IntBuffer x = MPI.newIntBuffer(1).put(0, 500 + rank);
        win.lock(MPI.LOCK_SHARED, right, 0);
        Request put = win.rPut(x, 1, MPI.INT, right, rank, 1, MPI.INT);
        put.waitFor();
        IntBuffer back = MPI.newIntBuffer(1);
        Request get = win.rGet(back, 1, MPI.INT, right, rank, 1, MPI.INT);
        get.waitFor();
        equal(500 + rank, back.get(0), "rGet of what rPut wrote");
        Request acc = win.rAccumulate(x, 1, MPI.INT, right, rank, 1, MPI.INT, MPI.SUM);
        Request ga = win.rGetAccumulate(x, 1, MPI.INT, back, 1, MPI.INT, right, rank, 1, MPI.INT, MPI.NO_OP);
        Request.waitAll(new Request[] {acc, ga});
        equal(2 * (500 + rank), back.get(0), "rGetAccumulate NO_OP after rAccumulate");
        win.unlock(right);
        win.fence(0);
        win.fence(MPI.MODE_NOSUCCEED);
        int left = (rank + size - 1) % size;
        equal(2 * (500 + left), mem.get(left), "this rank's window after the left neighbour's requests");
        win.free();
    }

    /**
     * A dynamic window: each rank attaches a plain buffer of 4 ints (displacements 0 to 15), then a
     * view of an off-heap array of 4 ints (16 to 31, used in place); under fences each puts into
     * both regions of its right neighbour; all add into rank 0's second region under lockAll
     * (exact sum); an access across the two regions or past them is ERR_RMA_RANGE; after the first
     * region is detached (a fence tells the others), an access to it is ERR_RMA_RANGE and the
     * second keeps its displacements.
     */
    private static void dynamic(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        Win win = new Win(MPI.INFO_NULL, comm);
        IntBuffer plain = MPI.newIntBuffer(4);
        ByteArray array = null;
        try {
            array = OutOfCore.store().bytes("dynamic", 16, Residency.NONE);
        } catch (IOException e) {
            throw new AssertionError("rank " + rank + ": no off-heap array: " + e);
        }
        IntBuffer mapped = array.chunkView(0).order(ByteOrder.nativeOrder()).asIntBuffer();
        win.attach(plain, 4);
        win.attach(mapped, 4);
        win.fence(0);
        IntBuffer two = MPI.newIntBuffer(2).put(0, 100 + rank).put(1, 200 + rank);
        win.put(two, 2, MPI.INT, right, 4, 2, MPI.INT); // bytes 4..11 of the plain buffer
        win.put(two, 2, MPI.INT, right, 20, 2, MPI.INT); // bytes 20..27: ints 1 and 2 of the array
        win.fence(0);
        equal(100 + left, plain.get(1), "dynamic: plain region, int 1 from rank " + left);
        equal(200 + left, plain.get(2), "dynamic: plain region, int 2 from rank " + left);
        equal(100 + left, mapped.get(1), "dynamic: off-heap region, int 1 from rank " + left);
        equal(200 + left, mapped.get(2), "dynamic: off-heap region, int 2 from rank " + left);
        win.fence(MPI.MODE_NOSUCCEED);

        win.lockAll(0);
        IntBuffer add = MPI.newIntBuffer(1).put(0, rank + 1);
        IntBuffer old = MPI.newIntBuffer(1);
        for (int i = 0; i < K; i++) {
            win.getAccumulate(add, 1, MPI.INT, old, 1, MPI.INT, 0, 28, 1, MPI.INT, MPI.SUM);
        }
        win.setErrhandler(MPI.ERRORS_RETURN);
        expectError(MPI.ERR_RMA_RANGE, () -> win.get(two, 2, MPI.INT, right, 12, 2, MPI.INT),
                "dynamic: a get across two regions");
        expectError(MPI.ERR_RMA_RANGE, () -> win.put(two, 1, MPI.INT, right, 32, 1, MPI.INT),
                "dynamic: a put past the regions");
        win.unlockAll();
        comm.barrier();
        if (rank == 0) {
            win.sync();
            equal((long) K * size * (size + 1) / 2, mapped.get(3), "dynamic: exact sum of the getAccumulates");
        }
        win.detach(plain);
        expectError(MPI.ERR_RMA_ATTACH, () -> win.detach(plain), "dynamic: detach of a detached buffer");
        win.fence(0);
        expectError(MPI.ERR_RMA_RANGE, () -> win.put(two, 1, MPI.INT, right, 4, 1, MPI.INT),
                "dynamic: a put into a detached region");
        win.put(two, 1, MPI.INT, right, 16, 1, MPI.INT);
        win.fence(MPI.MODE_NOSUCCEED);
        equal(100 + left, mapped.get(0), "dynamic: the region after a hole keeps its displacements");
        win.setErrhandler(MPI.ERRORS_ARE_FATAL);
        win.free();
        try {
            OutOfCore.store().delete("dynamic");
        } catch (IOException e) {
            throw new AssertionError("rank " + rank + ": " + e);
        }
    }

    private static void shared(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        Intracomm node = comm.splitType(Comm.TYPE_SHARED, rank, MPI.INFO_NULL);
        Win win = new Win(rank + 1, 1, MPI.INFO_NULL, node, MPI.newIntBuffer(0), Win.FLAVOR_SHARED);
        IntBuffer own = win.sharedQuery(node.getRank()).asIntBuffer();
        equal(rank + 1, own.capacity(), "own part of the shared window, in ints");
        for (int i = 0; i <= rank; i++) {
            own.put(i, rank * 100 + i);
        }
        win.fence(0);
        for (int r = 0; r < size; r++) {
            IntBuffer other = win.sharedQuery(r).asIntBuffer();
            equal(r + 1, other.capacity(), "rank " + r + "'s part, in ints");
            for (int i = 0; i <= r; i++) {
                equal(r * 100 + i, other.get(i), "rank " + r + "'s shared part, element " + i);
            }
        }
        win.fence(MPI.MODE_NOSUCCEED);
        win.free();
        node.free();
    }

    // ---------------------------------------------------------------- errors

    /**
     * MPI.PROC_NULL is a valid target of every one-sided call, which then does nothing: lock and
     * unlock, the operations, the request-based ones and flush (inside this rank's lock of itself).
     */
    private static void procNullDoesNothing(Win win, IntBuffer mem, int rank) throws MPIException {
        int before = mem.get(0);
        IntBuffer one = MPI.newIntBuffer(1).put(0, 77);
        IntBuffer result = MPI.newIntBuffer(1).put(0, -5);
        win.lock(MPI.LOCK_EXCLUSIVE, MPI.PROC_NULL, 0);
        win.put(one, 1, MPI.INT, MPI.PROC_NULL, 0, 1, MPI.INT);
        win.get(result, 1, MPI.INT, MPI.PROC_NULL, 0, 1, MPI.INT);
        win.accumulate(one, 1, MPI.INT, MPI.PROC_NULL, 0, 1, MPI.INT, MPI.SUM);
        win.fetchAndOp(one, result, MPI.INT, MPI.PROC_NULL, 0, MPI.SUM);
        win.compareAndSwap(one, one, result, MPI.INT, MPI.PROC_NULL, 0);
        Request done = win.rPut(one, 1, MPI.INT, MPI.PROC_NULL, 0, 1, MPI.INT);
        done.waitFor();
        win.flush(MPI.PROC_NULL);
        win.unlock(MPI.PROC_NULL);
        win.sync();
        equal(-5, result.get(0), "rank " + rank + ": a get or fetch from PROC_NULL wrote the result");
        equal(before, mem.get(0), "rank " + rank + ": an operation on PROC_NULL changed this rank's part");
    }

    private static void errors(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        comm.setErrhandler(MPI.ERRORS_RETURN);
        expectError(MPI.ERR_ARG, () -> new Win(4, 1, MPI.INFO_NULL, comm, MPI.newIntBuffer(0), 7), "flavor 7");
        expectError(MPI.ERR_DISP, () -> new Win(4, 0, MPI.INFO_NULL, comm, MPI.newIntBuffer(0), Win.FLAVOR_PRIVATE),
                "displacement unit 0");
        IntBuffer mem = MPI.newIntBuffer(4);
        Win win = new Win(mem, 4, 1, MPI.INFO_NULL, comm);
        win.setErrhandler(MPI.ERRORS_RETURN);
        IntBuffer x = MPI.newIntBuffer(4);
        expectError(MPI.ERR_RMA_SYNC, () -> win.put(x, 1, MPI.INT, 0, 0, 1, MPI.INT), "put outside an epoch");
        expectError(MPI.ERR_RMA_SYNC, () -> win.unlock(0), "unlock without lock");
        expectError(MPI.ERR_RMA_SYNC, () -> win.complete(), "complete without start");
        expectError(MPI.ERR_RMA_SYNC, () -> win.waitFor(), "wait without post");
        expectError(MPI.ERR_RMA_SYNC, () -> win.flush(0), "flush outside a lock epoch");
        expectError(MPI.ERR_RMA_SYNC, () -> win.rPut(x, 1, MPI.INT, 0, 0, 1, MPI.INT), "rPut outside a lock epoch");
        expectError(MPI.ERR_LOCKTYPE, () -> win.lock(7, 0, 0), "lock type 7");
        expectError(MPI.ERR_ASSERT, () -> win.fence(MPI.MODE_NOCHECK), "fence with MODE_NOCHECK");
        expectError(MPI.ERR_RANK, () -> win.lock(MPI.LOCK_SHARED, size, 0), "lock of rank size");
        Win dynamic = new Win(MPI.INFO_NULL, comm);
        dynamic.setErrhandler(MPI.ERRORS_RETURN);
        expectError(MPI.ERR_SIZE, () -> dynamic.attach(x, 5), "attach of more than the buffer");
        expectError(MPI.ERR_RMA_ATTACH, () -> dynamic.detach(x), "detach of a buffer never attached");
        expectError(MPI.ERR_RMA_FLAVOR, () -> dynamic.sharedQuery(0), "sharedQuery on a dynamic window");
        expectError(MPI.ERR_RMA_FLAVOR, () -> win.attach(x, 4), "attach to a window that is not dynamic");
        dynamic.free();
        win.lock(MPI.LOCK_SHARED, rank, 0);
        expectError(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_SHARED, rank, 0), "a second lock of one target");
        expectError(MPI.ERR_RMA_RANGE, () -> win.put(x, 2, MPI.INT, rank, 3, 2, MPI.INT), "put past the window");
        expectError(MPI.ERR_DISP, () -> win.get(x, 1, MPI.INT, rank, -1, 1, MPI.INT), "negative displacement");
        expectError(MPI.ERR_TYPE, () -> win.put(x, 2, MPI.INT, rank, 0, 1, MPI.INT), "counts that do not match");
        Op user = new Op(new UserFunction() { }, true);
        expectError(MPI.ERR_OP, () -> win.accumulate(x, 1, MPI.INT, rank, 0, 1, MPI.INT, user), "a user-defined operator");
        expectError(MPI.ERR_OP, () -> win.accumulate(MPI.newDoubleBuffer(1), 1, MPI.DOUBLE, rank, 0, 1, MPI.DOUBLE,
                MPI.BAND), "BAND on doubles");
        expectError(MPI.ERR_BUFFER, () -> win.fetchAndOp(x, IntBuffer.allocate(1), MPI.INT, rank, 0, MPI.SUM),
                "a heap result buffer");
        Datatype pairOfInts = Datatype.createVector(2, 1, 2, MPI.INT);
        pairOfInts.commit();
        expectError(MPI.ERR_TYPE, () -> win.fetchAndOp(x, MPI.newIntBuffer(4), pairOfInts, rank, 0, MPI.SUM),
                "fetchAndOp of a derived type (one predefined element only)");
        pairOfInts.free();
        procNullDoesNothing(win, mem, rank);
        try {
            win.put(IntBuffer.allocate(1), 1, MPI.INT, rank, 0, 1, MPI.INT);
            throw new AssertionError("rank " + rank + ": a heap origin buffer was accepted");
        } catch (IllegalArgumentException expected) {
            // as Open MPI: the origin must be direct
        }
        win.unlock(rank);
        expectError(MPI.ERR_KEYVAL, () -> win.getAttr(Comm.createKeyval()), "a communicator keyval on a window");
        int key = Win.createKeyval();
        win.setAttr(key, "hello");
        equal("hello", win.getAttr(key), "a window attribute");
        win.setName("w");
        equal("w", win.getName(), "the window's name");
        win.free();
        expectError(MPI.ERR_WIN, () -> win.fence(0), "fence on a freed window");
        comm.setErrhandler(MPI.ERRORS_ARE_FATAL);
    }

    private interface Call {
        void run() throws MPIException;
    }

    private static void expectError(int errorClass, Call call, String what) {
        try {
            call.run();
        } catch (MPIException e) {
            if (e.getErrorClass() != errorClass) {
                throw new AssertionError("rank " + rankOrMinus() + ": " + what + ": error class " + e.getErrorClass()
                        + " (" + e.getMessage() + "), expected " + errorClass);
            }
            return;
        }
        throw new AssertionError("rank " + rankOrMinus() + ": " + what + " raised no error");
    }

    private static int rankOrMinus() {
        try {
            return MPI.COMM_WORLD.getRank();
        } catch (MPIException e) {
            return -1;
        }
    }

    private static void equal(long expected, long actual, String what) {
        if (expected != actual) {
            throw new AssertionError("rank " + rankOrMinus() + ": " + what + ": expected " + expected + ", got " + actual);
        }
    }

    private static void equal(Object expected, Object actual, String what) {
        if (!expected.equals(actual)) {
            throw new AssertionError("rank " + rankOrMinus() + ": " + what + ": expected " + expected + ", got " + actual);
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("rank " + rankOrMinus() + ": " + what);
        }
    }
}
