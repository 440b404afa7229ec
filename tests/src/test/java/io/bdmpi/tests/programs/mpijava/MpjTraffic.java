package io.bdmpi.tests.programs.mpijava;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import mpi.User_function;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * Random traffic written only against the mpiJava 1.2 API (MPJ Express names), checked against a
 * model every rank keeps: a plan drawn from a seed all ranks share. Each round:
 * <ol>
 *   <li>point-to-point messages on COMM_WORLD and a {@code clone()} of it, of every basic type
 *       (BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE, BOOLEAN, OBJECT) and of derived types
 *       ({@code Contiguous}, {@code Vector}, {@code Indexed}, {@code Struct} with and without an
 *       {@code MPI.UB} marker, {@code Hvector}, {@code Hindexed} with blocks out of order; some
 *       received as their base type, element by element, to check the type map's order), at
 *       random offsets into larger arrays, with random counts (0 included, some over {@code -im})
 *       and receive counts larger than the message. "Early"
 *       messages are sent before a barrier with {@code Send}, {@code Isend}, {@code Bsend},
 *       {@code Ibsend} (space from {@code Buffer_attach}), {@code Issend} or {@code Send_init} +
 *       {@code Start}/{@code Startall}; "late" ones after it with {@code Rsend}, {@code Irsend} or a
 *       blocking {@code Ssend}, to receives posted before the barrier ({@code Irecv} or
 *       {@code Recv_init} + {@code Start}). Early messages are received with {@code Recv},
 *       {@code Irecv}, {@code Probe} + {@code Recv}, {@code Iprobe} polling + {@code Recv} or
 *       {@code Recv_init} + {@code Start}, from the exact source or {@code MPI.ANY_SOURCE}; the
 *       requests are completed with one of {@code Wait}, {@code Test} loops, {@code Waitall},
 *       {@code Testall}, {@code Waitany}, {@code Testany}, {@code Waitsome}, {@code Testsome}; then {@code Iprobe} must find nothing left;</li>
 *   <li>a {@code Sendrecv} or {@code Sendrecv_replace} along a random shift;</li>
 *   <li>random collectives ({@code Bcast}, {@code Gather}, {@code Gatherv}, {@code Scatter},
 *       {@code Scatterv}, {@code Allgather}, {@code Allgatherv}, {@code Alltoall},
 *       {@code Alltoallv}, {@code Reduce}, {@code Allreduce}, {@code Reduce_scatter}, {@code Scan})
 *       on COMM_WORLD, the clone and a fresh {@code Split} with random colours (some
 *       {@code MPI.UNDEFINED}) and keys, with random roots, counts, displacements with gaps and
 *       offsets; every predefined op valid for the type, MAXLOC/MINLOC over SHORT2 ... DOUBLE2, and
 *       user-defined ops: a commutative sum over INT, a non-commutative affine-map composition over
 *       {@code Contiguous(2, LONG)} and a non-commutative concatenation over OBJECT; the data
 *       movement ones with OBJECT and derived types too, some received as the base type.</li>
 * </ol>
 * Every element of every receive buffer is checked, including sentinels around what should be
 * written and send buffers that must stay as they were, and every status's {@code source},
 * {@code tag}, {@code index}, {@code Get_count} and {@code Get_elements}; at the end, the derived
 * types' {@code Extent()}, {@code Size()}, {@code Lb()} and {@code Ub()} in array elements.
 *
 * <p>Usage: {@code MpjTraffic [rounds [seed]]}. Prints "MpjTraffic rank R OK".
 */
public final class MpjTraffic {

    // Kinds: the basic types, then derived and pair types.
    static final int BYTE = 0, CHAR = 1, SHORT = 2, INT = 3, LONG = 4, FLOAT = 5, DOUBLE = 6, BOOLEAN = 7,
        OBJECT = 8, CONTIG = 9, VECTOR = 10, INDEXED = 11, STRUCT = 12, HVECTOR = 13, HINDEXED = 14, STRUCT_UB = 15,
        SHORT2 = 16, INT2 = 17, LONG2 = 18, FLOAT2 = 19, DOUBLE2 = 20, AFFINE = 21;
    static final String[] KIND_NAMES = {"BYTE", "CHAR", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE", "BOOLEAN",
        "OBJECT", "Contiguous(3,INT)", "Vector(2,1,3,DOUBLE)", "Indexed({2,1},{0,3},LONG)",
        "Struct({1,2},{0,3},{INT,INT})", "Hvector(2,2,3,SHORT)",
        "Hindexed({1,2},{4,0},FLOAT)",
        "Struct({1,1,1},{0,2,4},{INT,INT,UB})", "SHORT2", "INT2", "LONG2", "FLOAT2", "DOUBLE2", "Contiguous(2,LONG)"};
    /** The Java array element of each kind. */
    static final int[] BASE = {BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE, BOOLEAN, OBJECT, INT, DOUBLE, LONG, INT,
        SHORT, FLOAT, INT, SHORT, INT, LONG, FLOAT, DOUBLE, LONG};
    /** Where each item's elements are, relative to the item, in array elements. */
    static final int[][] DISPS = {{0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0, 1, 2}, {0, 3}, {0, 1, 3},
        {0, 3, 4}, {0, 1, 3, 4}, {4, 0, 1}, {0, 2}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}};
    /** The extent of each kind, in array elements. */
    static final int[] EXTENT = {1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 4, 4, 5, 5, 5, 4, 2, 2, 2, 2, 2, 2};
    static final int[] BASE_BYTES = {1, 2, 2, 4, 8, 4, 8, 1, 0};
    static final int P2P_KINDS = 16;

    // Point-to-point: how sent, how received.
    static final String[] SEND_HOW = {"Send", "Isend", "Bsend", "Ibsend", "Issend", "Send_init+Start",
        "Send_init+Startall", "Rsend", "Irsend", "Ssend"};
    static final int SEND = 0, ISEND = 1, BSEND = 2, IBSEND = 3, ISSEND = 4, SEND_INIT = 5, SEND_INIT_ALL = 6,
        RSEND = 7, IRSEND = 8, SSEND = 9;
    static final String[] RECV_HOW = {"Recv", "Irecv", "Probe+Recv", "Iprobe+Recv", "Recv_init+Start"};
    static final int RECV = 0, IRECV = 1, PROBE = 2, IPROBE = 3, RECV_INIT = 4;
    static final String[] COMPLETE = {"Wait", "Test loop", "Waitall", "Testall loop", "Waitany", "Testany loop",
        "Waitsome", "Testsome loop"};

    // Collectives.
    static final String[] CALLS = {"Bcast", "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather", "Allgatherv",
        "Alltoall", "Alltoallv", "Reduce", "Allreduce", "Reduce_scatter", "Scan"};
    static final int BCAST = 0, GATHER = 1, GATHERV = 2, SCATTER = 3, SCATTERV = 4, ALLGATHER = 5, ALLGATHERV = 6,
        ALLTOALL = 7, ALLTOALLV = 8, REDUCE = 9, ALLREDUCE = 10, REDUCE_SCATTER = 11, SCAN = 12;
    static final String[] OP_NAMES = {"SUM", "PROD", "MAX", "MIN", "BAND", "BOR", "BXOR", "LAND", "LOR", "LXOR",
        "MAXLOC", "MINLOC", "user sum (commutative)", "user affine composition (non-commutative)",
        "user concat (non-commutative)"};
    static final int SUM = 0, PROD = 1, MAX = 2, MIN = 3, BAND = 4, BOR = 5, BXOR = 6, LAND = 7, LOR = 8, LXOR = 9,
        MAXLOC = 10, MINLOC = 11, USER_SUM = 12, USER_AFFINE = 13, USER_CONCAT = 14;
    static final String[] COMM_NAMES = {"COMM_WORLD", "clone", "Split"};

    static Datatype[] types;
    static Op[] ops;
    static int worldRank;

    record Msg(int id, int src, int dst, int comm, int tag, int kind, int count, int sOff, int rOff, int extra,
               int tail, int send, int recv, boolean anySource, boolean flat) {
        boolean late() {
            return send >= RSEND;
        }

        /** The receive's kind: the send's, or its base type when a derived type is received flat. */
        int rkind() {
            return flat ? BASE[kind] : kind;
        }

        /** The receive's count of items (without the extra room). */
        int rcount() {
            return flat ? count * DISPS[kind].length : count;
        }

        @Override
        public String toString() {
            return "message " + id + " (" + src + " -> " + dst + " on " + COMM_NAMES[comm] + ", tag " + tag + ", "
                    + KIND_NAMES[kind] + " x " + count + ", send offset " + sOff + ", recv offset " + rOff
                    + ", received as " + KIND_NAMES[rkind()] + " x " + (rcount() + extra) + ", " + SEND_HOW[send] + ", "
                    + (late() ? (recv == RECV_INIT ? "pre-posted Recv_init" : "pre-posted Irecv")
                    : RECV_HOW[recv]) + (anySource ? " ANY_SOURCE" : "") + ")";
        }
    }

    record Coll(int id, int call, int comm, int kind, int op, int rootDraw, int count, int scale, int sOff,
                int rOff, int tail, boolean flat) {
        String describe(int root, int members) {
            return CALLS[call] + " #" + id + " on " + COMM_NAMES[comm] + " (" + members + " ranks), " + KIND_NAMES[kind]
                    + (call >= REDUCE ? " " + OP_NAMES[op] : "") + (call == BCAST || call == GATHER || call == GATHERV
                    || call == SCATTER || call == SCATTERV || call == REDUCE ? ", root " + root : "")
                    + (flat ? " received as " + KIND_NAMES[BASE[kind]] : "") + ", count " + count + ", v-scale " + scale + ", send offset " + sOff + ", recv offset " + rOff;
        }
    }

    record Round(List<Msg> msgs, int complete, boolean replace, int shift, int srKind, int srCount, int srOff,
                 int srOff2, boolean srAny, int[] colours, int[] keys, List<Coll> colls) {
    }

    /** A request to complete: a receive with its buffer and expected image, or a send. */
    record Pending(Request req, Msg msg, Object buf, Object[] expected, boolean persistent) {
    }

    private MpjTraffic() {
    }

    /** Affine maps x -> m x + c as (m, c) pairs of longs; inoutvec = invec o inoutvec. */
    static final class Affine extends User_function {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            long[] in = (long[]) invec;
            long[] io = (long[]) inoutvec;
            for (int k = 0; k < count; k++) {
                long m1 = in[inoffset + 2 * k], c1 = in[inoffset + 2 * k + 1];
                long m2 = io[inoutoffset + 2 * k], c2 = io[inoutoffset + 2 * k + 1];
                io[inoutoffset + 2 * k] = m1 * m2;
                io[inoutoffset + 2 * k + 1] = m1 * c2 + c1;
            }
        }
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.Rank();
        int size = world.Size();
        worldRank = rank;
        Intracomm dup = (Intracomm) world.clone();
        check(dup.Size() == size && dup.Rank() == rank, "clone: size " + dup.Size() + " rank " + dup.Rank());

        types = new Datatype[] {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE, MPI.BOOLEAN,
            MPI.OBJECT, Datatype.Contiguous(3, MPI.INT), Datatype.Vector(2, 1, 3, MPI.DOUBLE),
            Datatype.Indexed(new int[] {2, 1}, new int[] {0, 3}, MPI.LONG),
            Datatype.Struct(new int[] {1, 2}, new int[] {0, 3}, new Datatype[] {MPI.INT, MPI.INT}),
            Datatype.Hvector(2, 2, 3, MPI.SHORT), Datatype.Hindexed(new int[] {1, 2}, new int[] {4, 0}, MPI.FLOAT),
            Datatype.Struct(new int[] {1, 1, 1}, new int[] {0, 2, 4}, new Datatype[] {MPI.INT, MPI.INT, MPI.UB}),
            MPI.SHORT2, MPI.INT2, MPI.LONG2, MPI.FLOAT2, MPI.DOUBLE2, Datatype.Contiguous(2, MPI.LONG)};
        for (int k = CONTIG; k < types.length; k++) {
            if (k < SHORT2 || k == AFFINE) {
                types[k].Commit();
            }
        }
        ops = new Op[] {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN, MPI.BAND, MPI.BOR, MPI.BXOR, MPI.LAND, MPI.LOR, MPI.LXOR,
            MPI.MAXLOC, MPI.MINLOC, new Op(new MpjCollectives.Sum(), true), new Op(new Affine(), false),
            new Op(new MpjCollectives.Concat(), false)};

        Random plan = new Random(seed);
        List<Round> plans = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            plans.add(plan(plan, round, size));
        }
        if (rank == 0) {
            System.out.println("MpjTraffic plan: " + summary(plans));
        }
        // Buffered-send space: a whole round's buffered messages from this rank.
        long bsend = 0;
        for (Round r : plans) {
            long sum = 0;
            for (Msg m : r.msgs()) {
                if (m.src() == rank && (m.send() == BSEND || m.send() == IBSEND)) {
                    sum += (long) m.count() * DISPS[m.kind()].length * BASE_BYTES[BASE[m.kind()]] + MPI.BSEND_OVERHEAD;
                }
            }
            bsend = Math.max(bsend, sum);
        }
        byte[] attached = new byte[(int) bsend + MPI.BSEND_OVERHEAD + 64];
        MPI.Buffer_attach(attached);

        long received = 0;
        for (int round = 0; round < rounds; round++) {
            Round r = plans.get(round);
            received += pointToPoint(round, r, rank, dup);
            sendRecv(round, r, rank, size, dup);
            collectives(round, r, rank, size, dup);
        }
        long[] total = {0, received, 0};
        long[] sum = new long[4];
        world.Allreduce(total, 1, sum, 2, 1, MPI.LONG, MPI.SUM);
        long planned = 0;
        for (Round r : plans) {
            planned += r.msgs().size();
        }
        check(sum[2] == planned && sum[0] == 0 && sum[1] == 0 && sum[3] == 0,
                "messages received by all ranks: " + Arrays.toString(sum) + ", planned " + planned);
        // The types' Extent() and Size(), in elements of the buffer's array as in mpiJava.
        List<String> wrong = new ArrayList<>();
        for (int k = CONTIG; k < types.length; k++) {
            if (types[k].Extent() != EXTENT[k] || types[k].Size() != DISPS[k].length || types[k].Lb() != 0
                    || types[k].Ub() != EXTENT[k]) {
                wrong.add(KIND_NAMES[k] + ": Extent() " + types[k].Extent() + " Size() " + types[k].Size() + " Lb() "
                        + types[k].Lb() + " Ub() " + types[k].Ub() + ", expected " + EXTENT[k] + ", "
                        + DISPS[k].length + ", 0 and " + EXTENT[k]);
            }
        }
        check(wrong.isEmpty(), "datatype bounds in array elements: " + wrong);
        byte[] detached = MPI.Buffer_detach();
        check(detached == attached, "Buffer_detach returns the attached array");
        for (int k = CONTIG; k <= STRUCT_UB; k++) {
            types[k].Free();
        }
        types[AFFINE].Free();
        dup.Free();
        System.out.println("MpjTraffic rank " + rank + " OK");
        MPI.Finalize();
    }

    // ---------------------------------------------------------------------------------------- plan

    static int count(Random p, int kind) {
        int x = p.nextInt(20);
        int big = kind == OBJECT ? 400 : kind >= CONTIG ? 900 : 3000;
        if (x < 2) {
            return 0;
        } else if (x < 12) {
            return 1 + p.nextInt(8);
        } else if (x < 17) {
            return 9 + p.nextInt(120);
        }
        return big / 3 + p.nextInt(big);
    }

    static Round plan(Random p, int round, int size) {
        List<Msg> msgs = new ArrayList<>();
        int n = p.nextInt(3 * size + 2);
        for (int i = 0; i < n; i++) {
            int kind = p.nextInt(P2P_KINDS);
            int send = p.nextInt(SEND_HOW.length);
            if (kind == OBJECT && (send == BSEND || send == IBSEND)) {
                send = SEND; // no Bsend space can be computed for serialized objects
            }
            int recv = p.nextInt(RECV_HOW.length);
            msgs.add(new Msg(i, p.nextInt(size), p.nextInt(size), p.nextInt(2), 1 + i, kind, count(p, kind),
                    p.nextInt(6), p.nextInt(6), p.nextInt(3), p.nextInt(4), send, recv, p.nextInt(3) == 0,
                    kind >= CONTIG && p.nextInt(3) == 0));
        }
        int complete = p.nextInt(COMPLETE.length);
        boolean replace = p.nextBoolean();
        int shift = p.nextInt(size);
        int srKind = p.nextInt(P2P_KINDS);
        int srCount = count(p, srKind);
        int srOff = p.nextInt(5);
        int srOff2 = p.nextInt(5);
        boolean srAny = p.nextBoolean();
        int[] colours = new int[size];
        int[] keys = new int[size];
        for (int w = 0; w < size; w++) {
            colours[w] = p.nextInt(5) == 0 ? MPI.UNDEFINED : p.nextInt(2);
            keys[w] = p.nextInt(4);
        }
        List<Coll> colls = new ArrayList<>();
        int nc = 2 + p.nextInt(5);
        for (int i = 0; i < nc; i++) {
            int call = p.nextInt(CALLS.length);
            int kind;
            int op = -1;
            if (call >= REDUCE) {
                int[] choice = reduction(p);
                kind = choice[0];
                op = choice[1];
            } else {
                kind = p.nextInt(P2P_KINDS);
            }
            int c = p.nextInt(4) == 0 ? count(p, kind) / 2 : p.nextInt(6);
            int scale = p.nextInt(4) == 0 ? 200 + p.nextInt(800) : p.nextInt(5);
            if (kind == OBJECT || kind >= CONTIG) {
                scale = Math.min(scale, 150);
            }
            colls.add(new Coll(round * 100 + i, call, p.nextInt(3), kind, op, p.nextInt(1 << 16), c, scale,
                    p.nextInt(5), p.nextInt(5), p.nextInt(3), call < REDUCE && kind >= CONTIG && p.nextBoolean()));
        }
        return new Round(msgs, complete, replace, shift, srKind, srCount, srOff, srOff2, srAny, colours, keys, colls);
    }

    /** A (kind, op) pair valid in MPI for a reduction. */
    static int[] reduction(Random p) {
        switch (p.nextInt(9)) {
            case 0:
                return new int[] {BYTE, BAND + p.nextInt(3)};
            case 1:
                return new int[] {SHORT + p.nextInt(3), p.nextInt(7)};
            case 2:
                return new int[] {FLOAT + p.nextInt(2), p.nextInt(4)};
            case 3:
                return new int[] {BOOLEAN, LAND + p.nextInt(3)};
            case 4:
            case 5:
                return new int[] {SHORT2 + p.nextInt(5), MAXLOC + p.nextInt(2)};
            case 6:
                return new int[] {INT, USER_SUM};
            case 7:
                return new int[] {AFFINE, USER_AFFINE};
            default:
                return new int[] {OBJECT, USER_CONCAT};
        }
    }

    static String summary(List<Round> plans) {
        int[] sends = new int[SEND_HOW.length];
        int[] recvs = new int[RECV_HOW.length];
        int[] calls = new int[CALLS.length];
        int msgs = 0;
        for (Round r : plans) {
            for (Msg m : r.msgs()) {
                msgs++;
                sends[m.send()]++;
                if (!m.late()) {
                    recvs[m.recv()]++;
                }
            }
            for (Coll c : r.colls()) {
                calls[c.call()]++;
            }
        }
        return msgs + " messages, sends " + Arrays.toString(sends) + ", receives " + Arrays.toString(recvs)
                + ", collectives " + Arrays.toString(calls);
    }

    // ---------------------------------------------------------------------------------------- values

    static long mix(long... xs) {
        long h = 0x9E3779B97F4A7C15L;
        for (long x : xs) {
            h ^= x;
            h *= 0xBF58476D1CE4E5B9L;
            h ^= h >>> 29;
            h *= 0x94D049BB133111EBL;
            h ^= h >>> 32;
        }
        return h;
    }

    /** A value of the base type from a hash; floating values are integers so every result is exact. */
    static Object value(int base, long v) {
        switch (base) {
            case BYTE:
                return (byte) v;
            case CHAR:
                return (char) v;
            case SHORT:
                return (short) v;
            case INT:
                return (int) v;
            case LONG:
                return v;
            case FLOAT:
                return (float) (v % 1_000_000);
            case DOUBLE:
                return (double) (v % 1_000_000_000L) / 4;
            case BOOLEAN:
                return (v & 1) != 0;
            default:
                switch ((int) (v & 7)) {
                    case 0:
                        return null;
                    case 1:
                        return Long.valueOf(v);
                    case 2:
                        return List.of((int) v, "l" + (v >>> 40));
                    case 3:
                        return new java.util.TreeMap<>(java.util.Map.of("k", v));
                    default:
                        return "s" + Long.toHexString(v);
                }
        }
    }

    static Object sentinel(int base, int at) {
        return base == OBJECT ? "sentinel " + at : value(base, -7919L * (at + 1) - 13);
    }

    static Object[] image(int base, int len) {
        Object[] img = new Object[len];
        for (int i = 0; i < len; i++) {
            img[i] = sentinel(base, i);
        }
        return img;
    }

    static Object array(int base, Object[] img) {
        Class<?> c = switch (base) {
            case BYTE -> byte.class;
            case CHAR -> char.class;
            case SHORT -> short.class;
            case INT -> int.class;
            case LONG -> long.class;
            case FLOAT -> float.class;
            case DOUBLE -> double.class;
            case BOOLEAN -> boolean.class;
            default -> Object.class;
        };
        Object a = Array.newInstance(c, img.length);
        for (int i = 0; i < img.length; i++) {
            Array.set(a, i, img[i]);
        }
        return a;
    }

    interface Items {
        Object[] item(int k);
    }

    /** Writes {@code items} items of {@code kind} into the image from element {@code at}. */
    static void put(Object[] img, int kind, int at, int items, Items values) {
        for (int k = 0; k < items; k++) {
            Object[] v = values.item(k);
            for (int t = 0; t < DISPS[kind].length; t++) {
                img[at + k * EXTENT[kind] + DISPS[kind][t]] = v[t];
            }
        }
    }

    /** Plain data: element e of an item stream named by {@code name}. */
    static Items data(int kind, long... name) {
        int tm = DISPS[kind].length;
        return k -> {
            Object[] v = new Object[tm];
            for (int t = 0; t < tm; t++) {
                long[] key = Arrays.copyOf(name, name.length + 1);
                key[name.length] = (long) k * tm + t;
                v[t] = value(BASE[kind], mix(key));
            }
            return v;
        };
    }

    static boolean same(Object a, Object b) {
        if ((a instanceof Float || a instanceof Double) && (b instanceof Float || b instanceof Double)) {
            return ((Number) a).doubleValue() == ((Number) b).doubleValue();
        }
        return Objects.equals(a, b);
    }

    static String show(Object o) {
        if (o instanceof Character ch) {
            return "'\\u" + Integer.toHexString(ch) + "'";
        }
        return o instanceof String s ? '"' + s + '"' : String.valueOf(o);
    }

    /** Every element of {@code buf} as {@code img} says, the first difference reported with its index. */
    static void compare(Object buf, Object[] img, int from, int to, String what) {
        int len = Array.getLength(buf);
        if (len != img.length) {
            throw fail(what + ": buffer length " + len + ", expected " + img.length);
        }
        for (int i = 0; i < len; i++) {
            Object got = Array.get(buf, i);
            if (!same(img[i], got)) {
                throw fail(what + ": element " + i + (i >= from && i < to ? " (inside the written range ["
                        + from + ", " + to + "))" : " (outside [" + from + ", " + to + "): a sentinel)")
                        + " expected " + show(img[i]) + ", got " + show(got));
            }
        }
    }

    // ---------------------------------------------------------------------------------------- point-to-point

    static int pointToPoint(int round, Round r, int rank, Intracomm dup) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        List<Pending> pending = new ArrayList<>();
        List<Prequest> toStartAll = new ArrayList<>();
        List<Prequest> persistent = new ArrayList<>();
        Object[] recvBufs = new Object[r.msgs().size()];
        Object[][] recvImgs = new Object[r.msgs().size()][];
        List<Object[]> sendChecks = new ArrayList<>();
        // Phase 1: early sends, and receives for the late ones.
        for (Msg m : r.msgs()) {
            Intracomm c = m.comm() == 0 ? world : dup;
            Datatype t = types[m.kind()];
            int base = BASE[m.kind()];
            int ext = EXTENT[m.kind()];
            if (m.dst() == rank) {
                Object[] img = image(base, m.rOff() + (m.rcount() + m.extra()) * EXTENT[m.rkind()] + m.tail());
                Object buf = array(base, img);
                put(img, m.rkind(), m.rOff(), m.rcount(), data(m.rkind(), round, m.id()));
                recvBufs[m.id()] = buf;
                recvImgs[m.id()] = img;
                if (m.late()) {
                    int src = m.anySource() ? MPI.ANY_SOURCE : m.src();
                    Datatype rt = types[m.rkind()];
                    if (m.recv() == RECV_INIT) {
                        Prequest q = c.Recv_init(buf, m.rOff(), m.rcount() + m.extra(), rt, src, m.tag());
                        q.Start();
                        persistent.add(q);
                        pending.add(new Pending(q, m, buf, img, true));
                    } else {
                        pending.add(new Pending(c.Irecv(buf, m.rOff(), m.rcount() + m.extra(), rt, src, m.tag()), m,
                                buf, img, false));
                    }
                }
            }
            if (m.src() == rank && !m.late()) {
                Object[] img = image(base, m.sOff() + m.count() * ext + m.tail());
                put(img, m.kind(), m.sOff(), m.count(), data(m.kind(), round, m.id()));
                Object buf = array(base, img);
                sendChecks.add(new Object[] {buf, img, m});
                switch (m.send()) {
                    case SEND -> c.Send(buf, m.sOff(), m.count(), t, m.dst(), m.tag());
                    case BSEND -> c.Bsend(buf, m.sOff(), m.count(), t, m.dst(), m.tag());
                    case ISEND -> pending.add(new Pending(c.Isend(buf, m.sOff(), m.count(), t, m.dst(), m.tag()), m,
                            null, null, false));
                    case IBSEND -> pending.add(new Pending(c.Ibsend(buf, m.sOff(), m.count(), t, m.dst(), m.tag()), m,
                            null, null, false));
                    case ISSEND -> {
                        Request q = c.Issend(buf, m.sOff(), m.count(), t, m.dst(), m.tag());
                        // No receive can have matched it yet (they come after the barrier).
                        if (m.dst() != rank) {
                            check(q.Test() == null, "round " + round + " " + m + ": Issend complete before any receive");
                        }
                        pending.add(new Pending(q, m, null, null, false));
                    }
                    default -> {
                        Prequest q = c.Send_init(buf, m.sOff(), m.count(), t, m.dst(), m.tag());
                        persistent.add(q);
                        if (m.send() == SEND_INIT) {
                            q.Start();
                        } else {
                            toStartAll.add(q);
                        }
                        pending.add(new Pending(q, m, null, null, true));
                    }
                }
            }
        }
        if (!toStartAll.isEmpty()) {
            Prequest.Startall(toStartAll.toArray(new Prequest[0]));
        }
        world.Barrier();
        // Phase 2: late sends to posted receives, then the early messages received in plan order.
        for (Msg m : r.msgs()) {
            if (m.src() != rank || !m.late()) {
                continue;
            }
            Intracomm c = m.comm() == 0 ? world : dup;
            Datatype t = types[m.kind()];
            int base = BASE[m.kind()];
            Object[] img = image(base, m.sOff() + m.count() * EXTENT[m.kind()] + m.tail());
            put(img, m.kind(), m.sOff(), m.count(), data(m.kind(), round, m.id()));
            Object buf = array(base, img);
            sendChecks.add(new Object[] {buf, img, m});
            switch (m.send()) {
                case RSEND -> c.Rsend(buf, m.sOff(), m.count(), t, m.dst(), m.tag());
                case IRSEND -> pending.add(new Pending(c.Irsend(buf, m.sOff(), m.count(), t, m.dst(), m.tag()), m,
                        null, null, false));
                default -> c.Ssend(buf, m.sOff(), m.count(), t, m.dst(), m.tag());
            }
        }
        int got = 0;
        for (Msg m : r.msgs()) {
            if (m.dst() != rank || m.late()) {
                continue;
            }
            Intracomm c = m.comm() == 0 ? world : dup;
            Datatype t = types[m.rkind()];
            Object buf = recvBufs[m.id()];
            int src = m.anySource() ? MPI.ANY_SOURCE : m.src();
            int n = m.rcount() + m.extra();
            String what = "round " + round + " " + m;
            switch (m.recv()) {
                case RECV -> {
                    checkReceived(what + " Recv", m, c.Recv(buf, m.rOff(), n, t, src, m.tag()), buf,
                            recvImgs[m.id()]);
                    got++;
                }
                case PROBE, IPROBE -> {
                    Status p;
                    if (m.recv() == PROBE) {
                        p = c.Probe(src, m.tag());
                    } else {
                        while ((p = c.Iprobe(src, m.tag())) == null) {
                            Thread.onSpinWait();
                        }
                    }
                    check(p.source == m.src() && p.tag == m.tag(), what + " " + RECV_HOW[m.recv()] + ": status source "
                            + p.source + " tag " + p.tag);
                    if (m.kind() != OBJECT) {
                        check(p.Get_count(t) == m.rcount(), what + " " + RECV_HOW[m.recv()] + ": Get_count "
                                + p.Get_count(t) + ", expected " + m.rcount());
                    }
                    // Receive from the source the probe named.
                    checkReceived(what + " Recv after " + RECV_HOW[m.recv()], m,
                            c.Recv(buf, m.rOff(), n, t, p.source, p.tag), buf, recvImgs[m.id()]);
                    got++;
                }
                case IRECV -> pending.add(new Pending(c.Irecv(buf, m.rOff(), n, t, src, m.tag()), m, buf,
                        recvImgs[m.id()], false));
                default -> {
                    Prequest q = c.Recv_init(buf, m.rOff(), n, t, src, m.tag());
                    q.Start();
                    persistent.add(q);
                    pending.add(new Pending(q, m, buf, recvImgs[m.id()], true));
                }
            }
        }
        got += complete(round, r.complete(), pending);
        for (Object[] s : sendChecks) {
            Msg m = (Msg) s[2];
            compare(s[0], (Object[]) s[1], m.sOff(), m.sOff() + m.count() * EXTENT[m.kind()],
                    "round " + round + " " + m + ": send buffer changed");
        }
        for (Prequest q : persistent) {
            q.Free();
        }
        // Every message to this rank is received, and no rank sends more before the barrier.
        Status left = world.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG);
        check(left == null, "round " + round + ": Iprobe(ANY_SOURCE, ANY_TAG) on COMM_WORLD found a message from "
                + (left == null ? -1 : left.source) + " tag " + (left == null ? -1 : left.tag) + " after every receive");
        left = dup.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG);
        check(left == null, "round " + round + ": Iprobe(ANY_SOURCE, ANY_TAG) on the clone found a message from "
                + (left == null ? -1 : left.source) + " tag " + (left == null ? -1 : left.tag) + " after every receive");
        world.Barrier();
        return got;
    }

    static void checkReceived(String what, Msg m, Status s, Object buf, Object[] img) throws MPIException {
        Datatype t = types[m.rkind()];
        check(s != null, what + ": no status");
        check(s.source == m.src() && s.tag == m.tag(), what + ": status source " + s.source + " tag " + s.tag
                + ", expected " + m.src() + " and " + m.tag());
        check(s.Get_count(t) == m.rcount(), what + ": Get_count " + s.Get_count(t) + ", expected " + m.rcount());
        if (m.kind() != OBJECT) {
            int elements = m.count() * DISPS[m.kind()].length;
            check(s.Get_elements(t) == elements, what + ": Get_elements " + s.Get_elements(t) + ", expected "
                    + elements);
        }
        compare(buf, img, m.rOff(), m.rOff() + m.rcount() * EXTENT[m.rkind()], what + ": received data");
    }

    /** Completes the requests with the round's method; returns the number of receives completed. */
    static int complete(int round, int how, List<Pending> pending) throws MPIException {
        if (pending.isEmpty()) {
            return 0;
        }
        Request[] reqs = new Request[pending.size()];
        for (int i = 0; i < reqs.length; i++) {
            reqs[i] = pending.get(i).req();
        }
        String name = "round " + round + " " + COMPLETE[how];
        Status[] statuses = new Status[reqs.length];
        boolean[] done = new boolean[reqs.length];
        int left = reqs.length;
        switch (how) {
            case 0, 1 -> {
                for (int i = 0; i < reqs.length; i++) {
                    Status s;
                    if (how == 0) {
                        s = reqs[i].Wait();
                    } else {
                        while ((s = reqs[i].Test()) == null) {
                            Thread.onSpinWait();
                        }
                    }
                    statuses[i] = s;
                    done[i] = true;
                }
            }
            case 2, 3 -> {
                Status[] all;
                if (how == 2) {
                    all = Request.Waitall(reqs);
                } else {
                    while ((all = Request.Testall(reqs)) == null) {
                        Thread.onSpinWait();
                    }
                }
                check(all.length == reqs.length, name + ": " + all.length + " statuses for " + reqs.length
                        + " requests");
                for (int i = 0; i < reqs.length; i++) {
                    statuses[i] = all[i];
                    done[i] = true;
                }
            }
            case 4, 5 -> {
                while (left > 0) {
                    Status s;
                    if (how == 4) {
                        s = Request.Waitany(reqs);
                    } else {
                        while ((s = Request.Testany(reqs)) == null) {
                            Thread.onSpinWait();
                        }
                    }
                    check(s.index >= 0 && s.index < reqs.length && !done[s.index], name + ": index " + s.index
                            + " with " + left + " of " + reqs.length + " requests left, done " + Arrays.toString(done));
                    statuses[s.index] = s;
                    done[s.index] = true;
                    left--;
                }
            }
            default -> {
                while (left > 0) {
                    Status[] some;
                    if (how == 6) {
                        some = Request.Waitsome(reqs);
                    } else {
                        while ((some = Request.Testsome(reqs)) != null && some.length == 0) {
                            Thread.onSpinWait();
                        }
                    }
                    check(some != null && some.length > 0, name + ": nothing completed with " + left
                            + " requests left, done " + Arrays.toString(done));
                    for (Status s : some) {
                        check(s.index >= 0 && s.index < reqs.length && !done[s.index], name + ": index " + s.index
                                + " with " + left + " of " + reqs.length + " requests left, done "
                                + Arrays.toString(done));
                        statuses[s.index] = s;
                        done[s.index] = true;
                        left--;
                    }
                }
            }
        }
        int got = 0;
        for (int i = 0; i < reqs.length; i++) {
            Pending p = pending.get(i);
            if (p.buf() != null) {
                checkReceived(name + " of request " + i + ", " + p.msg() + (p.persistent() ? " (persistent)" : ""),
                        p.msg(), statuses[i], p.buf(), p.expected());
                got++;
            }
            if (!p.persistent()) {
                check(reqs[i].Is_null(), name + ": request " + i + " (" + p.msg() + ") not null after completion");
            }
        }
        return got;
    }

    static void sendRecv(int round, Round r, int rank, int size, Intracomm dup) throws MPIException {
        int kind = r.srKind();
        int base = BASE[kind];
        int ext = EXTENT[kind];
        int n = r.srCount();
        int dest = (rank + r.shift()) % size;
        int from = (rank - r.shift() + size) % size;
        int tag = 1000 + round;
        Intracomm c = round % 2 == 0 ? MPI.COMM_WORLD : dup;
        String what = "round " + round + " " + (r.replace() ? "Sendrecv_replace" : "Sendrecv") + " on "
                + COMM_NAMES[round % 2] + " (" + KIND_NAMES[kind] + " x " + n + ", shift " + r.shift() + ", offsets "
                + r.srOff() + "/" + r.srOff2() + (r.srAny() ? ", ANY_SOURCE" : "") + ")";
        int src = r.srAny() ? MPI.ANY_SOURCE : from;
        Status s;
        Object buf;
        Object[] expect;
        int at;
        if (r.replace()) {
            Object[] img = image(base, r.srOff() + n * ext + 2);
            put(img, kind, r.srOff(), n, data(kind, round, -1, rank));
            buf = array(base, img);
            s = c.Sendrecv_replace(buf, r.srOff(), n, types[kind], dest, tag, src, tag);
            expect = image(base, img.length);
            put(expect, kind, r.srOff(), n, data(kind, round, -1, from));
            at = r.srOff();
        } else {
            Object[] img = image(base, r.srOff() + n * ext + 1);
            put(img, kind, r.srOff(), n, data(kind, round, -1, rank));
            Object sbuf = array(base, img);
            expect = image(base, r.srOff2() + (n + 1) * ext + 2);
            buf = array(base, expect);
            s = c.Sendrecv(sbuf, r.srOff(), n, types[kind], dest, tag, buf, r.srOff2(), n + 1, types[kind], src, tag);
            compare(sbuf, img, r.srOff(), r.srOff() + n * ext, what + ": send buffer changed");
            put(expect, kind, r.srOff2(), n, data(kind, round, -1, from));
            at = r.srOff2();
        }
        check(s.source == from && s.tag == tag, what + ": status source " + s.source + " tag " + s.tag
                + ", expected " + from + " and " + tag);
        check(s.Get_count(types[kind]) == n, what + ": Get_count " + s.Get_count(types[kind]) + ", expected " + n);
        compare(buf, expect, at, at + n * ext, what + ": received data");
    }

    // ---------------------------------------------------------------------------------------- collectives

    static void collectives(int round, Round r, int rank, int size, Intracomm dup) throws MPIException {
        int colour = r.colours()[rank];
        List<Integer> members = new ArrayList<>();
        if (colour != MPI.UNDEFINED) {
            for (int w = 0; w < size; w++) {
                if (r.colours()[w] == colour) {
                    members.add(w);
                }
            }
            members.sort((a, b) -> r.keys()[a] != r.keys()[b] ? Integer.compare(r.keys()[a], r.keys()[b])
                    : Integer.compare(a, b));
        }
        Intracomm split = dup.Split(colour, r.keys()[rank]);
        if (colour == MPI.UNDEFINED) {
            check(split == MPI.COMM_NULL, "round " + round + " Split(UNDEFINED) did not give COMM_NULL");
        } else {
            check(split.Size() == members.size() && split.Rank() == members.indexOf(rank), "round " + round
                    + " Split(colour " + colour + ", key " + r.keys()[rank] + "): size " + split.Size() + " rank "
                    + split.Rank() + ", expected " + members.size() + " and " + members.indexOf(rank)
                    + " (members " + members + ")");
        }
        for (Coll c : r.colls()) {
            Intracomm comm = c.comm() == 0 ? MPI.COMM_WORLD : c.comm() == 1 ? dup : split;
            if (c.comm() == 2 && colour == MPI.UNDEFINED) {
                continue;
            }
            collective(round, c, comm);
        }
        if (colour != MPI.UNDEFINED) {
            split.Free();
        }
    }

    static int vcount(Coll c, int a, int b) {
        return (int) Long.remainderUnsigned(mix(c.id(), a, b, 77), c.scale() + 1);
    }

    static int gap(Coll c, int a, int b) {
        return (int) Long.remainderUnsigned(mix(c.id(), a, b, 99), 3);
    }

    /** Displacements (in items) of blocks of the given counts, with gaps between them; last element: the end. */
    static int[] displs(Coll c, int[] counts, int side) {
        int[] d = new int[counts.length + 1];
        int at = 0;
        for (int q = 0; q < counts.length; q++) {
            at += gap(c, side, q);
            d[q] = at;
            at += counts[q];
        }
        d[counts.length] = at;
        return d;
    }

    static void collective(int round, Coll c, Intracomm comm) throws MPIException {
        int m = comm.Size();
        int r = comm.Rank();
        int root = c.rootDraw() % m;
        int kind = c.kind();
        int base = BASE[kind];
        int ext = EXTENT[kind];
        Datatype t = types[kind];
        int mult = c.flat() ? DISPS[kind].length : 1;
        int rk = c.flat() ? base : kind;
        int rext = EXTENT[rk];
        Datatype rt = types[rk];
        int n = c.count();
        int so = c.sOff();
        int ro = c.rOff();
        int tail = c.tail();
        String what = "round " + round + " rank " + r + " of " + m + ": " + c.describe(root, m);
        Object[] simg;
        Object[] rimg;
        Object sbuf;
        Object rbuf;
        int from = ro;
        int to = ro;
        switch (c.call()) {
            case BCAST -> {
                // With "flat", the ranks other than the root receive the derived items as their base elements.
                int bk = c.flat() && r != root ? rk : kind;
                int bn = bk == kind ? n : n * mult;
                rimg = image(base, so + bn * EXTENT[bk] + tail);
                Object[] filled = rimg.clone();
                put(filled, bk, so, bn, data(bk, c.id()));
                rbuf = array(base, r == root ? filled : rimg);
                comm.Bcast(rbuf, so, bn, types[bk], root);
                compare(rbuf, filled, so, so + bn * EXTENT[bk], what);
                return;
            }
            case GATHER, ALLGATHER, GATHERV, ALLGATHERV -> {
                boolean v = c.call() == GATHERV || c.call() == ALLGATHERV;
                boolean all = c.call() == ALLGATHER || c.call() == ALLGATHERV;
                int[] counts = new int[m];
                int[] rcounts = new int[m];
                for (int q = 0; q < m; q++) {
                    counts[q] = v ? vcount(c, q, 0) : n;
                    rcounts[q] = counts[q] * mult;
                }
                int[] d = v ? displs(c, rcounts, 1) : null;
                simg = image(base, so + counts[r] * ext + tail);
                put(simg, kind, so, counts[r], data(kind, c.id(), r));
                sbuf = array(base, simg);
                boolean receives = all || r == root;
                int end = v ? d[m] : m * n * mult;
                rimg = image(base, receives ? ro + end * rext + tail : ro + tail + 1);
                rbuf = array(base, rimg);
                if (receives) {
                    for (int q = 0; q < m; q++) {
                        put(rimg, rk, ro + (v ? d[q] : q * n * mult) * rext, rcounts[q], data(rk, c.id(), q));
                    }
                    to = ro + end * rext;
                }
                int[] disp = v ? Arrays.copyOf(d, m) : null;
                switch (c.call()) {
                    case GATHER -> comm.Gather(sbuf, so, n, t, rbuf, ro, n * mult, rt, root);
                    case ALLGATHER -> comm.Allgather(sbuf, so, n, t, rbuf, ro, n * mult, rt);
                    case GATHERV -> comm.Gatherv(sbuf, so, counts[r], t, rbuf, ro, rcounts, disp, rt, root);
                    default -> comm.Allgatherv(sbuf, so, counts[r], t, rbuf, ro, rcounts, disp, rt);
                }
                what += v ? ", recv counts " + Arrays.toString(rcounts) + ", displs " + Arrays.toString(disp) : "";
                compare(sbuf, simg, so, so + counts[r] * ext, what + ": send buffer changed");
            }
            case SCATTER, SCATTERV -> {
                boolean v = c.call() == SCATTERV;
                int[] counts = new int[m];
                for (int q = 0; q < m; q++) {
                    counts[q] = v ? vcount(c, q, 0) : n;
                }
                int[] d = v ? displs(c, counts, 2) : null;
                int end = v ? d[m] : m * n;
                simg = image(base, r == root ? so + end * ext + tail : so + tail + 1);
                if (r == root) {
                    for (int q = 0; q < m; q++) {
                        put(simg, kind, so + (v ? d[q] : q * n) * ext, counts[q], data(kind, c.id(), q));
                    }
                }
                sbuf = array(base, simg);
                int mine = counts[r] * mult;
                rimg = image(base, ro + mine * rext + tail);
                rbuf = array(base, rimg);
                put(rimg, rk, ro, mine, data(rk, c.id(), r));
                to = ro + mine * rext;
                int[] disp = v ? Arrays.copyOf(d, m) : null;
                if (v) {
                    comm.Scatterv(sbuf, so, counts, disp, t, rbuf, ro, mine, rt, root);
                    what += ", send counts " + Arrays.toString(counts) + ", displs " + Arrays.toString(disp);
                } else {
                    comm.Scatter(sbuf, so, n, t, rbuf, ro, n * mult, rt, root);
                }
                compare(sbuf, simg, so, so, what + ": send buffer changed");
            }
            case ALLTOALL, ALLTOALLV -> {
                boolean v = c.call() == ALLTOALLV;
                int[] scounts = new int[m];
                int[] rcounts = new int[m];
                for (int q = 0; q < m; q++) {
                    scounts[q] = v ? vcount(c, r, q) : n;
                    rcounts[q] = (v ? vcount(c, q, r) : n) * mult;
                }
                int[] sd = v ? displs(c, scounts, 10 + r) : null;
                int[] rd = v ? displs(c, rcounts, 100 + r) : null;
                simg = image(base, so + (v ? sd[m] : m * n) * ext + tail);
                rimg = image(base, ro + (v ? rd[m] : m * n * mult) * rext + tail);
                for (int q = 0; q < m; q++) {
                    put(simg, kind, so + (v ? sd[q] : q * n) * ext, scounts[q], data(kind, c.id(), r, q));
                }
                sbuf = array(base, simg);
                rbuf = array(base, rimg);
                for (int q = 0; q < m; q++) {
                    put(rimg, rk, ro + (v ? rd[q] : q * n * mult) * rext, rcounts[q], data(rk, c.id(), q, r));
                }
                to = ro + (v ? rd[m] : m * n * mult) * rext;
                if (v) {
                    int[] sdisp = Arrays.copyOf(sd, m);
                    int[] rdisp = Arrays.copyOf(rd, m);
                    comm.Alltoallv(sbuf, so, scounts, sdisp, t, rbuf, ro, rcounts, rdisp, rt);
                    what += ", send counts " + Arrays.toString(scounts) + " displs " + Arrays.toString(sdisp)
                            + ", recv counts " + Arrays.toString(rcounts) + " displs " + Arrays.toString(rdisp);
                } else {
                    comm.Alltoall(sbuf, so, n, t, rbuf, ro, n * mult, rt);
                }
                compare(sbuf, simg, so, so, what + ": send buffer changed");
            }
            default -> {
                // Reductions.
                int[] rcounts = new int[m];
                int total = n;
                if (c.call() == REDUCE_SCATTER) {
                    total = 0;
                    for (int q = 0; q < m; q++) {
                        rcounts[q] = vcount(c, q, 0);
                        total += rcounts[q];
                    }
                }
                final int items = total;
                simg = image(base, so + items * ext + tail);
                put(simg, kind, so, items, k -> operand(c, r, k));
                sbuf = array(base, simg);
                int mine = items;
                int first = 0;
                int upTo = m;
                boolean receives = true;
                if (c.call() == REDUCE_SCATTER) {
                    for (int q = 0; q < r; q++) {
                        first += rcounts[q];
                    }
                    mine = rcounts[r];
                } else if (c.call() == SCAN) {
                    upTo = r + 1;
                } else if (c.call() == REDUCE) {
                    receives = r == root;
                }
                rimg = image(base, receives ? ro + mine * ext + tail : ro + tail + 1);
                rbuf = array(base, rimg);
                if (receives) {
                    final int lo = first;
                    final int ranks = upTo;
                    put(rimg, kind, ro, mine, k -> {
                        Object[] acc = operand(c, 0, lo + k);
                        for (int q = 1; q < ranks; q++) {
                            acc = fold(c.op(), kind, acc, operand(c, q, lo + k));
                        }
                        return acc;
                    });
                    to = ro + mine * ext;
                }
                Op op = ops[c.op()];
                switch (c.call()) {
                    case REDUCE -> comm.Reduce(sbuf, so, rbuf, ro, n, t, op, root);
                    case ALLREDUCE -> comm.Allreduce(sbuf, so, rbuf, ro, n, t, op);
                    case SCAN -> comm.Scan(sbuf, so, rbuf, ro, n, t, op);
                    default -> {
                        comm.Reduce_scatter(sbuf, so, rbuf, ro, rcounts, t, op);
                        what += ", recv counts " + Arrays.toString(rcounts);
                    }
                }
                compare(sbuf, simg, so, so + items * ext, what + ": send buffer changed");
            }
        }
        compare(rbuf, rimg, from, to, what);
    }

    /** The operand item {@code k} of comm rank {@code q} in a reduction. */
    static Object[] operand(Coll c, int q, int k) {
        int kind = c.kind();
        int base = BASE[kind];
        long h = mix(c.id(), q, k, 5);
        long h2 = mix(c.id(), q, k, 6);
        switch (c.op()) {
            case SUM:
                return new Object[] {base == INT || base == LONG ? value(base, h) : value(base, h % 1000)};
            case PROD:
                return new Object[] {value(base, h % 4)};
            case MAX:
            case MIN:
            case BAND:
            case BOR:
            case BXOR:
                return new Object[] {value(base, h)};
            case LAND:
                return new Object[] {h % 6 != 0};
            case LOR:
                return new Object[] {h % 6 == 0};
            case LXOR:
                return new Object[] {(h & 1) != 0};
            case MAXLOC:
            case MINLOC:
                return new Object[] {value(base, Long.remainderUnsigned(h, 4)), index(base, q)};
            case USER_SUM:
                return new Object[] {(int) h};
            case USER_AFFINE:
                return new Object[] {h | 1, h2};
            default:
                return new Object[] {"<" + q + ":" + k + ">"};
        }
    }

    /** A MAXLOC/MINLOC index, exactly q in the pair's type. */
    static Object index(int base, int q) {
        return switch (base) {
            case SHORT -> (short) q;
            case LONG -> (long) q;
            case FLOAT -> (float) q;
            case DOUBLE -> (double) q;
            default -> q;
        };
    }

    static long asLong(Object o) {
        return o instanceof Character ch ? ch : ((Number) o).longValue();
    }

    /** {@code a op b}, {@code a} from the lower rank. */
    static Object[] fold(int op, int kind, Object[] a, Object[] b) {
        int base = BASE[kind];
        boolean floating = base == FLOAT || base == DOUBLE;
        switch (op) {
            case SUM:
            case PROD:
            case MAX:
            case MIN: {
                if (floating) {
                    double x = ((Number) a[0]).doubleValue();
                    double y = ((Number) b[0]).doubleValue();
                    double z = op == SUM ? x + y : op == PROD ? x * y : op == MAX ? Math.max(x, y) : Math.min(x, y);
                    return new Object[] {base == FLOAT ? (Object) (float) z : (Object) z};
                }
                long x = asLong(a[0]);
                long y = asLong(b[0]);
                long z = op == SUM ? x + y : op == PROD ? x * y : op == MAX ? Math.max(x, y) : Math.min(x, y);
                return new Object[] {value(base, z)};
            }
            case BAND:
                return new Object[] {value(base, asLong(a[0]) & asLong(b[0]))};
            case BOR:
                return new Object[] {value(base, asLong(a[0]) | asLong(b[0]))};
            case BXOR:
                return new Object[] {value(base, asLong(a[0]) ^ asLong(b[0]))};
            case LAND:
                return new Object[] {(Boolean) a[0] && (Boolean) b[0]};
            case LOR:
                return new Object[] {(Boolean) a[0] || (Boolean) b[0]};
            case LXOR:
                return new Object[] {(Boolean) a[0] ^ (Boolean) b[0]};
            case MAXLOC:
            case MINLOC: {
                double x = ((Number) a[0]).doubleValue();
                double y = ((Number) b[0]).doubleValue();
                if (x == y) {
                    return ((Number) a[1]).doubleValue() <= ((Number) b[1]).doubleValue() ? a : b;
                }
                return (op == MAXLOC) == (x > y) ? a : b;
            }
            case USER_SUM:
                return new Object[] {(Integer) a[0] + (Integer) b[0]};
            case USER_AFFINE: {
                long m1 = (Long) a[0], c1 = (Long) a[1], m2 = (Long) b[0], c2 = (Long) b[1];
                return new Object[] {m1 * m2, m1 * c2 + c1};
            }
            default:
                return new Object[] {a[0] + "" + b[0]};
        }
    }

    // ---------------------------------------------------------------------------------------- checks

    static AssertionError fail(String what) {
        return new AssertionError("CHECK FAILED on rank " + worldRank + ": " + what);
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw fail(what);
        }
    }
}
