package io.bdmpi.tests.programs.datatypes;

import mpi.Datatype;
import mpi.DoubleComplex;
import mpi.FloatComplex;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.util.Arrays;

/**
 * Buffers as Open MPI treats them, derived datatypes, pack/unpack and complex numbers, with every
 * result checked element by element. Rank 0 and the last rank (on another node when there are
 * several) exchange point-to-point; every rank takes part in the collectives. Needs 2 ranks or more.
 *
 * <ul>
 *   <li>raw buffers: an {@code int[]} sent as {@code 4n MPI.BYTE} and received as {@code MPI.INT};
 *       a {@code char[]} received into a direct CharBuffer, a heap CharBuffer sent as bytes, an
 *       {@code int[]} received as chars;</li>
 *   <li>every derived-type constructor (and a nested one): send, receive (gaps keep their values),
 *       nonblocking send and receive on direct buffers, bcast and gather;</li>
 *   <li>a struct of int and double in a ByteBuffer, padding kept;</li>
 *   <li>an allReduce over a vector of doubles;</li>
 *   <li>pack and unpack of several types into one {@code MPI.PACKED} message;</li>
 *   <li>complex SUM and PROD allReduce.</li>
 * </ul>
 */
public final class DerivedTypes {

    private static final double GAP = -7;

    private static int rank;
    private static int size;

    private DerivedTypes() {
    }

    /** A derived type of doubles, the double positions its two items cover, and its extent in doubles. */
    private record Case(String name, Datatype type, int items, int extent, int[] covered) {
        /** Doubles from the start to the end of the last covered one. */
        int span() {
            return Arrays.stream(covered).max().orElse(-1) + 1;
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        rank = MPI.COMM_WORLD.getRank();
        size = MPI.COMM_WORLD.getSize();
        that(size >= 2, "needs at least 2 ranks");
        rawBuffers();
        for (Case c : cases()) {
            derived(c);
        }
        struct();
        reduceOverAVector();
        packUnpack();
        complex();
        System.out.println("DerivedTypes rank " + rank + " OK");
        MPI.Finalize();
    }

    private static void that(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("CHECK FAILED on rank " + rank + ": " + what);
        }
    }

    private static void equal(double expected, double actual, String what) {
        that(expected == actual, what + ": expected " + expected + ", got " + actual);
    }

    private static int last() {
        return size - 1;
    }

    // ---------------------------------------------------------------- raw buffers

    private static void rawBuffers() throws MPIException {
        int n = 3000;
        if (rank == 0) {
            int[] ints = new int[n];
            for (int i = 0; i < n; i++) {
                ints[i] = i * 0x01010101 - 5;
            }
            MPI.COMM_WORLD.send(ints, 4 * n, MPI.BYTE, last(), 1);
            char[] text = "h\u00e9llo, \u4e16\u754c".toCharArray();
            MPI.COMM_WORLD.send(text, text.length, MPI.CHAR, last(), 2);
            MPI.COMM_WORLD.send(new int[] {0x00410042, 0x00430044}, 4, MPI.CHAR, last(), 3);
            byte[] back = new byte[2 * text.length];
            Status s = MPI.COMM_WORLD.recv(back, back.length, MPI.BYTE, last(), 4);
            that(s.getCount(MPI.BYTE) == back.length, "bytes of the returned chars: " + s.getCount(MPI.BYTE));
            CharBuffer chars = ByteBuffer.wrap(back).order(ByteOrder.nativeOrder()).asCharBuffer();
            for (int i = 0; i < text.length; i++) {
                that(chars.get(i) == text[i], "char " + i + " sent back as bytes");
            }
        } else if (rank == last()) {
            int[] ints = new int[n];
            Status s = MPI.COMM_WORLD.recv(ints, n, MPI.INT, 0, 1);
            that(s.getCount(MPI.INT) == n && s.getCount(MPI.BYTE) == 4 * n, "count of int[] sent as bytes");
            for (int i = 0; i < n; i++) {
                equal(i * 0x01010101 - 5, ints[i], "int " + i + " sent as 4n MPI.BYTE");
            }
            CharBuffer direct = MPI.newCharBuffer(20);
            s = MPI.COMM_WORLD.recv(direct, 20, MPI.CHAR, 0, 2);
            String text = "h\u00e9llo, \u4e16\u754c";
            that(s.getCount(MPI.CHAR) == text.length(), "chars received: " + s.getCount(MPI.CHAR));
            for (int i = 0; i < text.length(); i++) {
                that(direct.get(i) == text.charAt(i), "char " + i + " into a direct CharBuffer");
            }
            char[] fromInts = new char[4];
            MPI.COMM_WORLD.recv(fromInts, 4, MPI.CHAR, 0, 3);
            boolean little = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
            String expected = little ? "BADC" : "ABCD";
            that(new String(fromInts).equals(expected), "int[] sent as chars: " + new String(fromInts));
            CharBuffer heap = CharBuffer.wrap(("x" + text).toCharArray(), 1, text.length()).slice();
            MPI.COMM_WORLD.send(heap, 2 * text.length(), MPI.BYTE, 0, 4);
        }
    }

