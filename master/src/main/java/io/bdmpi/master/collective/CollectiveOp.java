package io.bdmpi.master.collective;

import io.bdmpi.master.session.SlaveSession;
import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.Reduction;
import io.bdmpi.protocol.SlaveRequest;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One collective operation on one communicator: the members' starts, checked against each other,
 * and each member's share of the result once all have arrived. Owned by the scheduler thread.
 *
 * <p>Reductions are combined in rank order whatever the order of arrival, so floating-point results
 * do not depend on scheduling: the ranks that form a complete prefix (0..k) are folded into the
 * accumulator as soon as they are there, which, with ranks mostly arriving in order, keeps few
 * vectors in memory at once.
 */
public final class CollectiveOp implements SlaveSession.OpenCollective {

    /**
     * A member's start: a {@link SlaveRequest.StartCollective}, {@link SlaveRequest.StartSplit} or
     * {@link SlaveRequest.StartGroupComm}.
     *
     * @param slave the member, or null for a member of another node (whose master ran its start here too)
     */
    record Arrival(SlaveSession slave, long requestId, SlaveRequest start) {
    }

    final Communicator comm;
    final long sequence;
    private final Arrival[] arrivals;
    private int arrived;
    private Arrival reference;
    private int referenceRank;
    /** For a split or group call of several nodes: the first id of the communicators it makes, agreed by the masters; -1 until known. */
    int idBase = -1;

    /** Reduction with a predefined operator: combination of ranks 0..folded-1. */
    private ByteBuffer accumulator;
    private int folded;
    /** SCAN and EXSCAN: the accumulator after each rank. */
    private ByteBuffer[] prefixes;

    CollectiveOp(Communicator comm, long sequence) {
        this.comm = comm;
        this.sequence = sequence;
        this.arrivals = new Arrival[comm.size()];
    }

    /**
     * Adds the start of the member at communicator rank {@code rank}.
     *
     * @return null, or why the start does not fit the operation the other members started
     */
    String arrive(int rank, Arrival a) {
        String problem = reference == null ? checkAlone(a) : mismatch(rank, a);
        if (problem != null) {
            return problem;
        }
        if (reference == null) {
            reference = a;
            referenceRank = rank;
        }
        arrivals[rank] = a;
        arrived++;
        if (combinesHere()) {
            fold();
        }
        return null;
    }

    boolean isComplete() {
        return arrived == arrivals.length;
    }

