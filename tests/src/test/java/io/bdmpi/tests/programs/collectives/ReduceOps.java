package io.bdmpi.tests.programs.collectives;

import mpi.Datatype;
import mpi.DoubleInt;
import mpi.FloatInt;
import mpi.Int2;
import mpi.Intracomm;
import mpi.LongInt;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.ShortInt;
import mpi.UserFunction;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/**
 * Every predefined reduction operation on every basic type MPI defines it for, on COMM_WORLD,
 * with allReduce, reduce (separate and in place, rotating roots) and scan, against references
 * computed here:
 * <ul>
 *   <li>MAX, MIN, SUM, PROD, LAND, LOR, LXOR, BAND, BOR, BXOR on BYTE, CHAR, SHORT, INT, LONG
 *       (integer arithmetic wraps; BYTE is MPI_UINT8_T, so MAX and MIN compare it unsigned, and
 *       the logical operations yield 0 or 1);</li>
 *   <li>MAX, MIN, SUM, PROD on FLOAT and DOUBLE, with values whose sum and product depend on the
 *       order: the result must be exactly the left-to-right fold in rank order, in the type's own
 *       arithmetic;</li>
 *   <li>all six logical and bitwise operations on BOOLEAN;</li>
 *   <li>MINLOC and MAXLOC on INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT (ties resolved to
 *       the smallest index, which is not the lowest rank's), direct ByteBuffers and byte[];</li>
 *   <li>user-defined operations: a non-commutative 2x2 integer matrix product (array form and
 *       ByteBuffer form) with reduce, allReduce, scan and exScan, whose result shows the rank
 *       order; a commutative LONG sum;</li>
 *   <li>allReduce, separate and in place, of 1, 16 and 17 elements of every kind: a slave copies
 *       up to 16 elements one at a time and more in bulk.</li>
 * </ul>
 * Arrays and direct buffers alternate. Usage: {@code ReduceOps} (no arguments).
 */
public final class ReduceOps {

    static final int N = 6;
    static final String[] INTEGER_OPS = {"MAX", "MIN", "SUM", "PROD", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"};
    static final String[] FLOAT_OPS = {"MAX", "MIN", "SUM", "PROD"};
    static final String[] BOOLEAN_OPS = {"LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"};
    static final Kind[] INTEGER_KINDS = {Kind.BYTE, Kind.CHAR, Kind.SHORT, Kind.INT, Kind.LONG};

    private static Intracomm world;
    private static int rank;
    private static int size;
    private static int call;

    private ReduceOps() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();

        for (Kind k : INTEGER_KINDS) {
            for (String op : INTEGER_OPS) {
                integerOp(k, op);
            }
        }
        for (Kind k : new Kind[] {Kind.FLOAT, Kind.DOUBLE}) {
            for (String op : FLOAT_OPS) {
                floatOp(k, op);
            }
        }
        for (String op : BOOLEAN_OPS) {
            booleanOp(op);
        }
        for (Pair p : Pair.values()) {
            pairOps(p);
        }
        userOps();
        countsAroundTheElementCopy();

        world.barrier();
        CollCheck.ok("ReduceOps");
        MPI.Finalize();
    }

