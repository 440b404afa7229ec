package io.bdmpi.tests.programs.topology;

import io.bdmpi.tests.programs.Check;

import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

import mpi.CartComm;
import mpi.CartParms;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.GraphParms;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;

import static io.bdmpi.tests.programs.Models.indexOf;
import static io.bdmpi.tests.programs.Models.range;
import static io.bdmpi.tests.programs.Models.weighted;

/**
 * Random process topologies and neighbourhood collectives checked against a model every rank keeps:
 * a plan drawn from a seed all ranks share picks, each round, the parent (COMM_WORLD, or the parts of
 * a random split of it with UNDEFINED colours and tied keys) and one kind of topology made on each
 * part:
 * <ul>
 *   <li>a cartesian grid ({@code createCart}) of 1 to 3 dimensions, some of extent 1, with random
 *       periods and {@code reorder}, its dims given or filled in by {@code CartComm.createDims} (checked
 *       against MPI's rule: as close to each other as possible, non-increasing), often with fewer
 *       ranks than the parent (the others must get a null communicator). Checked: {@code getTopology},
 *       {@code getTopo}, {@code getCoords} and {@code getRank} of every rank, {@code getRank} with
 *       coordinates wrapped on periodic dimensions and out of range on the others (an error),
 *       {@code shift} with positive, negative and zero displacements ({@code MPI.PROC_NULL} past
 *       non-periodic edges), {@code sendRecv} along shifts (PROC_NULL included), {@code sub} (sizes,
 *       ranks, coordinates, with its own neighbourhood collectives) and {@code map};</li>
 *   <li>a graph ({@code createGraph}), symmetric with self-loops and repeated edges (neighbourhood
 *       collectives need a symmetric adjacency) or, sometimes, not symmetric (queries only):
 *       {@code getDims}, {@code getNeighbors} of every node, {@code map}, and ERR_TOPOLOGY for
 *       {@code getDistGraphNeighbors};</li>
 *   <li>a distributed graph by {@code createDistGraphAdjacent}, weighted or not, random directed
 *       multigraph with self-loops, neighbours in a random order: {@code getDistGraphNeighbors} must
 *       give the order given;</li>
 *   <li>a distributed graph by {@code createDistGraph}, each edge given by a random rank (not always
 *       one of its ends), so the graph must be assembled: in- and out-neighbours (with weights)
 *       compared as multisets, as MPI leaves their order open;</li>
 *   <li>{@code CartComm.createDims} alone, 1 to 4 dimensions, some fixed, up to 100 nodes, and sizes
 *       such as 20 over 4 free dimensions, where the largest and smallest factors do not settle the
 *       answer ([5, 2, 2, 1], not [5, 4, 1, 1]); an ERR_DIMS error for a fixed entry that does not
 *       divide. Every result must keep the fixed entries, fill the others non-increasing, multiply
 *       to the size and be as balanced as MPICH makes it (the smallest spread, then the smallest
 *       sum).</li>
 * </ul>
 * On every topology made: an {@code allReduce} of world ranks, and a phase of 1 to 4 neighbourhood
 * collectives drawn from {@code neighborAllGather}, {@code neighborAllGatherv}, {@code neighborAllToAll},
 * {@code neighborAllToAllv} and their {@code iNeighbor...} forms (direct buffers; the blocking ones
 * with arrays or direct buffers), several outstanding at once. Every item sent encodes (round,
 * operation, sender's world rank, receiver, send block, item), receive buffers start filled with
 * sentinels, and every received block is checked against MPI's neighbour order (cartesian: per
 * dimension the -1 then the +1 neighbour, what a rank sends towards +1 landing in its neighbour's -1
 * block; graphs: the {@code getNeighbors} order, the k-th of repeated edges between two ranks
 * matching the k-th); blocks of PROC_NULL neighbours and gaps must keep their sentinels. Everything
 * made is freed. The nonblocking forms must refuse heap buffers (IllegalArgumentException).
 * Errors come back as exceptions ({@code MPI.ERRORS_RETURN} on COMM_WORLD, inherited by what is made
 * from it), so the erroneous calls ({@code getRank} out of range on a non-periodic dimension, graph
 * queries of the wrong kind, ERR_TOPOLOGY) are checked too.
 *
 * <p>Usage: {@code TopologyTraffic [rounds [seed]]}.
 */
public final class TopologyTraffic {

    private static final String[] OPS = {"cart", "graph", "dist graph adjacent", "dist graph", "createDims"};
    private static final int CART = 0, GRAPH = 1, ADJACENT = 2, DIST = 3, DIMS = 4;
    /** Relative frequency of each operation. */
    private static final int[] WEIGHT = {4, 3, 2, 2, 1};
    private static final String[] FORMS = {"neighborAllGather", "neighborAllGatherv", "neighborAllToAll",
        "neighborAllToAllv", "iNeighborAllGather", "iNeighborAllGatherv", "iNeighborAllToAll", "iNeighborAllToAllv"};
    private static final String[] COMPLETE = {"waitAll", "waitFor each", "testAll loop"};
    /** Receiver and slot fields of an allGather item (the same items go to every out-neighbour). */
    private static final int ANY = 255;
    /** Receiver field of a block sent to PROC_NULL (never delivered). */
    private static final int NOBODY = 254;

    private static int world;
    private static int worldSize;
    private static long seed;
    private static final int[] counts = new int[OPS.length];
    private static final int[] formCounts = new int[FORMS.length];
    private static int procNullBlocks;
    private static int subGrids;

    /** One part of the parent: its world ranks in rank order, and the communicator if this rank is one. */
    private record Part(int[] members, Intracomm comm, String how) {
    }

    /**
     * A topology as its neighbourhood collectives see it, from this rank: its in- and out-neighbours
     * (topology ranks, PROC_NULL at grid edges), the world rank of each topology rank, and every
     * rank's out-neighbours when the model knows their order (null when MPI leaves it open).
     */
    private record Nbr(String desc, int me, int[] in, int[] out, int[] worldOf, int[][] outOf, boolean cart,
                       int[] outDegree) {
    }

