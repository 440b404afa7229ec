package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An ordered set of processes, as in MPI: the rank of a process in a group is its position. Groups
 * come from {@link Comm#getGroup()}, the set operations here and {@code MPI.GROUP_EMPTY}; each is a
 * new handle that the caller frees. Every operation is local: a group is a list of
 * {@code MPI.COMM_WORLD} ranks held in this process.
 *
 * <p>Errors (a bad rank, a freed group) are {@code MPI.ERR_RANK}, {@code MPI.ERR_ARG} or
 * {@code MPI.ERR_GROUP} errors of {@code MPI.COMM_WORLD}'s handler, as in Open MPI, which gives
 * calls without a communicator to it.
 */
public final class Group implements Freeable {

    /** The members' COMM_WORLD ranks; the rank of a member in this group is its index. */
    private final int[] members;
    private boolean freed;

    Group(int[] worldRanks) {
        this.members = worldRanks;
    }

    /** The members' COMM_WORLD ranks, in group order (the array itself: do not change it). */
    int[] worldRanks() {
        return members;
    }

    /**
     * Number of processes in the group.
     *
     * @return the size
     * @throws MPIException if MPI is not running; ERR_GROUP for a freed group under {@code MPI.ERRORS_RETURN}
     */
    public int getSize() throws MPIException {
        check("MPI_Group_size");
        return members.length;
    }

    /**
     * The calling process's rank in the group.
     *
     * @return the rank, or {@code MPI.UNDEFINED} if the caller is not a member
     * @throws MPIException if MPI is not running; ERR_GROUP for a freed group under {@code MPI.ERRORS_RETURN}
     */
    public int getRank() throws MPIException {
        check("MPI_Group_rank");
        return indexOf(Session.runtime().environment().worldRank());
    }

    /** The rank of COMM_WORLD rank {@code worldRank} here, or {@code MPI.UNDEFINED}. */
    int indexOf(int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    /**
     * Releases the group: it becomes null ({@link #isNull()}), and using it is an {@code MPI.ERR_GROUP} error.
     *
     * @throws MPIException if MPI is not running; ERR_GROUP for a group freed already under
     *                      {@code MPI.ERRORS_RETURN}
     */
    @Override
    public void free() throws MPIException {
        check("MPI_Group_free");
        freed = true;
    }

    /**
     * Whether the group has been freed.
     *
     * @return whether the group is null
     */
    public boolean isNull() {
        return freed;
    }

    /**
     * For each rank of {@code ranks1} in {@code group1}, the rank of the same process in {@code group2}.
     *
     * @param group1 the group {@code ranks1} refers to
     * @param ranks1 ranks in {@code group1} (read only); {@code MPI.PROC_NULL} is allowed
     * @param group2 the group to translate to
     * @return a new array as long as {@code ranks1}: the rank in {@code group2}, {@code MPI.UNDEFINED}
     *         for a process not in it, {@code MPI.PROC_NULL} for {@code MPI.PROC_NULL}
     * @throws MPIException if MPI is not running; ERR_GROUP, ERR_RANK or ERR_ARG under {@code MPI.ERRORS_RETURN}
     */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        String call = "MPI_Group_translate_ranks";
        check(call, group1, group2);
        requireArray(call, ranks1);
        Map<Integer, Integer> in2 = positions(group2.members);
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
                continue;
            }
            group1.checkRank(call, r);
            out[i] = in2.getOrDefault(group1.members[r], MPI.UNDEFINED);
        }
        return out;
    }

    /**
     * Compares two groups.
     *
     * @param group1 a group
     * @param group2 another group
     * @return {@code MPI.IDENT} for the same members in the same order, {@code MPI.SIMILAR} for the
     *         same members in another order, {@code MPI.UNEQUAL} otherwise
     * @throws MPIException if MPI is not running; ERR_GROUP for a freed group under {@code MPI.ERRORS_RETURN}
     */
    public static int compare(Group group1, Group group2) throws MPIException {
        check("MPI_Group_compare", group1, group2);
        return compareMembers(group1.members, group2.members);
    }

    /** {@link #compare} of two lists of COMM_WORLD ranks. */
    static int compareMembers(int[] members1, int[] members2) {
        if (Arrays.equals(members1, members2)) {
            return MPI.IDENT;
        }
        return members1.length == members2.length && asSet(members1).equals(asSet(members2)) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /**
     * All of {@code group1} in its order, then the members of {@code group2} not in {@code group1}, in its order.
     *
     * @param group1 a group
     * @param group2 another group
     * @return the union, a new group
     * @throws MPIException if MPI is not running; ERR_GROUP for a freed group under {@code MPI.ERRORS_RETURN}
     */
    public static Group union(Group group1, Group group2) throws MPIException {
        check("MPI_Group_union", group1, group2);
        Set<Integer> in1 = asSet(group1.members);
        List<Integer> out = new ArrayList<>();
        for (int r : group1.members) {
            out.add(r);
        }
        for (int r : group2.members) {
            if (!in1.contains(r)) {
                out.add(r);
            }
        }
        return of(out);
    }

    /**
     * The members of {@code group1} that are also in {@code group2}, in {@code group1}'s order.
     *
     * @param group1 a group
     * @param group2 another group
     * @return the intersection, a new group
     * @throws MPIException if MPI is not running; ERR_GROUP for a freed group under {@code MPI.ERRORS_RETURN}
     */
    public static Group intersection(Group group1, Group group2) throws MPIException {
        check("MPI_Group_intersection", group1, group2);
        return group1.filter(asSet(group2.members), true);
    }

    /**
     * The members of {@code group1} that are not in {@code group2}, in {@code group1}'s order.
     *
     * @param group1 a group
     * @param group2 another group
     * @return the difference, a new group
     * @throws MPIException if MPI is not running; ERR_GROUP for a freed group under {@code MPI.ERRORS_RETURN}
     */
    public static Group difference(Group group1, Group group2) throws MPIException {
        check("MPI_Group_difference", group1, group2);
        return group1.filter(asSet(group2.members), false);
    }

    /**
     * The processes with these ranks, in the order given: new rank i is old rank {@code ranks[i]}.
     *
     * @param ranks distinct valid ranks in this group (read only); empty gives an empty group
     * @return the new group
     * @throws MPIException if MPI is not running; ERR_GROUP, ERR_RANK (a bad or repeated rank) or ERR_ARG
     *                      under {@code MPI.ERRORS_RETURN}
     */
    public Group incl(int[] ranks) throws MPIException {
        String call = "MPI_Group_incl";
        check(call);
        requireArray(call, ranks);
        return select(call, ranks);
    }

    /**
     * This group without the processes with these ranks; the others keep their order.
     *
     * @param ranks distinct valid ranks in this group (read only)
     * @return the new group
     * @throws MPIException if MPI is not running; ERR_GROUP, ERR_RANK (a bad or repeated rank) or ERR_ARG
     *                      under {@code MPI.ERRORS_RETURN}
     */
    public Group excl(int[] ranks) throws MPIException {
        String call = "MPI_Group_excl";
        check(call);
        requireArray(call, ranks);
        return without(call, ranks);
    }

    /**
     * The processes that the triplets {@code {first, last, stride}} select, row after row: first,
     * first + stride, ... up to but not past last. A stride may be negative (then first &ge; last) but not 0.
     *
     * @param ranges the triplets (read only; each row holds at least 3 ints, the first 3 are used)
     * @return the new group
     * @throws MPIException if MPI is not running; ERR_GROUP, ERR_RANK (a bad or repeated rank) or ERR_ARG (a
     *                      bad triplet) under {@code MPI.ERRORS_RETURN}
     */
    public Group rangeIncl(int[][] ranges) throws MPIException {
        String call = "MPI_Group_range_incl";
        check(call);
        return select(call, expand(call, ranges));
    }

    /**
     * This group without the processes that the triplets select (see {@link #rangeIncl}); the others keep their order.
     *
     * @param ranges the triplets (read only; each row holds at least 3 ints, the first 3 are used)
     * @return the new group
     * @throws MPIException if MPI is not running; ERR_GROUP, ERR_RANK (a bad or repeated rank) or ERR_ARG (a
     *                      bad triplet) under {@code MPI.ERRORS_RETURN}
     */
    public Group rangeExcl(int[][] ranges) throws MPIException {
        String call = "MPI_Group_range_excl";
        check(call);
        return without(call, expand(call, ranges));
    }

    // ---------------------------------------------------------------- internals

    private Group select(String call, int[] ranks) throws MPIException {
        checkDistinct(call, ranks);
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = members[ranks[i]];
        }
        return new Group(out);
    }

    private Group without(String call, int[] ranks) throws MPIException {
        checkDistinct(call, ranks);
        Set<Integer> gone = new HashSet<>();
        for (int r : ranks) {
            gone.add(members[r]);
        }
        return filter(gone, false);
    }

    /** The members that are ({@code keep}) or are not in {@code set}, in this group's order. */
    private Group filter(Set<Integer> set, boolean keep) {
        List<Integer> out = new ArrayList<>();
        for (int r : members) {
            if (set.contains(r) == keep) {
                out.add(r);
            }
        }
        return of(out);
    }

    /** The ranks the triplets select, in order. */
    private int[] expand(String call, int[][] ranges) throws MPIException {
        if (ranges == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_ARG, call + ": null ranges"));
        }
        List<Integer> out = new ArrayList<>();
        for (int[] t : ranges) {
            if (t == null || t.length < 3) {
                throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_ARG, call + ": a range needs {first, last, stride}"));
            }
            int first = t[0];
            int last = t[1];
            int stride = t[2];
            checkRank(call, first);
            checkRank(call, last);
            if (stride == 0 || (stride > 0 && first > last) || (stride < 0 && first < last)) {
                throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_ARG, call + ": invalid range {" + first + ", " + last
                        + ", " + stride + "}"));
            }
            for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
                out.add((int) r);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private void checkDistinct(String call, int[] ranks) throws MPIException {
        Set<Integer> seen = new HashSet<>();
        for (int r : ranks) {
            checkRank(call, r);
            if (!seen.add(r)) {
                throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_RANK, call + ": rank " + r + " given twice"));
            }
        }
    }

    private void checkRank(String call, int r) throws MPIException {
        if (r < 0 || r >= members.length) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_RANK, call + ": invalid rank " + r
                    + " in a group of size " + members.length));
        }
    }

    private void check(String call) throws MPIException {
        check(call, this);
    }

    /** MPI is running and every group is a live one; else an error of COMM_WORLD's handler. */
    static void check(String call, Group... groups) throws MPIException {
        Session.enter(call);
        for (Group g : groups) {
            if (g == null || g.freed) {
                throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_GROUP, call + ": null or freed group"));
            }
        }
    }

    private static void requireArray(String call, int[] ranks) throws MPIException {
        if (ranks == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_ARG, call + ": null rank array"));
        }
    }

    private static Group of(List<Integer> worldRanks) {
        return new Group(worldRanks.stream().mapToInt(Integer::intValue).toArray());
    }

    private static Set<Integer> asSet(int[] ranks) {
        Set<Integer> s = new HashSet<>();
        for (int r : ranks) {
            s.add(r);
        }
        return s;
    }

    private static Map<Integer, Integer> positions(int[] ranks) {
        Map<Integer, Integer> m = new HashMap<>();
        for (int i = 0; i < ranks.length; i++) {
            m.put(ranks[i], i);
        }
        return m;
    }

    @Override
    public String toString() {
        return "Group" + Arrays.toString(members);
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters

    /** mpiJava's {@code MPI.GROUP_NULL}: a null group. */
    static Group nullGroup() {
        Group g = new Group(new int[0]);
        g.freed = true;
        return g;
    }

    /**
     * mpiJava 1.2: as {@link #getSize}.
     *
     * @return the number of members
     * @throws MPIException as {@link #getSize}
     */
    public int Size() throws MPIException {
        return getSize();
    }

    /**
     * mpiJava 1.2: as {@link #getRank}.
     *
     * @return this process's rank in the group, or {@code MPI.UNDEFINED}
     * @throws MPIException as {@link #getRank}
     */
    public int Rank() throws MPIException {
        return getRank();
    }

    /**
     * mpiJava 1.2: as {@link #incl}.
     *
     * @param ranks the members to keep, in the new order
     * @return the new group
     * @throws MPIException as {@link #incl}
     */
    public Group Incl(int[] ranks) throws MPIException {
        return incl(ranks);
    }

    /**
     * mpiJava 1.2: as {@link #excl}.
     *
     * @param ranks the members to leave out
     * @return the new group
     * @throws MPIException as {@link #excl}
     */
    public Group Excl(int[] ranks) throws MPIException {
        return excl(ranks);
    }

    /**
     * mpiJava 1.2: as {@link #rangeIncl}.
     *
     * @param ranges (first, last, stride) triples
     * @return the new group
     * @throws MPIException as {@link #rangeIncl}
     */
    public Group Range_incl(int[][] ranges) throws MPIException {
        return rangeIncl(ranges);
    }

    /**
     * mpiJava 1.2: as {@link #rangeExcl}.
     *
     * @param ranges (first, last, stride) triples
     * @return the new group
     * @throws MPIException as {@link #rangeExcl}
     */
    public Group Range_excl(int[][] ranges) throws MPIException {
        return rangeExcl(ranges);
    }

    /**
     * mpiJava 1.2: as {@link #translateRanks}.
     *
     * @param group1 the first group
     * @param ranks1 ranks in {@code group1}
     * @param group2 the second group
     * @return the same processes' ranks in {@code group2}
     * @throws MPIException as {@link #translateRanks}
     */
    public static int[] Translate_ranks(Group group1, int[] ranks1, Group group2) throws MPIException {
        return translateRanks(group1, ranks1, group2);
    }

    /**
     * mpiJava 1.2: as {@link #compare}.
     *
     * @param group1 the first group
     * @param group2 the second group
     * @return {@code MPI.IDENT}, {@code MPI.SIMILAR} or {@code MPI.UNEQUAL}
     * @throws MPIException as {@link #compare}
     */
    public static int Compare(Group group1, Group group2) throws MPIException {
        return compare(group1, group2);
    }

    /**
     * mpiJava 1.2: as {@link #union}.
     *
     * @param group1 the first group
     * @param group2 the second group
     * @return the union
     * @throws MPIException as {@link #union}
     */
    public static Group Union(Group group1, Group group2) throws MPIException {
        return union(group1, group2);
    }

    /**
     * mpiJava 1.2: as {@link #intersection}.
     *
     * @param group1 the first group
     * @param group2 the second group
     * @return the intersection
     * @throws MPIException as {@link #intersection}
     */
    public static Group Intersection(Group group1, Group group2) throws MPIException {
        return intersection(group1, group2);
    }

    /**
     * mpiJava 1.2: as {@link #difference}.
     *
     * @param group1 the first group
     * @param group2 the second group
     * @return the members of {@code group1} not in {@code group2}
     * @throws MPIException as {@link #difference}
     */
    public static Group Difference(Group group1, Group group2) throws MPIException {
        return difference(group1, group2);
    }

    /**
     * mpiJava 1.2: as {@link #free}.
     *
     * @throws MPIException as {@link #free}
     */
    public void Free() throws MPIException {
        free();
    }
}
