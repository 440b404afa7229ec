package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.ReduceOp;

/**
 * Builds an intercommunicator's collectives as collectives of the union of its two groups (see
 * {@link InterGroups}), which the master runs like any other. Every member of the union takes part,
 * so the kinds are those that need no common root or count: ALLGATHER (each member's data to
 * every member) and ALLTOALL (a block from each member to each member, empty where no data
 * flows). Arrays indexed by remote rank are widened to union ranks, with empty blocks and no
 * receive space for the local group. Reductions are folded by the receivers from the other
 * group's contributions, in its rank order.
 *
 * <p>Roots follow MPI: in the root's group the root passes {@code MPI.ROOT} and the others
 * {@code MPI.PROC_NULL} (they send and receive nothing); the other group passes the root's rank
 * in the root's group. In-place forms are {@code MPI.ERR_ARG} errors, as in C.
 */
final class InterCollectiveBuilder extends CollectiveBuilder {

    private static final Span EMPTY = new Span(new byte[0], 0, 0, MPI.BYTE);

    private final String call;
    private final InterGroups groups;
    private final int localRank;
    /** Checks of arrays indexed by local rank (a reduce-scatter's counts); this builder's own are by remote rank. */
    private final CollectiveBuilder local;

    InterCollectiveBuilder(String call, int localRank, InterGroups groups) {
        super(call, localRank, groups.remote.length);
        this.call = call;
        this.groups = groups;
        this.localRank = localRank;
        this.local = new CollectiveBuilder(call, localRank, groups.local.length);
    }

    // ---------------------------------------------------------------- rooted

