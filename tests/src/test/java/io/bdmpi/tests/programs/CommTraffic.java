package io.bdmpi.tests.programs;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import mpi.Comm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import static io.bdmpi.tests.programs.Models.indexOf;
import static io.bdmpi.tests.programs.Models.range;
import static io.bdmpi.tests.programs.Models.weighted;

/**
 * Random communicator and group management checked against a model every rank keeps: a plan drawn
 * from a seed all ranks share picks, each round, one operation on a member of a pool of at most
 * {@value #POOL_MAX} communicators (COMM_WORLD and derived ones), and the model holds, for each pool
 * member, its COMM_WORLD ranks in its rank order. Only the members of a communicator take part in an
 * operation on it. The operations:
 * <ul>
 *   <li>{@code dup};</li>
 *   <li>{@code split} with random colours (some {@code MPI.UNDEFINED}, which must give a null
 *       communicator) and random keys with ties (ordered by key, then by old rank);</li>
 *   <li>{@code create} with one group built by random group operations ({@code incl}, {@code excl},
 *       {@code rangeIncl} and {@code rangeExcl} with positive and negative strides, {@code union},
 *       {@code intersection}, {@code difference}), non-members getting a null communicator; and
 *       {@code create} with disjoint groups (MPI-3), ranks in none passing {@code MPI.GROUP_EMPTY};</li>
 *   <li>{@code createGroup(group, tag)}, called only by the members of the group;</li>
 *   <li>group operations alone, each result checked: {@code getSize}, {@code getRank}
 *       ({@code MPI.UNDEFINED} for non-members), {@code translateRanks} both ways (with
 *       {@code MPI.PROC_NULL}), {@code Group.compare} with its source (IDENT, SIMILAR, UNEQUAL) and,
 *       when empty, with {@code MPI.GROUP_EMPTY};</li>
 *   <li>{@code Comm.compare} and {@code Group.compare} of two pool members (IDENT, CONGRUENT, SIMILAR,
 *       UNEQUAL), and of COMM_SELF with one, plus {@code translateRanks} between their groups;</li>
 *   <li>an intercommunicator: a pool member is split in two, {@code createIntercomm} between the
 *       halves (the pool member as peer, random leaders and tag); {@code isInter}, sizes, ranks, the
 *       local and remote groups, point-to-point to every remote rank, an {@code allReduce} (the other
 *       side's sum), {@code Comm.compare} with itself and a dup (IDENT, CONGRUENT), with a second
 *       intercommunicator from the same parent (CONGRUENT or SIMILAR only when both the local and the
 *       remote groups compare so, as MPI says) and with its own merge (UNEQUAL: MPI says an inter- and an
 *       intracommunicator compare UNEQUAL), and {@code merge(high)} with the merged order checked; the
 *       merged communicator joins the pool;</li>
 *   <li>{@code free} of a random pool member (never COMM_WORLD);</li>
 *   <li>messages that must not cross communicators: a message is sent on one communicator, then one
 *       with the same tag from the same process on another; the receiver probes the first, then
 *       receives on the second (exact or wildcard source and tag) and must get the second's.</li>
 * </ul>
 * Every new communicator is checked (size, rank, its group translated to COMM_WORLD's) and exercised:
 * an {@code allReduce} SUM of world ranks, a {@code bcast} from a random root, a ring {@code sendRecv}
 * (payload and status source checked) and a {@code barrier}.
 *
 * <p>Usage: {@code CommTraffic [rounds [seed]]}.
 */
public final class CommTraffic {

    private static final int POOL_MAX = 8;
    private static final String[] OPS = {"dup", "split", "create", "create disjoint", "createGroup", "groups",
        "compare", "intercomm", "free", "cross"};
    private static final int DUP = 0, SPLIT = 1, CREATE = 2, DISJOINT = 3, CREATE_GROUP = 4, GROUPS = 5, COMPARE = 6,
        INTERCOMM = 7, FREE = 8, CROSS = 9;
    /** Relative frequency of each operation. */
    private static final int[] WEIGHT = {2, 3, 2, 2, 2, 2, 2, 3, 2, 2};
    private static final String[] GROUP_OPS = {"incl", "excl", "rangeIncl", "rangeExcl", "union", "intersection",
        "difference"};
    private static final String[] RESULT = {"IDENT", "CONGRUENT", "SIMILAR", "UNEQUAL"};

    /** A pool member: its world ranks in rank order, and the communicator where this rank is one of them. */
    private static final class Entry {
        final int id;
        final int[] members;
        final String how;
        Intracomm comm;

        Entry(int id, int[] members, String how, Intracomm comm) {
            this.id = id;
            this.members = members;
            this.how = how;
            this.comm = comm;
        }

        @Override
        public String toString() {
            return "comm #" + id + " (" + how + ") " + Arrays.toString(members);
        }
    }

    /** A group in the model (world ranks in rank order) and, where this rank can make it, the real one. */
    private record Built(int[] list, Group group) {
    }

