package io.bdmpi.tests.programs.rma;

import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.Win;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Random one-sided traffic that every rank can check: a plan drawn from a seed all ranks share,
 * over five windows of {@code N} elements per rank (the double one larger: its big operations on
 * another node go in several pieces), with different flavors and displacement units:
 * <ol>
 *   <li>over a plain {@code IntBuffer}, unit 1 int;</li>
 *   <li>over a plain {@code DoubleBuffer}, unit 2 doubles;</li>
 *   <li>over a plain {@code ByteBuffer} holding ints, unit 4 bytes;</li>
 *   <li>allocated ({@code FLAVOR_PRIVATE}) ints, unit 2 ints, read by its owner through {@code sharedQuery};</li>
 *   <li>dynamic, one attached {@code IntBuffer}, displacements in bytes.</li>
 * </ol>
 * Each round is one of:
 * <ul>
 *   <li>fence: random put, get, accumulate (SUM, MAX, MIN, REPLACE), getAccumulate and NO_OP reads,
 *       0 to a few thousand elements, contiguous or through vector and indexed datatypes on the
 *       origin or the target side; the plan never lets two conflicting accesses meet one location
 *       (accumulates with one operator may), so the result after the closing fence is determined;</li>
 *   <li>passive target: tickets from a counter on one rank with fetchAndOp, getAccumulate and
 *       compareAndSwap loops under exclusive and shared locks and lockAll, and with a plain get and
 *       put under an exclusive lock (each ticket exactly once), and per rank a put, flush, get of
 *       its own slice of a random target and a SUM into a common element;</li>
 *   <li>post/start/complete/wait with random access groups, operations as in a fence round;</li>
 *   <li>request-based: rPut, rGet, rAccumulate, rGetAccumulate under lockAll or per-target shared
 *       locks, completed by wait, flushes in between.</li>
 * </ul>
 * Before fence and request-based rounds every rank also stores into its own parts (published by
 * the opening fence, or by sync). Most rounds have one operation of more than 1 MiB on the double
 * window, which the masters carry to another node in pieces.
 * After each round every rank compares its part of every window with the model, and every get
 * result with the model before the round. The first mismatch throws with the round, window,
 * rank, element and the operation that wrote it.
 *
 * <p>Usage: {@code WinTraffic [rounds [opsPerRound [seed]]]}.
 */
public final class WinTraffic {

    private static final int N = 3000;
    /** Elements per rank of each window: the double window holds more than 1 MiB. */
    private static final int[] LEN = {N, 200_000, N, N, N};
    private static final int WINDOWS = 5;
    /** The displacement unit of each window in elements, except the dynamic one (4: bytes). */
    private static final int[] UNIT = {1, 2, 1, 2, 1};
    private static final String[] NAME = {"create-int", "create-double/2", "create-bytes/4", "allocate-int/2", "dynamic-int"};

    private enum Kind { PUT, GET, ACC, GET_ACC, NO_OP }

    /** One planned operation; {@code at} are the target elements, relative to {@code start}, in data order. */
    private static final class Planned {
        int index;
        int origin;
        int win;
        int target;
        Kind kind;
        Op op;
        String opName;
        int start;
        int[] at;
        int shape; // 0 contiguous, 1 target vector, 2 target indexed, 3 origin vector
        int vCount;
        int vBlock;
        int vStride;
        int[] iLengths;
        int[] iDispls;
        long[] values;
        long[] expectedBefore; // for GET, GET_ACC, NO_OP: the model at the locations before the round
        Buffer result;
        int[] shapeOrigin; // where element j of the data is in the origin buffer
        int[] resultAt; // where element j of the fetched data is in the result buffer
        boolean contiguousResult; // a getAccumulate's result contiguous, whatever the origin's layout

        @Override
        public String toString() {
            return "op " + index + " (" + kind + (op != null ? " " + opName : "") + " by rank " + origin + " into "
                    + NAME[win] + " of rank " + target + ", element " + start + ", " + at.length + " elements, shape "
                    + shape + ")";
        }
    }