    // ---------------------------------------------------------------- derived types of doubles

    private static Case[] cases() throws MPIException {
        Datatype pairs = Datatype.createVector(2, 1, 2, MPI.DOUBLE);
        return new Case[] {
            new Case("contiguous", Datatype.createContiguous(3, MPI.DOUBLE), 2, 3, new int[] {0, 1, 2, 3, 4, 5}),
            new Case("vector", Datatype.createVector(2, 2, 3, MPI.DOUBLE), 2, 5, new int[] {0, 1, 3, 4, 5, 6, 8, 9}),
            new Case("hvector", Datatype.createHVector(3, 1, 16, MPI.DOUBLE), 2, 5, new int[] {0, 2, 4, 5, 7, 9}),
            new Case("indexed", Datatype.createIndexed(new int[] {2, 1}, new int[] {0, 3}, MPI.DOUBLE), 2, 4,
                    new int[] {0, 1, 3, 4, 5, 7}),
            new Case("hindexed", Datatype.createHIndexed(new int[] {1, 1}, new int[] {32, 8}, MPI.DOUBLE), 2, 4,
                    new int[] {4, 1, 8, 5}),
            new Case("resized", Datatype.createResized(MPI.DOUBLE, 0, 24), 2, 3, new int[] {0, 3}),
            new Case("contiguous of a vector", Datatype.createContiguous(2, pairs), 1, 6, new int[] {0, 2, 3, 5}),
        };
    }

    /** The covered doubles of {@code c}, shifted by {@code at} doubles, hold from + 1, from + 2, ... in type-map order. */
    private static double[] layout(Case c, int length, int at, double from) {
        double[] a = new double[length];
        Arrays.fill(a, GAP);
        for (int j = 0; j < c.covered.length; j++) {
            a[at + c.covered[j]] = from + j + 1;
        }
        return a;
    }

    private static void checkLayout(double[] expected, double[] actual, String what) {
        for (int i = 0; i < expected.length; i++) {
            equal(expected[i], actual[i], what + ", double " + i);
        }
    }