    private static int world;
    private static int worldSize;
    private static Group worldGroup;
    private static int nextId;
    private static final int[] counts = new int[OPS.length];
    private static final int[] groupCounts = new int[GROUP_OPS.length];

    private CommTraffic() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 120;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        world = MPI.COMM_WORLD.getRank();
        worldSize = MPI.COMM_WORLD.getSize();
        worldGroup = MPI.COMM_WORLD.getGroup();
        Random plan = new Random(seed);
        List<Entry> pool = new ArrayList<>();
        pool.add(new Entry(nextId++, range(worldSize), "COMM_WORLD", MPI.COMM_WORLD));
        checkShape(-1, "start", pool.get(0));
        checkSelf();

        for (int round = 0; round < rounds; round++) {
            int op = weighted(plan, WEIGHT);
            counts[op]++;
            String where = "round " + round + ", " + OPS[op];
            switch (op) {
                case DUP -> dup(plan, round, where, pool);
                case SPLIT -> split(plan, round, where, pool);
                case CREATE -> create(plan, round, where, pool);
                case DISJOINT -> createDisjoint(plan, round, where, pool);
                case CREATE_GROUP -> createGroup(plan, round, where, pool);
                case GROUPS -> {
                    Entry e = pool.get(plan.nextInt(pool.size()));
                    Built b = build(plan, e.members, e.comm == null ? null : e.comm.getGroup(), where + " on " + e, true);
                    free(b.group());
                }
                case COMPARE -> compare(plan, where, pool);
                case INTERCOMM -> intercomm(plan, round, where, pool);
                case FREE -> {
                    if (pool.size() > 1) {
                        release(pool, 1 + plan.nextInt(pool.size() - 1));
                    }
                }
                default -> cross(plan, round, where, pool);
            }
            while (pool.size() > POOL_MAX) {
                release(pool, 1 + plan.nextInt(pool.size() - 1));
            }
        }
        if (world == 0) {
            StringBuilder b = new StringBuilder("CommTraffic plan:");
            for (int i = 0; i < OPS.length; i++) {
                b.append(' ').append(OPS[i]).append(' ').append(counts[i]).append(',');
            }
            for (int i = 0; i < GROUP_OPS.length; i++) {
                b.append(' ').append(GROUP_OPS[i]).append(' ').append(groupCounts[i]).append(',');
            }
            System.out.println(b.append(" final pool ").append(pool.size()));
        }
        // Everything still in the pool is checked once more, then freed.
        for (Entry e : pool) {
            if (e.comm != null) {
                checkShape(rounds, "final check", e);
            }
        }
        while (pool.size() > 1) {
            release(pool, pool.size() - 1);
        }
        MPI.COMM_WORLD.barrier();
        worldGroup.free();
        Check.ok("CommTraffic");
        MPI.Finalize();
    }

    // ---------------------------------------------------------------- the operations

    private static void dup(Random plan, int round, String where, List<Entry> pool) throws MPIException {
        Entry e = pool.get(plan.nextInt(pool.size()));
        int root = plan.nextInt(1 << 20);
        Intracomm c = e.comm == null ? null : e.comm.dup();
        Entry made = new Entry(nextId++, e.members.clone(), "dup of #" + e.id, c);
        if (c != null) {
            Check.that(!c.isNull(), where + " of " + e + ": null result");
            Check.equal(MPI.CONGRUENT, (long) Comm.compare(e.comm, c), where + " of " + e + ": Comm.compare with the original");
        }
        exercise(round, where, made, root);
        pool.add(made);
    }

    private static void split(Random plan, int round, String where, List<Entry> pool) throws MPIException {
        Entry e = pool.get(plan.nextInt(pool.size()));
        int n = e.members.length;
        int colours = 1 + plan.nextInt(3);
        int[] colour = new int[n];
        int[] key = new int[n];
        for (int i = 0; i < n; i++) {
            colour[i] = plan.nextInt(5) == 0 ? MPI.UNDEFINED : plan.nextInt(colours);
            key[i] = plan.nextInt(3) - 1;
        }
        int root = plan.nextInt(1 << 20);
        int me = indexOf(e.members, world);
        Intracomm c = null;
        if (me >= 0) {
            c = e.comm.split(colour[me], key[me]);
            Check.that(c != null, where + " of " + e + ": split returned null (colour " + colour[me] + ")");
            if (colour[me] == MPI.UNDEFINED) {
                Check.that(c.isNull(), where + " of " + e + ": colour UNDEFINED should give a null communicator");
                c = null;
            } else {
                Check.that(!c.isNull(), where + " of " + e + ": colour " + colour[me] + " gave a null communicator");
            }
        }
        for (int col = 0; col < colours; col++) {
            int[] list = splitOrder(e.members, colour, key, col);
            if (list.length == 0) {
                continue;
            }
            String how = "split of #" + e.id + " colours " + Arrays.toString(colour).replace(MPI.UNDEFINED + "", "U")
                    + " keys " + Arrays.toString(key) + ", colour " + col;
            Entry made = new Entry(nextId++, list, how, me >= 0 && colour[me] == col ? c : null);
            exercise(round, where, made, root);
            pool.add(made);
        }
    }

    /** The members with colour {@code col}, by key and then by their rank in the old communicator. */
    private static int[] splitOrder(int[] members, int[] colour, int[] key, int col) {
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < members.length; i++) {
            if (colour[i] == col) {
                idx.add(i);
            }
        }
        idx.sort(Comparator.<Integer>comparingInt(i -> key[i]).thenComparingInt(i -> i));
        return idx.stream().mapToInt(i -> members[i]).toArray();
    }

    private static void create(Random plan, int round, String where, List<Entry> pool) throws MPIException {
        Entry e = pool.get(plan.nextInt(pool.size()));
        Group parent = e.comm == null ? null : e.comm.getGroup();
        Built b = build(plan, e.members, parent, where + " on " + e, false);
        int root = plan.nextInt(1 << 20);
        Intracomm c = null;
        if (e.comm != null) {
            c = e.comm.create(b.group());
            String what = where + " of " + e + " with group " + Arrays.toString(b.list());
            Check.that(c != null, what + ": create returned null");
            boolean member = indexOf(b.list(), world) >= 0;
            Check.that(c.isNull() != member, what + ": isNull() is " + c.isNull() + " for a " + (member ? "" : "non-")
                    + "member");
            if (!member) {
                c = null;
            }
            free(b.group());
            parent.free();
        }
        if (b.list().length > 0) {
            Entry made = new Entry(nextId++, b.list(), "create on #" + e.id, c);
            exercise(round, where, made, root);
            pool.add(made);
        }
    }

    private static void createDisjoint(Random plan, int round, String where, List<Entry> pool) throws MPIException {
        Entry e = pool.get(plan.nextInt(pool.size()));
        int n = e.members.length;
        List<List<Integer>> parts = List.of(new ArrayList<>(), new ArrayList<>());
        int[] part = new int[n];
        for (int i = 0; i < n; i++) {
            part[i] = plan.nextInt(3); // 2: in no group
            if (part[i] < 2) {
                parts.get(part[i]).add(i);
            }
        }
        for (List<Integer> p : parts) {
            Collections.shuffle(p, plan);
        }
        int root = plan.nextInt(1 << 20);
        int me = indexOf(e.members, world);
        Intracomm c = null;
        if (me >= 0) {
            Group parent = e.comm.getGroup();
            Group mine = part[me] == 2 ? MPI.GROUP_EMPTY
                    : parent.incl(parts.get(part[me]).stream().mapToInt(Integer::intValue).toArray());
            c = e.comm.create(mine);
            String what = where + " of " + e + ", parts " + parts + " (parent ranks)";
            Check.that(c != null, what + ": create returned null");
            Check.that(c.isNull() == (part[me] == 2), what + ": isNull() is " + c.isNull() + " in part " + part[me]);
            if (part[me] == 2) {
                c = null;
            } else {
                mine.free();
            }
            parent.free();
        }
        for (int p = 0; p < 2; p++) {
            if (parts.get(p).isEmpty()) {
                continue;
            }
            int[] list = parts.get(p).stream().mapToInt(i -> e.members[i]).toArray();
            Entry made = new Entry(nextId++, list, "create disjoint part " + p + " on #" + e.id,
                    me >= 0 && part[me] == p ? c : null);
            exercise(round, where, made, root);
            pool.add(made);
        }
    }

    private static void createGroup(Random plan, int round, String where, List<Entry> pool) throws MPIException {
        Entry e = pool.get(plan.nextInt(pool.size()));
        Group parent = e.comm == null ? null : e.comm.getGroup();
        Built b = build(plan, e.members, parent, where + " on " + e, false);
        int tag = plan.nextInt(100);
        int root = plan.nextInt(1 << 20);
        if (parent != null) {
            parent.free();
        }
        if (b.list().length == 0) {
            free(b.group());
            return;
        }
        Intracomm c = null;
        if (indexOf(b.list(), world) >= 0) {
            c = e.comm.createGroup(b.group(), tag);
            Check.that(c != null && !c.isNull(), where + " of " + e + " with group " + Arrays.toString(b.list())
                    + ", tag " + tag + ": null communicator");
        }
        free(b.group());
        Entry made = new Entry(nextId++, b.list(), "createGroup on #" + e.id + " tag " + tag, c);
        exercise(round, where, made, root);
        pool.add(made);
    }

    private static void compare(Random plan, String where, List<Entry> pool) throws MPIException {
        Entry a = pool.get(plan.nextInt(pool.size()));
        Entry b = plan.nextInt(4) == 0 ? a : pool.get(plan.nextInt(pool.size()));
        String what = where + " of " + a + " and " + b;
        int expected = a == b ? MPI.IDENT : compareLists(a.members, b.members, MPI.CONGRUENT);
        if (a.comm != null && b.comm != null) {
            Check.equal(RESULT[expected], name(Comm.compare(a.comm, b.comm)), what + ": Comm.compare");
            Check.equal(RESULT[expected], name(Comm.compare(b.comm, a.comm)), what + ": Comm.compare reversed");
        }
        if (a.comm != null) {
            int self = compareLists(new int[] {world}, a.members, MPI.CONGRUENT);
            Check.equal(RESULT[self], name(Comm.compare(MPI.COMM_SELF, a.comm)), what + ": Comm.compare(COMM_SELF, #"
                    + a.id + ")");
        }
        // The groups can be compared and translated by a rank that holds either communicator.
        Entry holder = a.comm != null ? a : b.comm != null ? b : null;
        if (holder != null) {
            Group ga = a.comm != null ? a.comm.getGroup() : worldGroup.incl(a.members);
            Group gb = b.comm != null ? b.comm.getGroup() : worldGroup.incl(b.members);
            int groupExpected = compareLists(a.members, b.members, MPI.IDENT);
            Check.equal(RESULT[groupExpected], name(Group.compare(ga, gb)), what + ": Group.compare");
            int[] ranks = new int[a.members.length + 1];
            int[] expect = new int[ranks.length];
            for (int i = 0; i < a.members.length; i++) {
                ranks[i] = a.members.length - 1 - i;
                int k = indexOf(b.members, a.members[ranks[i]]);
                expect[i] = k < 0 ? MPI.UNDEFINED : k;
            }
            ranks[a.members.length] = MPI.PROC_NULL;
            expect[a.members.length] = MPI.PROC_NULL;
            Check.equal(Arrays.toString(expect), Arrays.toString(Group.translateRanks(ga, ranks, gb)),
                    what + ": translateRanks of " + Arrays.toString(ranks) + " from #" + a.id + " to #" + b.id);
            ga.free();
            gb.free();
        }
    }

    private static void intercomm(Random plan, int round, String where, List<Entry> pool) throws MPIException {
        Entry e = pickOfTwoOrMore(plan, pool);
        if (e == null) {
            return;
        }
        int n = e.members.length;
        int[] side = new int[n];
        int[] key = new int[n];
        for (int i = 0; i < n; i++) {
            side[i] = plan.nextInt(2);
            key[i] = plan.nextInt(3);
        }
        int a = plan.nextInt(n);
        int b = (a + 1 + plan.nextInt(n - 1)) % n;
        side[a] = 0;
        side[b] = 1;
        int[][] lists = {splitOrder(e.members, side, key, 0), splitOrder(e.members, side, key, 1)};
        int[] leader = {plan.nextInt(lists[0].length), plan.nextInt(lists[1].length)};
        int tag = plan.nextInt(1000);
        boolean lowHigh = plan.nextBoolean(); // what side 0 passes to merge
        int root = plan.nextInt(1 << 20);
        // A second intercommunicator from the same parent to compare with the first: the same sides
        // with new keys (CONGRUENT or SIMILAR), or new sides (mostly UNEQUAL).
        boolean newSides = plan.nextBoolean();
        int[] side2 = side.clone();
        int[] key2 = new int[n];
        for (int i = 0; i < n; i++) {
            if (newSides) {
                side2[i] = plan.nextInt(2);
            }
            key2[i] = plan.nextInt(3);
        }
        if (newSides) {
            int a2 = plan.nextInt(n);
            side2[a2] = 0;
            side2[(a2 + 1 + plan.nextInt(n - 1)) % n] = 1;
        }
        int[][] lists2 = {splitOrder(e.members, side2, key2, 0), splitOrder(e.members, side2, key2, 1)};
        int[] leader2 = {plan.nextInt(lists2[0].length), plan.nextInt(lists2[1].length)};
        int tag2 = plan.nextInt(1000);
        int[] low = lowHigh ? lists[1] : lists[0];
        int[] high = lowHigh ? lists[0] : lists[1];
        int[] merged = new int[n];
        System.arraycopy(low, 0, merged, 0, low.length);
        System.arraycopy(high, 0, merged, low.length, high.length);
        String what = where + " on " + e + ": sides " + Arrays.toString(lists[0]) + " / " + Arrays.toString(lists[1])
                + ", leaders " + Arrays.toString(leader) + ", tag " + tag;
        Intracomm m = null;
        int me = indexOf(e.members, world);
        if (me >= 0) {
            int s = side[me];
            int[] local = lists[s];
            int[] remote = lists[1 - s];
            int lr = indexOf(local, world);
            Intracomm half = e.comm.split(s, key[me]);
            String mine = what + ", side " + s;
            // The leaders come from the model: a wrong half would deadlock createIntercomm, so check it first.
            Check.equal(local.length, half.getSize(), mine + ": getSize of the local half (split(" + s + ", " + key[me]
                    + "))");
            Check.equal(lr, half.getRank(), mine + ": getRank in the local half (split(" + s + ", " + key[me] + "))");
            int remoteLeader = indexOf(e.members, remote[leader[1 - s]]);
            Intercomm inter = e.comm.createIntercomm(half, leader[s], remoteLeader, tag);
            Check.that(inter != null && !inter.isNull(), mine + ": null intercommunicator");
            Check.that(inter.isInter(), mine + ": isInter() false on the intercommunicator");
            Check.that(!half.isInter(), mine + ": isInter() true on the local half");
            Check.equal(local.length, inter.getSize(), mine + ": getSize");
            Check.equal(lr, inter.getRank(), mine + ": getRank");
            Check.equal(remote.length, inter.getRemoteSize(), mine + ": getRemoteSize");
            checkGroupList(inter.getGroup(), local, mine + ": local group", true);
            checkGroupList(inter.getRemoteGroup(), remote, mine + ": remote group", true);

            // Point-to-point: one message to every remote rank, then one from each.
            Request[] sends = new Request[remote.length];
            for (int r = 0; r < remote.length; r++) {
                IntBuffer out = MPI.newIntBuffer(3);
                out.put(0, world).put(1, r).put(2, round);
                sends[r] = inter.iSend(out, 3, MPI.INT, r, 21);
            }
            for (int r = 0; r < remote.length; r++) {
                int[] in = new int[3];
                boolean any = (r + round) % 3 == 0 && remote.length == 1;
                Status st = inter.recv(in, 3, MPI.INT, any ? MPI.ANY_SOURCE : r, any ? MPI.ANY_TAG : 21);
                Check.equal(Arrays.toString(new int[] {remote[r], lr, round}), Arrays.toString(in),
                        mine + ": message from remote rank " + r);
                Check.equal(r, st.getSource(), mine + ": status source of the message from remote rank " + r);
                Check.equal(21, st.getTag(), mine + ": status tag of the message from remote rank " + r);
            }
            Request.waitAll(sends);
            int[] sum = new int[1];
            inter.allReduce(new int[] {world}, sum, 1, MPI.INT, MPI.SUM);
            Check.equal(Arrays.stream(remote).sum(), sum[0], mine + ": allReduce SUM over the intercommunicator");

            Intercomm copy = inter.dup();
            Check.that(copy.isInter(), mine + ": the dup is not an intercommunicator");
            Check.equal(remote.length, copy.getRemoteSize(), mine + ": getRemoteSize of the dup");
            Check.equal(RESULT[MPI.IDENT], name(Comm.compare(inter, inter)), mine + ": Comm.compare with itself");
            Check.equal(RESULT[MPI.CONGRUENT], name(Comm.compare(inter, copy)), mine + ": Comm.compare with its dup");

            // MPI: both corresponding local and remote groups must compare alike for CONGRUENT or SIMILAR.
            int s2 = side2[me];
            Intracomm half2 = e.comm.split(s2, key2[me]);
            Check.equal(indexOf(lists2[s2], world), half2.getRank(), mine + ": getRank in the second local half (split("
                    + s2 + ", " + key2[me] + "))");
            Intercomm inter2 = e.comm.createIntercomm(half2, leader2[s2],
                    indexOf(e.members, lists2[1 - s2][leader2[1 - s2]]), tag2);
            String second = mine + "; second intercomm with sides " + Arrays.toString(lists2[0]) + " / "
                    + Arrays.toString(lists2[1]) + ", leaders " + Arrays.toString(leader2) + ", tag " + tag2;
            Check.equal(lists2[1 - s2].length, inter2.getRemoteSize(), second + ": getRemoteSize");
            int cl = compareLists(local, lists2[s2], MPI.IDENT);
            int cr = compareLists(remote, lists2[1 - s2], MPI.IDENT);
            int expected = cl == MPI.UNEQUAL || cr == MPI.UNEQUAL ? MPI.UNEQUAL
                    : cl == MPI.IDENT && cr == MPI.IDENT ? MPI.CONGRUENT : MPI.SIMILAR;
            Check.equal(RESULT[expected], name(Comm.compare(inter, inter2)), second + ": Comm.compare of the two"
                    + " intercomms (local groups " + RESULT[cl] + ", remote groups " + RESULT[cr] + ")");
            inter2.free();
            half2.free();

            boolean passHigh = s == 0 ? lowHigh : !lowHigh;
            m = inter.merge(passHigh);
            Check.that(m != null && !m.isNull() && !m.isInter(), mine + ": merge(" + passHigh + ") gave no intracommunicator");
            // MPI: an intercommunicator compared with an intracommunicator is UNEQUAL.
            Check.equal(RESULT[MPI.UNEQUAL], name(Comm.compare(inter, m)), mine + ": Comm.compare of the intercomm"
                    + " and its merge " + Arrays.toString(merged));
            copy.free();
            inter.free();
            half.free();
            Check.that(inter.isNull() && half.isNull(), mine + ": isNull() false after free");
        }
        Entry made = new Entry(nextId++, merged, "merge of the intercomm on #" + e.id + " sides "
                + Arrays.toString(lists[0]) + " / " + Arrays.toString(lists[1]) + (lowHigh ? ", side 0 high" : ", side 0 low"), m);
        exercise(round, where, made, root);
        pool.add(made);
    }

    /**
     * A message on one communicator must not match a receive on another: the sender sends on
     * {@code other} then on {@code on} with the same tag; the receiver waits until the first is
     * there, then receives on {@code on} and must get the second.
     */
    private static void cross(Random plan, int round, String where, List<Entry> pool) throws MPIException {
        Entry on = pickOfTwoOrMore(plan, pool);
        if (on == null) {
            return;
        }
        int n = on.members.length;
        int src = plan.nextInt(n);
        int dst = (src + 1 + plan.nextInt(n - 1)) % n;
        int sw = on.members[src];
        int dw = on.members[dst];
        List<Entry> others = new ArrayList<>();
        for (Entry e : pool) {
            if (e != on && indexOf(e.members, sw) >= 0 && indexOf(e.members, dw) >= 0) {
                others.add(e);
            }
        }
        boolean makeDup = others.isEmpty() || plan.nextInt(4) == 0;
        Entry other = makeDup ? null : others.get(plan.nextInt(others.size()));
        int tag = plan.nextInt(5);
        int spec = plan.nextInt(4); // bit 0: ANY_TAG, bit 1: ANY_SOURCE
        Intracomm otherComm;
        int[] otherMembers;
        if (makeDup) {
            otherComm = on.comm == null ? null : on.comm.dup();
            otherMembers = on.members;
        } else {
            otherComm = other.comm;
            otherMembers = other.members;
        }
        int srcOther = indexOf(otherMembers, sw);
        int dstOther = indexOf(otherMembers, dw);
        String what = where + ": " + sw + " -> " + dw + " with tag " + tag + " on " + on + ", pending on "
                + (makeDup ? "a dup of it" : other.toString());
        if (world == sw) {
            IntBuffer first = MPI.newIntBuffer(2).put(0, 1).put(1, round);
            IntBuffer second = MPI.newIntBuffer(2).put(0, 2).put(1, round);
            Request r1 = otherComm.iSend(first, 2, MPI.INT, dstOther, tag);
            Request r2 = on.comm.iSend(second, 2, MPI.INT, dst, tag);
            Request.waitAll(new Request[] {r1, r2});
        } else if (world == dw) {
            Status probed = otherComm.probe(srcOther, tag);
            Check.equal(srcOther, probed.getSource(), what + ": probe source on the other communicator");
            int[] in = new int[2];
            Status st = on.comm.recv(in, 2, MPI.INT, (spec & 2) != 0 ? MPI.ANY_SOURCE : src,
                    (spec & 1) != 0 ? MPI.ANY_TAG : tag);
            Check.equal("[2, " + round + "]", Arrays.toString(in), what + ": payload received on " + on
                    + " (1 means the other communicator's message)");
            Check.equal(src, st.getSource(), what + ": status source");
            Check.equal(tag, st.getTag(), what + ": status tag");
            st = otherComm.recv(in, 2, MPI.INT, srcOther, tag);
            Check.equal("[1, " + round + "]", Arrays.toString(in), what + ": payload received on the other communicator");
            Check.equal(srcOther, st.getSource(), what + ": status source on the other communicator");
        }
        if (makeDup && otherComm != null) {
            otherComm.free();
        }
    }

    /** A random pool member of at least two processes, or null when there is none. */
    private static Entry pickOfTwoOrMore(Random plan, List<Entry> pool) {
        List<Entry> big = new ArrayList<>();
        for (Entry e : pool) {
            if (e.members.length >= 2) {
                big.add(e);
            }
        }
        return big.isEmpty() ? null : big.get(plan.nextInt(big.size()));
    }

    /** Frees pool member {@code i} (its members call free) and drops it from the pool. */
    private static void release(List<Entry> pool, int i) throws MPIException {
        Entry e = pool.remove(i);
        if (e.comm != null) {
            e.comm.free();
            Check.that(e.comm.isNull(), "free of " + e + ": isNull() false afterwards");
        }
    }

    // ---------------------------------------------------------------- groups

    /**
     * One to three random group operations starting from the parent's group (model {@code parent});
     * {@code group} is the real parent group, or null where this rank is not a member (then only the
     * model moves, so that all ranks draw alike). Every step's result is checked.
     */
    private static Built build(Random plan, int[] parent, Group group, String where, boolean freeParent)
            throws MPIException {
        int[] cur = parent;
        Group g = group;
        int steps = 1 + plan.nextInt(3);
        for (int step = 0; step < steps; step++) {
            int op = plan.nextInt(GROUP_OPS.length);
            groupCounts[op]++;
            int m = cur.length;
            final int[] from = cur;
            int[] next;
            Group ng = null;
            String desc;
            switch (op) {
                case 0, 1 -> {
                    List<Integer> pick = new ArrayList<>();
                    for (int i = 0; i < m; i++) {
                        if (plan.nextInt(3) > 0) {
                            pick.add(i);
                        }
                    }
                    Collections.shuffle(pick, plan);
                    int[] ranks = pick.stream().mapToInt(Integer::intValue).toArray();
                    desc = GROUP_OPS[op] + Arrays.toString(ranks);
                    if (op == 0) {
                        next = Arrays.stream(ranks).map(r -> from[r]).toArray();
                        ng = g == null ? null : g.incl(ranks);
                    } else {
                        next = Arrays.stream(from).filter(w -> !pick.contains(indexOf(from, w))).toArray();
                        ng = g == null ? null : g.excl(ranks);
                    }
                }
                case 2, 3 -> {
                    if (m == 0) {
                        desc = "incl[] (empty group)";
                        next = cur;
                        ng = g == null ? null : g.incl(new int[0]);
                        break;
                    }
                    List<int[]> rows = new ArrayList<>();
                    List<Integer> selected = new ArrayList<>();
                    int nRows = 1 + plan.nextInt(2);
                    for (int k = 0; k < nRows; k++) {
                        int stride = (1 + plan.nextInt(3)) * (plan.nextBoolean() ? 1 : -1);
                        int first = plan.nextInt(m);
                        int last = stride > 0 ? first + plan.nextInt(m - first) : plan.nextInt(first + 1);
                        List<Integer> sel = new ArrayList<>();
                        for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) {
                            sel.add(r);
                        }
                        if (sel.stream().anyMatch(selected::contains)) {
                            continue; // a rank may not be selected twice
                        }
                        selected.addAll(sel);
                        rows.add(new int[] {first, last, stride});
                    }
                    int[][] ranges = rows.toArray(new int[0][]);
                    desc = GROUP_OPS[op] + Arrays.deepToString(ranges);
                    if (op == 2) {
                        next = selected.stream().mapToInt(r -> from[r]).toArray();
                        ng = g == null ? null : g.rangeIncl(ranges);
                    } else {
                        next = Arrays.stream(from).filter(w -> !selected.contains(indexOf(from, w))).toArray();
                        ng = g == null ? null : g.rangeExcl(ranges);
                    }
                }
                default -> {
                    // The other operand: a random subgroup of the parent, in random order.
                    boolean empty = plan.nextInt(6) == 0; // then MPI.GROUP_EMPTY itself
                    List<Integer> pick = new ArrayList<>();
                    for (int i = 0; i < parent.length; i++) {
                        if (plan.nextBoolean() && !empty) {
                            pick.add(i);
                        }
                    }
                    Collections.shuffle(pick, plan);
                    int[] otherRanks = pick.stream().mapToInt(Integer::intValue).toArray();
                    int[] other = pick.stream().mapToInt(i -> parent[i]).toArray();
                    boolean swap = plan.nextBoolean();
                    int[] x = swap ? other : cur;
                    int[] y = swap ? cur : other;
                    desc = GROUP_OPS[op] + "(" + (swap ? "other, current" : "current, other") + ") with other "
                            + (empty ? "GROUP_EMPTY" : Arrays.toString(other));
                    List<Integer> out = new ArrayList<>();
                    if (op == 4) {
                        Arrays.stream(x).forEach(out::add);
                        Arrays.stream(y).filter(w -> indexOf(x, w) < 0).forEach(out::add);
                    } else {
                        boolean keep = op == 5;
                        Arrays.stream(x).filter(w -> (indexOf(y, w) >= 0) == keep).forEach(out::add);
                    }
                    next = out.stream().mapToInt(Integer::intValue).toArray();
                    if (g != null) {
                        Group og = empty ? MPI.GROUP_EMPTY : group.incl(otherRanks);
                        checkGroupList(og, other, where + ", step " + step + ": the other operand "
                                + (empty ? "GROUP_EMPTY" : "incl" + Arrays.toString(otherRanks)), false);
                        Group gx = swap ? og : g;
                        Group gy = swap ? g : og;
                        ng = op == 4 ? Group.union(gx, gy) : op == 5 ? Group.intersection(gx, gy) : Group.difference(gx, gy);
                        free(og);
                    }
                }
            }
            String what = where + ", step " + step + ": " + desc + " of " + Arrays.toString(cur);
            if (ng != null) {
                checkGroupList(ng, next, what, false);
                Check.equal(RESULT[compareLists(cur, next, MPI.IDENT)], name(Group.compare(g, ng)),
                        what + ": Group.compare with the group it came from");
                if (g != group) {
                    g.free();
                }
            }
            g = ng;
            cur = next;
        }
        if (freeParent && group != null) {
            group.free(); // last: the union, intersection and difference steps take operands from it
        }
        return new Built(cur, g);
    }

    /** Checks a group against its model: size, rank, translations both ways; frees it if asked. */
    private static void checkGroupList(Group g, int[] list, String what, boolean free) throws MPIException {
        Check.that(g != null && !g.isNull(), what + ": null group");
        Check.equal(list.length, g.getSize(), what + ": getSize of " + Arrays.toString(list));
        int me = indexOf(list, world);
        Check.equal(me < 0 ? MPI.UNDEFINED : me, g.getRank(), what + ": getRank of " + Arrays.toString(list));
        int[] ranks = new int[list.length + 1];
        for (int i = 0; i < list.length; i++) {
            ranks[i] = i;
        }
        ranks[list.length] = MPI.PROC_NULL;
        int[] expect = Arrays.copyOf(list, list.length + 1);
        expect[list.length] = MPI.PROC_NULL;
        Check.equal(Arrays.toString(expect), Arrays.toString(Group.translateRanks(g, ranks, worldGroup)),
                what + ": translateRanks to COMM_WORLD's group");
        int[] back = Group.translateRanks(worldGroup, range(worldSize), g);
        for (int w = 0; w < worldSize; w++) {
            int k = indexOf(list, w);
            Check.equal(k < 0 ? MPI.UNDEFINED : k, back[w], what + ": translateRanks of world rank " + w + " into "
                    + Arrays.toString(list));
        }
        if (list.length == 0) {
            Check.equal(RESULT[MPI.IDENT], name(Group.compare(g, MPI.GROUP_EMPTY)), what + ": compare with GROUP_EMPTY");
        } else {
            Check.equal(RESULT[MPI.UNEQUAL], name(Group.compare(g, MPI.GROUP_EMPTY)), what + ": compare with GROUP_EMPTY");
        }
        if (free) {
            g.free();
        }
    }

    /** IDENT (or {@code same} for communicators: CONGRUENT) for equal lists, SIMILAR for equal sets, else UNEQUAL. */
    private static int compareLists(int[] a, int[] b, int same) {
        if (Arrays.equals(a, b)) {
            return same;
        }
        if (a.length != b.length) {
            return MPI.UNEQUAL;
        }
        int[] x = a.clone();
        int[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        return Arrays.equals(x, y) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    // ---------------------------------------------------------------- checking a communicator

    /** Checks a new communicator's shape and exercises it (its members only). */
    private static void exercise(int round, String where, Entry e, int rootDraw) throws MPIException {
        if (e.comm == null) {
            return;
        }
        String what = "round " + round + ", " + where + ": new " + e;
        checkShape(round, what, e);
        Intracomm c = e.comm;
        int n = e.members.length;
        int r = indexOf(e.members, world);
        int root = rootDraw % n;
        int[] b = {r == root ? 1000 * round + e.members[root] : -1};
        c.bcast(b, 1, MPI.INT, root);
        Check.equal(1000L * round + e.members[root], b[0], what + ": bcast from rank " + root);
        int to = (r + 1) % n;
        int from = (r - 1 + n) % n;
        int[] in = new int[3];
        Status st = c.sendRecv(new int[] {world, e.id, round}, 3, MPI.INT, to, 11, in, 3, MPI.INT, from, 11);
        Check.equal(Arrays.toString(new int[] {e.members[from], e.id, round}), Arrays.toString(in),
                what + ": ring sendRecv payload from rank " + from);
        Check.equal(from, st.getSource(), what + ": ring sendRecv status source");
        Check.equal(11, st.getTag(), what + ": ring sendRecv status tag");
        c.barrier();
    }

    /** Size, rank, group (against COMM_WORLD's) and an allReduce of world ranks. */
    private static void checkShape(int round, String what, Entry e) throws MPIException {
        Intracomm c = e.comm;
        what = round < 0 || what.startsWith("round") ? what + " " + e : "round " + round + ", " + what + " of " + e;
        Check.that(!c.isNull(), what + ": null communicator");
        Check.that(!c.isInter(), what + ": isInter() true");
        Check.equal(e.members.length, c.getSize(), what + ": getSize");
        Check.equal(indexOf(e.members, world), c.getRank(), what + ": getRank");
        checkGroupList(c.getGroup(), e.members, what + ": getGroup", true);
        int[] sum = new int[1];
        c.allReduce(new int[] {world}, sum, 1, MPI.INT, MPI.SUM);
        Check.equal(Arrays.stream(e.members).sum(), sum[0], what + ": allReduce SUM of world ranks");
    }

    /** COMM_SELF against COMM_WORLD and its own group. */
    private static void checkSelf() throws MPIException {
        Check.equal(1, MPI.COMM_SELF.getSize(), "COMM_SELF getSize");
        Check.equal(0, MPI.COMM_SELF.getRank(), "COMM_SELF getRank");
        checkGroupList(MPI.COMM_SELF.getGroup(), new int[] {world}, "COMM_SELF getGroup", true);
        Check.equal(RESULT[worldSize == 1 ? MPI.CONGRUENT : MPI.UNEQUAL], name(Comm.compare(MPI.COMM_SELF, MPI.COMM_WORLD)),
                "Comm.compare(COMM_SELF, COMM_WORLD)");
        Check.equal(RESULT[MPI.IDENT], name(Comm.compare(MPI.COMM_WORLD, MPI.COMM_WORLD)),
                "Comm.compare(COMM_WORLD, COMM_WORLD)");
    }

    // ---------------------------------------------------------------- small helpers

    private static String name(int result) {
        return result >= 0 && result < RESULT.length ? RESULT[result] : "result " + result;
    }

    private static void free(Group g) throws MPIException {
        if (g != null && g != MPI.GROUP_EMPTY && !g.isNull()) {
            g.free();
        }
    }
}
