package io.bdmpi.tests.programs.collectives;

import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;

import java.nio.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;

/**
 * Randomized collectives over derived datatypes on several communicators. Every rank draws the
 * same plan from a shared seed: a split (random colours, some ranks {@code MPI.UNDEFINED}, keys
 * reversing the order), a dup and a {@code create} from a random group besides COMM_WORLD; each
 * round one collective on one of them, with a random basic type, random derived send and receive
 * types (contiguous, vector, hvector, indexed and hindexed with permuted blocks, a struct of one
 * type, resized with a gap, nested up to two levels; send and receive type maps differ but their
 * signatures match), random roots and counts (0 included, some totals over 100 KB), arrays or
 * direct buffers, in-place and nonblocking forms. Receive buffers start filled with a sentinel
 * that holes must keep; every rank checks every element of its buffers and throws on the first
 * mismatch.
 *
 * <p>Usage: {@code TypedCollectives ROUNDS SEED}.
 */
public final class TypedCollectives {

    static final long SENT = -7;
    static final long SEND_FILL = -3;
    static final Kind[] KINDS = Kind.values();
    static final Kind[] REDUCIBLE = {Kind.BYTE, Kind.CHAR, Kind.SHORT, Kind.INT, Kind.LONG, Kind.FLOAT, Kind.DOUBLE};
    static final String[] OPS = {"bcast", "gather", "gatherv", "scatter", "scatterv", "allGather", "allGatherv",
        "allToAll", "allToAllv", "allToAllw", "reduce", "allReduce", "reduceScatter", "reduceScatterBlock",
        "scan", "exScan"};

    static int size(Kind k) {
        return switch (k) {
            case BYTE -> 1;
            case CHAR, SHORT -> 2;
            case INT, FLOAT -> 4;
            case LONG, DOUBLE -> 8;
        };
    }

    /** A type map over one basic kind, in units of that kind: element offsets in type-map order. */
    static final class Layout {
        final Kind kind;
        final int[] offs;
        final int lb;
        final int ext;
        final String desc;
        final IntFunction<Datatype> maker;
        final List<Datatype> made;
        Datatype dt;

        Layout(Kind kind, int[] offs, int lb, int ext, String desc, List<Datatype> made, IntFunction<Datatype> maker) {
            this.kind = kind;
            this.offs = offs;
            this.lb = lb;
            this.ext = ext;
            this.desc = desc;
            this.made = made;
            this.maker = maker;
        }

        int n() {
            return offs.length;
        }

        int maxOff() {
            int m = 0;
            for (int o : offs) {
                m = Math.max(m, o);
            }
            return m;
        }

        Datatype dt() throws MPIException {
            if (dt == null) {
                try {
                    dt = maker.apply(0);
                } catch (RuntimeException e) {
                    if (e.getCause() instanceof MPIException m) {
                        throw m;
                    }
                    throw e;
                }
                if (dt != kind.type()) {
                    dt.commit();
                    made.add(dt);
                }
            }
            return dt;
        }

        /** Units past the last element of {@code count} items starting {@code base} units in. */
        int span(int base, int count) {
            return count == 0 ? base : base + (count - 1) * ext + maxOff() + 1;
        }

        @Override
        public String toString() {
            return desc;
        }
    }

    interface MpiMaker {
        Datatype make() throws MPIException;
    }

    static IntFunction<Datatype> wrap(MpiMaker m) {
        return x -> {
            try {
                return m.make();
            } catch (MPIException e) {
                throw new RuntimeException(e);
            }
        };
    }

