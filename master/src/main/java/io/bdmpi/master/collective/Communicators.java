package io.bdmpi.master.collective;

import io.bdmpi.master.internode.Placement;
import io.bdmpi.protocol.Protocol;

import java.util.HashMap;
import java.util.Map;

/**
 * Every live communicator of the job, by id. The predefined ones exist from the start; splits and
 * dups add communicators under ids counted up from {@link Protocol#FIRST_DERIVED_COMM_ID}, which
 * every member learns from the split's result. Owned by the scheduler thread.
 */
public final class Communicators {

    private final Map<Integer, Communicator> byId = new HashMap<>();
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
        return create(nextId++, members);
    }

    /** Registers a new communicator under an id agreed with the other nodes' masters (see {@link #reserve}). */
    Communicator create(int id, int[] members) {
        Communicator c = new Communicator(id, "#" + id, members, placement, node);
        add(c);
        return c;
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
        return commId == Protocol.COMM_SELF_ID ? "COMM_SELF" : c != null ? c.name : "#" + commId;
    }

    private void add(Communicator c) {
        byId.put(c.id, c);
    }
}