    static Op op(String name) {
        return switch (name) {
            case "MAX" -> MPI.MAX;
            case "MIN" -> MPI.MIN;
            case "SUM" -> MPI.SUM;
            case "PROD" -> MPI.PROD;
            case "LAND" -> MPI.LAND;
            case "LOR" -> MPI.LOR;
            case "LXOR" -> MPI.LXOR;
            case "BAND" -> MPI.BAND;
            case "BOR" -> MPI.BOR;
            case "BXOR" -> MPI.BXOR;
            default -> throw new IllegalArgumentException(name);
        };
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    // ------------------------------------------------------------------ counts

    /**
     * allReduce, separate and in place, of 1, 16 and 17 elements of every kind, arrays and direct
     * buffers: up to 16 elements a slave copies its contribution and its result one element at a
     * time, from 17 in bulk (BufferAccess), and both must give the exact fold in rank order.
     */
    static void countsAroundTheElementCopy() throws MPIException {
        for (int n : new int[] {1, 16, 17}) {
            for (Kind k : Kind.values()) {
                for (boolean direct : new boolean[] {false, true}) {
                    if (k == Kind.FLOAT || k == Kind.DOUBLE) {
                        floatCount(k, n, direct);
                    } else {
                        integerCount(k, n, direct);
                    }
                }
            }
        }
    }

    private static void integerCount(Kind k, int n, boolean direct) throws MPIException {
        int t = ++call;
        Buf send = Buf.of(k, n, direct);
        for (int i = 0; i < n; i++) {
            send.set(i, intValue(k, "SUM", t, rank, i));
        }
        Buf recv = Buf.of(k, n, !direct);
        recv.fill(Workload.SENTINEL);
        world.allReduce(send.obj, recv.obj, n, k.type(), MPI.SUM);
        CollCheck.elements(recv, 0, n, i -> intRef(k, "SUM", t, size, i), "allReduce of " + n + " " + k + " SUM");

        Buf both = Buf.of(k, n, direct);
        for (int i = 0; i < n; i++) {
            both.set(i, intValue(k, "MAX", t, rank, i));
        }
        world.allReduce(both.obj, n, k.type(), MPI.MAX);
        CollCheck.elements(both, 0, n, i -> intRef(k, "MAX", t, size, i), "in-place allReduce of " + n + " " + k + " MAX");
    }

    private static void floatCount(Kind k, int n, boolean direct) throws MPIException {
        int t = ++call;
        Object send = newFloats(k, n, direct);
        Object both = newFloats(k, n, !direct);
        for (int i = 0; i < n; i++) {
            putFloat(send, i, floatValue(k, "SUM", t, rank, i));
            putFloat(both, i, floatValue(k, "PROD", t, rank, i));
        }
        Object recv = newFloats(k, n, !direct);
        world.allReduce(send, recv, n, k.type(), MPI.SUM);
        checkFloats(k, recv, n, "SUM", t, size, "allReduce of " + n);
        world.allReduce(both, n, k.type(), MPI.PROD);
        checkFloats(k, both, n, "PROD", t, size, "in-place allReduce of " + n);
    }

    // ------------------------------------------------------------------ integer types

    /** Rank q's element i in call t, for operation op (chosen so the operation is not trivial). */
    static long intValue(Kind k, String op, int t, int q, int i) {
        long h = mix(t * 1_000_003L + q * 7_919L + i);
        long v = switch (op) {
            case "PROD" -> new long[] {-1, 1, 2, 3, -2, 1}[(int) Math.floorMod(h, 6L)];
            case "LAND", "LOR", "LXOR" -> {
                boolean zero = i == 1 || i >= 2 && (q + i + t) % 3 == 0; // element 0 never zero, 1 always
                long nz = ((h & 7) + 1) << ((h >>> 3) & 3); // 1..64, several bits: logical != bitwise
                yield zero ? 0 : ((h >>> 5) & 1) == 0 ? nz : -nz;
            }
            case "BAND" -> ~(1L << (h & 15));
            case "BOR" -> 1L << (h & 15);
            default -> h;
        };
        return k.narrow(v);
    }

    /** a op b for elements of kind k (a from the lower ranks). */
    static long combine(Kind k, String op, long a, long b) {
        return switch (op) {
            case "MAX" -> compare(k, a, b) >= 0 ? a : b;
            case "MIN" -> compare(k, a, b) <= 0 ? a : b;
            case "SUM" -> k.narrow(a + b);
            case "PROD" -> k.narrow(a * b);
            case "LAND" -> a != 0 && b != 0 ? 1 : 0;
            case "LOR" -> a != 0 || b != 0 ? 1 : 0;
            case "LXOR" -> (a != 0) != (b != 0) ? 1 : 0;
            case "BAND" -> k.narrow(a & b);
            case "BOR" -> k.narrow(a | b);
            case "BXOR" -> k.narrow(a ^ b);
            default -> throw new IllegalArgumentException(op);
        };
    }

    /** BYTE is MPI_UINT8_T (docs §A2.4): compared unsigned. CHAR reads back unsigned already. */
    static int compare(Kind k, long a, long b) {
        return k == Kind.BYTE ? Integer.compare((int) a & 0xFF, (int) b & 0xFF) : Long.compare(a, b);
    }

    static long intRef(Kind k, String op, int t, int upTo, int i) {
        long acc = intValue(k, op, t, 0, i);
        for (int q = 1; q < upTo; q++) {
            acc = combine(k, op, acc, intValue(k, op, t, q, i));
        }
        return acc;
    }

    static void integerOp(Kind k, String op) throws MPIException {
        int t = ++call;
        boolean direct = t % 2 == 0;
        String what = k + " " + op + (k == Kind.BYTE && (op.equals("MAX") || op.equals("MIN"))
                ? " (BYTE is MPI_UINT8_T per docs §A2.4: compared unsigned)" : "");

        Buf send = Buf.of(k, N, direct);
        for (int i = 0; i < N; i++) {
            send.set(i, intValue(k, op, t, rank, i));
        }
        Buf recv = Buf.of(k, N, !direct);
        recv.fill(Workload.SENTINEL);
        world.allReduce(send.obj, recv.obj, N, k.type(), op(op));
        CollCheck.elements(recv, 0, N, i -> intRef(k, op, t, size, i), "allReduce " + what);

        int root = t % size;
        Buf x = Buf.of(k, N, direct);
        for (int i = 0; i < N; i++) {
            x.set(i, intValue(k, op, t, rank, i));
        }
        if (t % 3 == 0) {
            world.reduce(x.obj, N, k.type(), op(op), root);
            if (rank == root) {
                CollCheck.elements(x, 0, N, i -> intRef(k, op, t, size, i), "in-place reduce to root " + root + ": " + what);
            }
        } else {
            Buf r = Buf.of(k, N, !direct);
            r.fill(Workload.SENTINEL);
            world.reduce(x.obj, r.obj, N, k.type(), op(op), root);
            if (rank == root) {
                CollCheck.elements(r, 0, N, i -> intRef(k, op, t, size, i), "reduce to root " + root + ": " + what);
            }
        }

        if (op.equals("SUM") || op.equals("MAX") || op.equals("BXOR") || op.equals("LOR")) {
            Buf s = Buf.of(k, N, !direct);
            s.fill(Workload.SENTINEL);
            world.scan(send.obj, s.obj, N, k.type(), op(op));
            CollCheck.elements(s, 0, N, i -> intRef(k, op, t, rank + 1, i), "scan " + what);
        }
    }

    // ------------------------------------------------------------------ floating point

    /** Values whose SUM and PROD depend on the order of combination. */
    static double floatValue(Kind k, String op, int t, int q, int i) {
        double v = switch (op) {
            case "SUM" -> {
                double big = (k == Kind.FLOAT ? 1.0e8 : 1.0e17) * (i + 1);
                yield switch (q % 4) {
                    case 0 -> big;
                    case 1 -> -big + 0.7 * (q + 1);
                    case 2 -> 3.3 * (q + 1) + 0.1 * i;
                    default -> 1.0e-3 * (q + 1);
                };
            }
            case "PROD" -> 1.0 + 0.1 * ((q * 3 + i + t) % 7) + 1.0e-3 * q;
            default -> {
                double m = (Math.floorMod(mix(t * 31L + q * 7_919L + i), 2_000_001L) - 1_000_000) / 7.0;
                yield m == 0 ? 1 : m;
            }
        };
        return k == Kind.FLOAT ? (float) v : v;
    }

    /** The left-to-right fold over ranks 0..upTo-1, in float arithmetic for FLOAT. */
    static double floatRef(Kind k, String op, int t, int upTo, int i) {
        if (k == Kind.FLOAT) {
            float acc = (float) floatValue(k, op, t, 0, i);
            for (int q = 1; q < upTo; q++) {
                float v = (float) floatValue(k, op, t, q, i);
                acc = switch (op) {
                    case "MAX" -> Math.max(acc, v);
                    case "MIN" -> Math.min(acc, v);
                    case "SUM" -> acc + v;
                    case "PROD" -> acc * v;
                    default -> throw new IllegalArgumentException(op);
                };
            }
            return acc;
        }
        double acc = floatValue(k, op, t, 0, i);
        for (int q = 1; q < upTo; q++) {
            double v = floatValue(k, op, t, q, i);
            acc = switch (op) {
                case "MAX" -> Math.max(acc, v);
                case "MIN" -> Math.min(acc, v);
                case "SUM" -> acc + v;
                case "PROD" -> acc * v;
                default -> throw new IllegalArgumentException(op);
            };
        }
        return acc;
    }

    static Object newFloats(Kind k, int n, boolean direct) {
        if (k == Kind.FLOAT) {
            return direct ? MPI.newFloatBuffer(n) : new float[n];
        }
        return direct ? MPI.newDoubleBuffer(n) : new double[n];
    }

    static void putFloat(Object o, int i, double v) {
        if (o instanceof float[] a) {
            a[i] = (float) v;
        } else if (o instanceof double[] a) {
            a[i] = v;
        } else if (o instanceof FloatBuffer fb) {
            fb.put(i, (float) v);
        } else {
            ((DoubleBuffer) o).put(i, v);
        }
    }

    static double getFloat(Object o, int i) {
        if (o instanceof float[] a) {
            return a[i];
        } else if (o instanceof double[] a) {
            return a[i];
        } else if (o instanceof FloatBuffer fb) {
            return fb.get(i);
        }
        return ((DoubleBuffer) o).get(i);
    }

    static void checkFloats(Kind k, Object got, int n, String op, int t, int upTo, String what) {
        for (int i = 0; i < n; i++) {
            double want = floatRef(k, op, t, upTo, i);
            double have = getFloat(got, i);
            boolean same = k == Kind.FLOAT
                    ? Float.floatToIntBits((float) want) == Float.floatToIntBits((float) have)
                    : Double.doubleToLongBits(want) == Double.doubleToLongBits(have);
            if (!same) {
                CollCheck.failed(what + " " + k + " " + op + ": element " + i + " is " + have + ", expected exactly "
                        + want + " (the left-to-right fold in rank order, in " + k + " arithmetic)");
                return;
            }
        }
    }

    static void floatOp(Kind k, String op) throws MPIException {
        int t = ++call;
        boolean direct = t % 2 == 1;
        Datatype type = k.type();
        Object send = newFloats(k, N, direct);
        for (int i = 0; i < N; i++) {
            putFloat(send, i, floatValue(k, op, t, rank, i));
        }
        Object recv = newFloats(k, N, !direct);
        world.allReduce(send, recv, N, type, op(op));
        checkFloats(k, recv, N, op, t, size, "allReduce");

        int root = size - 1 - t % size;
        Object r = newFloats(k, N, direct);
        world.reduce(send, r, N, type, op(op), root);
        if (rank == root) {
            checkFloats(k, r, N, op, t, size, "reduce to root " + root);
        }

        Object s = newFloats(k, N, !direct);
        for (int i = 0; i < N; i++) {
            putFloat(s, i, floatValue(k, op, t, rank, i));
        }
        world.scan(s, N, type, op(op));
        checkFloats(k, s, N, op, t, rank + 1, "in-place scan");

        if (op.equals("SUM")) {
            Object e = newFloats(k, N, direct);
            world.exScan(send, e, N, type, op(op));
            if (rank > 0) {
                checkFloats(k, e, N, op, t, rank, "exScan");
            }
        }
    }

    // ------------------------------------------------------------------ BOOLEAN

    static boolean boolValue(int t, int q, int i) {
        return i == 0 || i != 1 && (q + i + t) % 3 != 0;
    }

    static void booleanOp(String op) throws MPIException {
        int t = ++call;
        boolean[] send = new boolean[N];
        for (int i = 0; i < N; i++) {
            send[i] = boolValue(t, rank, i);
        }
        boolean[] want = new boolean[N];
        for (int i = 0; i < N; i++) {
            boolean acc = boolValue(t, 0, i);
            for (int q = 1; q < size; q++) {
                boolean v = boolValue(t, q, i);
                acc = switch (op) {
                    case "LAND", "BAND" -> acc & v;
                    case "LOR", "BOR" -> acc | v;
                    default -> acc ^ v;
                };
            }
            want[i] = acc;
        }
        boolean[] recv = new boolean[N];
        world.allReduce(send, recv, N, MPI.BOOLEAN, op(op));
        checkBooleans(want, recv, "allReduce BOOLEAN " + op);
        int root = t % size;
        boolean[] r = new boolean[N];
        world.reduce(send, r, N, MPI.BOOLEAN, op(op), root);
        if (rank == root) {
            checkBooleans(want, r, "reduce BOOLEAN " + op + " to root " + root);
        }
    }

    static void checkBooleans(boolean[] want, boolean[] got, String what) {
        for (int i = 0; i < N; i++) {
            if (want[i] != got[i]) {
                CollCheck.failed(what + ": element " + i + " is " + got[i] + ", expected " + want[i]);
                return;
            }
        }
    }

    // ------------------------------------------------------------------ MINLOC / MAXLOC

    /** The five pair types and their accessors (docs §A11). */
    enum Pair {
        INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT;

        Datatype type() {
            return switch (this) {
                case INT2 -> MPI.INT2;
                case SHORT_INT -> MPI.SHORT_INT;
                case LONG_INT -> MPI.LONG_INT;
                case FLOAT_INT -> MPI.FLOAT_INT;
                case DOUBLE_INT -> MPI.DOUBLE_INT;
            };
        }

        void put(ByteBuffer b, int i, long value, int index) throws MPIException {
            switch (this) {
                case INT2 -> {
                    Int2.Data d = MPI.int2.getData(b, i);
                    d.putValue((int) value);
                    d.putIndex(index);
                }
                case SHORT_INT -> {
                    ShortInt.Data d = MPI.shortInt.getData(b, i);
                    d.putValue((short) value);
                    d.putIndex(index);
                }
                case LONG_INT -> {
                    LongInt.Data d = MPI.longInt.getData(b, i);
                    d.putValue(value);
                    d.putIndex(index);
                }
                case FLOAT_INT -> {
                    FloatInt.Data d = MPI.floatInt.getData(b, i);
                    d.putValue((float) value);
                    d.putIndex(index);
                }
                case DOUBLE_INT -> {
                    DoubleInt.Data d = MPI.doubleInt.getData(b, i);
                    d.putValue((double) value);
                    d.putIndex(index);
                }
            }
        }

        void put(byte[] b, int i, long value, int index) throws MPIException {
            switch (this) {
                case INT2 -> {
                    Int2.Data d = MPI.int2.getData(b, i);
                    d.putValue((int) value);
                    d.putIndex(index);
                }
                case SHORT_INT -> {
                    ShortInt.Data d = MPI.shortInt.getData(b, i);
                    d.putValue((short) value);
                    d.putIndex(index);
                }
                case LONG_INT -> {
                    LongInt.Data d = MPI.longInt.getData(b, i);
                    d.putValue(value);
                    d.putIndex(index);
                }
                case FLOAT_INT -> {
                    FloatInt.Data d = MPI.floatInt.getData(b, i);
                    d.putValue((float) value);
                    d.putIndex(index);
                }
                case DOUBLE_INT -> {
                    DoubleInt.Data d = MPI.doubleInt.getData(b, i);
                    d.putValue((double) value);
                    d.putIndex(index);
                }
            }
        }

        /** {value, index} of pair i. */
        long[] get(ByteBuffer b, int i) throws MPIException {
            return switch (this) {
                case INT2 -> {
                    Int2.Data d = MPI.int2.getData(b, i);
                    yield new long[] {d.getValue(), d.getIndex()};
                }
                case SHORT_INT -> {
                    ShortInt.Data d = MPI.shortInt.getData(b, i);
                    yield new long[] {d.getValue(), d.getIndex()};
                }
                case LONG_INT -> {
                    LongInt.Data d = MPI.longInt.getData(b, i);
                    yield new long[] {d.getValue(), d.getIndex()};
                }
                case FLOAT_INT -> {
                    FloatInt.Data d = MPI.floatInt.getData(b, i);
                    yield new long[] {(long) d.getValue(), d.getIndex()};
                }
                case DOUBLE_INT -> {
                    DoubleInt.Data d = MPI.doubleInt.getData(b, i);
                    yield new long[] {(long) d.getValue(), d.getIndex()};
                }
            };
        }

        long[] get(byte[] b, int i) throws MPIException {
            return switch (this) {
                case INT2 -> {
                    Int2.Data d = MPI.int2.getData(b, i);
                    yield new long[] {d.getValue(), d.getIndex()};
                }
                case SHORT_INT -> {
                    ShortInt.Data d = MPI.shortInt.getData(b, i);
                    yield new long[] {d.getValue(), d.getIndex()};
                }
                case LONG_INT -> {
                    LongInt.Data d = MPI.longInt.getData(b, i);
                    yield new long[] {d.getValue(), d.getIndex()};
                }
                case FLOAT_INT -> {
                    FloatInt.Data d = MPI.floatInt.getData(b, i);
                    yield new long[] {(long) d.getValue(), d.getIndex()};
                }
                case DOUBLE_INT -> {
                    DoubleInt.Data d = MPI.doubleInt.getData(b, i);
                    yield new long[] {(long) d.getValue(), d.getIndex()};
                }
            };
        }
    }

    static final int PAIRS = 5;

    /** Small values with many ties; LONG_INT gets values beyond the int range. */
    static long pairValue(Pair p, int t, int q, int i) {
        long v = (q * 5 + i * 3 + t) % 4 - 1;
        return p == Pair.LONG_INT ? v * 10_000_000_000L : v;
    }

    /** Indices fall with the rank, so a tie goes to the highest rank among the tied. */
    static int pairIndex(int q, int i) {
        return (size - q) * 7 + i;
    }

    static long[] pairRef(Pair p, boolean min, int t, int i) {
        long bestV = pairValue(p, t, 0, i);
        int bestI = pairIndex(0, i);
        for (int q = 1; q < size; q++) {
            long v = pairValue(p, t, q, i);
            int idx = pairIndex(q, i);
            if (min ? v < bestV : v > bestV) {
                bestV = v;
                bestI = idx;
            } else if (v == bestV) {
                bestI = Math.min(bestI, idx);
            }
        }
        return new long[] {bestV, bestI};
    }

    static void checkPair(Pair p, boolean min, int t, long[] got, int i, String what) {
        long[] want = pairRef(p, min, t, i);
        if (got[0] != want[0] || got[1] != want[1]) {
            CollCheck.failed(what + " " + p + " " + (min ? "MINLOC" : "MAXLOC") + ": pair " + i + " is (" + got[0]
                    + ", " + got[1] + "), expected (" + want[0] + ", " + want[1] + ") (ties go to the smallest index)");
        }
    }

    static void pairOps(Pair p) throws MPIException {
        int ext = p.type().getExtent();
        CollCheck.that(ext > 0, p + ".getExtent() = " + ext);

        int t = ++call;
        ByteBuffer in = MPI.newByteBuffer(ext * PAIRS);
        for (int i = 0; i < PAIRS; i++) {
            p.put(in, i, pairValue(p, t, rank, i), pairIndex(rank, i));
        }
        ByteBuffer out = MPI.newByteBuffer(ext * PAIRS);
        world.allReduce(in, out, PAIRS, p.type(), MPI.MINLOC);
        for (int i = 0; i < PAIRS; i++) {
            checkPair(p, true, t, p.get(out, i), i, "allReduce");
        }

        int root = size - 1 - t % size;
        ByteBuffer r = MPI.newByteBuffer(ext * PAIRS);
        world.reduce(in, r, PAIRS, p.type(), MPI.MAXLOC, root);
        if (rank == root) {
            for (int i = 0; i < PAIRS; i++) {
                checkPair(p, false, t, p.get(r, i), i, "reduce to root " + root);
            }
        }

        // byte[] and in place.
        int t2 = ++call;
        byte[] a = new byte[ext * PAIRS];
        for (int i = 0; i < PAIRS; i++) {
            p.put(a, i, pairValue(p, t2, rank, i), pairIndex(rank, i));
        }
        world.allReduce(a, PAIRS, p.type(), MPI.MAXLOC);
        for (int i = 0; i < PAIRS; i++) {
            checkPair(p, false, t2, p.get(a, i), i, "in-place allReduce of a byte[]");
        }
    }

    // ------------------------------------------------------------------ user-defined operations

    static final int MATRICES = 3;

    /** Rank q's m-th 2x2 matrix, row-major; these do not commute. */
    static int[] matrix(int t, int q, int m) {
        return new int[] {q + 1 + m, 2 - m + t % 2, q % 3 - 1, q + 2 + m};
    }

    static void mul(int[] a, int ao, int[] b, int bo, int[] out, int oo) {
        int e = a[ao] * b[bo] + a[ao + 1] * b[bo + 2];
        int f = a[ao] * b[bo + 1] + a[ao + 1] * b[bo + 3];
        int g = a[ao + 2] * b[bo] + a[ao + 3] * b[bo + 2];
        int h = a[ao + 2] * b[bo + 1] + a[ao + 3] * b[bo + 3];
        out[oo] = e;
        out[oo + 1] = f;
        out[oo + 2] = g;
        out[oo + 3] = h;
    }

    /** inOut = in x inOut, matrix by matrix (in holds the lower ranks' product). */
    static final class MatMul extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
            int[] in = (int[]) inVec;
            int[] io = (int[]) inOutVec;
            if (count % 4 != 0) {
                throw new AssertionError("MatMul called with count " + count + ", not whole matrices");
            }
            for (int m = 0; m < count; m += 4) {
                mul(in, m, io, m, io, m);
            }
        }
    }

    /** The same product, written against the ByteBuffer form of UserFunction. */
    static final class MatMulBuffers extends UserFunction {
        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) {
            IntBuffer a = in.order(ByteOrder.nativeOrder()).asIntBuffer();
            IntBuffer b = inOut.order(ByteOrder.nativeOrder()).asIntBuffer();
            int[] x = new int[4];
            int[] y = new int[4];
            for (int m = 0; m < count; m += 4) {
                for (int j = 0; j < 4; j++) {
                    x[j] = a.get(m + j);
                    y[j] = b.get(m + j);
                }
                mul(x, 0, y, 0, y, 0);
                for (int j = 0; j < 4; j++) {
                    b.put(m + j, y[j]);
                }
            }
        }
    }

    static final class LongSum extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
            long[] in = (long[]) inVec;
            long[] io = (long[]) inOutVec;
            for (int i = 0; i < count; i++) {
                io[i] += in[i];
            }
        }
    }

    static int[] myMatrices(int t, int q) {
        int[] v = new int[4 * MATRICES];
        for (int m = 0; m < MATRICES; m++) {
            System.arraycopy(matrix(t, q, m), 0, v, 4 * m, 4);
        }
        return v;
    }

    /** M(0) x M(1) x ... x M(upTo-1), for each of the MATRICES positions. */
    static int[] product(int t, int upTo) {
        int[] acc = myMatrices(t, 0);
        for (int q = 1; q < upTo; q++) {
            int[] next = myMatrices(t, q);
            for (int m = 0; m < 4 * MATRICES; m += 4) {
                mul(acc, m, next, m, acc, m);
            }
        }
        return acc;
    }

    static void checkMatrices(int[] got, int t, int upTo, String what) {
        int[] want = product(t, upTo);
        for (int i = 0; i < want.length; i++) {
            if (got[i] != want[i]) {
                CollCheck.failed(what + " with the non-commutative matrix product: element " + i + " is " + got[i]
                        + ", expected " + want[i] + " = M(0) x ... x M(" + (upTo - 1) + ") in rank order; got "
                        + java.util.Arrays.toString(got) + ", expected " + java.util.Arrays.toString(want));
                return;
            }
        }
    }

    static int[] toArray(IntBuffer b, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = b.get(i);
        }
        return a;
    }

    static void userOps() throws MPIException {
        int n = 4 * MATRICES;
        Op matmul = new Op(new MatMul(), false);
        CollCheck.that(!matmul.isCommutative(), "new Op(f, false).isCommutative() is true");

        int t = ++call;
        int[] mine = myMatrices(t, rank);
        int root = size / 2;
        int[] r = new int[n];
        world.reduce(mine, r, n, MPI.INT, matmul, root);
        if (rank == root) {
            checkMatrices(r, t, size, "reduce to root " + root);
        }
        if (!java.util.Arrays.equals(mine, myMatrices(t, rank))) {
            CollCheck.failed("reduce with a user op changed the send buffer");
        }

        IntBuffer send = MPI.newIntBuffer(n);
        send.put(mine);
        IntBuffer recv = MPI.newIntBuffer(n);
        world.allReduce(send, recv, n, MPI.INT, matmul);
        checkMatrices(toArray(recv, n), t, size, "allReduce (direct buffers)");

        int[] s = new int[n];
        world.scan(mine, s, n, MPI.INT, matmul);
        checkMatrices(s, t, rank + 1, "scan");

        int[] e = new int[n];
        world.exScan(mine, e, n, MPI.INT, matmul);
        if (rank > 0) {
            checkMatrices(e, t, rank, "exScan");
        }

        int[] inPlace = myMatrices(t, rank);
        world.allReduce(inPlace, n, MPI.INT, matmul);
        checkMatrices(inPlace, t, size, "in-place allReduce");
        IntBuffer started = MPI.newIntBuffer(n);
        Request pending = world.iAllReduce(send, started, n, MPI.INT, matmul);
        matmul.free(); // MPI_Op_free: a reduction started before still completes with the operator
        CollCheck.that(matmul.isNull(), "a freed Op is not null");
        pending.waitFor();
        checkMatrices(toArray(started, n), t, size, "iAllReduce started before its Op was freed");

        Op matmulBuffers = new Op(new MatMulBuffers(), false);
        int t2 = ++call;
        int[] r2 = new int[n];
        world.allReduce(myMatrices(t2, rank), r2, n, MPI.INT, matmulBuffers);
        checkMatrices(r2, t2, size, "allReduce (UserFunction overriding the ByteBuffer form)");
        matmulBuffers.free();

        Op sum = new Op(new LongSum(), true);
        CollCheck.that(sum.isCommutative(), "new Op(f, true).isCommutative() is false");
        LongBuffer ls = MPI.newLongBuffer(N);
        long[] want = new long[N];
        for (int i = 0; i < N; i++) {
            ls.put(i, mix(rank * 131L + i));
            for (int q = 0; q < size; q++) {
                want[i] += mix(q * 131L + i);
            }
        }
        long[] got = new long[N];
        world.allReduce(ls, got, N, MPI.LONG, sum);
        for (int i = 0; i < N; i++) {
            CollCheck.dataEqual(want[i], got[i], "allReduce with a commutative user op (LONG sum), element " + i);
        }
        sum.free();
    }
}