    private final Intracomm world = MPI.COMM_WORLD;
    private final int me;
    private final int size;
    private final Random plan;
    private final long[][][] model; // [window][rank][element]
    private final Win[] wins = new Win[WINDOWS];
    private final IntBuffer mem0 = MPI.newIntBuffer(N);
    private final DoubleBuffer mem1 = MPI.newDoubleBuffer(LEN[1]);
    private final ByteBuffer mem2 = MPI.newByteBuffer(4 * N).order(ByteOrder.nativeOrder());
    private final IntBuffer mem4 = MPI.newIntBuffer(N);
    private IntBuffer view3;
    private final List<Datatype> types = new ArrayList<>();
    private int round;

    private WinTraffic(long seed) throws MPIException {
        me = world.getRank();
        size = world.getSize();
        plan = new Random(seed);
        model = new long[WINDOWS][size][];
        for (int w = 0; w < WINDOWS; w++) {
            for (int r = 0; r < size; r++) {
                model[w][r] = new long[LEN[w]];
                for (int i = 0; i < LEN[w]; i++) {
                    model[w][r][i] = initial(w, r, i);
                }
            }
        }
        for (int i = 0; i < N; i++) {
            mem0.put(i, (int) initial(0, me, i));
            mem2.putInt(4 * i, (int) initial(2, me, i));
            mem4.put(i, (int) initial(4, me, i));
        }
        for (int i = 0; i < LEN[1]; i++) {
            mem1.put(i, initial(1, me, i));
        }
        wins[0] = new Win(mem0, N, 1, MPI.INFO_NULL, world);
        wins[1] = new Win(mem1, LEN[1], 2, MPI.INFO_NULL, world);
        wins[2] = new Win(mem2, 4 * N, 4, MPI.INFO_NULL, world);
        wins[3] = new Win(N, 2, MPI.INFO_NULL, world, MPI.newIntBuffer(0), Win.FLAVOR_PRIVATE);
        view3 = wins[3].sharedQuery(me).order(ByteOrder.nativeOrder()).asIntBuffer();
        for (int i = 0; i < N; i++) {
            view3.put(i, (int) initial(3, me, i));
        }
        wins[4] = new Win(MPI.INFO_NULL, world);
        wins[4].attach(mem4, N);
        world.barrier();
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int ops = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        WinTraffic t = new WinTraffic(seed);
        t.checkAll("initial");
        for (t.round = 0; t.round < rounds; t.round++) {
            int kind = t.round < 4 ? t.round : t.plan.nextInt(4);
            switch (kind) {
                case 0 -> t.fenceRound(ops);
                case 1 -> t.passiveRound();
                case 2 -> t.pscwRound(ops);
                default -> t.requestRound(ops);
            }
        }
        for (Win w : t.wins) {
            w.free();
        }
        System.out.println("WinTraffic rank " + t.me + " OK");
        MPI.Finalize();
    }

    private static long initial(int w, int r, int i) {
        return (w * 7919L + r * 104729L + i * 31L) % 2001 - 1000;
    }

    // ---------------------------------------------------------------- planning

    /**
     * What the plan has done to each location this round: 0 nothing, 1 read (get, NO_OP), 2 written
     * exclusively (put, REPLACE, getAccumulate), 3+k accumulated with operator k.
     */
    private int[][][] claims() {
        int[][][] c = new int[WINDOWS][size][];
        for (int w = 0; w < WINDOWS; w++) {
            for (int r = 0; r < size; r++) {
                c[w][r] = new int[LEN[w]];
            }
        }
        return c;
    }

    private static final Op[] ACC_OPS = {MPI.SUM, MPI.MAX, MPI.MIN};
    private static final String[] ACC_NAMES = {"SUM", "MAX", "MIN"};

    /** Draws up to {@code ops} operations that do not conflict; origin and target as {@code allowed} lets. */
    private List<Planned> draw(int ops, int[][][] claim, boolean[][] allowed) throws MPIException {
        List<Planned> out = new ArrayList<>();
        boolean big = plan.nextInt(3) != 0; // first, most rounds, one operation of more than 1 MiB
        for (int i = 0; i < ops; i++) {
            for (int attempt = 0; attempt < 6; attempt++) {
                Planned p = drawOne(allowed, big && i == 0);
                p.index = i;
                if (claimAll(p, claim)) {
                    out.add(p);
                    break;
                }
            }
        }
        return out;
    }