    /** A random layout over {@code k}; all draws from {@code r}, no MPI call (types are made lazily). */
    static Layout gen(Random r, Kind k, int depth, List<Datatype> made) {
        int u = size(k);
        int choice = depth == 0 ? 0 : r.nextInt(9);
        if (choice == 0 || (depth == 2 && r.nextInt(4) == 0)) {
            return new Layout(k, new int[]{0}, 0, 1, k.name(), made, x -> k.type());
        }
        Layout in = gen(r, k, depth - 1, made);
        int ie = in.ext;
        switch (choice) {
            case 1 -> {
                int c = 1 + r.nextInt(4);
                int[] offs = new int[c * in.n()];
                for (int i = 0; i < c; i++) {
                    for (int e = 0; e < in.n(); e++) {
                        offs[i * in.n() + e] = i * ie + in.offs[e];
                    }
                }
                return new Layout(k, offs, in.lb, c * ie, "contig(" + c + "," + in + ")", made,
                        wrap(() -> Datatype.createContiguous(c, in.dt())));
            }
            case 2, 3 -> {
                boolean h = choice == 3;
                int count = 1 + r.nextInt(3);
                int bl = 1 + r.nextInt(3);
                int stride = bl + r.nextInt(3);
                int[] offs = new int[count * bl * in.n()];
                int p = 0;
                for (int b = 0; b < count; b++) {
                    for (int j = 0; j < bl; j++) {
                        for (int e = 0; e < in.n(); e++) {
                            offs[p++] = (b * stride + j) * ie + in.offs[e];
                        }
                    }
                }
                int ext = ((count - 1) * stride + bl) * ie;
                return new Layout(k, offs, in.lb, ext, (h ? "hvector(" : "vector(") + count + "," + bl + "," + stride + "," + in + ")", made,
                        wrap(() -> h ? Datatype.createHVector(count, bl, stride * ie * u, in.dt())
                                : Datatype.createVector(count, bl, stride, in.dt())));
            }
            case 4, 5, 6 -> {
                int kindOf = choice - 4; // 0 indexed, 1 hindexed, 2 struct
                int blocks = 1 + r.nextInt(3);
                int[] bls = new int[blocks];
                int[] ds = new int[blocks];
                int at = r.nextInt(2);
                for (int b = 0; b < blocks; b++) {
                    bls[b] = 1 + r.nextInt(3);
                    ds[b] = at;
                    at += bls[b] + r.nextInt(2);
                }
                // permute the blocks: the type map's order is the order given
                for (int b = blocks - 1; b > 0; b--) {
                    int o = r.nextInt(b + 1);
                    int t = bls[b]; bls[b] = bls[o]; bls[o] = t;
                    t = ds[b]; ds[b] = ds[o]; ds[o] = t;
                }
                List<Integer> offl = new ArrayList<>();
                int lo = Integer.MAX_VALUE;
                int hi = Integer.MIN_VALUE;
                for (int b = 0; b < blocks; b++) {
                    for (int j = 0; j < bls[b]; j++) {
                        for (int e = 0; e < in.n(); e++) {
                            offl.add((ds[b] + j) * ie + in.offs[e]);
                        }
                    }
                    lo = Math.min(lo, ds[b] * ie + in.lb);
                    hi = Math.max(hi, (ds[b] + bls[b]) * ie + in.lb);
                }
                int[] offs = offl.stream().mapToInt(Integer::intValue).toArray();
                int[] bytes = new int[blocks];
                for (int b = 0; b < blocks; b++) {
                    bytes[b] = ds[b] * ie * u;
                }
                String d = (kindOf == 0 ? "indexed(" : kindOf == 1 ? "hindexed(" : "struct(") + Arrays.toString(bls) + ","
                        + Arrays.toString(ds) + "," + in + ")";
                return new Layout(k, offs, lo, hi - lo, d, made, wrap(() -> {
                    if (kindOf == 0) {
                        return Datatype.createIndexed(bls, ds, in.dt());
                    } else if (kindOf == 1) {
                        return Datatype.createHIndexed(bls, bytes, in.dt());
                    }
                    Datatype[] ts = new Datatype[blocks];
                    Arrays.fill(ts, in.dt());
                    return Datatype.createStruct(bls, bytes, ts);
                }));
            }
            default -> {
                int lb = r.nextBoolean() ? 0 : in.lb;
                int ext = in.lb + in.ext - lb + r.nextInt(3);
                if (ext == 0) {
                    ext = 1;
                }
                int fext = ext;
                return new Layout(k, in.offs, lb, ext, "resized(" + in + "," + lb + "," + ext + ")", made,
                        wrap(() -> Datatype.createResized(in.dt(), lb * u, fext * u)));
            }
        }
    }

    // ---------------------------------------------------------------- values and images

