package io.bdmpi.tests.programs;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Ranks 0 and 1 exchange messages of every basic datatype, a small and a large count of each,
 * and check every element, the status's source, tag and count. Other ranks only take part in
 * Init/Finalize.
 *
 * <p>Usage: {@code Datatypes MODE [smallCount [largeCount]]}, MODE one of
 * <ul>
 *   <li>{@code arrays}: Java arrays of all eight types (byte, char, short, boolean, int, long,
 *       float, double), received into an array longer than the message;</li>
 *   <li>{@code direct}: direct buffers ({@code MPI.newXBuffer}) of the seven types that have one;</li>
 *   <li>{@code slices}: {@code MPI.slice} of arrays and direct buffers (offsets), heap buffers from
 *       {@code wrap}, and direct buffers whose position is not 0 (which must be ignored).</li>
 * </ul>
 */
public final class Datatypes {

    enum Kind { BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE }

    private Datatypes() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        String mode = args[0];
        int small = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        int large = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
        int rank = MPI.COMM_WORLD.getRank();
        Check.that(MPI.COMM_WORLD.getSize() >= 2, "Datatypes needs at least 2 ranks");
        if (rank < 2) {
            int partner = 1 - rank;
            int tag = 0;
            for (int n : new int[] {small, large}) {
                switch (mode) {
                    case "arrays" -> {
                        for (Kind k : Kind.values()) {
                            exchangeArrays(k, n, rank, partner, ++tag);
                        }
                    }
                    case "direct" -> {
                        for (Kind k : Kind.values()) {
                            if (k != Kind.BOOLEAN) {
                                exchangeDirect(k, n, rank, partner, ++tag);
                            }
                        }
                    }
                    case "slices" -> {
                        exchangeSlices(n, rank, partner, tag);
                        tag += 10;
                    }
                    default -> throw new IllegalArgumentException("unknown mode " + mode);
                }
            }
        }
        Check.ok("Datatypes " + mode);
        MPI.Finalize();
    }

    // ------------------------------------------------------------------ arrays and direct buffers

    private static void exchangeArrays(Kind k, int n, int rank, int partner, int tag) throws MPIException {
        Object mine = newArray(k, n + 3);
        for (int i = 0; i < n; i++) {
            setArray(k, mine, i, rank, tag);
        }
        Object theirs = newArray(k, n + 3);
        Status st;
        if (rank == 0) {
            MPI.COMM_WORLD.send(mine, n, type(k), partner, tag);
            st = MPI.COMM_WORLD.recv(theirs, n + 3, type(k), partner, tag);
        } else {
            st = MPI.COMM_WORLD.recv(theirs, n + 3, type(k), partner, tag);
            MPI.COMM_WORLD.send(mine, n, type(k), partner, tag);
        }
        String what = k + "[" + n + "] array from rank " + partner;
        checkStatus(st, k, n, partner, tag, what);
        for (int i = 0; i < n; i++) {
            Object expected = value(k, i, partner, tag);
            Object got = getArray(k, theirs, i);
            if (!expected.equals(got)) {
                throw Check.fail(what + ": element " + i + " is " + got + ", expected " + expected);
            }
        }
    }

    private static void exchangeDirect(Kind k, int n, int rank, int partner, int tag) throws MPIException {
        Buffer mine = newDirect(k, n);
        for (int i = 0; i < n; i++) {
            setDirect(k, mine, i, rank, tag);
        }
        Buffer theirs = newDirect(k, n + 3);
        Status st;
        if (rank == 0) {
            MPI.COMM_WORLD.send(mine, n, type(k), partner, tag);
            st = MPI.COMM_WORLD.recv(theirs, n + 3, type(k), partner, tag);
        } else {
            st = MPI.COMM_WORLD.recv(theirs, n + 3, type(k), partner, tag);
            MPI.COMM_WORLD.send(mine, n, type(k), partner, tag);
        }
        String what = k + "[" + n + "] direct buffer from rank " + partner;
        checkStatus(st, k, n, partner, tag, what);
        for (int i = 0; i < n; i++) {
            Object expected = value(k, i, partner, tag);
            Object got = getDirect(k, theirs, i);
            if (!expected.equals(got)) {
                throw Check.fail(what + ": element " + i + " is " + got + ", expected " + expected);
            }
        }
    }

    private static void checkStatus(Status st, Kind k, int n, int partner, int tag, String what) throws MPIException {
        Check.equal(partner, st.getSource(), what + ": status source");
        Check.equal(tag, st.getTag(), what + ": status tag");
        Check.equal(n, st.getCount(type(k)), what + ": status count");
    }

    // ------------------------------------------------------------------ slices, heap buffers, positions

    /** Four int exchanges and one byte exchange, tags base+1 .. base+5. */
    private static void exchangeSlices(int n, int rank, int partner, int base) throws MPIException {
        final int sendOffset = 3;
        final int recvOffset = 5;
        int[] src = new int[n + sendOffset];
        for (int i = 0; i < src.length; i++) {
            src[i] = i < sendOffset ? -1 : intValue(i - sendOffset, rank, base);
        }
        int[] sentinel = {0x5EED, 0x5EED + 1, 0x5EED + 2, 0x5EED + 3, 0x5EED + 4};

        // 1. MPI.slice(int[], offset) on both sides.
        int[] dst = new int[n + recvOffset];
        System.arraycopy(sentinel, 0, dst, 0, recvOffset);
        exchange(rank, partner, base + 1, MPI.slice(src, sendOffset), MPI.slice(dst, recvOffset), n, MPI.INT);
        for (int i = 0; i < recvOffset; i++) {
            Check.equal(sentinel[i], dst[i], "slice(int[], " + recvOffset + ") receive wrote before its offset at " + i);
        }
        checkInts(n, partner, base, i -> dst[recvOffset + i], "int[" + n + "] via MPI.slice(array, offset)");

        // 2. Heap buffers from IntBuffer.wrap (array offset 0).
        int[] plain = new int[n];
        for (int i = 0; i < n; i++) {
            plain[i] = intValue(i, rank, base);
        }
        int[] dst2 = new int[n];
        exchange(rank, partner, base + 2, IntBuffer.wrap(plain), IntBuffer.wrap(dst2), n, MPI.INT);
        checkInts(n, partner, base, i -> dst2[i], "int[" + n + "] via IntBuffer.wrap");

        // 3. MPI.slice(direct IntBuffer, offset).
        IntBuffer dsrc = MPI.newIntBuffer(n + sendOffset);
        for (int i = 0; i < n; i++) {
            dsrc.put(sendOffset + i, intValue(i, rank, base));
        }
        IntBuffer ddst = MPI.newIntBuffer(n + recvOffset);
        for (int i = 0; i < recvOffset; i++) {
            ddst.put(i, sentinel[i]);
        }
        exchange(rank, partner, base + 3, MPI.slice(dsrc, sendOffset), MPI.slice(ddst, recvOffset), n, MPI.INT);
        for (int i = 0; i < recvOffset; i++) {
            Check.equal(sentinel[i], ddst.get(i), "slice(IntBuffer, " + recvOffset + ") receive wrote before its offset at " + i);
        }
        checkInts(n, partner, base, i -> ddst.get(recvOffset + i), "int[" + n + "] via MPI.slice(direct buffer, offset)");

        // 4. Direct buffers whose position and limit are not at the start: both are ignored.
        IntBuffer psrc = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) {
            psrc.put(i, intValue(i, rank, base));
        }
        psrc.position(Math.min(2, n));
        IntBuffer pdst = MPI.newIntBuffer(n);
        pdst.position(Math.min(1, n)).limit(Math.min(2, n));
        exchange(rank, partner, base + 4, psrc, pdst, n, MPI.INT);
        pdst.clear(); // only to read it back here: absolute get is bounded by the limit set above
        checkInts(n, partner, base, pdst::get, "int[" + n + "] from direct buffers with position != 0");

        // 5. MPI.slice(byte[], offset).
        byte[] bsrc = new byte[n + sendOffset];
        for (int i = 0; i < n; i++) {
            bsrc[sendOffset + i] = (byte) intValue(i, rank, base);
        }
        byte[] bdst = new byte[n + recvOffset];
        exchange(rank, partner, base + 5, MPI.slice(bsrc, sendOffset), MPI.slice(bdst, recvOffset), n, MPI.BYTE);
        checkInts(n, partner, base, i -> bdst[recvOffset + i], "byte[" + n + "] via MPI.slice(array, offset)",
                v -> (byte) v);
    }

    private static void exchange(int rank, int partner, int tag, Object send, Object recv, int n, Datatype type)
            throws MPIException {
        Status st;
        if (rank == 0) {
            MPI.COMM_WORLD.send(send, n, type, partner, tag);
            st = MPI.COMM_WORLD.recv(recv, n, type, partner, tag);
        } else {
            st = MPI.COMM_WORLD.recv(recv, n, type, partner, tag);
            MPI.COMM_WORLD.send(send, n, type, partner, tag);
        }
        Check.equal(n, st.getCount(type), "tag " + tag + ": status count");
        Check.equal(partner, st.getSource(), "tag " + tag + ": status source");
    }

    private interface IntAt {
        int at(int i);
    }

    private interface Narrow {
        int apply(int v);
    }

    private static void checkInts(int n, int partner, int base, IntAt got, String what) {
        checkInts(n, partner, base, got, what, v -> v);
    }

    private static void checkInts(int n, int partner, int base, IntAt got, String what, Narrow narrow) {
        for (int i = 0; i < n; i++) {
            int expected = narrow.apply(intValue(i, partner, base));
            if (got.at(i) != expected) {
                throw Check.fail(what + " from rank " + partner + ": element " + i + " is " + got.at(i)
                        + ", expected " + expected);
            }
        }
    }

    private static int intValue(int i, int sender, int base) {
        return (int) ((i * 7L + sender * 1000L + base) * 2654435761L);
    }

    // ------------------------------------------------------------------ per-type plumbing

    private static Datatype type(Kind k) {
        return switch (k) {
            case BYTE -> MPI.BYTE;
            case CHAR -> MPI.CHAR;
            case SHORT -> MPI.SHORT;
            case BOOLEAN -> MPI.BOOLEAN;
            case INT -> MPI.INT;
            case LONG -> MPI.LONG;
            case FLOAT -> MPI.FLOAT;
            case DOUBLE -> MPI.DOUBLE;
        };
    }

    /** Element {@code i} of the message {@code sender} sends with {@code tag}; distinct per type. */
    static Object value(Kind k, int i, int sender, int tag) {
        long v = i * 7L + sender * 1000L + tag * 100_000L;
        return switch (k) {
            case BYTE -> (byte) (v * 13);
            case CHAR -> (char) (v * 31);
            case SHORT -> (short) (v * 17);
            case BOOLEAN -> (i * 7 + sender + tag) % 3 == 0;
            case INT -> (int) (v * 2654435761L);
            case LONG -> v * 0x9E3779B97F4A7C15L;
            case FLOAT -> (float) v * 0.75f;
            case DOUBLE -> v * 1.0e10 + 0.125;
        };
    }

    private static Object newArray(Kind k, int n) {
        return switch (k) {
            case BYTE -> new byte[n];
            case CHAR -> new char[n];
            case SHORT -> new short[n];
            case BOOLEAN -> new boolean[n];
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
        };
    }

    private static void setArray(Kind k, Object a, int i, int sender, int tag) {
        Object v = value(k, i, sender, tag);
        switch (k) {
            case BYTE -> ((byte[]) a)[i] = (Byte) v;
            case CHAR -> ((char[]) a)[i] = (Character) v;
            case SHORT -> ((short[]) a)[i] = (Short) v;
            case BOOLEAN -> ((boolean[]) a)[i] = (Boolean) v;
            case INT -> ((int[]) a)[i] = (Integer) v;
            case LONG -> ((long[]) a)[i] = (Long) v;
            case FLOAT -> ((float[]) a)[i] = (Float) v;
            case DOUBLE -> ((double[]) a)[i] = (Double) v;
        }
    }

    private static Object getArray(Kind k, Object a, int i) {
        return switch (k) {
            case BYTE -> ((byte[]) a)[i];
            case CHAR -> ((char[]) a)[i];
            case SHORT -> ((short[]) a)[i];
            case BOOLEAN -> ((boolean[]) a)[i];
            case INT -> ((int[]) a)[i];
            case LONG -> ((long[]) a)[i];
            case FLOAT -> ((float[]) a)[i];
            case DOUBLE -> ((double[]) a)[i];
        };
    }

    private static Buffer newDirect(Kind k, int n) {
        return switch (k) {
            case BYTE -> MPI.newByteBuffer(n);
            case CHAR -> MPI.newCharBuffer(n);
            case SHORT -> MPI.newShortBuffer(n);
            case INT -> MPI.newIntBuffer(n);
            case LONG -> MPI.newLongBuffer(n);
            case FLOAT -> MPI.newFloatBuffer(n);
            case DOUBLE -> MPI.newDoubleBuffer(n);
            case BOOLEAN -> throw new IllegalArgumentException("no direct buffer for BOOLEAN");
        };
    }

    private static void setDirect(Kind k, Buffer b, int i, int sender, int tag) {
        Object v = value(k, i, sender, tag);
        switch (k) {
            case BYTE -> ((ByteBuffer) b).put(i, (Byte) v);
            case CHAR -> ((CharBuffer) b).put(i, (Character) v);
            case SHORT -> ((ShortBuffer) b).put(i, (Short) v);
            case INT -> ((IntBuffer) b).put(i, (Integer) v);
            case LONG -> ((LongBuffer) b).put(i, (Long) v);
            case FLOAT -> ((FloatBuffer) b).put(i, (Float) v);
            case DOUBLE -> ((DoubleBuffer) b).put(i, (Double) v);
            case BOOLEAN -> throw new IllegalArgumentException("no direct buffer for BOOLEAN");
        }
    }

    private static Object getDirect(Kind k, Buffer b, int i) {
        return switch (k) {
            case BYTE -> ((ByteBuffer) b).get(i);
            case CHAR -> ((CharBuffer) b).get(i);
            case SHORT -> ((ShortBuffer) b).get(i);
            case INT -> ((IntBuffer) b).get(i);
            case LONG -> ((LongBuffer) b).get(i);
            case FLOAT -> ((FloatBuffer) b).get(i);
            case DOUBLE -> ((DoubleBuffer) b).get(i);
            case BOOLEAN -> throw new IllegalArgumentException("no direct buffer for BOOLEAN");
        };
    }
}