    private static void derived(Case c) throws MPIException {
        Datatype t = c.type;
        t.commit();
        that(t.getExtent() == c.extent, c.name + ": extent " + t.getExtent() + ", expected " + c.extent);
        that(t.getSize() * c.items == c.covered.length, c.name + ": size " + t.getSize());
        int length = c.span() + 2;
        // Point-to-point, blocking into an array, nonblocking into a direct buffer.
        if (rank == 0) {
            MPI.COMM_WORLD.send(layout(c, length, 0, 10), c.items, t, last(), 10);
            DoubleBuffer out = MPI.newDoubleBuffer(length).put(layout(c, length, 0, 20));
            MPI.COMM_WORLD.iSend(out, c.items, t, last(), 11).waitFor();
        } else if (rank == last()) {
            double[] in = gaps(length);
            Status s = MPI.COMM_WORLD.recv(in, c.items, t, 0, 10);
            checkLayout(layout(c, length, 0, 10), in, c.name + " recv");
            that(s.getCount(t) == c.items, c.name + ": count " + s.getCount(t));
            that(s.getElements(t) == c.covered.length, c.name + ": elements " + s.getElements(t));
            DoubleBuffer direct = MPI.newDoubleBuffer(length);
            direct.put(gaps(length)).clear();
            Request r = MPI.COMM_WORLD.iRecv(direct, c.items, t, 0, 11);
            r.waitFor();
            double[] got = new double[length];
            direct.get(got);
            checkLayout(layout(c, length, 0, 20), got, c.name + " iRecv");
        }
        // Bcast from the last rank: everyone ends with its layout, gaps untouched.
        double[] b = rank == last() ? layout(c, length, 0, 30) : gaps(length);
        MPI.COMM_WORLD.bcast(b, c.items, t, last());
        checkLayout(layout(c, length, 0, 30), b, c.name + " bcast");
        // Gather at rank 0: rank r's items start r * items extents in.
        int block = c.items * c.extent;
        double[] all = gaps((size - 1) * block + length);
        MPI.COMM_WORLD.gather(layout(c, length, 0, 100 * rank), c.items, t, all, c.items, t, 0);
        if (rank == 0) {
            double[] expected = gaps(all.length);
            for (int r = 0; r < size; r++) {
                double[] part = layout(c, length, 0, 100 * r);
                for (int i : c.covered) {
                    expected[r * block + i] = part[i];
                }
            }
            checkLayout(expected, all, c.name + " gather");
        }
        t.free();
        that(t.isNull(), c.name + ": freed");
    }

    private static double[] gaps(int n) {
        double[] a = new double[n];
        Arrays.fill(a, GAP);
        return a;
    }

    // ---------------------------------------------------------------- struct