    static long mix(long... xs) {
        long h = 0x9E3779B97F4A7C15L;
        for (long x : xs) {
            h ^= x + 0x632BE59BD9B4E019L + (h << 6) + (h >>> 2);
            h *= 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        return h;
    }

    interface Val {
        long at(int j);
    }

    /** Writes value {@code v.at(j)} of the j-th element of {@code count} items at {@code base} units into b and img. */
    static void put(Buf b, long[] img, Layout l, int base, int count, Val v) {
        int n = l.n();
        for (int i = 0; i < count; i++) {
            for (int e = 0; e < n; e++) {
                int pos = base + i * l.ext + l.offs[e];
                long x = v.at(i * n + e);
                if (b != null) {
                    b.set(pos, x);
                }
                if (img != null) {
                    img[pos] = x;
                }
            }
        }
    }

    final Random g;
    final long seed;
    final String where;
    final List<Datatype> made = new ArrayList<>();
    int round;
    String what;

    TypedCollectives(long seed, String where) {
        this.seed = seed;
        this.g = new Random(seed);
        this.where = where;
    }

    Buf buf(Kind k, int len, boolean direct, long fill) {
        Buf b = Buf.of(k, Math.max(len, 1), direct);
        b.fill(fill);
        return b;
    }

    static long[] image(int len, long fill) {
        long[] a = new long[Math.max(len, 1)];
        Arrays.fill(a, fill);
        return a;
    }

    void check(Buf b, long[] img, String which) {
        for (int i = 0; i < img.length; i++) {
            long want = b.kind.narrow(img[i]);
            long got = b.get(i);
            if (got != want) {
                throw CollCheck.fail("round " + round + " " + what + ": " + which + " (" + b.describe() + ") element "
                        + i + " is " + got + ", expected " + want + (img[i] == SENT ? " (a hole / untouched)" : ""));
            }
        }
    }

    static Object arg(Buf b) {
        return b.obj;
    }

    static Buffer nb(Buf b) {
        return b.buffer();
    }

    /** Item displacements for blocks of the given counts (items of ext units), in a random order with gaps. */
    static int[] displs(Random r, int[] counts) {
        int n = counts.length;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int o = r.nextInt(i + 1);
            int t = order[i]; order[i] = order[o]; order[o] = t;
        }
        int[] d = new int[n];
        int at = r.nextInt(2);
        for (int i : order) {
            d[i] = at;
            at += counts[i] + r.nextInt(3);
        }
        return d;
    }

    static int align(int at, int unit) {
        return (at + unit - 1) / unit * unit;
    }

    static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Elements per block: 0 sometimes, large sometimes, a multiple of unit. */
    static int elements(Random r, Kind k, int members, int unit, boolean large) {
        int e;
        int p = r.nextInt(12);
        if (p == 0) {
            e = 0;
        } else if (large && p == 1) {
            e = 110_000 / (size(k) * Math.max(members, 1)) + r.nextInt(500);
        } else {
            e = 1 + r.nextInt(40);
        }
        return (e + unit - 1) / unit * unit;
    }

    // ---------------------------------------------------------------- the program

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int rounds = Integer.parseInt(args[0]);
        long seed = Long.parseLong(args[1]);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        TypedCollectives t = new TypedCollectives(seed, "");
        Random g = t.g;

        int[] colour = new int[size];
        for (int q = 0; q < size; q++) {
            colour[q] = g.nextInt(4) == 0 ? MPI.UNDEFINED : g.nextInt(2);
        }
        Intracomm split = world.split(colour[rank], size - rank);
        List<Integer> splitMembers = new ArrayList<>();
        for (int q = size - 1; q >= 0; q--) {
            if (colour[rank] != MPI.UNDEFINED && colour[q] == colour[rank]) {
                splitMembers.add(q);
            }
        }
        if (colour[rank] == MPI.UNDEFINED) {
            CollCheck.that(split == null || split.isNull(), "split with MPI.UNDEFINED gave a communicator");
            split = null;
        } else {
            CollCheck.equal(splitMembers.size(), split.getSize(), "split size");
            CollCheck.equal(splitMembers.indexOf(rank), split.getRank(), "split rank (keys reversed)");
        }
        Intracomm dup = world.dup();
        int[] perm = new int[size];
        for (int i = 0; i < size; i++) {
            perm[i] = i;
        }
        for (int i = size - 1; i > 0; i--) {
            int o = g.nextInt(i + 1);
            int x = perm[i]; perm[i] = perm[o]; perm[o] = x;
        }
        int[] groupRanks = Arrays.copyOf(perm, 1 + g.nextInt(size));
        Group wg = world.getGroup();
        Group sub = wg.incl(groupRanks);
        Intracomm created = world.create(sub);
        int createdRank = -1;
        for (int i = 0; i < groupRanks.length; i++) {
            if (groupRanks[i] == rank) {
                createdRank = i;
            }
        }
        if (createdRank < 0) {
            CollCheck.that(created == null || created.isNull(), "create gave a communicator to a non-member");
            created = null;
        } else {
            CollCheck.equal(groupRanks.length, created.getSize(), "created size");
            CollCheck.equal(createdRank, created.getRank(), "created rank");
        }

