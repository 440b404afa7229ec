package io.bdmpi.master.collective;

import io.bdmpi.master.checkpoint.Checkpointing;
import io.bdmpi.master.internode.Internode;
import io.bdmpi.master.session.SlaveSession;
import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.SlaveRequest;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs collectives, communicator splits and the calls that make a communicator over given members
 * (see {@link Communicators#groupCall}): pairs each member's start with the others', and when
 * all members of the communicator have started, hands every member its result. Owned by the
 * scheduler thread, which learns of completions and failures through {@link Listener}.
 *
 * <p>On a communicator whose members live on several nodes, each master ships its members' starts
 * (contributions included) to the masters of the other nodes of the communicator and runs the
 * whole operation on every member's start: all masters then compute the same results, reductions
 * folded in rank order as on one node, and each hands its own members theirs. A split's new
 * communicators take ids that the communicator's lowest node reserved from its own range and sent
 * along with its members' starts, so every master names them alike.
 */
public final class Collectives {

    /** Where the starts of local members go when their communicator has members on other nodes: the other masters. */
    public interface RemoteStarts {
        /**
         * Ships a local slave's collective start to the masters of {@code nodes}; a spilled
         * contribution's file is kept until the scheduler hears that it has gone (SpillShipped).
         */
        void shipStart(int[] nodes, Internode.RemoteStart start);
    }

    /** What the scheduler does with the outcome of an operation. */
    public interface Listener {
        /** The operation completed for {@code member}: its result waits to be collected. */
        void completed(SlaveSession member, MasterReply.CollectiveDone done);

        /** A start is about to go to {@code masters} other masters (counted for deadlock detection). */
        void shipping(int masters);

        /** The job cannot go on (mismatched calls, unknown communicator). */
        void failed(String reason);
    }

    private final Communicators comms;
    private final SharedSpillFiles spillFiles;
    private final Checkpointing checkpointing;
    private final Listener listener;
    /** The other nodes' masters; null on one node. */
    private final RemoteStarts remote;
    /**
     * Starts from other nodes on communicators not made here yet, by communicator id. A split
     * completes on each of its masters when the last start reaches that master, so a member on a
     * node that heard from everyone first may already use the new communicator. Its starts wait
     * here until the split completes on this node too.
     */
    private final Map<Integer, List<Internode.RemoteStart>> early = new HashMap<>();

    public Collectives(Communicators comms, SharedSpillFiles spillFiles, RemoteStarts remote, Checkpointing checkpointing,
                       Listener listener) {
        this.comms = comms;
        this.spillFiles = spillFiles;
        this.remote = remote;
        this.checkpointing = checkpointing;
        this.listener = listener;
    }

    /** A member of another node started an operation on a communicator with members here. */
    public void arriveRemote(Internode.RemoteStart r) {
        Communicator comm = r.start() instanceof SlaveRequest.StartGroupComm g ? member(comms.groupCall(g), r.worldRank())
                : comms.lookupAny(r.commId(), r.worldRank());
        if (comm == null && !comms.exists(r.commId()) && !(r.start() instanceof SlaveRequest.StartGroupComm)) {
            early.computeIfAbsent(r.commId(), id -> new ArrayList<>()).add(r);
            return;
        }
        if (comm == null) {
            listener.failed("rank " + r.worldRank() + " called " + CollectiveOp.describe(r.start()) + " on communicator "
                    + comms.name(r.commId()) + ", which does not exist or does not include it (freed?)");
            return;
        }
        int rank = comm.rankOf(r.worldRank());
        CollectiveOp op = comm.operation(rank);
        String problem = op.arrive(rank, new CollectiveOp.Arrival(null, requestId(r.start()), r.start()));
        if (problem != null) {
            listener.failed("rank " + r.worldRank() + ": " + CollectiveOp.describe(r.start()) + " on " + comm.name() + ": " + problem);
            return;
        }
        if (r.idBase() >= 0) {
            op.idBase = r.idBase();
        }
        if (op.isComplete()) {
            complete(op);
        }
    }

    public void start(SlaveSession s, SlaveRequest.StartCollective c) {
        arrive(s, c.commId(), c.requestId(), c);
    }

    public void split(SlaveSession s, SlaveRequest.StartSplit split) {
        arrive(s, split.commId(), split.requestId(), split);
    }

    /** A member's call that makes a communicator over given members: collective over them only. */
    public void groupComm(SlaveSession s, SlaveRequest.StartGroupComm start) {
        arrive(s, Protocol.NO_COMM, start.requestId(), start);
    }

    private void arrive(SlaveSession s, int commId, long requestId, SlaveRequest start) {
        Communicator comm = start instanceof SlaveRequest.StartGroupComm g ? member(comms.groupCall(g), s.worldRank)
                : comms.lookup(commId, s.worldRank);
        if (comm == null) {
            listener.failed("rank " + s.worldRank + " called " + CollectiveOp.describe(start) + " on communicator "
                    + comms.name(commId) + ", which does not exist or does not include it (freed?)");
            return;
        }
        if (start instanceof SlaveRequest.StartCollective c && c.kind().checkpoints() && commId != Protocol.COMM_WORLD_ID) {
            listener.failed("rank " + s.worldRank + " called " + CollectiveOp.describe(start) + " on " + comm.name()
                    + ": checkpoints are collective over COMM_WORLD");
            return;
        }
        int rank = comm.rankOf(s.worldRank);
        CollectiveOp op = comm.operation(rank);
        String problem = op.arrive(rank, new CollectiveOp.Arrival(s, requestId, start));
        if (problem != null) {
            listener.failed("rank " + s.worldRank + ": " + CollectiveOp.describe(start) + " on " + comm.name() + ": " + problem);
            return;
        }
        s.collectives.put(requestId, op);
        if (!comm.isLocal()) {
            ship(comm, op, s, start);
        }
        if (op.isComplete()) {
            complete(op);
        }
    }

    /** The record of a group's calls if {@code worldRank} is one of its members, else null. */
    private static Communicator member(Communicator groupCall, int worldRank) {
        return groupCall.rankOf(worldRank) >= 0 ? groupCall : null;
    }

    private static long requestId(SlaveRequest start) {
        if (start instanceof SlaveRequest.StartCollective c) {
            return c.requestId();
        }
        return start instanceof SlaveRequest.StartSplit sp ? sp.requestId() : ((SlaveRequest.StartGroupComm) start).requestId();
    }

    /** Whether the operation makes communicators, whose ids the lowest node of its members chooses. */
    private static boolean makesCommunicators(SlaveRequest start) {
        return start instanceof SlaveRequest.StartSplit || start instanceof SlaveRequest.StartGroupComm;
    }

    /**
     * Sends a local member's start to the other nodes of the communicator. Its spilled contribution
     * is held (one reference for the sending, released by the scheduler on SpillShipped, one
     * for the operation, released when it completes) so the file outlives both.
     */
    private void ship(Communicator comm, CollectiveOp op, SlaveSession s, SlaveRequest start) {
        if (start instanceof SlaveRequest.StartCollective c && c.kind() == CollectiveKind.CHECKPOINT) {
            // A saved state stays on its rank's node, which writes it into its part of the checkpoint.
            start = new SlaveRequest.StartCollective(c.requestId(), c.commId(), c.kind(), c.root(), c.op(), c.type(), c.count(),
                    c.blockBytes(), new Payload.Inline(ByteBuffer.allocate(0)));
        }
        if (start instanceof SlaveRequest.StartCollective c && c.data() instanceof Payload.Spilled spilled) {
            spillFiles.retain(spilled.fileName());
            spillFiles.retain(spilled.fileName());
        }
        boolean choosesIds = makesCommunicators(start) && comm.lowestNode() == comms.node();
        if (choosesIds && op.idBase < 0) {
            op.idBase = comms.reserve(start instanceof SlaveRequest.StartSplit ? comm.size() : 1);
        }
        int idBase = choosesIds ? op.idBase : -1;
        listener.shipping(comm.otherNodes().length);
        remote.shipStart(comm.otherNodes(), new Internode.RemoteStart(comm.id, s.worldRank, idBase, start));
    }

    private void complete(CollectiveOp op) {
        Communicator comm = op.comm;
        comm.closed(op);
        int n = comm.size();
        boolean checkpoints = op.reference() instanceof SlaveRequest.StartCollective c && c.kind().checkpoints();
        try {
            if (checkpoints && ((SlaveRequest.StartCollective) op.reference()).kind() == CollectiveKind.CHECKPOINT) {
                // The ranks leave the call when every node's part is committed (at once on one node).
                checkpointing.checkpoint(members(op), starts(op), sequence -> handOut(op, sequenceFor(n, sequence), null));
                return;
            }
            if (checkpoints) {
                Checkpointing.Outcome restored = checkpointing.restore(members(op), this::sourceOf);
                handOut(op, sequenceFor(n, restored.sequence()), restored.pieces());
                return;
            }
        } catch (Checkpointing.CheckpointException e) {
            listener.failed(e.getMessage());
            return;
        }
        int[][] values = op.reference() instanceof SlaveRequest.StartSplit ? split(op)
                : op.reference() instanceof SlaveRequest.StartGroupComm g ? group(op, g) : new int[n][0];
        handOut(op, values, null);
    }

    private static int[][] sequenceFor(int n, int sequence) {
        int[][] values = new int[n][];
        for (int rank = 0; rank < n; rank++) {
            values[rank] = new int[] {sequence};
        }
        return values;
    }

    /** A restored message's source: the sender's rank on its communicator as the receiver sees it, or -1. */
    private int sourceOf(int commId, int senderWorldRank, int receiverWorldRank) {
        Communicator comm = comms.lookup(commId, receiverWorldRank);
        return comm == null ? -1 : comm.rankOf(senderWorldRank);
    }

    /**
     * Gives each member of this node its result of a completed operation.
     *
     * @param restored the members' pieces of a restore, or null for the operation's own
     */
    private void handOut(CollectiveOp op, int[][] values, List<List<Payload>> restored) {
        Communicator comm = op.comm;
        int n = comm.size();
        List<MasterReply.CollectiveDone> results = new ArrayList<>(n);
        for (int rank = 0; rank < n; rank++) {
            if (op.arrival(rank).slave() == null) {
                results.add(null); // a member of another node: its master hands it its result
                continue;
            }
            List<Payload> pieces = restored != null ? restored.get(rank) : op.piecesFor(rank);
            for (Payload p : pieces) {
                if (p instanceof Payload.Slice slice) {
                    spillFiles.retain(slice.fileName());
                }
            }
            results.add(new MasterReply.CollectiveDone(op.arrival(rank).requestId(), values[rank], pieces));
        }
        if (comm.isLocal()) {
            spillFiles.dropUnread(op.spillFiles(true));
        } else {
            op.spillFiles(true).forEach(spillFiles::release);
            spillFiles.dropUnread(op.spillFiles(false));
        }
        if (op.reference() instanceof SlaveRequest.StartCollective c && c.kind() == CollectiveKind.FREE) {
            comms.free(comm);
        }
        for (int rank = 0; rank < n; rank++) {
            SlaveSession member = op.arrival(rank).slave();
            if (member != null) {
                member.collectives.remove(results.get(rank).requestId());
                listener.completed(member, results.get(rank));
            }
        }
        if (makesCommunicators(op.reference()) && !early.isEmpty()) {
            for (int[] v : values) {
                List<Internode.RemoteStart> waiting = early.remove(v[0]);
                if (waiting != null) {
                    waiting.forEach(this::arriveRemote);
                }
            }
        }
    }

    /**
     * Makes the communicator of a group's call: its members in the order given.
     *
     * @return per rank: new id, rank, size
     */
    private int[][] group(CollectiveOp op, SlaveRequest.StartGroupComm start) {
        comms.groupCallDone(op.comm, start);
        int n = op.comm.size();
        Communicator created = comms.create(op.comm.isLocal() ? -1 : op.idBase, start.members(), start.lowGroupSize());
        int[][] values = new int[n][];
        for (int rank = 0; rank < n; rank++) {
            values[rank] = new int[] {created.id, rank, n};
        }
        return values;
    }

    /** The members of an operation, by rank: null for those of other nodes. */
    private static List<SlaveSession> members(CollectiveOp op) {
        List<SlaveSession> members = new ArrayList<>(op.comm.size());
        for (int rank = 0; rank < op.comm.size(); rank++) {
            members.add(op.arrival(rank).slave());
        }
        return members;
    }

    /** The members' starts of a collective (not a split), by rank. */
    private static List<SlaveRequest.StartCollective> starts(CollectiveOp op) {
        List<SlaveRequest.StartCollective> starts = new ArrayList<>(op.comm.size());
        for (int rank = 0; rank < op.comm.size(); rank++) {
            starts.add((SlaveRequest.StartCollective) op.arrival(rank).start());
        }
        return starts;
    }

    /**
     * Makes one communicator per colour, in increasing colour order (so ids do not depend on who
     * came first), members ordered by key and then by their old rank.
     *
     * @return per old rank: new id, new rank, new size, then the new communicator's members (world
     *         ranks in rank order), so that no member has to ask the others who they are
     */
    private int[][] split(CollectiveOp op) {
        int n = op.comm.size();
        TreeMap<Integer, List<Integer>> byColor = new TreeMap<>();
        for (int rank = 0; rank < n; rank++) {
            SlaveRequest.StartSplit s = (SlaveRequest.StartSplit) op.arrival(rank).start();
            if (s.color() != Protocol.UNDEFINED_COLOR) {
                byColor.computeIfAbsent(s.color(), c -> new ArrayList<>()).add(rank);
            }
        }
        int[][] values = new int[n][];
        for (int rank = 0; rank < n; rank++) {
            values[rank] = new int[] {Protocol.NO_COMM, 0, 0};
        }
        int colorIndex = 0;
        for (List<Integer> group : byColor.values()) {
            int id = op.comm.isLocal() ? -1 : op.idBase + colorIndex++;
            group.sort(Comparator.comparingInt((Integer r) -> ((SlaveRequest.StartSplit) op.arrival(r).start()).key())
                    .thenComparingInt(r -> r));
            int[] members = new int[group.size()];
            for (int i = 0; i < members.length; i++) {
                members[i] = op.comm.worldRank(group.get(i));
            }
            if (id >= 0 && group.stream().noneMatch(op.comm::isLocalRank)) {
                continue; // made only on the nodes of its members
            }
            Communicator created = id < 0 ? comms.create(members) : comms.create(id, members);
            for (int i = 0; i < members.length; i++) {
                int[] v = new int[3 + members.length];
                v[0] = created.id;
                v[1] = i;
                v[2] = members.length;
                System.arraycopy(members, 0, v, 3, members.length);
                values[group.get(i)] = v;
            }
        }
        return values;
    }
}
