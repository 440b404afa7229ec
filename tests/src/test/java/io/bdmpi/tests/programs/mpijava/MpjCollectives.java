package io.bdmpi.tests.programs.mpijava;

import mpi.Datatype;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.Status;
import mpi.User_function;

import java.nio.IntBuffer;
import java.util.Arrays;

/**
 * Every mpiJava 1.2 collective with non-zero offsets, MPI.OBJECT bcast, gather and a user
 * reduction over objects, MINLOC over INT2 and DOUBLE2, a User_function with offsets, and Open
 * MPI calls mixed in the same class on the same communicators. Prints "MpjCollectives rank R OK".
 */
public final class MpjCollectives {

    private MpjCollectives() {
    }

    /** Concatenates strings: not commutative, so the rank order shows. */
    static final class Concat extends User_function {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            Object[] in = (Object[]) invec;
            Object[] io = (Object[]) inoutvec;
            for (int i = 0; i < count; i++) {
                io[inoutoffset + i] = in[inoffset + i] + "" + io[inoutoffset + i];
            }
        }
    }

    /** Sums ints with offsets. */
    static final class Sum extends User_function {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            int[] in = (int[]) invec;
            int[] io = (int[]) inoutvec;
            for (int i = 0; i < count; i++) {
                io[inoutoffset + i] += in[inoffset + i];
            }
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.Rank();
        int size = w.Size();
        int total = size * (size - 1) / 2;

        int[] b = new int[4];
        if (rank == 1 % size) {
            b[2] = 42;
            b[3] = 43;
        }
        w.Bcast(b, 2, 2, MPI.INT, 1 % size);
        check(b[2] == 42 && b[3] == 43 && b[0] == 0, "Bcast");

        int[] g = new int[2 + 2 * size];
        w.Gather(new int[] {0, rank, -rank}, 1, 2, MPI.INT, g, 2, 2, MPI.INT, 0);
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                check(g[2 + 2 * r] == r && g[3 + 2 * r] == -r, "Gather " + Arrays.toString(g));
            }
        }
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = 1;
            displs[r] = size - 1 - r;
        }
        int[] gv = new int[1 + size];
        w.Gatherv(new int[] {9, rank}, 1, 1, MPI.INT, gv, 1, counts, displs, MPI.INT, 0);
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                check(gv[1 + size - 1 - r] == r, "Gatherv " + Arrays.toString(gv));
            }
        }
        int[] sc = new int[3 + size];
        for (int r = 0; r < size; r++) {
            sc[3 + r] = 100 + r;
        }
        int[] one = new int[2];
        w.Scatter(sc, 3, 1, MPI.INT, one, 1, 1, MPI.INT, 0);
        check(one[1] == 100 + rank, "Scatter");
        w.Scatterv(sc, 3, counts, displs, MPI.INT, one, 1, 1, MPI.INT, 0);
        check(one[1] == 100 + size - 1 - rank, "Scatterv");
        int[] ag = new int[1 + size];
        w.Allgather(new int[] {0, 0, rank * 3}, 2, 1, MPI.INT, ag, 1, 1, MPI.INT);
        for (int r = 0; r < size; r++) {
            check(ag[1 + r] == r * 3, "Allgather " + Arrays.toString(ag));
        }
        int[] agv = new int[1 + size];
        w.Allgatherv(new int[] {0, rank}, 1, 1, MPI.INT, agv, 1, counts, displs, MPI.INT);
        for (int r = 0; r < size; r++) {
            check(agv[1 + size - 1 - r] == r, "Allgatherv " + Arrays.toString(agv));
        }
        int[] a2a = new int[1 + size];
        int[] a2aIn = new int[2 + size];
        for (int r = 0; r < size; r++) {
            a2a[1 + r] = rank * 100 + r;
        }
        w.Alltoall(a2a, 1, 1, MPI.INT, a2aIn, 2, 1, MPI.INT);
        for (int r = 0; r < size; r++) {
            check(a2aIn[2 + r] == r * 100 + rank, "Alltoall " + Arrays.toString(a2aIn));
        }
        int[] ones = new int[size];
        Arrays.fill(ones, 1);
        int[] seq = new int[size];
        for (int r = 0; r < size; r++) {
            seq[r] = r;
        }
        Arrays.fill(a2aIn, -1);
        w.Alltoallv(a2a, 1, ones, seq, MPI.INT, a2aIn, 2, ones, seq, MPI.INT);
        for (int r = 0; r < size; r++) {
            check(a2aIn[2 + r] == r * 100 + rank, "Alltoallv " + Arrays.toString(a2aIn));
        }
        int[] red = new int[3];
        w.Reduce(new int[] {0, rank, 1}, 1, red, 1, 2, MPI.INT, MPI.SUM, 0);
        if (rank == 0) {
            check(red[1] == total && red[2] == size, "Reduce " + Arrays.toString(red));
        }
        w.Allreduce(new int[] {0, rank, 1}, 1, red, 1, 2, MPI.INT, new Op(new Sum(), true));
        check(red[1] == total && red[2] == size, "Allreduce with User_function " + Arrays.toString(red));
        int[] rsIn = new int[1 + size];
        Arrays.fill(rsIn, 1);
        int[] rs = new int[2];
        w.Reduce_scatter(rsIn, 1, rs, 1, ones, MPI.INT, MPI.SUM);
        check(rs[1] == size, "Reduce_scatter " + Arrays.toString(rs));
        int[] scan = new int[2];
        w.Scan(new int[] {0, rank}, 1, scan, 1, 1, MPI.INT, MPI.SUM);
        check(scan[1] == rank * (rank + 1) / 2, "Scan " + Arrays.toString(scan));

        // MINLOC: INT2 with an int[] (value, index), DOUBLE2 with a double[].
        int[] loc = new int[3];
        w.Allreduce(new int[] {0, (rank - 1) * (rank - 1), rank}, 1, loc, 1, 1, MPI.INT2, MPI.MINLOC);
        check(loc[1] == (size > 1 ? 0 : 1) && loc[2] == (size > 1 ? 1 : 0), "MINLOC INT2 " + Arrays.toString(loc));
        double[] dloc = new double[2];
        w.Allreduce(new double[] {rank % 2, rank}, 0, dloc, 0, 1, MPI.DOUBLE2, MPI.MAXLOC);
        check(dloc[0] == (size > 1 ? 1 : 0) && dloc[1] == (size > 1 ? 1 : 0), "MAXLOC DOUBLE2 " + Arrays.toString(dloc));

        // MPI.OBJECT: bcast, gather, allgather, and a user reduction (in rank order).
        Object[] ob = new Object[3];
        if (rank == 0) {
            ob[1] = "hello";
            ob[2] = new int[] {5, 6};
        }
        w.Bcast(ob, 1, 2, MPI.OBJECT, 0);
        check("hello".equals(ob[1]) && ((int[]) ob[2])[1] == 6, "Bcast OBJECT");
        Object[] og = new Object[1 + size];
        w.Gather(new Object[] {null, "r" + rank}, 1, 1, MPI.OBJECT, og, 1, 1, MPI.OBJECT, 0);
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                check(("r" + r).equals(og[1 + r]), "Gather OBJECT " + Arrays.toString(og));
            }
        }
        Arrays.fill(og, null);
        w.Allgather(new Object[] {"a" + rank}, 0, 1, MPI.OBJECT, og, 1, 1, MPI.OBJECT);
        check(("a" + (size - 1)).equals(og[size]), "Allgather OBJECT " + Arrays.toString(og));
        StringBuilder expect = new StringBuilder();
        for (int r = 0; r < size; r++) {
            expect.append(r);
        }
        Object[] cat = new Object[2];
        Op concat = new Op(new Concat(), false);
        w.Reduce(new Object[] {"", String.valueOf(rank)}, 1, cat, 1, 1, MPI.OBJECT, concat, 0);
        if (rank == 0) {
            check(expect.toString().equals(cat[1]), "Reduce OBJECT " + cat[1]);
        }
        w.Allreduce(new Object[] {String.valueOf(rank)}, 0, cat, 0, 1, MPI.OBJECT, concat);
        check(expect.toString().equals(cat[0]), "Allreduce OBJECT " + cat[0]);
        w.Scan(new Object[] {String.valueOf(rank)}, 0, cat, 0, 1, MPI.OBJECT, concat);
        check(expect.substring(0, rank + 1).equals(cat[0]), "Scan OBJECT " + cat[0]);

        // Both APIs in one class, on the same communicators and requests.
        Intracomm dup = (Intracomm) w.clone();
        Intracomm half = dup.Split(rank % 2, rank);
        check(half.getSize() == half.Size() && half.Rank() == rank / 2, "Split");
        IntBuffer ib = MPI.newIntBuffer(1);
        Request r1 = dup.iRecv(ib, 1, MPI.INT, (rank + size - 1) % size, 9);
        dup.Send(new int[] {0, rank}, 1, 1, MPI.INT, (rank + 1) % size, 9);
        Status st = r1.Wait();
        check(st.getSource() == st.source && ib.get(0) == (rank + size - 1) % size, "mixed " + st);
        dup.barrier();
        dup.Barrier();
        check(MPI.COMM_WORLD.Split(MPI.UNDEFINED, 0) == MPI.COMM_NULL, "Split UNDEFINED");
        if (size > 1) {
            // Even and odd ranks, joined by an intercommunicator whose leaders are world ranks 0 and 1.
            Intercomm inter = w.Create_intercomm(half, 0, 1 - rank % 2, 7);
            check(inter.Remote_size() == (rank % 2 == 0 ? size / 2 : (size + 1) / 2) && inter.Test_inter(),
                    "Remote_size " + inter.Remote_size());
            check(inter.Remote_group().Size() == inter.Remote_size(), "Remote_group");
            Intracomm merged = inter.Merge(rank % 2 == 1);
            check(merged.Size() == size && merged.Rank() == (rank % 2 == 0 ? rank / 2 : (size + 1) / 2 + rank / 2),
                    "Merge: rank " + merged.Rank());
            merged.Free();
            inter.Free();
        }
        half.Free();
        dup.free();

        System.out.println("MpjCollectives rank " + rank + " OK");
        MPI.Finalize();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("MpjCollectives: " + what);
        }
    }
}
