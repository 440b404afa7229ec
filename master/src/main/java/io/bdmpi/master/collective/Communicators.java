package io.bdmpi.master.collective;

import io.bdmpi.master.internode.Placement;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.SlaveRequest;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every live communicator of the job, by id. The predefined ones exist from the start; splits and
 * dups add communicators under ids counted up from {@link Protocol#FIRST_DERIVED_COMM_ID}, which
 * every member learns from the split's result. Owned by the scheduler thread.
 */
public final class Communicators {

    private final Map<Integer, Communicator> byId = new HashMap<>();
    /**
     * The calls in progress that make communicators over given members ({@code MPI_Comm_create_group},
     * intercommunicators): per members, kind and tag, a record of those members that pairs their
     * k-th calls as a communicator pairs its members' collectives. Never a communicator itself.
     */
    private final Map<GroupKey, Communicator> groupCalls = new HashMap<>();

    private record GroupKey(List<Integer> members, int lowGroupSize, int tag) {
        static GroupKey of(SlaveRequest.StartGroupComm start) {
            return new GroupKey(Arrays.stream(start.members()).boxed().toList(), start.lowGroupSize(), start.tag());
        }
    }
    private final Communicator[] selves;
    private final Placement placement;
    private final int node;
    private int nextId;
    /**
     * Each node makes ids from its own range (node 0's starts at {@link Protocol#FIRST_DERIVED_COMM_ID},
     * as on one node), so communicators made on different nodes never share an id.
     */
    static final int IDS_PER_NODE = 1 << 20;

    /** One node of {@code worldSize} slaves: COMM_CWORLD and COMM_NODE order them as COMM_WORLD does. */
    Communicators(int worldSize) {
        this(Placement.of("block", 1, worldSize), 0);
    }

    /** The communicators as the master of {@code node} sees them; only its own slaves use COMM_SELF and COMM_NODE here. */
    public Communicators(Placement placement, int node) {
        int worldSize = placement.worldSize();
        int[] all = new int[worldSize];
        for (int i = 0; i < worldSize; i++) {
            all[i] = i;
        }
        add(new Communicator(Protocol.COMM_WORLD_ID, "COMM_WORLD", all, placement, node));
        add(new Communicator(Protocol.COMM_CWORLD_ID, "COMM_CWORLD", placement.cyclicWorld(), placement, node));
        add(new Communicator(Protocol.COMM_NODE_ID, "COMM_NODE", placement.ranksOn(node), placement, node));
        this.placement = placement;
        this.node = node;
        this.nextId = Protocol.FIRST_DERIVED_COMM_ID + node * IDS_PER_NODE;
        selves = new Communicator[worldSize];
        for (int i : placement.ranksOn(node)) {
            selves[i] = new Communicator(Protocol.COMM_SELF_ID, "COMM_SELF", new int[] {i}, placement, node);
        }
    }

    /** The communicator {@code commId} as seen by {@code worldRank}, or null if it is not a member. */
    public Communicator lookup(int commId, int worldRank) {
        Communicator c = commId == Protocol.COMM_SELF_ID ? selves[worldRank] : byId.get(commId);
        return c != null && c.rankOf(worldRank) >= 0 ? c : null;
    }

    /** Registers a new communicator of these members (world ranks, in rank order). */
    Communicator create(int[] members) {
        return create(-1, members, 0);
    }

    /** Registers a new communicator under an id agreed with the other nodes' masters (see {@link #reserve}). */
    Communicator create(int id, int[] members) {
        return create(id, members, 0);
    }

    /**
     * Registers a new intra- or intercommunicator ({@code lowGroupSize} > 0, see {@link Communicator})
     * under {@code id}, or under a new id of this node when {@code id} is negative.
     */
    Communicator create(int id, int[] members, int lowGroupSize) {
        int given = id < 0 ? nextId++ : id;
        Communicator c = new Communicator(given, "#" + given, members, lowGroupSize, placement, node);
        add(c);
        return c;
    }

    /** The record that pairs the members' calls of {@code start}, made by its first call (here or on another node). */
    Communicator groupCall(SlaveRequest.StartGroupComm start) {
        int[] members = start.members();
        return groupCalls.computeIfAbsent(GroupKey.of(start), k -> new Communicator(Protocol.NO_COMM, "the group "
                + Arrays.toString(members) + " (tag " + start.tag() + ")", members, placement, node));
    }

    /** Forgets the record of a group's calls once none is in progress (the next call starts afresh on every node). */
    void groupCallDone(Communicator record, SlaveRequest.StartGroupComm start) {
        if (record.idle()) {
            groupCalls.remove(GroupKey.of(start));
        }
    }

    /** The node of the master that keeps these records. */
    int node() {
        return node;
    }

    /** Takes {@code n} ids from this node's range, for communicators a split of several nodes will make. */
    int reserve(int n) {
        int first = nextId;
        nextId += n;
        return first;
    }

    /** The communicator {@code commId} if {@code worldRank} (of any node) is a member, else null. */
    Communicator lookupAny(int commId, int worldRank) {
        Communicator c = byId.get(commId);
        return c != null && c.rankOf(worldRank) >= 0 ? c : null;
    }

    /** Whether a communicator {@code commId} (other than COMM_SELF) is registered here. */
    boolean exists(int commId) {
        return byId.containsKey(commId);
    }

    void free(Communicator c) {
        byId.remove(c.id);
    }

    /** A readable name for reports; ids of freed or unknown communicators are shown as numbers. */
    public String name(int commId) {
        Communicator c = byId.get(commId);
        return commId == Protocol.COMM_SELF_ID ? "COMM_SELF" : c != null ? c.name() : "#" + commId;
    }

    /** Calls communicator {@code commId} {@code name} in reports; COMM_SELF and unknown ids keep theirs. */
    public void rename(int commId, String name) {
        Communicator c = byId.get(commId);
        if (c != null && commId != Protocol.COMM_SELF_ID) {
            c.rename(name);
        }
    }

    private void add(Communicator c) {
        byId.put(c.id, c);
    }
}