    private Planned drawOne(boolean[][] allowed, boolean big) {
        Planned p = new Planned();
        p.origin = plan.nextInt(size);
        p.target = plan.nextInt(size);
        if (allowed != null) {
            int tries = 0;
            while (!allowed[p.origin][p.target] && tries++ < 50) {
                p.origin = plan.nextInt(size);
                p.target = plan.nextInt(size);
            }
        }
        p.win = big ? 1 : plan.nextInt(WINDOWS);
        int k = plan.nextInt(10);
        p.kind = k < 3 ? Kind.PUT : k < 5 ? Kind.GET : k < 8 ? Kind.ACC : k < 9 ? Kind.GET_ACC : Kind.NO_OP;
        if (p.kind == Kind.ACC || p.kind == Kind.GET_ACC) {
            int o = plan.nextInt(p.kind == Kind.ACC ? 4 : 3);
            p.op = o == 3 ? MPI.REPLACE : ACC_OPS[o];
            p.opName = o == 3 ? "REPLACE" : ACC_NAMES[o];
        } else if (p.kind == Kind.NO_OP) {
            p.op = MPI.NO_OP;
            p.opName = "NO_OP";
        }
        int r = plan.nextInt(20);
        int elems = big || r == 1 && p.win == 1 ? 135_000 + plan.nextInt(15_000)
                : r == 0 ? 0 : r < 3 ? 500 + plan.nextInt(2500) : r < 8 ? 1 + plan.nextInt(200) : 1 + plan.nextInt(12);
        p.shape = p.kind == Kind.NO_OP && plan.nextBoolean() ? 0 : plan.nextInt(4);
        p.contiguousResult = plan.nextBoolean();
        if (elems == 0) {
            p.shape = 0;
        }
        if (big) {
            p.shape = plan.nextInt(2); // contiguous, or blocks of 4 in 5: more than 1 MiB either way
        }
        if (p.shape == 1 || p.shape == 3) {
            p.vBlock = big ? 4 : 1 + plan.nextInt(4);
            p.vStride = big ? 5 : p.vBlock + plan.nextInt(4);
            p.vCount = Math.max(1, elems / p.vBlock);
            int span = (p.vCount - 1) * p.vStride + p.vBlock;
            while (span > LEN[p.win] - UNIT[p.win]) {
                p.vCount = Math.max(1, p.vCount / 2);
                span = (p.vCount - 1) * p.vStride + p.vBlock;
            }
            if (p.shape == 1) {
                p.at = new int[p.vCount * p.vBlock];
                for (int c = 0, n = 0; c < p.vCount; c++) {
                    for (int b = 0; b < p.vBlock; b++) {
                        p.at[n++] = c * p.vStride + b;
                    }
                }
            } else {
                p.at = seq(p.vCount * p.vBlock);
            }
        } else if (p.shape == 2) {
            int blocks = 1 + plan.nextInt(Math.min(8, Math.max(1, elems)));
            p.iLengths = new int[blocks];
            p.iDispls = new int[blocks];
            int pos = 0;
            List<Integer> at = new ArrayList<>();
            for (int b = 0; b < blocks; b++) {
                p.iLengths[b] = 1 + plan.nextInt(Math.max(1, elems / blocks));
                pos += plan.nextInt(5);
                p.iDispls[b] = pos;
                pos += p.iLengths[b];
            }
            if (pos > LEN[p.win] - UNIT[p.win]) {
                p.shape = 0;
                p.at = seq(Math.min(elems, LEN[p.win] - UNIT[p.win]));
            } else {
                // blocks in an order other than the memory's, once in a while
                if (blocks > 1 && plan.nextInt(3) == 0) {
                    int a = plan.nextInt(blocks);
                    int b = plan.nextInt(blocks);
                    int l = p.iLengths[a];
                    int d = p.iDispls[a];
                    p.iLengths[a] = p.iLengths[b];
                    p.iDispls[a] = p.iDispls[b];
                    p.iLengths[b] = l;
                    p.iDispls[b] = d;
                }
                for (int b = 0; b < blocks; b++) {
                    for (int j = 0; j < p.iLengths[b]; j++) {
                        at.add(p.iDispls[b] + j);
                    }
                }
                p.at = at.stream().mapToInt(Integer::intValue).toArray();
            }
        } else {
            p.at = seq(Math.min(elems, LEN[p.win]));
        }
        int span = 0;
        for (int a : p.at) {
            span = Math.max(span, a + 1);
        }
        int unit = UNIT[p.win];
        int slots = (LEN[p.win] - span) / unit;
        p.start = plan.nextInt(slots + 1) * unit;
        p.values = new long[p.at.length];
        for (int j = 0; j < p.values.length; j++) {
            p.values[j] = plan.nextInt(2001) - 1000;
        }
        return p;
    }