    @Override
    CollectiveCall bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        int from = root(root);
        if (from == MPI.ROOT) {
            return allGather(new Span[] {span(buf, 0, count, type, false)}, Placement.NOTHING);
        }
        if (from == MPI.PROC_NULL) {
            return allGather(NOTHING_SENT, Placement.NOTHING);
        }
        return allGather(NOTHING_SENT, Placement.Slots.perRank(oneRemote(from, span(buf, 0, count, type, true), null)));
    }

    @Override
    CollectiveCall gather(Object sendbuf, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        int to = root(root);
        if (to == MPI.ROOT) {
            return allToAll(none(), slots(uniformSpans(recvbuf, recvcount, recvtype, true)));
        }
        return to == MPI.PROC_NULL ? allToAll(none(), Placement.NOTHING)
                : allToAll(oneRemote(to, span(sendbuf, 0, sendcount, sendtype, false), EMPTY), Placement.NOTHING);
    }

    @Override
    CollectiveCall gatherv(Object sendbuf, int sendcount, Datatype sendtype,
                           Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        int to = root(root);
        if (to == MPI.ROOT) {
            return allToAll(none(), slots(spans(recvbuf, recvcount, displs, recvtype, true)));
        }
        return to == MPI.PROC_NULL ? allToAll(none(), Placement.NOTHING)
                : allToAll(oneRemote(to, span(sendbuf, 0, sendcount, sendtype, false), EMPTY), Placement.NOTHING);
    }

    @Override
    CollectiveCall scatter(Object sendbuf, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        int from = root(root);
        if (from == MPI.ROOT) {
            return allToAll(blocks(uniformSpans(sendbuf, sendcount, sendtype, false)), Placement.NOTHING);
        }
        return from == MPI.PROC_NULL ? allToAll(none(), Placement.NOTHING)
                : allToAll(none(), Placement.Slots.perRank(oneRemote(from, span(recvbuf, 0, recvcount, recvtype, true), null)));
    }

    @Override
    CollectiveCall scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                            Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        int from = root(root);
        if (from == MPI.ROOT) {
            return allToAll(blocks(spans(sendbuf, sendcount, displs, sendtype, false)), Placement.NOTHING);
        }
        return from == MPI.PROC_NULL ? allToAll(none(), Placement.NOTHING)
                : allToAll(none(), Placement.Slots.perRank(oneRemote(from, span(recvbuf, 0, recvcount, recvtype, true), null)));
    }

    @Override
    CollectiveCall reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        int to = root(root);
        if (to == MPI.PROC_NULL) {
            return allToAll(none(), Placement.NOTHING);
        }
        wireOp(op, type);
        if (to == MPI.ROOT) {
            return allToAll(none(), fromRemote(span(recvbuf, 0, count, type, true), op, 0));
        }
        return allToAll(oneRemote(to, span(sendbuf, 0, count, type, false), EMPTY), Placement.NOTHING);
    }

    // ---------------------------------------------------------------- all to all

    @Override
    CollectiveCall allGather(Object sendbuf, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return allGather(new Span[] {span(sendbuf, 0, sendcount, sendtype, false)},
                slots(uniformSpans(recvbuf, recvcount, recvtype, true)));
    }

    @Override
    CollectiveCall allGatherv(Object sendbuf, int sendcount, Datatype sendtype,
                              Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return allGather(new Span[] {span(sendbuf, 0, sendcount, sendtype, false)},
                slots(spans(recvbuf, recvcount, displs, recvtype, true)));
    }

    @Override
    CollectiveCall allToAll(Object sendbuf, int sendcount, Datatype sendtype,
                            Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return allToAll(blocks(uniformSpans(sendbuf, sendcount, sendtype, false)),
                slots(uniformSpans(recvbuf, recvcount, recvtype, true)));
    }

    @Override
    CollectiveCall allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                             Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return allToAll(blocks(spans(sendbuf, sendcount, sdispls, sendtype, false)),
                slots(spans(recvbuf, recvcount, rdispls, recvtype, true)));
    }

    @Override
    CollectiveCall allToAllw(Object sendbuf, int[] sendcount, int[] sdispls, Datatype[] sendtypes,
                             Object recvbuf, int[] recvcount, int[] rdispls, Datatype[] recvtypes) throws MPIException {
        return allToAll(blocks(byteSpans(sendbuf, sendcount, sdispls, sendtypes, false)),
                slots(byteSpans(recvbuf, recvcount, rdispls, recvtypes, true)));
    }

    /** ALLREDUCE (the only kind an intercommunicator reaches here): each group gets the other's reduction. */
    @Override
    CollectiveCall reduceToAll(CollectiveKind kind, Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        wireOp(op, type);
        return allGather(new Span[] {span(sendbuf, 0, count, type, false)}, fromRemote(span(recvbuf, 0, count, type, true), op, 0));
    }

    /** The other group's vectors of {@code sum(recvcounts)} items, reduced; local rank i gets block i. */
    @Override
    CollectiveCall reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        wireOp(op, type);
        int total = local.total(recvcounts);
        long before = 0;
        for (int i = 0; i < localRank; i++) {
            before += recvcounts[i];
        }
        Span result = span(recvbuf, 0, recvcounts[localRank], type, true);
        return allGather(new Span[] {span(sendbuf, 0, total, type, false)},
                fromRemote(result, op, (int) (before * type.byteSize())));
    }

    @Override
    CollectiveCall reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return reduceScatter(sendbuf, recvbuf, local.uniformCounts(recvcount), type, op);
    }

    // ---------------------------------------------------------------- in place: not on an intercommunicator

    @Override
    CollectiveCall gatherInPlace(Object buf, int count, Datatype type, int root) throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall gathervInPlaceAtRoot(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall gathervInPlaceOffRoot(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall scatterInPlace(Object buf, int count, Datatype type, int root) throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall scattervInPlaceAtRoot(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall scattervInPlaceOffRoot(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall allGatherInPlace(Object buf, int count, Datatype type) throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall allGathervInPlace(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall reduceInPlace(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall reduceToAllInPlace(CollectiveKind kind, Object buf, int count, Datatype type, Op op) throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall reduceScatterInPlace(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        throw inPlace();
    }

    @Override
    CollectiveCall reduceScatterBlockInPlace(Object buf, int count, Datatype type, Op op) throws MPIException {
        throw inPlace();
    }

    private MPIException inPlace() {
        return MPIException.of(MPI.ERR_ARG, call + ": the in-place form is not allowed on an intercommunicator");
    }

    // ---------------------------------------------------------------- union communicator

    /**
     * {@code MPI.ROOT}, {@code MPI.PROC_NULL}, or the root's rank in the other group.
     *
     * @throws MPIException ERR_ROOT for anything else
     */
    private int root(int root) throws MPIException {
        if (root == MPI.ROOT || root == MPI.PROC_NULL || root >= 0 && root < groups.remote.length) {
            return root;
        }
        throw MPIException.of(MPI.ERR_ROOT, call + ": invalid root " + root + " on an intercommunicator (valid: MPI.ROOT or"
                + " MPI.PROC_NULL in the root's group, 0 to " + (groups.remote.length - 1) + " in the other group)");
    }

    private CollectiveCall allGather(Span[] sends, Placement placement) throws MPIException {
        return new CollectiveCall(call, CollectiveKind.ALLGATHER, 0, ReduceOp.NONE, ElementType.NONE, 0, sent(sends),
                NO_BLOCKS, placement);
    }

    private CollectiveCall allToAll(Span[] unionBlocks, Placement placement) throws MPIException {
        return new CollectiveCall(call, CollectiveKind.ALLTOALL, 0, ReduceOp.NONE, ElementType.NONE, 0, sent(unionBlocks),
                lengths(unionBlocks), placement);
    }

    /** Every union rank's block empty: a member that sends nothing. */
    private Span[] none() {
        return widen(new Span[0], EMPTY);
    }

    /** Blocks by remote rank as blocks by union rank, empty for the local group. */
    private Span[] blocks(Span[] byRemoteRank) {
        return widen(byRemoteRank, EMPTY);
    }

    /** Receive spans by remote rank as slots by union rank, none for the local group. */
    private Placement slots(Span[] byRemoteRank) {
        return Placement.Slots.perRank(widen(byRemoteRank, null));
    }

    /** {@code span} at remote rank {@code remoteRank}'s union rank, {@code fill} elsewhere. */
    private Span[] oneRemote(int remoteRank, Span span, Span fill) {
        Span[] out = widen(new Span[0], fill);
        out[groups.remoteBase() + remoteRank] = span;
        return out;
    }

    private Span[] widen(Span[] byRemoteRank, Span fill) {
        Span[] out = new Span[groups.size()];
        java.util.Arrays.fill(out, fill);
        System.arraycopy(byRemoteRank, 0, out, groups.remoteBase(), byRemoteRank.length);
        return out;
    }

    /** The reduction of the other group's contributions (from byte {@code offset} of each) into {@code target}. */
    private Placement fromRemote(Span target, Op op, int offset) {
        return new Placement.Reduced(target, op, groups.remoteBase(), groups.remote.length, offset);
    }
}