    private static void struct() throws MPIException {
        Datatype s = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.INT, MPI.DOUBLE});
        s.commit();
        that(s.getExtent() == 16 && s.getSize() == 12, "struct extent/size in bytes");
        if (rank == 0) {
            ByteBuffer out = MPI.newByteBuffer(48);
            for (int k = 0; k < 3; k++) {
                out.putInt(16 * k, k + 1).putInt(16 * k + 4, 99).putDouble(16 * k + 8, k + 0.5);
            }
            MPI.COMM_WORLD.send(out, 3, s, last(), 20);
        } else if (rank == last()) {
            ByteBuffer in = MPI.newByteBuffer(48);
            for (int k = 0; k < 3; k++) {
                in.putInt(16 * k + 4, -3);
            }
            Status st = MPI.COMM_WORLD.recv(in, 3, s, 0, 20);
            that(st.getCount(s) == 3 && st.getCount(MPI.BYTE) == 36, "struct count " + st.getCount(MPI.BYTE));
            for (int k = 0; k < 3; k++) {
                that(in.getInt(16 * k) == k + 1, "struct int " + k);
                that(in.getInt(16 * k + 4) == -3, "struct padding " + k + " kept");
                equal(k + 0.5, in.getDouble(16 * k + 8), "struct double " + k);
            }
        }
        s.free();
    }

    // ---------------------------------------------------------------- reduction

    private static void reduceOverAVector() throws MPIException {
        Datatype every2nd = Datatype.createVector(3, 1, 2, MPI.DOUBLE);
        every2nd.commit();
        double[] in = {rank + 1, GAP, 10 * (rank + 1), GAP, 0.5, GAP};
        double[] out = gaps(6);
        MPI.COMM_WORLD.allReduce(in, out, 1, every2nd, MPI.SUM);
        double s = size * (size + 1) / 2.0;
        checkLayout(new double[] {s, GAP, 10 * s, GAP, 0.5 * size, GAP}, out, "allReduce over a vector");
        every2nd.free();
    }

    // ---------------------------------------------------------------- pack and unpack

    private static void packUnpack() throws MPIException {
        Datatype every2nd = Datatype.createVector(2, 1, 2, MPI.DOUBLE);
        every2nd.commit();
        int bytes = MPI.COMM_WORLD.packSize(2, every2nd) + MPI.COMM_WORLD.packSize(3, MPI.INT)
                + MPI.COMM_WORLD.packSize(2, MPI.CHAR);
        that(bytes == 32 + 12 + 4, "packSize " + bytes);
        if (rank == 0) {
            byte[] packed = new byte[bytes];
            int pos = MPI.COMM_WORLD.pack(new double[] {1, GAP, 2, 3, GAP, 4}, 2, every2nd, packed, 0);
            pos = MPI.COMM_WORLD.pack(new int[] {7, 8, 9}, 3, MPI.INT, packed, pos);
            pos = MPI.COMM_WORLD.pack("ok".toCharArray(), 2, MPI.CHAR, packed, pos);
            that(pos == bytes, "pack position " + pos);
            MPI.COMM_WORLD.send(packed, pos, MPI.PACKED, last(), 30);
        } else if (rank == last()) {
            Status st = MPI.COMM_WORLD.probe(0, 30);
            int n = st.getCount(MPI.PACKED);
            that(n == bytes, "probed packed bytes " + n);
            byte[] packed = new byte[n];
            MPI.COMM_WORLD.recv(packed, n, MPI.PACKED, 0, 30);
            double[] d = gaps(6);
            int[] ints = new int[3];
            char[] chars = new char[2];
            int pos = MPI.COMM_WORLD.unpack(packed, 0, d, 2, every2nd);
            pos = MPI.COMM_WORLD.unpack(packed, pos, ints, 3, MPI.INT);
            pos = MPI.COMM_WORLD.unpack(packed, pos, chars, 2, MPI.CHAR);
            that(pos == n, "unpack position " + pos);
            checkLayout(new double[] {1, GAP, 2, 3, GAP, 4}, d, "unpacked vector");
            that(Arrays.equals(ints, new int[] {7, 8, 9}), "unpacked ints " + Arrays.toString(ints));
            that(new String(chars).equals("ok"), "unpacked chars");
        }
        every2nd.free();
    }

    // ---------------------------------------------------------------- complex numbers

    private static void complex() throws MPIException {
        float[] mine = new float[4];
        FloatComplex.get(mine, 0).putReal(rank);
        FloatComplex.get(mine, 0).putImag(2 * rank);
        FloatComplex.get(mine, 1).putReal(1);
        FloatComplex.get(mine, 1).putImag(-rank);
        float[] sum = new float[4];
        MPI.COMM_WORLD.allReduce(mine, sum, 2, MPI.FLOAT_COMPLEX, MPI.SUM);
        float s = size * (size - 1) / 2f;
        equal(s, FloatComplex.get(sum, 0).getReal(), "complex sum, real");
        equal(2 * s, FloatComplex.get(sum, 0).getImag(), "complex sum, imaginary");
        equal(size, FloatComplex.get(sum, 1).getReal(), "second complex sum, real");
        equal(-s, FloatComplex.get(sum, 1).getImag(), "second complex sum, imaginary");
        // The product of size factors i is i^size.
        DoubleBuffer i = MPI.newDoubleBuffer(2);
        DoubleComplex.get(i).putImag(1);
        DoubleBuffer prod = MPI.newDoubleBuffer(2);
        MPI.COMM_WORLD.allReduce(i, prod, 1, MPI.DOUBLE_COMPLEX, MPI.PROD);
        double[][] powers = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
        equal(powers[size % 4][0], DoubleComplex.get(prod).getReal(), "i^" + size + ", real");
        equal(powers[size % 4][1], DoubleComplex.get(prod).getImag(), "i^" + size + ", imaginary");
    }
}
