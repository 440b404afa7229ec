package io.bdmpi.master.collective;

import io.bdmpi.master.internode.Placement;
import io.bdmpi.protocol.MasterReply;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A communicator as the master knows it: its members (world ranks, in communicator-rank order)
 * and the collectives in progress on it. Owned by the scheduler thread.
 *
 * <p>Members start a communicator's collectives in the same order, so the k-th start of every
 * member belongs to the same operation: {@link #operation} pairs them by that sequence number.
 */
public final class Communicator {

    final int id;
    /** What reports call it: "#id" until a member names it (its program, or the runtime for a window or file). */
    private String name;
    private final int[] members;
    private final Map<Integer, Integer> rankOfWorldRank = new HashMap<>();
    private final long groupHash;
    private final long groupSetHash;
    /** Per member (communicator rank): how many collectives it has started here. */
    private final long[] started;
    private final Map<Long, CollectiveOp> open = new HashMap<>();
    private final Placement placement;
    private final int node;
    private final int[] otherNodes;
    /**
     * 0 for an intracommunicator; for an intercommunicator the size of its first group: members
     * {@code [0, lowGroupSize)} face the others. Collectives and splits see all members ranked as
     * here; point-to-point goes from one group to a rank of the other (see {@link #destination}).
     */
    private final int lowGroupSize;

    /**
     * @param placement where every world rank lives
     * @param node      the node of the master that keeps this record
     */
    Communicator(int id, String name, int[] members, Placement placement, int node) {
        this(id, name, members, 0, placement, node);
    }

    Communicator(int id, String name, int[] members, int lowGroupSize, Placement placement, int node) {
        this.id = id;
        this.name = name;
        this.members = members.clone();
        this.lowGroupSize = lowGroupSize;
        this.placement = placement;
        this.node = node;
        this.otherNodes = Arrays.stream(members).map(placement::nodeOf).filter(n -> n != node).distinct().sorted().toArray();
        this.started = new long[members.length];
        long ordered = 17;
        long set = 0;
        for (int i = 0; i < members.length; i++) {
            rankOfWorldRank.put(members[i], i);
            ordered = ordered * 0x9E3779B97F4A7C15L + mix(members[i]);
            set += mix(members[i]);
        }
        this.groupHash = mix(ordered ^ members.length);
        this.groupSetHash = mix(set ^ members.length);
    }

    /** What reports call this communicator. */
    public String name() {
        return name;
    }

    void rename(String name) {
        this.name = name;
    }

    public int size() {
        return members.length;
    }

    /** World rank of a member, or -1 if {@code rank} is out of range. */
    public int worldRank(int rank) {
        return rank >= 0 && rank < members.length ? members[rank] : -1;
    }

    /** Communicator rank of a world rank, or -1 if it is not a member. */
    public int rankOf(int worldRank) {
        Integer r = rankOfWorldRank.get(worldRank);
        return r == null ? -1 : r;
    }

    /**
     * The world rank a send of member {@code senderRank} to {@code dest} goes to, or -1 if
     * {@code dest} is out of range: a rank of this communicator, or of the other group of an
     * intercommunicator.
     */
    public int destination(int senderRank, int dest) {
        if (lowGroupSize == 0) {
            return worldRank(dest);
        }
        boolean low = senderRank < lowGroupSize;
        int peers = peers(senderRank);
        return dest >= 0 && dest < peers ? members[low ? lowGroupSize + dest : dest] : -1;
    }

    /** How many ranks a send of member {@code senderRank} can name: the size, or the other group's. */
    public int peers(int senderRank) {
        if (lowGroupSize == 0) {
            return members.length;
        }
        return senderRank < lowGroupSize ? members.length - lowGroupSize : lowGroupSize;
    }

    /** The source its receivers see in a message of member {@code senderRank}: its rank in its own group. */
    public int sourceRank(int senderRank) {
        return senderRank < lowGroupSize ? senderRank : senderRank - lowGroupSize;
    }

    /** Whether every member has completed every operation started on it. */
    boolean idle() {
        return open.isEmpty();
    }

    /** The operation the member's next collective start belongs to, created by its first member. */
    CollectiveOp operation(int rank) {
        long seq = started[rank]++;
        return open.computeIfAbsent(seq, s -> new CollectiveOp(this, s));
    }

    /** Forgets a completed operation. */
    void closed(CollectiveOp op) {
        open.remove(op.sequence);
    }

    /** Whether every member lives on this master's node (collectives then need no other master). */
    boolean isLocal() {
        return otherNodes().length == 0;
    }

    /** The nodes other than this master's that members live on, in increasing order. */
    int[] otherNodes() {
        return otherNodes;
    }

    /** The lowest node any member lives on. */
    int lowestNode() {
        return otherNodes.length > 0 ? Math.min(node, otherNodes[0]) : node;
    }

    /** Whether the member at communicator rank {@code rank} lives on this master's node. */
    boolean isLocalRank(int rank) {
        return placement.nodeOf(members[rank]) == node;
    }

    /** What a member learns of the communicator: its rank and size, and how the members spread over the nodes. */
    public MasterReply.CommInfo info(int rank) {
        java.util.TreeSet<Integer> nodes = new java.util.TreeSet<>();
        int localSize = 0;
        int localRank = 0;
        int lowestLocal = -1;
        for (int r = 0; r < members.length; r++) {
            int n = placement.nodeOf(members[r]);
            nodes.add(n);
            if (n == node) {
                if (lowestLocal < 0) {
                    lowestLocal = r;
                }
                if (r < rank) {
                    localRank++;
                }
                localSize++;
            }
        }
        return new MasterReply.CommInfo(id, rank, members.length, nodes.size(), nodes.headSet(node).size(), localSize,
                localRank, lowestLocal, groupHash, groupSetHash);
    }

    @Override
    public String toString() {
        return name + Arrays.toString(members.length <= 8 ? members : Arrays.copyOf(members, 8));
    }

    /** SplitMix64's finalizer: spreads ranks so equal groups hash alike and different ones do not. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