    private static int[] seq(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    private static boolean claimAll(Planned p, int[][][] claim) {
        int[] c = claim[p.win][p.target];
        int want = p.kind == Kind.GET || p.kind == Kind.NO_OP ? 1
                : p.kind == Kind.PUT || p.kind == Kind.GET_ACC || p.op == MPI.REPLACE ? 2 : 3 + opIndex(p.op);
        for (int a : p.at) {
            int have = c[p.start + a];
            boolean ok = have == 0 || (want == 1 && have == 1) || (want >= 3 && have == want);
            if (!ok) {
                return false;
            }
        }
        for (int a : p.at) {
            c[p.start + a] = want;
        }
        return true;
    }

    private static int opIndex(Op op) {
        for (int i = 0; i < ACC_OPS.length; i++) {
            if (ACC_OPS[i] == op) {
                return i;
            }
        }
        throw new IllegalStateException();
    }

    // ---------------------------------------------------------------- executing

    /** Issues one operation (or its request-based form, returning the request). */
    private Request issue(Planned p, boolean requests) throws MPIException {
        boolean dbl = p.win == 1;
        Datatype base = dbl ? MPI.DOUBLE : MPI.INT;
        int n = p.at.length;
        Datatype originType = base;
        int originCount = n;
        int originLength = n;
        int[] originAt = seq(n);
        Datatype targetType = base;
        int targetCount = n;
        if (p.shape == 1) {
            targetType = commit(Datatype.createVector(p.vCount, p.vBlock, p.vStride, base));
            targetCount = 1;
        } else if (p.shape == 2) {
            targetType = commit(Datatype.createIndexed(p.iLengths, p.iDispls, base));
            targetCount = 1;
        } else if (p.shape == 3) {
            originType = commit(Datatype.createVector(p.vCount, p.vBlock, p.vStride, base));
            originCount = 1;
            originLength = (p.vCount - 1) * p.vStride + p.vBlock;
            for (int c = 0, k = 0; c < p.vCount; c++) {
                for (int b = 0; b < p.vBlock; b++) {
                    originAt[k++] = c * p.vStride + b;
                }
            }
        }
        Buffer origin = dbl ? MPI.newDoubleBuffer(originLength) : MPI.newIntBuffer(originLength);
        for (int j = 0; j < n; j++) {
            set(origin, originAt[j], p.values[j]);
        }
        int disp = p.win == 4 ? 4 * p.start : p.start / UNIT[p.win];
        Win w = wins[p.win];
        Request req = null;
        switch (p.kind) {
            case PUT -> {
                if (requests) {
                    req = w.rPut(origin, originCount, originType, p.target, disp, targetCount, targetType);
                } else {
                    w.put(origin, originCount, originType, p.target, disp, targetCount, targetType);
                }
            }
            case GET -> {
                fillMarker(origin, originLength);
                p.result = origin;
                if (requests) {
                    req = w.rGet(origin, originCount, originType, p.target, disp, targetCount, targetType);
                } else {
                    w.get(origin, originCount, originType, p.target, disp, targetCount, targetType);
                }
            }
            case ACC -> {
                if (requests) {
                    req = w.rAccumulate(origin, originCount, originType, p.target, disp, targetCount, targetType, p.op);
                } else {
                    w.accumulate(origin, originCount, originType, p.target, disp, targetCount, targetType, p.op);
                }
            }
            case GET_ACC, NO_OP -> {
                // The result in the origin's layout, or contiguous.
                boolean contiguous = p.contiguousResult;
                int resultLength = contiguous ? n : originLength;
                Datatype resultType = contiguous ? base : originType;
                int resultCount = contiguous ? n : originCount;
                Buffer result = dbl ? MPI.newDoubleBuffer(resultLength) : MPI.newIntBuffer(resultLength);
                fillMarker(result, resultLength);
                p.result = result;
                p.resultAt = contiguous ? seq(n) : originAt;
                Buffer from = p.kind == Kind.NO_OP ? null : origin;
                int fromCount = p.kind == Kind.NO_OP ? 0 : originCount;
                if (requests) {
                    req = w.rGetAccumulate(from, fromCount, originType, result, resultCount, resultType, p.target, disp,
                            targetCount, targetType, p.op);
                } else {
                    w.getAccumulate(from, fromCount, originType, result, resultCount, resultType, p.target, disp,
                            targetCount, targetType, p.op);
                }
            }
            default -> throw new IllegalStateException();
        }
        p.shapeOrigin = originAt;
        return req;
    }

    private Datatype commit(Datatype t) throws MPIException {
        t.commit();
        types.add(t);
        return t;
    }

    private void freeTypes() throws MPIException {
        for (Datatype t : types) {
            t.free();
        }
        types.clear();
    }

    private static void set(Buffer b, int i, long v) {
        if (b instanceof DoubleBuffer d) {
            d.put(i, v);
        } else {
            ((IntBuffer) b).put(i, (int) v);
        }
    }

    private static long get(Buffer b, int i) {
        if (b instanceof DoubleBuffer d) {
            double v = d.get(i);
            if (v != Math.rint(v)) {
                return Long.MIN_VALUE; // never a planned value
            }
            return (long) v;
        }
        return ((IntBuffer) b).get(i);
    }

    private static void fillMarker(Buffer b, int n) {
        for (int i = 0; i < n; i++) {
            set(b, i, -777777);
        }
    }

    /** Records what gets must return and applies the writes to the model, in plan order. */
    private void applyToModel(List<Planned> ops) {
        for (Planned p : ops) {
            long[] m = model[p.win][p.target];
            if (p.kind == Kind.GET || p.kind == Kind.NO_OP || p.kind == Kind.GET_ACC) {
                p.expectedBefore = new long[p.at.length];
                for (int j = 0; j < p.at.length; j++) {
                    p.expectedBefore[j] = m[p.start + p.at[j]];
                }
            }
        }
        for (Planned p : ops) {
            long[] m = model[p.win][p.target];
            for (int j = 0; j < p.at.length; j++) {
                int i = p.start + p.at[j];
                long v = p.values[j];
                switch (p.kind) {
                    case PUT -> m[i] = v;
                    case ACC, GET_ACC -> m[i] = p.op == MPI.SUM ? m[i] + v : p.op == MPI.MAX ? Math.max(m[i], v)
                            : p.op == MPI.MIN ? Math.min(m[i], v) : v;
                    default -> {
                    }
                }
            }
        }
    }

    private void checkResults(List<Planned> ops, String when) {
        for (Planned p : ops) {
            if (p.origin != me || p.result == null) {
                continue;
            }
            for (int j = 0; j < p.at.length; j++) {
                long got = get(p.result, p.resultAt != null ? p.resultAt[j] : p.shapeOrigin[j]);
                if (got != p.expectedBefore[j]) {
                    throw new AssertionError("rank " + me + ": round " + round + " (" + when + "): " + p + ": element "
                            + j + " (target element " + (p.start + p.at[j]) + ") returned " + got + ", expected "
                            + p.expectedBefore[j]);
                }
            }
        }
    }

    /** Compares this rank's part of every window with the model. */
    private void checkAll(String when) {
        for (int w = 0; w < WINDOWS; w++) {
            long[] m = model[w][me];
            for (int i = 0; i < LEN[w]; i++) {
                long got = switch (w) {
                    case 0 -> mem0.get(i);
                    case 1 -> get(mem1, i);
                    case 2 -> mem2.getInt(4 * i);
                    case 3 -> view3.get(i);
                    default -> mem4.get(i);
                };
                if (got != m[i]) {
                    throw new AssertionError("rank " + me + ": round " + round + " (" + when + "): window " + NAME[w]
                            + ", element " + i + " is " + got + ", expected " + m[i] + lastWriter(w, i));
                }
            }
        }
    }

    private List<Planned> lastOps = List.of();

    private String lastWriter(int w, int i) {
        StringBuilder s = new StringBuilder();
        for (Planned p : lastOps) {
            if (p.win == w && p.target == me) {
                for (int a : p.at) {
                    if (p.start + a == i) {
                        s.append("; touched by ").append(p);
                    }
                }
            }
        }
        return s.toString();
    }

    // ---------------------------------------------------------------- rounds

    /**
     * Every rank stores into its own part with loads and stores (the private copy of a window over a
     * plain buffer): a few random runs of each window, which the next synchronization publishes.
     */
    private void localStores() {
        for (int r = 0; r < size; r++) {
            for (int w = 0; w < WINDOWS; w++) {
                int runs = plan.nextInt(3);
                for (int k = 0; k < runs; k++) {
                    int length = 1 + plan.nextInt(50);
                    int from = plan.nextInt(LEN[w] - length);
                    long value = plan.nextInt(2001) - 1000;
                    for (int i = from; i < from + length; i++) {
                        model[w][r][i] = value + i - from;
                        if (r == me) {
                            store(w, i, value + i - from);
                        }
                    }
                }
            }
        }
    }

    private void store(int w, int i, long v) {
        switch (w) {
            case 0 -> mem0.put(i, (int) v);
            case 1 -> mem1.put(i, v);
            case 2 -> mem2.putInt(4 * i, (int) v);
            case 3 -> view3.put(i, (int) v);
            default -> mem4.put(i, (int) v);
        }
    }

    private void fenceRound(int ops) throws MPIException {
        localStores();
        List<Planned> planned = draw(ops, claims(), null);
        lastOps = planned;
        int assertion = plan.nextBoolean() ? MPI.MODE_NOPRECEDE : 0;
        for (Win w : wins) {
            w.fence(assertion);
        }
        for (Planned p : planned) {
            if (p.origin == me) {
                issue(p, false);
            }
        }
        for (Win w : wins) {
            w.fence(MPI.MODE_NOSUCCEED);
        }
        applyToModel(planned);
        checkResults(planned, "fence");
        checkAll("fence");
        world.barrier(); // no rank's next round touches this part before it is checked
        freeTypes();
    }

    private void requestRound(int ops) throws MPIException {
        localStores();
        for (Win w : wins) {
            w.sync(); // publishes the stores
        }
        world.barrier();
        List<Planned> planned = draw(ops, claims(), null);
        lastOps = planned;
        boolean all = plan.nextBoolean();
        if (all) {
            for (Win w : wins) {
                w.lockAll(0);
            }
        } else {
            for (Win w : wins) {
                for (int t = 0; t < size; t++) {
                    w.lock(MPI.LOCK_SHARED, t, 0);
                }
            }
        }
        List<Request> pending = new ArrayList<>();
        int k = 0;
        for (Planned p : planned) {
            if (p.origin == me) {
                Request r = issue(p, true);
                if (k++ % 3 == 0) {
                    r.waitFor();
                } else {
                    pending.add(r);
                }
                if (k % 7 == 0) {
                    wins[p.win].flush(p.target);
                } else if (k % 11 == 0) {
                    wins[p.win].flushAll();
                } else if (k % 13 == 0) {
                    wins[p.win].flushLocalAll();
                }
            }
        }
        Request.waitAll(pending.toArray(new Request[0]));
        for (Win w : wins) {
            if (all) {
                w.unlockAll();
            } else {
                for (int t = 0; t < size; t++) {
                    w.unlock(t);
                }
            }
        }
        world.barrier();
        for (Win w : wins) {
            w.sync();
        }
        applyToModel(planned);
        checkResults(planned, "requests");
        checkAll("requests");
        world.barrier();
        freeTypes();
    }

    private void pscwRound(int ops) throws MPIException {
        boolean[][] allowed = new boolean[size][size];
        for (int o = 0; o < size; o++) {
            for (int t = 0; t < size; t++) {
                allowed[o][t] = plan.nextInt(3) != 0;
            }
        }
        List<Planned> planned = draw(ops, claims(), allowed);
        // The groups: the targets each origin accesses (some allowed pairs without operations too).
        boolean[][] pair = new boolean[size][size];
        for (int o = 0; o < size; o++) {
            for (int t = 0; t < size; t++) {
                pair[o][t] = allowed[o][t] && plan.nextInt(4) == 0;
            }
        }
        for (Planned p : planned) {
            pair[p.origin][p.target] = true;
        }
        lastOps = planned;
        Group group = wins[0].getGroup();
        Group origins = groupOf(group, pair, false);
        Group targets = groupOf(group, pair, true);
        for (Win w : wins) {
            if (origins != null) {
                w.post(origins, 0);
            }
        }
        for (Win w : wins) {
            if (targets != null) {
                w.start(targets, 0);
            }
        }
        for (Planned p : planned) {
            if (p.origin == me) {
                issue(p, false);
            }
        }
        for (Win w : wins) {
            if (targets != null) {
                w.complete();
            }
        }
        boolean poll = plan.nextBoolean();
        for (Win w : wins) {
            if (origins != null) {
                if (poll) {
                    while (!w.test()) {
                        Thread.onSpinWait();
                    }
                } else {
                    w.waitFor();
                }
            }
        }
        applyToModel(planned);
        checkResults(planned, "PSCW");
        checkAll("PSCW, after wait");
        world.barrier();
        freeTypes();
    }

    /** This rank's targets ({@code asOrigin}) or origins in {@code pair}, or null for none. */
    private Group groupOf(Group group, boolean[][] pair, boolean asOrigin) throws MPIException {
        List<Integer> ranks = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (asOrigin ? pair[me][r] : pair[r][me]) {
                ranks.add(r);
            }
        }
        if (ranks.isEmpty()) {
            return null;
        }
        // A random order of the group's ranks: MPI does not care.
        int[] a = ranks.stream().mapToInt(Integer::intValue).toArray();
        for (int i = a.length - 1; i > 0; i--) {
            int j = (int) Math.floorMod(((long) round * 31 + i * 17L + me), (long) (i + 1));
            int x = a[i];
            a[i] = a[j];
            a[j] = x;
        }
        return group.incl(a);
    }