    /** The members that have not started this operation yet, as communicator ranks. */
    List<Integer> missing() {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < arrivals.length; i++) {
            if (arrivals[i] == null) {
                out.add(i);
            }
        }
        return out;
    }

    Arrival arrival(int rank) {
        return arrivals[rank];
    }

    /** The start every member's was checked against; null before the first arrival. */
    SlaveRequest reference() {
        return reference == null ? null : reference.start();
    }

    /**
     * Spill files the members handed in; the master owns them from now on.
     *
     * @param local those of this node's members (true) or those received from other masters (false)
     */
    List<String> spillFiles(boolean local) {
        List<String> files = new ArrayList<>();
        for (Arrival a : arrivals) {
            if (a != null && (a.slave() != null) == local && a.start() instanceof SlaveRequest.StartCollective c
                    && c.data() instanceof Payload.Spilled s) {
                files.add(s.fileName());
            }
        }
        return files;
    }

    /** Member {@code rank}'s data once the operation is complete, as {@link CollectiveKind} lists it. */
    List<Payload> piecesFor(int rank) {
        if (!(reference.start() instanceof SlaveRequest.StartCollective ref)) {
            return List.of();
        }
        int n = arrivals.length;
        int root = ref.root();
        switch (ref.kind()) {
            case BCAST:
                return rank == root ? List.of() : List.of(whole(root));
            case GATHER:
                return rank == root ? allWhole(0, n) : List.of();
            case ALLGATHER:
                return allWhole(0, n);
            case SCATTER:
                return List.of(block(root, rank));
            case ALLTOALL:
                return blocksFor(rank);
            case REDUCE:
                return rank == root ? reduced(0, n) : List.of();
            case ALLREDUCE:
                return reduced(0, n);
            case SCAN:
                return prefix(rank + 1);
            case EXSCAN:
                return rank == 0 ? List.of() : prefix(rank);
            case REDUCE_SCATTER:
                return reducedBlock(rank);
            default:
                return List.of();
        }
    }

    @Override
    public String describeWait() {
        return describe(reference()) + " on " + comm.name() + ", which ranks " + missing() + " have not called";
    }

    /** Describes a start for error reports, e.g. {@code MPI_Bcast(root=2, 400 bytes)}. */
    public static String describe(SlaveRequest start) {
        if (start instanceof SlaveRequest.StartSplit s) {
            String dup = Protocol.dupCall(s.color());
            return dup != null ? dup + "()" : "MPI_Comm_split(color=" + s.color() + ", key=" + s.key() + ")";
        }
        if (start instanceof SlaveRequest.StartGroupComm g) {
            return (g.lowGroupSize() > 0 ? "MPI_Intercomm_create" : "MPI_Comm_create_group") + "(" + g.members().length
                    + " ranks, tag=" + g.tag() + ")";
        }
        SlaveRequest.StartCollective c = (SlaveRequest.StartCollective) start;
        StringBuilder b = new StringBuilder(callName(c.kind())).append('(');
        if (c.kind().rooted()) {
            b.append("root=").append(c.root());
        }
        if (c.kind().reduces) {
            b.append(c.kind().rooted() ? ", " : "").append(c.count()).append(' ').append(c.type())
                    .append(", ").append(c.op());
        } else if (c.kind() == CollectiveKind.BCAST) {
            b.append(", ").append(c.count()).append(" bytes");
        }
        return b.append(')').toString();
    }

    static String callName(CollectiveKind kind) {
        switch (kind) {
            case BARRIER: return "MPI_Barrier";
            case BCAST: return "MPI_Bcast";
            case REDUCE: return "MPI_Reduce";
            case ALLREDUCE: return "MPI_Allreduce";
            case SCAN: return "MPI_Scan";
            case EXSCAN: return "MPI_Exscan";
            case REDUCE_SCATTER: return "MPI_Reduce_scatter";
            case GATHER: return "MPI_Gather";
            case ALLGATHER: return "MPI_Allgather";
            case SCATTER: return "MPI_Scatter";
            case ALLTOALL: return "MPI_Alltoall";
            case FREE: return "MPI_Comm_free";
            case CHECKPOINT: return "BDMPI_Checkpoint";
            case RESTORE: return "BDMPI_Restore";
            default: return kind.toString();
        }
    }

    // ---------------------------------------------------------------- checks

    /** What can be checked of a start on its own. */
    private String checkAlone(Arrival a) {
        if (!(a.start() instanceof SlaveRequest.StartCollective c)) {
            return null;
        }
        int n = arrivals.length;
        if (c.kind().rooted() && (c.root() < 0 || c.root() >= n)) {
            return "root " + c.root() + " is not a rank of a communicator of " + n;
        }
        if (c.kind().reduces && c.op() != ReduceOp.USER) {
            String unsupported = Reduction.unsupported(c.op(), c.type());
            if (unsupported != null) {
                return unsupported;
            }
            if (c.data().length() != (long) c.count() * c.type().size) {
                return c.data().length() + " bytes of data for " + c.count() + " elements of " + c.type();
            }
        }
        boolean hasBlocks = c.kind() == CollectiveKind.ALLTOALL || c.kind() == CollectiveKind.REDUCE_SCATTER
                || c.kind() == CollectiveKind.SCATTER && a.slave() != null && comm.rankOf(a.slave().worldRank) == c.root();
        if (hasBlocks) {
            if (c.blockBytes().length != n) {
                return c.blockBytes().length + " block sizes for a communicator of " + n;
            }
            long sum = 0;
            for (long b : c.blockBytes()) {
                if (b < 0) {
                    return "negative block size " + b;
                }
                sum += b;
            }
            if (sum != c.data().length()) {
                return "blocks of " + sum + " bytes in total but " + c.data().length() + " bytes of data";
            }
        }
        return null;
    }

    /** Why a later start does not fit the first, or null if it does. */
    private String mismatch(int rank, Arrival a) {
        String alone = checkAlone(a);
        if (alone != null) {
            return alone;
        }
        SlaveRequest ref = reference.start();
        boolean same;
        if (ref instanceof SlaveRequest.StartCollective r && a.start() instanceof SlaveRequest.StartCollective c) {
            same = r.kind() == c.kind() && r.root() == c.root() && r.op() == c.op() && r.type() == c.type()
                    && r.count() == c.count()
                    && (r.kind() != CollectiveKind.REDUCE_SCATTER || Arrays.equals(r.blockBytes(), c.blockBytes()));
        } else {
            // A group's calls are paired by their members, kind and tag (see Communicators.groupCall): they match.
            same = ref.getClass() == a.start().getClass();
        }
        if (same) {
            return null;
        }
        String was = describe(ref);
        String is = describe(a.start());
        if (was.equals(is) && ref instanceof SlaveRequest.StartCollective r && a.start() instanceof SlaveRequest.StartCollective c) {
            // What differs is not in the short form (a reduce-scatter's counts): say it.
            was += " " + details(r);
            is += " " + details(c);
        }
        return "collective calls do not match on " + comm.name() + ": rank " + referenceRank + " called " + was
                + " but rank " + rank + " called " + is;
    }

    /** The count and the blocks of a start, at most the first 16 blocks. */
    private static String details(SlaveRequest.StartCollective c) {
        long[] blocks = c.blockBytes();
        String shown = Arrays.stream(blocks).limit(16).mapToObj(Long::toString).collect(Collectors.joining(", "));
        return "(count " + c.count() + (blocks.length == 0 ? "" : ", blocks of [" + shown + (blocks.length > 16 ? ", ..." : "")
                + "] bytes") + ")";
    }

    // ---------------------------------------------------------------- reductions

    private boolean combinesHere() {
        return reference.start() instanceof SlaveRequest.StartCollective c && c.kind().reduces && c.op() != ReduceOp.USER;
    }

    /** Folds every rank that now completes the prefix 0..k into the accumulator, in rank order. */
    private void fold() {
        SlaveRequest.StartCollective ref = (SlaveRequest.StartCollective) reference.start();
        boolean scan = ref.kind() == CollectiveKind.SCAN || ref.kind() == CollectiveKind.EXSCAN;
        if (scan && prefixes == null) {
            prefixes = new ByteBuffer[arrivals.length];
        }
        while (folded < arrivals.length && arrivals[folded] != null) {
            ByteBuffer next = inline(folded);
            if (accumulator == null) {
                accumulator = ByteBuffer.allocate(next.remaining()).order(ByteOrder.nativeOrder());
                accumulator.put(next.duplicate()).flip();
            } else {
                Reduction.combine(ref.op(), ref.type(), accumulator, next, ref.count());
            }
            if (scan) {
                prefixes[folded] = copy(accumulator);
            }
            // Its contribution is in the accumulator now: drop it, the master keeps only the sum.
            Arrival a = arrivals[folded];
            arrivals[folded] = new Arrival(a.slave(), a.requestId(), null);
            folded++;
        }
    }

    private List<Payload> reduced(int from, int to) {
        if (combinesHere()) {
            return List.of(new Payload.Inline(accumulator.duplicate()));
        }
        return allWhole(from, to);
    }

    private List<Payload> prefix(int ranks) {
        if (combinesHere()) {
            return List.of(new Payload.Inline(prefixes[ranks - 1].duplicate()));
        }
        return allWhole(0, ranks);
    }

    private List<Payload> reducedBlock(int rank) {
        SlaveRequest.StartCollective ref = (SlaveRequest.StartCollective) reference.start();
        long offset = offset(ref.blockBytes(), rank);
        long length = ref.blockBytes()[rank];
        if (combinesHere()) {
            return List.of(slice(new Payload.Inline(accumulator), offset, length));
        }
        List<Payload> out = new ArrayList<>(arrivals.length);
        for (int j = 0; j < arrivals.length; j++) {
            out.add(slice(data(j), offset, length));
        }
        return out;
    }

    // ---------------------------------------------------------------- data

    private List<Payload> allWhole(int from, int to) {
        List<Payload> out = new ArrayList<>(to - from);
        for (int j = from; j < to; j++) {
            out.add(whole(j));
        }
        return out;
    }

    private Payload whole(int rank) {
        return slice(data(rank), 0, data(rank).length());
    }

    /** Root's block for {@code rank}. */
    private Payload block(int root, int rank) {
        SlaveRequest.StartCollective c = start(root);
        return slice(c.data(), offset(c.blockBytes(), rank), c.blockBytes()[rank]);
    }

    /** Each member's block for {@code rank}, in member order. */
    private List<Payload> blocksFor(int rank) {
        List<Payload> out = new ArrayList<>(arrivals.length);
        for (int j = 0; j < arrivals.length; j++) {
            SlaveRequest.StartCollective c = start(j);
            out.add(slice(c.data(), offset(c.blockBytes(), rank), c.blockBytes()[rank]));
        }
        return out;
    }

    private SlaveRequest.StartCollective start(int rank) {
        return (SlaveRequest.StartCollective) arrivals[rank].start();
    }

    private Payload data(int rank) {
        return start(rank).data();
    }

    private ByteBuffer inline(int rank) {
        Payload p = data(rank);
        if (!(p instanceof Payload.Inline in)) {
            throw new IllegalStateException("a reduction's data must travel inline, rank " + rank + " sent " + p);
        }
        return in.bytes().duplicate().order(ByteOrder.nativeOrder());
    }

    /**
     * A range of a member's data as a piece: a view of inline bytes, or a slice of the spill file
     * (never the file itself: several members may read it, and the master deletes it).
     */
    private static Payload slice(Payload p, long offset, long length) {
        if (p instanceof Payload.Inline in) {
            ByteBuffer b = in.bytes().duplicate();
            int start = b.position() + (int) offset;
            return new Payload.Inline(b.limit(start + (int) length).position(start).slice());
        }
        String file = p instanceof Payload.Spilled s ? s.fileName() : ((Payload.Slice) p).fileName();
        long base = p instanceof Payload.Slice s ? s.offset() : 0;
        return new Payload.Slice(file, base + offset, length);
    }

    private static long offset(long[] blockBytes, int rank) {
        long offset = 0;
        for (int i = 0; i < rank; i++) {
            offset += blockBytes[i];
        }
        return offset;
    }

    private static ByteBuffer copy(ByteBuffer b) {
        ByteBuffer c = ByteBuffer.allocate(b.remaining()).order(ByteOrder.nativeOrder());
        return c.put(b.duplicate()).flip();
    }
}