    private TopologyTraffic() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        world = MPI.COMM_WORLD.getRank();
        worldSize = MPI.COMM_WORLD.getSize();
        // Errors come back as exceptions (an unexpected one still ends the rank): the erroneous calls are checked.
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        Check.equal(MPI.UNDEFINED, MPI.COMM_WORLD.getTopology(), "getTopology of COMM_WORLD");
        Random plan = new Random(seed);
        for (int round = 0; round < rounds; round++) {
            int op = weighted(plan, WEIGHT);
            counts[op]++;
            String where = "round " + round + ", " + OPS[op];
            Random local = new Random(seed * 1_000_003L + round * 1009L + world);
            if (op == DIMS) {
                dims(plan, where);
                continue;
            }
            List<Part> parts = parents(plan, where);
            for (Part part : parts) {
                // One generator per part, drawn by every rank, so that the plan stays the same everywhere.
                Random p = new Random(plan.nextLong());
                if (part.comm() == null) {
                    continue;
                }
                String at = where + " on " + part.how();
                switch (op) {
                    case CART -> cart(p, local, round, at, part);
                    case GRAPH -> graph(p, local, round, at, part);
                    case ADJACENT -> adjacent(p, local, round, at, part);
                    default -> distGraph(p, local, round, at, part);
                }
            }
            for (Part part : parts) {
                if (part.comm() != null && part.comm() != MPI.COMM_WORLD) {
                    part.comm().free();
                }
            }
        }
        if (world == 0) {
            StringBuilder b = new StringBuilder("TopologyTraffic plan:");
            for (int i = 0; i < OPS.length; i++) {
                b.append(' ').append(OPS[i]).append(' ').append(counts[i]).append(',');
            }
            for (int i = 0; i < FORMS.length; i++) {
                b.append(' ').append(FORMS[i]).append(' ').append(formCounts[i]).append(',');
            }
            System.out.println(b.append(" sub-grids ").append(subGrids).append(", PROC_NULL blocks seen by rank 0 ")
                    .append(procNullBlocks));
        }
        MPI.COMM_WORLD.barrier();
        Check.ok("TopologyTraffic");
        MPI.Finalize();
    }

    // ---------------------------------------------------------------- parents

    /** COMM_WORLD, or the parts of a random split of it (each with its members in split order). */
    private static List<Part> parents(Random plan, String where) throws MPIException {
        List<Part> parts = new ArrayList<>();
        if (plan.nextInt(5) < 2) {
            parts.add(new Part(range(worldSize), MPI.COMM_WORLD, "COMM_WORLD"));
            return parts;
        }
        int[] colour = new int[worldSize];
        int[] key = new int[worldSize];
        for (int w = 0; w < worldSize; w++) {
            colour[w] = plan.nextInt(5) == 0 ? MPI.UNDEFINED : plan.nextInt(2);
            key[w] = plan.nextInt(3) - 1;
        }
        Intracomm c = MPI.COMM_WORLD.split(colour[world], key[world]);
        if (colour[world] == MPI.UNDEFINED) {
            Check.that(c.isNull(), where + ": split with colour UNDEFINED should give a null communicator");
            c = null;
        }
        for (int col = 0; col < 2; col++) {
            List<Integer> idx = new ArrayList<>();
            for (int w = 0; w < worldSize; w++) {
                if (colour[w] == col) {
                    idx.add(w);
                }
            }
            if (idx.isEmpty()) {
                continue;
            }
            idx.sort(Comparator.<Integer>comparingInt(w -> key[w]).thenComparingInt(w -> w));
            int[] members = idx.stream().mapToInt(Integer::intValue).toArray();
            String how = "split colour " + col + " " + Arrays.toString(members);
            boolean mine = colour[world] == col;
            if (mine) {
                Check.equal(members.length, c.getSize(), where + ": getSize of " + how);
                Check.equal(indexOf(members, world), c.getRank(), where + ": getRank in " + how);
                Check.equal(MPI.UNDEFINED, c.getTopology(), where + ": getTopology of " + how);
            }
            parts.add(new Part(members, mine ? c : null, how));
        }
        return parts;
    }

    // ---------------------------------------------------------------- cartesian grids

    private static void cart(Random p, Random local, int round, String where, Part part) throws MPIException {
        Intracomm parent = part.comm();
        int n = part.members().length;
        int nd = 1 + p.nextInt(3);
        int[] dims;
        String from;
        if (p.nextBoolean()) {
            int m = p.nextInt(3) == 0 ? n : 1 + p.nextInt(n);
            int[] given = constraints(p, m, nd);
            dims = given.clone();
            CartComm.createDims(m, dims);
            checkDims(m, given, dims, where);
            from = "createDims(" + m + ", " + Arrays.toString(given) + ")";
        } else {
            dims = new int[nd];
            int prod = 1;
            for (int d = 0; d < nd; d++) {
                dims[d] = 1 + p.nextInt(n / prod);
                prod *= dims[d];
            }
            for (int d = nd - 1; d > 0; d--) {
                int e = p.nextInt(d + 1);
                int t = dims[d];
                dims[d] = dims[e];
                dims[e] = t;
            }
            from = "random dims";
        }
        boolean[] periods = new boolean[nd];
        for (int d = 0; d < nd; d++) {
            periods[d] = p.nextBoolean();
        }
        boolean reorder = p.nextBoolean();
        int m = product(dims);
        String desc = "cart dims " + Arrays.toString(dims) + " (" + from + ") periods " + Arrays.toString(periods)
                + " reorder " + reorder + " over " + part.how();
        CartComm cart = parent.createCart(dims, periods, reorder);
        int pr = parent.getRank();
        Check.that(cart != null, where + ": createCart returned null for " + desc);
        Check.that(cart.isNull() == (pr >= m), where + ": " + desc + ": isNull() is " + cart.isNull() + " for parent rank "
                + pr + " of a grid of " + m);
        if (cart.isNull()) {
            return;
        }
        int[] members = Arrays.copyOf(part.members(), m);
        // bdmpi keeps the parent's order whatever reorder says (docs/api.md), which MPI allows.
        checkCart(p, local, round, where, desc, cart, dims, periods, members, true);
        cart.free();
        Check.that(cart.isNull(), where + ": " + desc + " is not null after free");
    }

    /** Checks a grid made from {@code members} (world ranks in grid-rank order) and exercises it. */
    private static void checkCart(Random p, Random local, int round, String where, String desc, CartComm cart,
                                  int[] dims, boolean[] periods, int[] members, boolean deep) throws MPIException {
        String what = where + ": " + desc;
        int nd = dims.length;
        int m = members.length;
        int me = indexOf(members, world);
        Check.equal(MPI.CART, cart.getTopology(), what + ": getTopology");
        Check.equal(m, cart.getSize(), what + ": getSize");
        Check.equal(me, cart.getRank(), what + ": getRank");
        CartParms t = cart.getTopo();
        Check.equal(nd, t.getDimCount(), what + ": getTopo dim count");
        for (int d = 0; d < nd; d++) {
            Check.equal(dims[d], t.getDim(d), what + ": getTopo dim " + d);
            Check.equal(periods[d], t.getPeriod(d), what + ": getTopo period " + d);
        }
        int[] myCoords = coords(dims, me);
        for (int d = 0; d < nd; d++) {
            Check.equal(myCoords[d], t.getCoord(d), what + ": getTopo coordinate " + d + " of rank " + me);
        }
        for (int r = 0; r < m; r++) {
            int[] c = coords(dims, r);
            Check.equal(Arrays.toString(c), Arrays.toString(cart.getCoords(r)), what + ": getCoords(" + r + ")");
            Check.equal(r, cart.getRank(c), what + ": getRank(" + Arrays.toString(c) + ")");
            int[] wrapped = c.clone();
            boolean any = false;
            for (int d = 0; d < nd; d++) {
                if (periods[d]) {
                    wrapped[d] += dims[d] * (local.nextInt(5) - 2);
                    any = true;
                }
            }
            if (any) {
                Check.equal(r, cart.getRank(wrapped), what + ": getRank(" + Arrays.toString(wrapped)
                        + ") (wraps on the periodic dimensions)");
            }
        }
        for (int d = 0; d < nd; d++) {
            if (!periods[d]) {
                int[] c = myCoords.clone();
                c[d] = local.nextBoolean() ? -1 - local.nextInt(2) : dims[d] + local.nextInt(2);
                try {
                    int got = cart.getRank(c);
                    throw Check.fail(what + ": getRank(" + Arrays.toString(c) + "), out of range on non-periodic"
                            + " dimension " + d + ", should be an error, got " + got);
                } catch (MPIException e) {
                    // erroneous in MPI; bdmpi raises it (docs: "on the others they raise an error")
                }
            }
        }
        for (int d = 0; d < nd; d++) {
            for (int disp = -3; disp <= 3; disp++) {
                ShiftParms s = cart.shift(d, disp);
                Check.equal(shiftRank(dims, periods, me, d, -disp), s.getRankSource(),
                        what + ": shift(" + d + ", " + disp + ") source of rank " + me);
                Check.equal(shiftRank(dims, periods, me, d, disp), s.getRankDest(),
                        what + ": shift(" + d + ", " + disp + ") destination of rank " + me);
            }
        }
        // sendRecv along shifts all ranks make alike.
        int shifts = nd == 0 ? 0 : 1 + p.nextInt(3); // a sub-grid keeping no dimension has none
        for (int k = 0; k < shifts; k++) {
            int d = p.nextInt(nd);
            int disp = p.nextInt(7) - 3;
            int tag = p.nextInt(50);
            ShiftParms s = cart.shift(d, disp);
            int src = shiftRank(dims, periods, me, d, -disp);
            int dst = shiftRank(dims, periods, me, d, disp);
            long[] got = {-11, -12, -13};
            Status st = cart.sendRecv(new long[] {world, round, disp}, 3, MPI.LONG, s.getRankDest(), tag,
                    got, 3, MPI.LONG, s.getRankSource(), tag);
            String sw = what + ": sendRecv along shift(" + d + ", " + disp + ") (to " + dst + ", from " + src + ")";
            if (src == MPI.PROC_NULL) {
                Check.equal("[-11, -12, -13]", Arrays.toString(got), sw + ": buffer after a receive from PROC_NULL");
                Check.equal(MPI.PROC_NULL, st.getSource(), sw + ": status source");
                Check.equal(MPI.ANY_TAG, st.getTag(), sw + ": status tag of a receive from PROC_NULL");
                Check.equal(0, st.getCount(MPI.LONG), sw + ": status count of a receive from PROC_NULL");
            } else {
                Check.equal(Arrays.toString(new long[] {members[src], round, disp}), Arrays.toString(got), sw + ": payload");
                Check.equal(src, st.getSource(), sw + ": status source");
                Check.equal(tag, st.getTag(), sw + ": status tag");
                Check.equal(3, st.getCount(MPI.LONG), sw + ": status count");
            }
        }
        allReduce(cart, members, what);
        int[] nbrs = new int[2 * nd];
        for (int d = 0; d < nd; d++) {
            nbrs[2 * d] = shiftRank(dims, periods, me, d, -1);
            nbrs[2 * d + 1] = shiftRank(dims, periods, me, d, 1);
        }
        int[] outDegree = new int[m];
        Arrays.fill(outDegree, 2 * nd);
        neighbourhood(p, round, where, cart, new Nbr(desc, me, nbrs, nbrs, members, null, true, outDegree), 0);
        if (!deep) {
            return;
        }
        // map: ranks keep their order in bdmpi, so each gets its own rank, or UNDEFINED past the grid.
        int[] mapDims = new int[1 + p.nextInt(3)];
        int prod = 1;
        for (int d = 0; d < mapDims.length; d++) {
            mapDims[d] = 1 + p.nextInt(m / prod);
            prod *= mapDims[d];
        }
        boolean[] mapPeriods = new boolean[mapDims.length];
        for (int d = 0; d < mapDims.length; d++) {
            mapPeriods[d] = p.nextBoolean();
        }
        Check.equal(me < prod ? me : MPI.UNDEFINED, cart.map(mapDims, mapPeriods),
                what + ": map(" + Arrays.toString(mapDims) + ", " + Arrays.toString(mapPeriods) + ")");
        // sub
        boolean[] remain = new boolean[nd];
        for (int d = 0; d < nd; d++) {
            remain[d] = p.nextBoolean();
        }
        CartComm sub = cart.sub(remain);
        subGrids++;
        List<Integer> subRanks = new ArrayList<>();
        for (int r = 0; r < m; r++) {
            int[] c = coords(dims, r);
            boolean same = true;
            for (int d = 0; d < nd; d++) {
                same &= remain[d] || c[d] == myCoords[d];
            }
            if (same) {
                subRanks.add(r);
            }
        }
        int[] subMembers = subRanks.stream().mapToInt(r -> members[r]).toArray();
        int kept = 0;
        for (boolean b : remain) {
            kept += b ? 1 : 0;
        }
        int[] subDims = new int[kept];
        boolean[] subPeriods = new boolean[kept];
        int[] subCoords = new int[kept];
        for (int d = 0, k = 0; d < nd; d++) {
            if (remain[d]) {
                subDims[k] = dims[d];
                subPeriods[k] = periods[d];
                subCoords[k++] = myCoords[d];
            }
        }
        String subDesc = "sub " + Arrays.toString(remain) + " of " + desc;
        Check.that(sub != null && !sub.isNull(), what + ": sub(" + Arrays.toString(remain) + ") gave a null communicator");
        Check.equal(Arrays.toString(subCoords), Arrays.toString(sub.getTopo().coords), where + ": " + subDesc
                + ": coordinates in the sub-grid");
        checkCart(p, local, round, where, subDesc, sub, subDims, subPeriods, subMembers, false);
        sub.free();
    }

    /** The rank {@code disp} steps along dimension {@code d} from {@code rank}, PROC_NULL past a non-periodic edge. */
    private static int shiftRank(int[] dims, boolean[] periods, int rank, int d, int disp) {
        int[] c = coords(dims, rank);
        int to = c[d] + disp;
        if (!periods[d] && (to < 0 || to >= dims[d])) {
            return MPI.PROC_NULL;
        }
        c[d] = Math.floorMod(to, dims[d]);
        return rankOf(dims, c);
    }

    /** Row-major coordinates: the last dimension varies fastest. */
    private static int[] coords(int[] dims, int rank) {
        int[] c = new int[dims.length];
        for (int d = dims.length - 1; d >= 0; d--) {
            c[d] = rank % dims[d];
            rank /= dims[d];
        }
        return c;
    }

    private static int rankOf(int[] dims, int[] c) {
        int r = 0;
        for (int d = 0; d < dims.length; d++) {
            r = r * dims[d] + c[d];
        }
        return r;
    }

    // ---------------------------------------------------------------- createDims

    /** Random constraints for createDims(m, ·): zeros to fill and fixed entries that divide m. */
    private static int[] constraints(Random p, int m, int nd) {
        int[] given = new int[nd];
        int rest = m;
        for (int d = 0; d < nd; d++) {
            if (p.nextInt(3) == 0) {
                List<Integer> divisors = new ArrayList<>();
                for (int f = 1; f <= rest; f++) {
                    if (rest % f == 0) {
                        divisors.add(f);
                    }
                }
                given[d] = divisors.get(p.nextInt(divisors.size()));
                rest /= given[d];
            }
        }
        if (Arrays.stream(given).noneMatch(g -> g == 0) && rest != 1) {
            given[p.nextInt(nd)] = 0;
        }
        return given;
    }

    /**
     * MPI_Dims_create's result by the model: the zero entries filled with the factorization of what
     * the fixed ones leave that is as close to balanced as possible, in non-increasing order. As
     * MPICH's MPI_Dims_create: the smallest spread (largest minus smallest factor), then the smallest
     * sum, then the first from the largest factors down.
     */
    private static int[] balanced(int nnodes, int[] given) {
        int fixed = 1;
        int free = 0;
        for (int g : given) {
            if (g == 0) {
                free++;
            } else {
                fixed *= g;
            }
        }
        int[] best = null;
        for (int[] f : factorizations(nnodes / fixed, free, nnodes / fixed)) {
            if (best == null || BALANCE.compare(f, best) < 0) {
                best = f;
            }
        }
        int[] out = given.clone();
        for (int d = 0, k = 0; d < out.length; d++) {
            if (out[d] == 0) {
                out[d] = best[k++];
            }
        }
        return out;
    }

    /** Every non-increasing list of {@code parts} factors of {@code n}, each at most {@code max}. */
    private static List<int[]> factorizations(int n, int parts, int max) {
        List<int[]> out = new ArrayList<>();
        if (parts == 0) {
            if (n == 1) {
                out.add(new int[0]);
            }
            return out;
        }
        for (int f = Math.min(n, max); f >= 1; f--) {
            if (n % f == 0) {
                for (int[] rest : factorizations(n / f, parts - 1, f)) {
                    int[] l = new int[parts];
                    l[0] = f;
                    System.arraycopy(rest, 0, l, 1, rest.length);
                    out.add(l);
                }
            }
        }
        return out;
    }

    private static final Comparator<int[]> BALANCE = Comparator.<int[]>comparingInt(f -> f[0] - f[f.length - 1])
            .thenComparingInt(f -> Arrays.stream(f).sum());

    /**
     * Checks createDims' result: it keeps the fixed entries, fills the others with factors in
     * non-increasing order, multiplies to {@code nnodes} and is the model's factorization.
     */
    private static void checkDims(int nnodes, int[] given, int[] got, String where) {
        String what = where + ": createDims(" + nnodes + ", " + Arrays.toString(given) + ") gave " + Arrays.toString(got);
        Check.equal(given.length, got.length, what + ": length");
        long prod = 1;
        int previous = Integer.MAX_VALUE;
        for (int d = 0; d < got.length; d++) {
            prod *= got[d];
            if (given[d] != 0) {
                Check.equal(given[d], got[d], what + ": fixed entry " + d);
            } else {
                Check.that(got[d] >= 1 && got[d] <= previous, what + ": filled entry " + d + " is not positive or"
                        + " not non-increasing");
                previous = got[d];
            }
        }
        Check.equal(nnodes, prod, what + ": product");
        Check.equal(Arrays.toString(balanced(nnodes, given)), Arrays.toString(got), what
                + ": not as close to each other as MPI_Dims_create makes them");
    }

    /** Sizes with several 4-factor lists of the same largest and smallest factor. */
    private static final int[] UNEVEN = {20, 28, 42, 44, 52, 66, 68, 76, 78, 92};

    private static void dims(Random plan, String where) throws MPIException {
        int tries = 1 + plan.nextInt(4);
        for (int k = 0; k < tries; k++) {
            int nnodes;
            int[] given;
            if (plan.nextInt(4) == 0) {
                // 4 free dimensions where the largest and smallest factors do not settle it: 20 is
                // [5, 2, 2, 1], not [5, 4, 1, 1] (what Open MPI and MPICH give; closer to each other).
                nnodes = UNEVEN[plan.nextInt(UNEVEN.length)];
                given = new int[4];
            } else {
                nnodes = 1 + plan.nextInt(100);
                given = constraints(plan, nnodes, 1 + plan.nextInt(4));
            }
            int[] dims = given.clone();
            CartComm.createDims(nnodes, dims);
            checkDims(nnodes, given, dims, where);
        }
        // A fixed entry that does not divide nnodes is an error.
        int nnodes = 2 + plan.nextInt(30);
        int bad = 2;
        while (nnodes % bad == 0) {
            bad++;
        }
        int[] given = {bad, 0};
        try {
            CartComm.createDims(nnodes, given);
            throw Check.fail(where + ": createDims(" + nnodes + ", [" + bad + ", 0]) should be an error, gave "
                    + Arrays.toString(given));
        } catch (MPIException e) {
            Check.equal(MPI.ERR_DIMS, e.getErrorClass(), where + ": error class of createDims(" + nnodes + ", [" + bad
                    + ", 0])");
        }
    }

    // ---------------------------------------------------------------- graphs

    private static void graph(Random p, Random local, int round, String where, Part part) throws MPIException {
        Intracomm parent = part.comm();
        int n = part.members().length;
        int m = p.nextInt(3) == 0 ? n : 1 + p.nextInt(n);
        boolean symmetric = p.nextInt(4) > 0;
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            adj.add(new ArrayList<>());
        }
        if (symmetric) {
            int edges = p.nextInt(2 * m + 1);
            for (int e = 0; e < edges; e++) {
                int a = p.nextInt(m);
                int b = p.nextInt(m);
                adj.get(a).add(b);
                if (a != b) {
                    adj.get(b).add(a);
                }
            }
            for (List<Integer> l : adj) {
                Collections.shuffle(l, p);
            }
        } else {
            for (int i = 0; i < m; i++) {
                int deg = p.nextInt(4);
                for (int k = 0; k < deg; k++) {
                    adj.get(i).add(p.nextInt(m));
                }
            }
        }
        int[][] lists = new int[m][];
        int[] index = new int[m];
        List<Integer> flat = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            lists[i] = adj.get(i).stream().mapToInt(Integer::intValue).toArray();
            flat.addAll(adj.get(i));
            index[i] = flat.size();
        }
        int[] edges = flat.stream().mapToInt(Integer::intValue).toArray();
        boolean reorder = p.nextBoolean();
        String desc = (symmetric ? "symmetric " : "") + "graph index " + Arrays.toString(index) + " edges "
                + Arrays.toString(edges) + " reorder " + reorder + " over " + part.how();
        String what = where + ": " + desc;
        GraphComm g = parent.createGraph(index, edges, reorder);
        int pr = parent.getRank();
        Check.that(g != null, what + ": createGraph returned null");
        Check.that(g.isNull() == (pr >= m), what + ": isNull() is " + g.isNull() + " for parent rank " + pr
                + " of a graph of " + m + " nodes");
        if (g.isNull()) {
            return;
        }
        int[] members = Arrays.copyOf(part.members(), m);
        int me = pr;
        Check.equal(MPI.GRAPH, g.getTopology(), what + ": getTopology");
        Check.equal(m, g.getSize(), what + ": getSize");
        Check.equal(me, g.getRank(), what + ": getRank");
        GraphParms gp = g.getDims();
        int[] gotIndex = ints(gp.getIndexCount(), gp::getIndex);
        int[] gotEdges = ints(gp.getEdgeCount(), gp::getEdge);
        Check.equal(Arrays.toString(index), Arrays.toString(gotIndex), what + ": getDims index");
        Check.equal(Arrays.toString(edges), Arrays.toString(gotEdges), what + ": getDims edges");
        for (int r = 0; r < m; r++) {
            Check.equal(Arrays.toString(lists[r]), Arrays.toString(g.getNeighbors(r)), what + ": getNeighbors(" + r + ")");
        }
        try {
            g.getDistGraphNeighbors();
            throw Check.fail(what + ": getDistGraphNeighbors on a graph should be an ERR_TOPOLOGY error");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_TOPOLOGY, e.getErrorClass(), what + ": error class of getDistGraphNeighbors on a graph");
        }
        // map: a random graph of at most m nodes; ranks keep their order, so own rank or UNDEFINED.
        int mapNodes = 1 + p.nextInt(m);
        int[] mapIndex = new int[mapNodes];
        List<Integer> mapEdges = new ArrayList<>();
        for (int i = 0; i < mapNodes; i++) {
            int deg = p.nextInt(3);
            for (int k = 0; k < deg; k++) {
                mapEdges.add(p.nextInt(mapNodes));
            }
            mapIndex[i] = mapEdges.size();
        }
        Check.equal(me < mapNodes ? me : MPI.UNDEFINED, g.map(mapIndex, mapEdges.stream().mapToInt(Integer::intValue)
                .toArray()), what + ": map(" + Arrays.toString(mapIndex) + ", " + mapEdges + ")");
        allReduce(g, members, what);
        if (symmetric) {
            int[] outDegree = Arrays.stream(lists).mapToInt(l -> l.length).toArray();
            neighbourhood(p, round, where, g, new Nbr(desc, me, lists[me], lists[me], members, lists, false, outDegree), 0);
        }
        g.free();
        Check.that(g.isNull(), what + ": not null after free");
    }

    // ---------------------------------------------------------------- distributed graphs

    /** A random directed multigraph over n ranks, self-loops included: {source, destination, weight} per edge. */
    private static List<int[]> randomEdges(Random p, int n) {
        List<int[]> edges = new ArrayList<>();
        int count = p.nextInt(3 * n + 1);
        for (int e = 0; e < count; e++) {
            edges.add(new int[] {p.nextInt(n), p.nextInt(n), p.nextInt(100)});
        }
        return edges;
    }

    private static void adjacent(Random p, Random local, int round, String where, Part part) throws MPIException {
        Intracomm parent = part.comm();
        int n = part.members().length;
        List<int[]> edges = randomEdges(p, n);
        boolean weighted = p.nextBoolean();
        boolean reorder = p.nextBoolean();
        // Per rank, its in- and out-edges (indices into edges) in a random order.
        int[][] inEdges = new int[n][];
        int[][] outEdges = new int[n][];
        for (int r = 0; r < n; r++) {
            final int rr = r;
            List<Integer> in = new ArrayList<>();
            List<Integer> out = new ArrayList<>();
            for (int e = 0; e < edges.size(); e++) {
                if (edges.get(e)[1] == rr) {
                    in.add(e);
                }
                if (edges.get(e)[0] == rr) {
                    out.add(e);
                }
            }
            Collections.shuffle(in, p);
            Collections.shuffle(out, p);
            inEdges[r] = in.stream().mapToInt(Integer::intValue).toArray();
            outEdges[r] = out.stream().mapToInt(Integer::intValue).toArray();
        }
        int me = parent.getRank();
        int[][] outOf = new int[n][];
        for (int r = 0; r < n; r++) {
            outOf[r] = Arrays.stream(outEdges[r]).map(e -> edges.get(e)[1]).toArray();
        }
        int[] sources = Arrays.stream(inEdges[me]).map(e -> edges.get(e)[0]).toArray();
        int[] sourceWeights = Arrays.stream(inEdges[me]).map(e -> edges.get(e)[2]).toArray();
        int[] destinations = outOf[me];
        int[] destWeights = Arrays.stream(outEdges[me]).map(e -> edges.get(e)[2]).toArray();
        String desc = (weighted ? "weighted" : "unweighted") + " adjacent dist graph of edges " + edgeList(edges)
                + " reorder " + reorder + " over " + part.how();
        String what = where + ": " + desc;
        GraphComm g = weighted
                ? parent.createDistGraphAdjacent(sources, sourceWeights, destinations, destWeights, MPI.INFO_NULL, reorder)
                : parent.createDistGraphAdjacent(sources, destinations, MPI.INFO_NULL, reorder);
        Check.that(g != null && !g.isNull(), what + ": createDistGraphAdjacent gave a null communicator");
        checkDistCommon(g, n, me, part.members(), what);
        DistGraphNeighbors nb = g.getDistGraphNeighbors();
        Check.equal(weighted, nb.isWeighted(), what + ": isWeighted");
        Check.equal(Arrays.toString(sources), Arrays.toString(sourcesOf(nb)), what + ": sources of rank " + me
                + " (the order given)");
        Check.equal(Arrays.toString(destinations), Arrays.toString(destinationsOf(nb)), what + ": destinations of rank "
                + me + " (the order given)");
        if (weighted) {
            int[] sw = ints(nb.getInDegree(), nb::getSourceWeight);
            int[] dw = ints(nb.getOutDegree(), nb::getDestinationWeight);
            Check.equal(Arrays.toString(sourceWeights), Arrays.toString(sw), what + ": source weights of rank " + me);
            Check.equal(Arrays.toString(destWeights), Arrays.toString(dw), what + ": destination weights of rank " + me);
        }
        int[] outDegree = Arrays.stream(outOf).mapToInt(l -> l.length).toArray();
        neighbourhood(p, round, where, g, new Nbr(desc, me, sources, destinations, part.members(), outOf, false,
                outDegree), 0);
        g.free();
        Check.that(g.isNull(), what + ": not null after free");
    }

    private static void distGraph(Random p, Random local, int round, String where, Part part) throws MPIException {
        Intracomm parent = part.comm();
        int n = part.members().length;
        List<int[]> edges = randomEdges(p, n);
        boolean weighted = p.nextBoolean();
        boolean reorder = p.nextBoolean();
        // Each edge is given by a random rank; each rank gives its edges as runs of one source.
        List<List<int[]>> given = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            given.add(new ArrayList<>());
        }
        for (int[] e : edges) {
            given.get(p.nextInt(n)).add(e);
        }
        int[][] srcArgs = new int[n][];
        int[][] degArgs = new int[n][];
        int[][] dstArgs = new int[n][];
        int[][] wArgs = new int[n][];
        for (int r = 0; r < n; r++) {
            List<int[]> mine = given.get(r);
            Collections.shuffle(mine, p);
            List<Integer> srcs = new ArrayList<>();
            List<Integer> degs = new ArrayList<>();
            for (int k = 0; k < mine.size(); k++) {
                if (!srcs.isEmpty() && srcs.get(srcs.size() - 1) == mine.get(k)[0] && p.nextInt(3) > 0) {
                    degs.set(degs.size() - 1, degs.get(degs.size() - 1) + 1);
                } else {
                    srcs.add(mine.get(k)[0]);
                    degs.add(1);
                }
                if (p.nextInt(8) == 0) { // a source with no edges
                    srcs.add(p.nextInt(n));
                    degs.add(0);
                }
            }
            srcArgs[r] = srcs.stream().mapToInt(Integer::intValue).toArray();
            degArgs[r] = degs.stream().mapToInt(Integer::intValue).toArray();
            dstArgs[r] = mine.stream().mapToInt(e -> e[1]).toArray();
            wArgs[r] = mine.stream().mapToInt(e -> e[2]).toArray();
        }
        int me = parent.getRank();
        String desc = (weighted ? "weighted" : "unweighted") + " dist graph of edges " + edgeList(edges) + " reorder "
                + reorder + " over " + part.how() + ", rank " + me + " giving sources " + Arrays.toString(srcArgs[me])
                + " degrees " + Arrays.toString(degArgs[me]) + " destinations " + Arrays.toString(dstArgs[me]);
        String what = where + ": " + desc;
        GraphComm g = weighted
                ? parent.createDistGraph(srcArgs[me], degArgs[me], dstArgs[me], wArgs[me], MPI.INFO_NULL, reorder)
                : parent.createDistGraph(srcArgs[me], degArgs[me], dstArgs[me], MPI.INFO_NULL, reorder);
        Check.that(g != null && !g.isNull(), what + ": createDistGraph gave a null communicator");
        checkDistCommon(g, n, me, part.members(), what);
        DistGraphNeighbors nb = g.getDistGraphNeighbors();
        Check.equal(weighted, nb.isWeighted(), what + ": isWeighted");
        // MPI leaves the order open: multisets of (neighbour, weight).
        List<String> expIn = new ArrayList<>();
        List<String> expOut = new ArrayList<>();
        int[] outDegree = new int[n];
        for (int[] e : edges) {
            outDegree[e[0]]++;
            if (e[1] == me) {
                expIn.add(e[0] + (weighted ? "w" + e[2] : ""));
            }
            if (e[0] == me) {
                expOut.add(e[1] + (weighted ? "w" + e[2] : ""));
            }
        }
        List<String> gotIn = new ArrayList<>();
        for (int i = 0; i < nb.getInDegree(); i++) {
            gotIn.add(nb.getSource(i) + (weighted ? "w" + nb.getSourceWeight(i) : ""));
        }
        List<String> gotOut = new ArrayList<>();
        for (int i = 0; i < nb.getOutDegree(); i++) {
            gotOut.add(nb.getDestination(i) + (weighted ? "w" + nb.getDestinationWeight(i) : ""));
        }
        Collections.sort(expIn);
        Collections.sort(expOut);
        Collections.sort(gotIn);
        Collections.sort(gotOut);
        Check.equal(expIn.toString(), gotIn.toString(), what + ": sources of rank " + me + " (sorted)");
        Check.equal(expOut.toString(), gotOut.toString(), what + ": destinations of rank " + me + " (sorted)");
        neighbourhood(p, round, where, g, new Nbr(desc, me, sourcesOf(nb), destinationsOf(nb), part.members(), null,
                false, outDegree), 0);
        g.free();
        Check.that(g.isNull(), what + ": not null after free");
    }

    /** What every distributed graph must show: kind, size, rank, allReduce, and ERR_TOPOLOGY for graph queries. */
    private static void checkDistCommon(GraphComm g, int n, int me, int[] members, String what) throws MPIException {
        Check.equal(MPI.DIST_GRAPH, g.getTopology(), what + ": getTopology");
        Check.equal(n, g.getSize(), what + ": getSize");
        Check.equal(me, g.getRank(), what + ": getRank");
        try {
            g.getNeighbors(me);
            throw Check.fail(what + ": getNeighbors on a distributed graph should be an ERR_TOPOLOGY error");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_TOPOLOGY, e.getErrorClass(), what + ": error class of getNeighbors on a dist graph");
        }
        try {
            g.getDims();
            throw Check.fail(what + ": getDims on a distributed graph should be an ERR_TOPOLOGY error");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_TOPOLOGY, e.getErrorClass(), what + ": error class of getDims on a dist graph");
        }
        allReduce(g, members, what);
    }

    private static int[] sourcesOf(DistGraphNeighbors nb) {
        return ints(nb.getInDegree(), nb::getSource);
    }

    private static int[] destinationsOf(DistGraphNeighbors nb) {
        return ints(nb.getOutDegree(), nb::getDestination);
    }

    /** {@code at(0) .. at(n - 1)}: what a getter of one index at a time returns, as an array. */
    private static int[] ints(int n, IntUnaryOperator at) {
        return IntStream.range(0, n).map(at).toArray();
    }

    private static String edgeList(List<int[]> edges) {
        StringBuilder b = new StringBuilder("[");
        for (int[] e : edges) {
            b.append(b.length() > 1 ? ", " : "").append(e[0]).append("->").append(e[1]).append(" w").append(e[2]);
        }
        return b.append(']').toString();
    }

    // ---------------------------------------------------------------- neighbourhood collectives

    /** One neighbourhood collective: its buffers, layout, and the check of what it received. */
    private static final class Op {
        final int form;
        final int op;
        final int count;
        final boolean direct;
        long[] sendArray;
        long[] recvArray;
        LongBuffer sendBuffer;
        LongBuffer recvBuffer;
        int[] sendCounts;
        int[] sendDispls;
        int[] recvCounts;
        int[] recvDispls;
        int recvLength;

        Op(int form, int op, int count, boolean direct) {
            this.form = form;
            this.op = op;
            this.count = count;
            this.direct = direct;
        }

        boolean gather() {
            return form % 4 < 2;
        }

        boolean v() {
            return form % 2 == 1;
        }

        Object send() {
            return direct ? sendBuffer : sendArray;
        }

        Object recv() {
            return direct ? recvBuffer : recvArray;
        }

        long get(int i) {
            return direct ? recvBuffer.get(i) : recvArray[i];
        }
    }

    /** A phase of 1 to 4 neighbourhood collectives on {@code c}, nonblocking ones outstanding together. */
    private static void neighbourhood(Random p, int round, String where, Intracomm c, Nbr t, int phase)
            throws MPIException {
        int ops = 1 + p.nextInt(4);
        List<Op> done = new ArrayList<>();
        List<Request> requests = new ArrayList<>();
        Random layout = new Random(p.nextLong() + t.me());
        for (int o = 0; o < ops; o++) {
            int form = p.nextInt(FORMS.length);
            formCounts[form]++;
            Op x = new Op(form, (phase * 8 + o) & 0xff, p.nextInt(4), form >= 4 || p.nextInt(3) == 0);
            prepare(x, round, t, layout);
            String what = where + ": " + FORMS[form] + " (op " + o + ", count " + x.count + ") on " + t.desc();
            Request r = null;
            switch (form) {
                case 0 -> c.neighborAllGather(x.send(), x.count, MPI.LONG, x.recv(), x.count, MPI.LONG);
                case 1 -> c.neighborAllGatherv(x.send(), x.sendCounts[0], MPI.LONG, x.recv(), x.recvCounts, x.recvDispls,
                        MPI.LONG);
                case 2 -> c.neighborAllToAll(x.send(), x.count, MPI.LONG, x.recv(), x.count, MPI.LONG);
                case 3 -> c.neighborAllToAllv(x.send(), x.sendCounts, x.sendDispls, MPI.LONG, x.recv(), x.recvCounts,
                        x.recvDispls, MPI.LONG);
                case 4 -> r = c.iNeighborAllGather(x.sendBuffer, x.count, MPI.LONG, x.recvBuffer, x.count, MPI.LONG);
                case 5 -> r = c.iNeighborAllGatherv(x.sendBuffer, x.sendCounts[0], MPI.LONG, x.recvBuffer, x.recvCounts,
                        x.recvDispls, MPI.LONG);
                case 6 -> r = c.iNeighborAllToAll(x.sendBuffer, x.count, MPI.LONG, x.recvBuffer, x.count, MPI.LONG);
                default -> r = c.iNeighborAllToAllv(x.sendBuffer, x.sendCounts, x.sendDispls, MPI.LONG, x.recvBuffer,
                        x.recvCounts, x.recvDispls, MPI.LONG);
            }
            if (r != null) {
                Check.that(!r.isNull(), what + ": a null request");
                requests.add(r);
            }
            done.add(x);
        }
        if (p.nextInt(4) == 0) {
            // The nonblocking forms need direct buffers (IllegalArgumentException before anything is sent).
            try {
                Request r = c.iNeighborAllGather(LongBuffer.allocate(1), 1, MPI.LONG, LongBuffer.allocate(t.in().length),
                        1, MPI.LONG);
                throw Check.fail(where + ": iNeighborAllGather with heap buffers on " + t.desc()
                        + " should throw IllegalArgumentException, gave a request (null: " + r.isNull() + ")");
            } catch (IllegalArgumentException expected) {
                // as the docs say
            }
        }
        int how = p.nextInt(COMPLETE.length);
        Request[] all = requests.toArray(new Request[0]);
        if (all.length > 0) {
            switch (how) {
                case 0 -> Request.waitAll(all);
                case 1 -> {
                    for (Request r : all) {
                        r.waitFor();
                    }
                }
                default -> {
                    while (!Request.testAll(all)) {
                        Thread.onSpinWait();
                    }
                }
            }
            for (int i = 0; i < all.length; i++) {
                Check.that(all[i].isNull(), where + ": request " + i + " not null after " + COMPLETE[how] + " on "
                        + t.desc());
            }
        }
        for (int o = 0; o < done.size(); o++) {
            Op x = done.get(o);
            check(x, round, where + ": " + FORMS[x.form] + " (op " + o + " of the phase, count " + x.count + ", "
                    + (x.direct ? "direct buffers" : "arrays") + (x.form >= 4 ? ", completed by " + COMPLETE[how] : "")
                    + ") on " + t.desc(), t);
        }
    }

    /** Items of an allGatherv block: the same for every out-neighbour. */
    private static int gatherCount(int round, int op, int sender) {
        return Math.floorMod(mix(round, op, sender, 77), 4);
    }

    /** Items of an allToAllv block between two ranks (the same for repeated edges). */
    private static int pairCount(int round, int op, int sender, int receiver) {
        return Math.floorMod(mix(round, op, sender, receiver), 4);
    }

    private static int mix(int a, int b, int c, int d) {
        int h = ((a * 31 + b) * 31 + c) * 31 + d;
        h ^= h >>> 7;
        h *= 0x9E3779B1;
        return h >>> 11;
    }

    private static long sentinel(int i) {
        return -1000L - i;
    }

    /** (round, op, sender's world rank, receiver's topology rank, sender's block, item) in one long. */
    private static long encode(int round, int op, int senderWorld, int receiver, int slot, int item) {
        return ((long) (round & 0xffff) << 40) | ((long) op << 32) | ((long) senderWorld << 24) | ((long) receiver << 16)
                | ((long) slot << 8) | item;
    }

    private static String describe(long v) {
        if (v < 0) {
            return "sentinel " + v;
        }
        return "(round " + (v >>> 40) + ", op " + ((v >>> 32) & 0xff) + ", from world rank " + ((v >>> 24) & 0xff)
                + ", to " + ((v >>> 16) & 0xff) + ", send block " + ((v >>> 8) & 0xff) + ", item " + (v & 0xff) + ")";
    }

    /** Fills the send side and lays out the receive side (random gaps and block order for the v forms). */
    private static void prepare(Op x, int round, Nbr t, Random layout) {
        int outdeg = t.out().length;
        int indeg = t.in().length;
        int myWorld = world;
        List<Long> send = new ArrayList<>();
        if (x.gather()) {
            int n = x.v() ? gatherCount(round, x.op, t.me()) : x.count;
            x.sendCounts = new int[] {n};
            for (int k = 0; k < n; k++) {
                send.add(encode(round, x.op, myWorld, ANY, ANY, k));
            }
        } else {
            x.sendCounts = new int[outdeg];
            x.sendDispls = new int[outdeg];
            long[][] blocks = new long[outdeg][];
            for (int j = 0; j < outdeg; j++) {
                int to = t.out()[j];
                int n = !x.v() ? x.count : to == MPI.PROC_NULL ? 1 : pairCount(round, x.op, t.me(), to);
                blocks[j] = new long[n];
                for (int k = 0; k < n; k++) {
                    blocks[j][k] = encode(round, x.op, myWorld, to == MPI.PROC_NULL ? NOBODY : to, j, k);
                }
                x.sendCounts[j] = n;
            }
            placeBlocks(x.v(), layout, x.sendCounts, x.sendDispls, x.count);
            int len = end(x.sendCounts, x.sendDispls);
            for (int i = 0; i < len; i++) {
                send.add(-1L); // gaps
            }
            for (int j = 0; j < outdeg; j++) {
                for (int k = 0; k < blocks[j].length; k++) {
                    send.set(x.sendDispls[j] + k, blocks[j][k]);
                }
            }
        }
        x.sendArray = send.stream().mapToLong(Long::longValue).toArray();
        x.sendBuffer = MPI.newLongBuffer(Math.max(1, x.sendArray.length));
        for (int i = 0; i < x.sendArray.length; i++) {
            x.sendBuffer.put(i, x.sendArray[i]);
        }
        x.recvCounts = new int[indeg];
        x.recvDispls = new int[indeg];
        for (int i = 0; i < indeg; i++) {
            int s = t.in()[i];
            if (!x.v()) {
                x.recvCounts[i] = x.count;
            } else if (s == MPI.PROC_NULL) {
                x.recvCounts[i] = 2; // what MPI must leave alone
            } else {
                x.recvCounts[i] = x.gather() ? gatherCount(round, x.op, s) : pairCount(round, x.op, s, t.me());
            }
        }
        placeBlocks(x.v(), layout, x.recvCounts, x.recvDispls, x.count);
        x.recvLength = end(x.recvCounts, x.recvDispls) + (x.v() ? layout.nextInt(3) : 0);
        x.recvArray = new long[x.recvLength];
        x.recvBuffer = MPI.newLongBuffer(Math.max(1, x.recvLength));
        for (int i = 0; i < x.recvLength; i++) {
            x.recvArray[i] = sentinel(i);
            x.recvBuffer.put(i, sentinel(i));
        }
    }

    /** Uniform blocks one after another; v blocks in a random order with random gaps. */
    private static void placeBlocks(boolean v, Random layout, int[] counts, int[] displs, int count) {
        if (!v) {
            for (int i = 0; i < counts.length; i++) {
                displs[i] = i * count;
            }
            return;
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            order.add(i);
        }
        Collections.shuffle(order, layout);
        int at = layout.nextInt(3);
        for (int i : order) {
            displs[i] = at;
            at += counts[i] + layout.nextInt(3);
        }
    }

    private static int end(int[] counts, int[] displs) {
        int e = 0;
        for (int i = 0; i < counts.length; i++) {
            e = Math.max(e, displs[i] + counts[i]);
        }
        return e;
    }

    /** The send block of sender {@code s} that lands in this rank's block {@code p}, or -1 if the model cannot tell. */
    private static int expectedSlot(Nbr t, int p) {
        if (t.cart()) {
            return p ^ 1; // what the -1 neighbour sends towards +1 lands in the -1 block, and the other way round
        }
        if (t.outOf() == null) {
            return -1;
        }
        int s = t.in()[p];
        int k = 0;
        for (int i = 0; i < p; i++) {
            k += t.in()[i] == s ? 1 : 0;
        }
        int[] theirs = t.outOf()[s];
        for (int j = 0; j < theirs.length; j++) {
            if (theirs[j] == t.me() && k-- == 0) {
                return j;
            }
        }
        throw Check.fail("model: rank " + s + " sends nothing to rank " + t.me() + " in " + t.desc());
    }

    private static void check(Op x, int round, String what, Nbr t) {
        boolean[] covered = new boolean[x.recvLength];
        int[] lastSlot = new int[t.worldOf().length];
        Arrays.fill(lastSlot, -1);
        for (int p = 0; p < t.in().length; p++) {
            int s = t.in()[p];
            int at = x.recvDispls[p];
            int n = x.recvCounts[p];
            if (s == MPI.PROC_NULL) {
                if (world == 0) {
                    procNullBlocks++;
                }
                for (int k = 0; k < n; k++) {
                    Check.equal(describe(sentinel(at + k)), describe(x.get(at + k)), what + ": block " + p
                            + " (from PROC_NULL, must stay untouched) item " + k + " at " + at);
                }
                continue;
            }
            int slot = x.gather() ? ANY : expectedSlot(t, p);
            String block = what + ": block " + p + " (from rank " + s + ", world rank " + t.worldOf()[s]
                    + (slot >= 0 && slot != ANY ? ", its send block " + slot : "") + ") at " + at;
            if (slot < 0) {
                if (n == 0) {
                    continue; // every block between the two is empty
                }
                // MPI leaves the order open: any of s's blocks for this rank, the k-th before the (k+1)-th.
                long v = x.get(at);
                slot = (int) ((v >>> 8) & 0xff);
                Check.that(v >= 0, block + ": item 0 is " + describe(v));
                Check.that(slot > lastSlot[s] && slot < t.outDegree()[s], block + ": send block " + slot
                        + " out of order or not one of rank " + s + "'s " + t.outDegree()[s] + " (the previous from it: "
                        + lastSlot[s] + ")");
                lastSlot[s] = slot;
            }
            for (int k = 0; k < n; k++) {
                covered[at + k] = true;
                long expected = encode(round, x.op, t.worldOf()[s], x.gather() ? ANY : t.me(), slot, k);
                Check.equal(describe(expected), describe(x.get(at + k)), block + ", item " + k);
            }
        }
        for (int i = 0; i < x.recvLength; i++) {
            if (!covered[i] && x.get(i) != sentinel(i)) {
                boolean procNull = false;
                for (int p = 0; p < t.in().length; p++) {
                    procNull |= t.in()[p] == MPI.PROC_NULL && i >= x.recvDispls[p] && i < x.recvDispls[p] + x.recvCounts[p];
                }
                if (!procNull) {
                    throw Check.fail(what + ": item " + i + " of the receive buffer, in no block, was written: "
                            + describe(x.get(i)) + " (blocks at " + Arrays.toString(x.recvDispls) + " counts "
                            + Arrays.toString(x.recvCounts) + ")");
                }
            }
        }
    }

    // ---------------------------------------------------------------- small helpers

    /** allReduce SUM of world ranks over a topology communicator. */
    private static void allReduce(Intracomm c, int[] members, String what) throws MPIException {
        long[] sum = new long[1];
        c.allReduce(new long[] {world}, sum, 1, MPI.LONG, MPI.SUM);
        Check.equal(Arrays.stream(members).asLongStream().sum(), sum[0], what + ": allReduce SUM of world ranks "
                + Arrays.toString(members));
    }

    private static int product(int[] dims) {
        int p = 1;
        for (int d : dims) {
            p *= d;
        }
        return p;
    }
}