    /**
     * Tickets from a counter (the last element of an int window of one rank) under exclusive and
     * shared locks and lockAll, each exactly once; and each rank's put, flush, get of its own slice
     * of a random target under a shared lock, plus a SUM into a common element with flushAll.
     */
    private void passiveRound() throws MPIException {
        int[] intWins = {0, 2, 3, 4};
        int cw = intWins[plan.nextInt(intWins.length)];
        int ct = plan.nextInt(size);
        int counter = N - 2; // a multiple of every unit
        int k = 6;
        int[][] how = new int[size][k];
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < k; i++) {
                how[r][i] = plan.nextInt(5);
            }
        }
        int sw = intWins[plan.nextInt(intWins.length)];
        int[] sliceTarget = new int[size];
        for (int r = 0; r < size; r++) {
            sliceTarget[r] = plan.nextInt(size);
        }
        int slice = 64;
        int common = N - 4;
        lastOps = List.of();

        Win w = wins[cw];
        int cdisp = cw == 4 ? 4 * counter : counter / UNIT[cw];
        IntBuffer one = MPI.newIntBuffer(1).put(0, 1);
        IntBuffer got = MPI.newIntBuffer(1);
        IntBuffer expected = MPI.newIntBuffer(1);
        IntBuffer next = MPI.newIntBuffer(1);
        long[] tickets = new long[k];
        for (int i = 0; i < k; i++) {
            switch (how[me][i]) {
                case 0 -> {
                    w.lock(MPI.LOCK_EXCLUSIVE, ct, 0);
                    w.fetchAndOp(one, got, MPI.INT, ct, cdisp, MPI.SUM);
                    w.unlock(ct);
                }
                case 1 -> {
                    w.lock(MPI.LOCK_SHARED, ct, 0);
                    w.getAccumulate(one, 1, MPI.INT, got, 1, MPI.INT, ct, cdisp, 1, MPI.INT, MPI.SUM);
                    w.flush(ct);
                    w.unlock(ct);
                }
                case 2 -> {
                    w.lock(MPI.LOCK_SHARED, ct, 0);
                    w.fetchAndOp(null, got, MPI.INT, ct, cdisp, MPI.NO_OP);
                    while (true) {
                        expected.put(0, got.get(0));
                        next.put(0, got.get(0) + 1);
                        w.compareAndSwap(next, expected, got, MPI.INT, ct, cdisp);
                        w.flush(ct);
                        if (got.get(0) == expected.get(0)) {
                            break;
                        }
                    }
                    w.unlock(ct);
                }
                case 3 -> {
                    // not atomic: only the exclusive lock keeps the others out between get and put
                    w.lock(MPI.LOCK_EXCLUSIVE, ct, 0);
                    w.get(got, 1, MPI.INT, ct, cdisp, 1, MPI.INT);
                    w.flush(ct);
                    next.put(0, got.get(0) + 1);
                    w.put(next, 1, MPI.INT, ct, cdisp, 1, MPI.INT);
                    w.unlock(ct);
                }
                default -> {
                    w.lockAll(0);
                    w.fetchAndOp(one, got, MPI.INT, ct, cdisp, MPI.SUM);
                    w.flushAll();
                    w.unlockAll();
                }
            }
            tickets[i] = got.get(0);
            if (i % 2 == 0) {
                world.barrier();
            }
        }
        long[] all = new long[k * size];
        world.allGather(tickets, k, MPI.LONG, all, k, MPI.LONG);
        Arrays.sort(all);
        long base = model[cw][ct][counter];
        for (int i = 0; i < all.length; i++) {
            if (all[i] != base + i) {
                throw new AssertionError("rank " + me + ": round " + round + ": tickets of the counter in " + NAME[cw]
                        + " of rank " + ct + " are " + Arrays.toString(all) + ", expected " + base + " .. "
                        + (base + all.length - 1) + " each once");
            }
        }
        model[cw][ct][counter] = base + all.length;

        // put, flush, get of this rank's slice of a random target; a SUM into a common element.
        Win s = wins[sw];
        int t = sliceTarget[me];
        int from = me * slice * 2; // a multiple of every unit
        int sdisp = sw == 4 ? 4 * from : from / UNIT[sw];
        IntBuffer data = MPI.newIntBuffer(slice);
        for (int i = 0; i < slice; i++) {
            data.put(i, (int) sliceValue(me, i));
        }
        IntBuffer back = MPI.newIntBuffer(slice);
        s.lock(MPI.LOCK_SHARED, t, 0);
        s.put(data, slice, MPI.INT, t, sdisp, slice, MPI.INT);
        s.flush(t);
        s.get(back, slice, MPI.INT, t, sdisp, slice, MPI.INT);
        s.flush(t);
        for (int i = 0; i < slice; i++) {
            if (back.get(i) != data.get(i)) {
                throw new AssertionError("rank " + me + ": round " + round + ": get after put and flush of " + NAME[sw]
                        + " of rank " + t + ", element " + (from + i) + ": " + back.get(i) + ", expected " + data.get(i));
            }
        }
        s.accumulate(MPI.newIntBuffer(1).put(0, me + 1), 1, MPI.INT, t, sw == 4 ? 4 * common : common / UNIT[sw], 1,
                MPI.INT, MPI.SUM);
        s.flushAll();
        s.unlock(t);
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < slice; i++) {
                model[sw][sliceTarget[r]][r * slice * 2 + i] = sliceValue(r, i);
            }
            model[sw][sliceTarget[r]][common] += r + 1;
        }
        world.barrier();
        for (Win x : wins) {
            x.sync();
        }
        checkAll("passive target");
        world.barrier();
    }

    private long sliceValue(int r, int i) {
        return (round * 131L + r * 17L + i * 3L) % 1999 - 999;
    }
}