        for (int r = 0; r < rounds; r++) {
            int which = g.nextInt(4);
            int op = g.nextInt(OPS.length);
            int variant = g.nextInt(4); // 0 plain, 1 in place, 2 nonblocking, 3 plain
            Intracomm c = switch (which) {
                case 0 -> world;
                case 1 -> dup;
                case 2 -> created;
                default -> split;
            };
            int id = which == 3 ? 10 + colour[rank] : which;
            if (c == null) {
                continue;
            }
            t.round = r;
            Random rr = new Random(mix(seed, r, id));
            t.what = OPS[op] + (variant == 1 ? " in place" : variant == 2 ? " nonblocking" : "") + " on "
                    + new String[]{"COMM_WORLD", "dup", "create", "split"}[which];
            try {
                t.run(c, OPS[op], variant, rr);
            } catch (MPIException e) {
                throw CollCheck.fail("round " + r + " " + t.what + ": " + e);
            }
            for (Datatype d : t.made) {
                d.free();
            }
            t.made.clear();
        }
        if (split != null) {
            split.free();
        }
        if (created != null) {
            created.free();
        }
        dup.free();
        world.barrier();
        CollCheck.ok("TypedCollectives");
        MPI.Finalize();
    }

    void run(Intracomm c, String op, int variant, Random r) throws MPIException {
        int n = c.getSize();
        int me = c.getRank();
        if (variant == 1 && (op.startsWith("allToAll") || op.equals("bcast"))) {
            what = what.replace(" in place", "");
        }
        boolean reduction = op.startsWith("reduce") || op.equals("allReduce") || op.endsWith("can");
        Kind k = reduction ? REDUCIBLE[r.nextInt(REDUCIBLE.length)] : KINDS[r.nextInt(KINDS.length)];
        boolean nonblocking = variant == 2;
        boolean inPlace = variant == 1;
        int root = r.nextInt(n);
        Layout ls = gen(r, k, 2, made);
        Layout lr = r.nextInt(3) == 0 ? ls : gen(r, k, 2, made);
        boolean dS = nonblocking || r.nextInt(3) == 0;
        boolean dR = nonblocking || r.nextInt(3) == 0;
        what += " of " + k + " (" + ls + " -> " + lr + ", root " + root + ")";
        if (reduction) {
            reduction(c, op, variant, r, k, lr, n, me, root, dS, dR);
            return;
        }
        int unit = ls.n() * lr.n() / gcd(ls.n(), lr.n());
        long rnd = round;
        switch (op) {
            case "bcast" -> {
                int cnt = elements(r, k, 1, lr.n(), true) / lr.n();
                int len = lr.span(0, cnt) + r.nextInt(3);
                long[] img = image(len, SENT);
                put(null, img, lr, 0, cnt, j -> 1 + Math.floorMod(mix(rnd, root, j), 100));
                Buf b = buf(k, len, dR, SENT);
                if (me == root) {
                    put(b, null, lr, 0, cnt, j -> 1 + Math.floorMod(mix(rnd, root, j), 100));
                }
                if (nonblocking) {
                    c.iBcast(nb(b), cnt, lr.dt(), root).waitFor();
                } else {
                    c.bcast(arg(b), cnt, lr.dt(), root);
                }
                check(b, img, "bcast buffer");
            }
            case "gather", "gatherv", "allGather", "allGatherv" -> {
                boolean v = op.endsWith("v");
                boolean all = op.startsWith("all");
                int[] e = new int[n];
                int common = elements(r, k, n, unit, true);
                for (int q = 0; q < n; q++) {
                    e[q] = v ? elements(r, k, n, unit, q == 0) : common;
                }
                int[] rc = new int[n];
                for (int q = 0; q < n; q++) {
                    rc[q] = e[q] / lr.n();
                }
                int[] d = new int[n];
                if (v) {
                    d = displs(r, rc);
                } else {
                    for (int q = 0; q < n; q++) {
                        d[q] = q * rc[0];
                    }
                }
                int sc = e[me] / ls.n();
                Val mine = j -> 1 + Math.floorMod(mix(rnd, me, j), 100);
                int slen = ls.span(0, sc) + r.nextInt(2);
                Buf s = buf(k, slen, dS, SEND_FILL);
                long[] simg = image(slen, SEND_FILL);
                put(s, simg, ls, 0, sc, mine);
                boolean receiver = all || me == root;
                int rlen = 0;
                for (int q = 0; q < n; q++) {
                    rlen = Math.max(rlen, lr.span(d[q] * lr.ext, rc[q]));
                }
                rlen += r.nextInt(3);
                long[] rimg = image(rlen, SENT);
                for (int q = 0; q < n; q++) {
                    int fq = q;
                    put(null, rimg, lr, d[q] * lr.ext, rc[q], j -> 1 + Math.floorMod(mix(rnd, fq, j), 100));
                }
                Buf rb = buf(k, receiver ? rlen : 1, dR, SENT);
                Datatype st = ls.dt();
                Datatype rt = lr.dt();
                if (inPlace && receiver) {
                    put(rb, null, lr, d[me] * lr.ext, rc[me], mine);
                }
                Request req = null;
                if (op.equals("gather")) {
                    if (inPlace) {
                        if (me == root) {
                            c.gather(arg(rb), rc[0], rt, root);
                        } else {
                            c.gather(arg(s), sc, st, root);
                        }
                    } else if (nonblocking) {
                        req = c.iGather(nb(s), sc, st, nb(rb), rc[0], rt, root);
                    } else {
                        c.gather(arg(s), sc, st, arg(rb), rc[0], rt, root);
                    }
                } else if (op.equals("gatherv")) {
                    if (inPlace) {
                        if (me == root) {
                            c.gatherv(arg(rb), rc, d, rt, root);
                        } else {
                            c.gatherv(arg(s), sc, st, root);
                        }
                    } else if (nonblocking) {
                        req = c.iGatherv(nb(s), sc, st, nb(rb), rc, d, rt, root);
                    } else {
                        c.gatherv(arg(s), sc, st, arg(rb), rc, d, rt, root);
                    }
                } else if (op.equals("allGather")) {
                    if (inPlace) {
                        c.allGather(arg(rb), rc[0], rt);
                    } else if (nonblocking) {
                        req = c.iAllGather(nb(s), sc, st, nb(rb), rc[0], rt);
                    } else {
                        c.allGather(arg(s), sc, st, arg(rb), rc[0], rt);
                    }
                } else {
                    if (inPlace) {
                        c.allGatherv(arg(rb), rc, d, rt);
                    } else if (nonblocking) {
                        req = c.iAllGatherv(nb(s), sc, st, nb(rb), rc, d, rt);
                    } else {
                        c.allGatherv(arg(s), sc, st, arg(rb), rc, d, rt);
                    }
                }
                if (req != null) {
                    req.waitFor();
                }
                check(s, simg, "send buffer");
                if (receiver) {
                    check(rb, rimg, "receive buffer");
                }
            }
            case "scatter", "scatterv" -> {
                boolean v = op.endsWith("v");
                int[] e = new int[n];
                int common = elements(r, k, n, unit, true);
                for (int q = 0; q < n; q++) {
                    e[q] = v ? elements(r, k, n, unit, q == 0) : common;
                }
                int[] sc = new int[n];
                for (int q = 0; q < n; q++) {
                    sc[q] = e[q] / ls.n();
                }
                int[] d = new int[n];
                if (v) {
                    d = displs(r, sc);
                } else {
                    for (int q = 0; q < n; q++) {
                        d[q] = q * sc[0];
                    }
                }
                int rc = e[me] / lr.n();
                int slen = 0;
                for (int q = 0; q < n; q++) {
                    slen = Math.max(slen, ls.span(d[q] * ls.ext, sc[q]));
                }
                slen += r.nextInt(2);
                boolean isRoot = me == root;
                Buf s = buf(k, isRoot ? slen : 1, dS, SEND_FILL);
                long[] simg = image(isRoot ? slen : 1, SEND_FILL);
                if (isRoot) {
                    for (int q = 0; q < n; q++) {
                        int fq = q;
                        put(s, simg, ls, d[q] * ls.ext, sc[q], j -> 1 + Math.floorMod(mix(rnd, fq, j), 100));
                    }
                }
                int rlen = lr.span(0, rc) + r.nextInt(3);
                Buf rb = buf(k, rlen, dR, SENT);
                long[] rimg = image(rlen, SENT);
                if (!(inPlace && isRoot)) {
                    put(null, rimg, lr, 0, rc, j -> 1 + Math.floorMod(mix(rnd, me, j), 100));
                }
                Datatype st = ls.dt();
                Datatype rt = lr.dt();
                Request req = null;
                if (!v) {
                    if (inPlace) {
                        if (isRoot) {
                            c.scatter(arg(s), sc[0], st, root);
                        } else {
                            c.scatter(arg(rb), rc, rt, root);
                        }
                    } else if (nonblocking) {
                        req = c.iScatter(nb(s), sc[0], st, nb(rb), rc, rt, root);
                    } else {
                        c.scatter(arg(s), sc[0], st, arg(rb), rc, rt, root);
                    }
                } else {
                    if (inPlace) {
                        if (isRoot) {
                            c.scatterv(arg(s), sc, d, st, root);
                        } else {
                            c.scatterv(arg(rb), rc, rt, root);
                        }
                    } else if (nonblocking) {
                        req = c.iScatterv(nb(s), sc, d, st, nb(rb), rc, rt, root);
                    } else {
                        c.scatterv(arg(s), sc, d, st, arg(rb), rc, rt, root);
                    }
                }
                if (req != null) {
                    req.waitFor();
                }
                check(s, simg, "send buffer");
                check(rb, rimg, "receive buffer");
            }
            case "allToAll", "allToAllv" -> {
                boolean v = op.endsWith("v");
                int[][] e = new int[n][n];
                int common = elements(r, k, n * n, unit, true);
                for (int a = 0; a < n; a++) {
                    for (int b = 0; b < n; b++) {
                        e[a][b] = v ? elements(r, k, n * n, unit, a == b) : common;
                    }
                }
                int[][] sd = new int[n][];
                int[][] rd = new int[n][];
                int[] sc = new int[n];
                int[] rc = new int[n];
                for (int a = 0; a < n; a++) {
                    int[] scA = new int[n];
                    int[] rcA = new int[n];
                    for (int b = 0; b < n; b++) {
                        scA[b] = e[a][b] / ls.n();
                        rcA[b] = e[b][a] / lr.n();
                    }
                    if (v) {
                        sd[a] = displs(r, scA);
                        rd[a] = displs(r, rcA);
                    } else {
                        sd[a] = new int[n];
                        rd[a] = new int[n];
                        for (int b = 0; b < n; b++) {
                            sd[a][b] = b * scA[0];
                            rd[a][b] = b * rcA[0];
                        }
                    }
                    if (a == me) {
                        sc = scA;
                        rc = rcA;
                    }
                }
                int slen = 0;
                int rlen = 0;
                for (int q = 0; q < n; q++) {
                    slen = Math.max(slen, ls.span(sd[me][q] * ls.ext, sc[q]));
                    rlen = Math.max(rlen, lr.span(rd[me][q] * lr.ext, rc[q]));
                }
                slen += r.nextInt(2);
                rlen += r.nextInt(2);
                Buf s = buf(k, slen, dS, SEND_FILL);
                long[] simg = image(slen, SEND_FILL);
                Buf rb = buf(k, rlen, dR, SENT);
                long[] rimg = image(rlen, SENT);
                for (int q = 0; q < n; q++) {
                    int fq = q;
                    put(s, simg, ls, sd[me][q] * ls.ext, sc[q], j -> 1 + Math.floorMod(mix(rnd, me, fq, j), 100));
                    put(null, rimg, lr, rd[me][q] * lr.ext, rc[q], j -> 1 + Math.floorMod(mix(rnd, fq, me, j), 100));
                }
                Datatype st = ls.dt();
                Datatype rt = lr.dt();
                if (!v) {
                    if (nonblocking) {
                        c.iAllToAll(nb(s), sc[0], st, nb(rb), rc[0], rt).waitFor();
                    } else {
                        c.allToAll(arg(s), sc[0], st, arg(rb), rc[0], rt);
                    }
                } else if (nonblocking) {
                    c.iAllToAllv(nb(s), sc, sd[me], st, nb(rb), rc, rd[me], rt).waitFor();
                } else {
                    c.allToAllv(arg(s), sc, sd[me], st, arg(rb), rc, rd[me], rt);
                }
                check(s, simg, "send buffer");
                check(rb, rimg, "receive buffer");
            }
            case "allToAllw" -> {
                Layout[][] sl = new Layout[n][n];
                Layout[][] rl = new Layout[n][n];
                int[][] e = new int[n][n];
                for (int a = 0; a < n; a++) {
                    for (int b = 0; b < n; b++) {
                        sl[a][b] = gen(r, k, 2, made);
                        rl[a][b] = gen(r, k, 2, made);
                        int u = sl[a][b].n() * rl[a][b].n() / gcd(sl[a][b].n(), rl[a][b].n());
                        e[a][b] = elements(r, k, n * n, u, a == b);
                    }
                }
                // my sends go to b with sl[me][b]; my receives from a with rl[a][me]
                int[] sc = new int[n];
                int[] rc = new int[n];
                int[] sdu = new int[n];
                int[] rdu = new int[n];
                int sat = 0;
                int rat = 0;
                for (int q = 0; q < n; q++) {
                    sc[q] = e[me][q] / sl[me][q].n();
                    rc[q] = e[q][me] / rl[q][me].n();
                }
                // byte displacements: whole extents of the block's type or not
                boolean anyS = r.nextBoolean();
                boolean anyR = r.nextBoolean();
                for (int q = n - 1; q >= 0; q--) {
                    sdu[q] = anyS ? sat : align(sat, sl[me][q].ext);
                    sat = sl[me][q].span(sdu[q], sc[q]) + r.nextInt(2);
                    rdu[q] = anyR ? rat : align(rat, rl[q][me].ext);
                    rat = rl[q][me].span(rdu[q], rc[q]) + r.nextInt(2);
                }
                Buf s = buf(k, sat + 1, dS, SEND_FILL);
                long[] simg = image(sat + 1, SEND_FILL);
                Buf rb = buf(k, rat + 1, dR, SENT);
                long[] rimg = image(rat + 1, SENT);
                Datatype[] st = new Datatype[n];
                Datatype[] rt = new Datatype[n];
                int[] sdb = new int[n];
                int[] rdb = new int[n];
                for (int q = 0; q < n; q++) {
                    int fq = q;
                    put(s, simg, sl[me][q], sdu[q], sc[q], j -> 1 + Math.floorMod(mix(rnd, me, fq, j), 100));
                    put(null, rimg, rl[q][me], rdu[q], rc[q], j -> 1 + Math.floorMod(mix(rnd, fq, me, j), 100));
                    st[q] = sl[me][q].dt();
                    rt[q] = rl[q][me].dt();
                    sdb[q] = sdu[q] * size(k);
                    rdb[q] = rdu[q] * size(k);
                }
                what += " w-types to me " + Arrays.toString(Arrays.stream(rl).map(x -> x[me]).toArray())
                        + " counts " + Arrays.toString(rc);
                if (nonblocking) {
                    c.iAllToAllw(nb(s), sc, sdb, st, nb(rb), rc, rdb, rt).waitFor();
                } else {
                    c.allToAllw(arg(s), sc, sdb, st, arg(rb), rc, rdb, rt);
                }
                check(s, simg, "send buffer");
                check(rb, rimg, "receive buffer");
            }
            default -> throw new IllegalStateException(op);
        }
    }

    // ---------------------------------------------------------------- reductions

    static Op pickOp(Random r, Kind k, long[] range) {
        boolean integer = k != Kind.FLOAT && k != Kind.DOUBLE;
        // BYTE is MPI_UINT8_T and CHAR unsigned (docs/api.md): MAX and MIN compare them unsigned
        boolean unsigned = k == Kind.BYTE || k == Kind.CHAR;
        int x = r.nextInt(integer ? 9 : 4);
        switch (x) {
            case 0 -> {
                range[0] = 0;
                range[1] = 15;
                return MPI.SUM;
            }
            case 1 -> {
                range[0] = 1;
                range[1] = 2;
                return MPI.PROD;
            }
            case 2 -> {
                range[0] = unsigned ? 0 : -50;
                range[1] = 50;
                return MPI.MAX;
            }
            case 3 -> {
                range[0] = unsigned ? 0 : -50;
                range[1] = 50;
                return MPI.MIN;
            }
            case 4, 5, 6 -> {
                range[0] = 0;
                range[1] = 127;
                return x == 4 ? MPI.BAND : x == 5 ? MPI.BOR : MPI.BXOR;
            }
            default -> {
                range[0] = 0;
                range[1] = 2;
                return x == 7 ? MPI.LAND : MPI.LOR;
            }
        }
    }

    static long fold(Op op, long a, long b) {
        if (op == MPI.SUM) {
            return a + b;
        } else if (op == MPI.PROD) {
            return a * b;
        } else if (op == MPI.MAX) {
            return Math.max(a, b);
        } else if (op == MPI.MIN) {
            return Math.min(a, b);
        } else if (op == MPI.BAND) {
            return a & b;
        } else if (op == MPI.BOR) {
            return a | b;
        } else if (op == MPI.BXOR) {
            return a ^ b;
        } else if (op == MPI.LAND) {
            return a != 0 && b != 0 ? 1 : 0;
        }
        return a != 0 || b != 0 ? 1 : 0;
    }

    void reduction(Intracomm c, String op, int variant, Random r, Kind k, Layout l, int n, int me, int root,
                   boolean dS, boolean dR) throws MPIException {
        long[] range = new long[2];
        Op o = pickOp(r, k, range);
        boolean inPlace = variant == 1;
        boolean nonblocking = variant == 2;
        long rnd = round;
        long span = range[1] - range[0] + 1;
        int[] counts = new int[n];
        int block = elements(r, k, n, l.n(), true) / l.n();
        for (int q = 0; q < n; q++) {
            counts[q] = op.equals("reduceScatter") ? elements(r, k, n, l.n(), q == 0) / l.n() : block;
        }
        int total = switch (op) {
            case "reduceScatter" -> Arrays.stream(counts).sum();
            case "reduceScatterBlock" -> block * n;
            default -> block;
        };
        what += " " + opName(o) + " count " + total;
        // which ranks' contributions my result folds, and from which item it starts
        int lo = 0;
        int hi = n - 1;
        int first = 0;
        int mine = total;
        boolean receives = true;
        switch (op) {
            case "reduce" -> receives = me == root;
            case "scan" -> hi = me;
            case "exScan" -> {
                hi = me - 1;
                receives = me > 0;
            }
            case "reduceScatter" -> {
                for (int q = 0; q < me; q++) {
                    first += counts[q];
                }
                mine = counts[me];
            }
            case "reduceScatterBlock" -> {
                first = me * block;
                mine = block;
            }
            default -> {
            }
        }
        long[] res = new long[mine * l.n()];
        int off = first * l.n();
        for (int j = 0; j < res.length; j++) {
            long acc = 0;
            for (int q = lo; q <= hi; q++) {
                long x = range[0] + Math.floorMod(mix(rnd, q, j + off), span);
                acc = q == lo ? x : fold(o, acc, x);
            }
            res[j] = acc;
        }
        int slen = l.span(0, total) + r.nextInt(2);
        int rlen = l.span(0, inPlace ? total : mine) + r.nextInt(2);
        Val input = j -> range[0] + Math.floorMod(mix(rnd, me, j), span);
        Buf s = buf(k, slen, dS, SEND_FILL);
        long[] simg = image(slen, SEND_FILL);
        put(s, simg, l, 0, total, input);
        Buf rb = buf(k, rlen, dR, SENT);
        long[] rimg = image(rlen, SENT);
        if (inPlace) {
            put(rb, rimg, l, 0, total, input);
        }
        if (receives) {
            put(null, rimg, l, 0, mine, j -> res[j]);
        }
        Datatype t = l.dt();
        Request req = null;
        switch (op) {
            case "reduce" -> {
                if (inPlace) {
                    c.reduce(arg(me == root ? rb : s), total, t, o, root);
                } else if (nonblocking) {
                    req = c.iReduce(nb(s), nb(rb), total, t, o, root);
                } else {
                    c.reduce(arg(s), arg(rb), total, t, o, root);
                }
            }
            case "allReduce" -> {
                if (inPlace) {
                    c.allReduce(arg(rb), total, t, o);
                } else if (nonblocking) {
                    req = c.iAllReduce(nb(s), nb(rb), total, t, o);
                } else {
                    c.allReduce(arg(s), arg(rb), total, t, o);
                }
            }
            case "scan" -> {
                if (inPlace) {
                    c.scan(arg(rb), total, t, o);
                } else if (nonblocking) {
                    req = c.iScan(nb(s), nb(rb), total, t, o);
                } else {
                    c.scan(arg(s), arg(rb), total, t, o);
                }
            }
            case "exScan" -> {
                if (inPlace) {
                    c.exScan(arg(rb), total, t, o);
                } else if (nonblocking) {
                    req = c.iExScan(nb(s), nb(rb), total, t, o);
                } else {
                    c.exScan(arg(s), arg(rb), total, t, o);
                }
            }
            case "reduceScatter" -> {
                if (inPlace) {
                    c.reduceScatter(arg(rb), counts, t, o);
                } else if (nonblocking) {
                    req = c.iReduceScatter(nb(s), nb(rb), counts, t, o);
                } else {
                    c.reduceScatter(arg(s), arg(rb), counts, t, o);
                }
            }
            default -> {
                if (inPlace) {
                    c.reduceScatterBlock(arg(rb), block, t, o);
                } else if (nonblocking) {
                    req = c.iReduceScatterBlock(nb(s), nb(rb), block, t, o);
                } else {
                    c.reduceScatterBlock(arg(s), arg(rb), block, t, o);
                }
            }
        }
        if (req != null) {
            req.waitFor();
        }
        check(s, simg, "send buffer");
        if (receives) {
            check(rb, rimg, "receive buffer");
        } else if (!inPlace && !op.equals("exScan")) {
            check(rb, rimg, "receive buffer (not a receiver: untouched)");
        }
    }

    static String opName(Op o) {
        String[] names = {"SUM", "PROD", "MAX", "MIN", "BAND", "BOR", "BXOR", "LAND", "LOR"};
        Op[] ops = {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN, MPI.BAND, MPI.BOR, MPI.BXOR, MPI.LAND, MPI.LOR};
        for (int i = 0; i < ops.length; i++) {
            if (ops[i] == o) {
                return names[i];
            }
        }
        return "?";
    }
}
