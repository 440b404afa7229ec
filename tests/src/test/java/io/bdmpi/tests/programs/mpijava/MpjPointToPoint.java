package io.bdmpi.tests.programs.mpijava;

import mpi.Cartcomm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;

import java.util.Arrays;
import java.util.List;

/**
 * Point-to-point in mpiJava 1.2 style, as written for MPJ Express: a ring with offsets,
 * Sendrecv_replace, Isend/Irecv into arrays with Waitany and Testall statuses, Issend polled with
 * Test, MPI.OBJECT messages (one large enough to spill), Pack/Unpack, a strided Vector, a
 * cartesian shift. Prints "MpjPointToPoint rank R OK" and the arguments Init returned.
 */
public final class MpjPointToPoint {

    private MpjPointToPoint() {
    }

    public static void main(String[] args) throws MPIException {
        String[] mine = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        if (rank == 0) {
            System.out.println("MpjPointToPoint args " + Arrays.toString(mine));
        }

        // Ring with offsets: 3 ints from element 2 land at element 5.
        int[] out = {-1, -1, rank, rank * 10, rank * 100, -1};
        int[] in = new int[9];
        Arrays.fill(in, -7);
        MPI.COMM_WORLD.Send(out, 2, 3, MPI.INT, next, 1);
        Status s = MPI.COMM_WORLD.Recv(in, 5, 3, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
        check(s.source == prev && s.tag == 1 && s.Get_count(MPI.INT) == 3, "ring status " + s);
        check(Arrays.equals(in, new int[] {-7, -7, -7, -7, -7, prev, prev * 10, prev * 100, -7}),
                "ring data " + Arrays.toString(in));

        // Sendrecv_replace with an offset.
        double[] d = {0, 0, rank + 0.5, rank + 1.5};
        s = MPI.COMM_WORLD.Sendrecv_replace(d, 2, 2, MPI.DOUBLE, next, 2, prev, 2);
        check(s.source == prev && d[0] == 0 && d[2] == prev + 0.5 && d[3] == prev + 1.5, "Sendrecv_replace "
                + Arrays.toString(d));

        // Isend/Irecv on arrays; Waitany and Testall give statuses.
        long[] lin = new long[4];
        Request[] reqs = {
            MPI.COMM_WORLD.Irecv(lin, 1, 2, MPI.LONG, prev, 3),
            MPI.COMM_WORLD.Isend(new long[] {9, rank, rank + 1L}, 1, 2, MPI.LONG, next, 3),
        };
        Status any = Request.Waitany(reqs);
        check(any.index == 0 || any.index == 1, "Waitany index " + any.index);
        Status[] all;
        while ((all = Request.Testall(reqs)) == null) {
            Thread.onSpinWait();
        }
        check(all.length == 2, "Testall statuses " + Arrays.toString(all));
        check(lin[1] == prev && lin[2] == prev + 1L && lin[0] == 0 && lin[3] == 0, "Irecv data " + Arrays.toString(lin));

        // Issend polled by Test: must not hang at -nr 1 (a fruitless poll yields the slot).
        Request ss = MPI.COMM_WORLD.Issend(new int[] {rank}, 0, 1, MPI.INT, next, 4);
        int[] one = new int[1];
        Request rr = MPI.COMM_WORLD.Irecv(one, 0, 1, MPI.INT, prev, 4);
        Status got;
        while ((got = rr.Test()) == null) {
            Thread.onSpinWait();
        }
        while (ss.Test() == null && !ss.Is_null()) {
            Thread.onSpinWait();
        }
        check(got.source == prev && one[0] == prev, "Issend/Test " + got + " " + one[0]);

        // MPI.OBJECT: small, and large enough to spill over -im.
        Object[] objs = {"x", null, new int[] {rank}, "rank " + rank, List.of(rank, "big".repeat(20_000))};
        MPI.COMM_WORLD.Send(objs, 2, 3, MPI.OBJECT, next, 5);
        Object[] oin = new Object[6];
        s = MPI.COMM_WORLD.Recv(oin, 1, 5, MPI.OBJECT, prev, 5);
        check(s.Get_count(MPI.OBJECT) == 3, "OBJECT count " + s.Get_count(MPI.OBJECT));
        check(oin[0] == null && ((int[]) oin[1])[0] == prev && ("rank " + prev).equals(oin[2])
                && ((List<?>) oin[3]).get(0).equals(prev) && oin[4] == null, "OBJECT data " + Arrays.toString(oin));
        Object[] oin2 = new Object[1];
        Request orq = MPI.COMM_WORLD.Irecv(oin2, 0, 1, MPI.OBJECT, prev, 6);
        MPI.COMM_WORLD.Isend(new Object[] {new StringBuilder("sb" + rank)}, 0, 1, MPI.OBJECT, next, 6);
        s = orq.Wait();
        check(oin2[0].toString().equals("sb" + prev) && s.Get_count(MPI.OBJECT) == 1, "Irecv OBJECT " + oin2[0]);

        // Pack/Unpack round trip with offsets.
        byte[] packed = new byte[MPI.COMM_WORLD.Pack_size(2, MPI.INT) + MPI.COMM_WORLD.Pack_size(1, MPI.DOUBLE)];
        int pos = MPI.COMM_WORLD.Pack(new int[] {0, rank, 7}, 1, 2, MPI.INT, packed, 0);
        pos = MPI.COMM_WORLD.Pack(new double[] {0, 0, 2.5}, 2, 1, MPI.DOUBLE, packed, pos);
        int[] pi = new int[3];
        double[] pd = new double[2];
        pos = MPI.COMM_WORLD.Unpack(packed, 0, pi, 1, 2, MPI.INT);
        MPI.COMM_WORLD.Unpack(packed, pos, pd, 1, 1, MPI.DOUBLE);
        check(pi[1] == rank && pi[2] == 7 && pd[1] == 2.5, "Pack/Unpack " + Arrays.toString(pi) + Arrays.toString(pd));

        // A strided Vector: every third int from element 1.
        Datatype every3 = Datatype.Vector(4, 1, 3, MPI.INT);
        every3.Commit();
        check(every3.Extent() == 10 && every3.Size() == 4, "Vector extent " + every3.Extent() + " size " + every3.Size());
        int[] v = new int[14];
        for (int i = 0; i < v.length; i++) {
            v[i] = rank * 1000 + i;
        }
        int[] vin = new int[5];
        MPI.COMM_WORLD.Sendrecv(v, 1, 1, every3, next, 7, vin, 1, 4, MPI.INT, prev, 7);
        int b = prev * 1000;
        check(Arrays.equals(vin, new int[] {0, b + 1, b + 4, b + 7, b + 10}), "Vector " + Arrays.toString(vin));

        // A periodic ring as a Cartcomm and its shift.
        Cartcomm ring = MPI.COMM_WORLD.Create_cart(new int[] {size}, new boolean[] {true}, false);
        ShiftParms sp = ring.Shift(0, 1);
        check(sp.rank_source == prev && sp.rank_dest == next, "Shift " + sp.rank_source + " " + sp.rank_dest);
        int[] token = {-1};
        ring.Sendrecv(new int[] {rank}, 0, 1, MPI.INT, sp.rank_dest, 8, token, 0, 1, MPI.INT, sp.rank_source, 8);
        check(token[0] == prev && ring.Get().dims[0] == size && ring.Coords(rank)[0] == rank, "Cartcomm");
        ring.Free();

        System.out.println("MpjPointToPoint rank " + rank + " OK");
        MPI.Finalize();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("MpjPointToPoint: " + what);
        }
    }
}
