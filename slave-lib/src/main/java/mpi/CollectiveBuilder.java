package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.ReduceOp;

/**
 * Checks the arguments of one member's collective call and turns them into a
 * {@link CollectiveCall}: the blocks it sends and the spans its pieces land in. One method per
 * form of the API (the blocking and nonblocking calls share them), so what is checked, sent and
 * received is decided in one place.
 *
 * <p>{@link InterCollectiveBuilder} maps the calls of an intercommunicator onto its two groups.
 *
 * <p>Arguments significant only at the root (gather's receive buffer, scatter's send buffer,
 * reduce's result buffer) are neither checked nor used elsewhere, as in MPI. Counts and
 * displacements are in items of the datatype given with them.
 */
class CollectiveBuilder {

    static final Span[] NOTHING_SENT = new Span[0];
    static final long[] NO_BLOCKS = new long[0];

    private final String call;
    private final int rank;
    private final int size;

    /**
     * @param call the MPI call being made, for messages
     * @param rank this member's rank in the communicator
     * @param size the communicator's size
     */
    CollectiveBuilder(String call, int rank, int size) {
        this.call = call;
        this.rank = rank;
        this.size = size;
    }

    // ---------------------------------------------------------------- no data

    CollectiveCall barrier() {
        return new CollectiveCall(call, CollectiveKind.BARRIER, 0, ReduceOp.NONE, ElementType.NONE, 0, NOTHING_SENT,
                NO_BLOCKS, Placement.NOTHING);
    }

    /** Frees the communicator at the master once every member has called it. */
    CollectiveCall free() {
        return new CollectiveCall(call, CollectiveKind.FREE, 0, ReduceOp.NONE, ElementType.NONE, 0, NOTHING_SENT,
                NO_BLOCKS, Placement.NOTHING);
    }

    // ---------------------------------------------------------------- bcast

    CollectiveCall bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        checkRoot(root);
        boolean isRoot = rank == root;
        Span span = span(buf, 0, count, type, !isRoot);
        // The master checks that every member names the same number of bytes.
        return new CollectiveCall(call, CollectiveKind.BCAST, root, ReduceOp.NONE, ElementType.NONE, span.bytes(),
                isRoot ? sent(span) : NOTHING_SENT, NO_BLOCKS, isRoot ? Placement.NOTHING : Placement.Slots.from(root, span));
    }

    // ---------------------------------------------------------------- gather

    CollectiveCall gather(Object sendbuf, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        checkRoot(root);
        Span send = span(sendbuf, 0, sendcount, sendtype, false);
        return gatherAt(root, send, rank == root ? uniformSpans(recvbuf, recvcount, recvtype, true) : null);
    }

    /** Root: {@code buf} is the whole receive area, its own block already in its slot. Others: their block. */
    CollectiveCall gatherInPlace(Object buf, int count, Datatype type, int root) throws MPIException {
        checkRoot(root);
        if (rank != root) {
            return gatherAt(root, span(buf, 0, count, type, false), null);
        }
        Span[] slots = uniformSpans(buf, count, type, true);
        return gatherAt(root, slots[rank], withoutOwn(slots));
    }

    CollectiveCall gatherv(Object sendbuf, int sendcount, Datatype sendtype,
                           Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        checkRoot(root);
        Span send = span(sendbuf, 0, sendcount, sendtype, false);
        return gatherAt(root, send, rank == root ? spans(recvbuf, recvcount, displs, recvtype, true) : null);
    }

    /** The root's in-place gatherv: its own block already at {@code displs[root]}. */
    CollectiveCall gathervInPlaceAtRoot(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        checkRoot(root);
        requireRole(root, true, "gatherv(sendbuf, sendcount, sendtype, root)");
        Span[] slots = spans(recvbuf, recvcount, displs, recvtype, true);
        return gatherAt(root, slots[rank], withoutOwn(slots));
    }

    /** The non-roots' side of an in-place gatherv. */
    CollectiveCall gathervInPlaceOffRoot(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        checkRoot(root);
        requireRole(root, false, "gatherv(recvbuf, recvcount, displs, recvtype, root)");
        return gatherAt(root, span(sendbuf, 0, sendcount, sendtype, false), null);
    }

    private CollectiveCall gatherAt(int root, Span send, Span[] slotsAtRoot) throws MPIException {
        return new CollectiveCall(call, CollectiveKind.GATHER, root, ReduceOp.NONE, ElementType.NONE, 0, sent(send),
                NO_BLOCKS, slotsAtRoot == null ? Placement.NOTHING : Placement.Slots.perRank(slotsAtRoot));
    }

    // ---------------------------------------------------------------- scatter

    CollectiveCall scatter(Object sendbuf, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        checkRoot(root);
        Span[] blocks = rank == root ? uniformSpans(sendbuf, sendcount, sendtype, false) : null;
        return scatterFrom(root, blocks, Placement.Slots.from(root, span(recvbuf, 0, recvcount, recvtype, true)));
    }

    /** Root: {@code buf} is the whole send area and its own block stays in place. Others: their receive buffer. */
    CollectiveCall scatterInPlace(Object buf, int count, Datatype type, int root) throws MPIException {
        checkRoot(root);
        if (rank == root) {
            return scatterFrom(root, uniformSpans(buf, count, type, false), Placement.NOTHING);
        }
        return scatterFrom(root, null, Placement.Slots.from(root, span(buf, 0, count, type, true)));
    }

    CollectiveCall scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                            Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        checkRoot(root);
        Span[] blocks = rank == root ? spans(sendbuf, sendcount, displs, sendtype, false) : null;
        return scatterFrom(root, blocks, Placement.Slots.from(root, span(recvbuf, 0, recvcount, recvtype, true)));
    }

    /** The root's in-place scatterv: its own block stays in place. */
    CollectiveCall scattervInPlaceAtRoot(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        checkRoot(root);
        requireRole(root, true, "scatterv(recvbuf, recvcount, recvtype, root)");
        return scatterFrom(root, spans(sendbuf, sendcount, displs, sendtype, false), Placement.NOTHING);
    }

    /** The non-roots' side of an in-place scatterv. */
    CollectiveCall scattervInPlaceOffRoot(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        checkRoot(root);
        requireRole(root, false, "scatterv(sendbuf, sendcount, displs, sendtype, root)");
        return scatterFrom(root, null, Placement.Slots.from(root, span(recvbuf, 0, recvcount, recvtype, true)));
    }

    private CollectiveCall scatterFrom(int root, Span[] blocksAtRoot, Placement placement) throws MPIException {
        boolean isRoot = blocksAtRoot != null;
        return new CollectiveCall(call, CollectiveKind.SCATTER, root, ReduceOp.NONE, ElementType.NONE, 0,
                isRoot ? sent(blocksAtRoot) : NOTHING_SENT, isRoot ? lengths(blocksAtRoot) : NO_BLOCKS, placement);
    }

    // ---------------------------------------------------------------- allGather

    CollectiveCall allGather(Object sendbuf, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        Span send = span(sendbuf, 0, sendcount, sendtype, false);
        return allGatherInto(send, uniformSpans(recvbuf, recvcount, recvtype, true));
    }

    /** {@code buf} is the whole receive area, this member's block already in its slot. */
    CollectiveCall allGatherInPlace(Object buf, int count, Datatype type) throws MPIException {
        Span[] slots = uniformSpans(buf, count, type, true);
        return allGatherInto(slots[rank], withoutOwn(slots));
    }

    CollectiveCall allGatherv(Object sendbuf, int sendcount, Datatype sendtype,
                              Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        Span send = span(sendbuf, 0, sendcount, sendtype, false);
        return allGatherInto(send, spans(recvbuf, recvcount, displs, recvtype, true));
    }

    /** {@code recvbuf} is the whole receive area, this member's block already at {@code displs[rank]}. */
    CollectiveCall allGathervInPlace(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        Span[] slots = spans(recvbuf, recvcount, displs, recvtype, true);
        return allGatherInto(slots[rank], withoutOwn(slots));
    }

    private CollectiveCall allGatherInto(Span send, Span[] slots) throws MPIException {
        return new CollectiveCall(call, CollectiveKind.ALLGATHER, 0, ReduceOp.NONE, ElementType.NONE, 0, sent(send),
                NO_BLOCKS, Placement.Slots.perRank(slots));
    }

    // ---------------------------------------------------------------- allToAll

    CollectiveCall allToAll(Object sendbuf, int sendcount, Datatype sendtype,
                            Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return exchange(uniformSpans(sendbuf, sendcount, sendtype, false), uniformSpans(recvbuf, recvcount, recvtype, true));
    }

    CollectiveCall allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                             Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return exchange(spans(sendbuf, sendcount, sdispls, sendtype, false), spans(recvbuf, recvcount, rdispls, recvtype, true));
    }

    /** Per rank its own datatype; displacements in bytes, as C's (an ALLTOALL whose blocks differ in type only here). */
    CollectiveCall allToAllw(Object sendbuf, int[] sendcount, int[] sdispls, Datatype[] sendtypes,
                             Object recvbuf, int[] recvcount, int[] rdispls, Datatype[] recvtypes) throws MPIException {
        return exchange(byteSpans(sendbuf, sendcount, sdispls, sendtypes, false),
                byteSpans(recvbuf, recvcount, rdispls, recvtypes, true));
    }

    private CollectiveCall exchange(Span[] blocks, Span[] slots) throws MPIException {
        return new CollectiveCall(call, CollectiveKind.ALLTOALL, 0, ReduceOp.NONE, ElementType.NONE, 0, sent(blocks),
                lengths(blocks), Placement.Slots.perRank(slots));
    }

    // ---------------------------------------------------------------- reductions

    /** {@code recvbuf} matters at the root only (others may pass null). */
    CollectiveCall reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        checkRoot(root);
        Span send = span(sendbuf, 0, count, type, false);
        Span result = rank == root ? span(recvbuf, 0, count, type, true) : null;
        return reduction(CollectiveKind.REDUCE, root, send, result, op);
    }

    /** {@code buf} is every member's input; the root's receives the result. */
    CollectiveCall reduceInPlace(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        checkRoot(root);
        Span span = span(buf, 0, count, type, rank == root);
        return reduction(CollectiveKind.REDUCE, root, span, rank == root ? span : null, op);
    }

    /** ALLREDUCE, SCAN or EXSCAN: every member gets a result (but rank 0 none from EXSCAN). */
    CollectiveCall reduceToAll(CollectiveKind kind, Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        Span send = span(sendbuf, 0, count, type, false);
        return reduction(kind, 0, send, span(recvbuf, 0, count, type, true), op);
    }

    /** As {@link #reduceToAll} with {@code buf} as input and result. */
    CollectiveCall reduceToAllInPlace(CollectiveKind kind, Object buf, int count, Datatype type, Op op)
            throws MPIException {
        Span span = span(buf, 0, count, type, true);
        return reduction(kind, 0, span, span, op);
    }

    private CollectiveCall reduction(CollectiveKind kind, int root, Span send, Span result, Op op) throws MPIException {
        ReduceOp wire = wireOp(op, send.type());
        return new CollectiveCall(call, kind, root, wire, wireType(send.type()), wireCount(send), sent(send), NO_BLOCKS,
                result == null ? Placement.NOTHING : new Placement.Reduced(result, op));
    }

    CollectiveCall reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        Span send = span(sendbuf, 0, total(recvcounts), type, false);
        return reduceScatter(send, span(recvbuf, 0, recvcounts[rank], type, true), recvcounts, op);
    }

    /** {@code buf} holds the whole input; this member's block of the result goes to its start. */
    CollectiveCall reduceScatterInPlace(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        Span whole = span(buf, 0, total(counts), type, true);
        return reduceScatter(whole, new Span(buf, 0, counts[rank], type), counts, op);
    }

    CollectiveCall reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return reduceScatter(sendbuf, recvbuf, uniformCounts(recvcount), type, op);
    }

    CollectiveCall reduceScatterBlockInPlace(Object buf, int count, Datatype type, Op op) throws MPIException {
        return reduceScatterInPlace(buf, uniformCounts(count), type, op);
    }

    private CollectiveCall reduceScatter(Span send, Span result, int[] counts, Op op) throws MPIException {
        ReduceOp wire = wireOp(op, send.type());
        long[] blocks = new long[size];
        for (int i = 0; i < size; i++) {
            blocks[i] = (long) counts[i] * send.type().byteSize();
        }
        return new CollectiveCall(call, CollectiveKind.REDUCE_SCATTER, 0, wire, wireType(send.type()), wireCount(send),
                sent(send), blocks, new Placement.Reduced(result, op));
    }

    /**
     * The operator for the wire.
     *
     * @throws MPIException ERR_OP for a null operator or one that does not apply to {@code type}
     */
    ReduceOp wireOp(Op op, Datatype type) throws MPIException {
        if (op == null) {
            throw MPIException.of(MPI.ERR_OP, call + ": null operator");
        }
        return op.wireFor(call, type);
    }

    /** The element type the master sees: user functions may also reduce types it cannot (structs, PACKED), as bytes. */
    static ElementType wireType(Datatype type) {
        return type.element != null ? type.element : ElementType.BYTE;
    }

    /** Elements of {@link #wireType} in the span. */
    private static int wireCount(Span span) {
        return span.bytes() / wireType(span.type()).size;
    }

    // ---------------------------------------------------------------- checks

    private void checkRoot(int root) throws MPIException {
        if (root < 0 || root >= size) {
            throw MPIException.of(MPI.ERR_ROOT, call + ": invalid root " + root + " (the communicator has " + size
                    + " ranks)");
        }
    }

    /** In-place v-forms come in a root-only and a non-root-only overload; the wrong one is an error. */
    private void requireRole(int root, boolean atRoot, String otherForm) throws MPIException {
        if ((rank == root) != atRoot) {
            throw MPIException.of(MPI.ERR_ARG, call + ": this in-place form is for " + (atRoot ? "the root" : "non-root ranks")
                    + " and rank " + rank + (atRoot ? " is not the root " : " is the root ") + root + "; it calls "
                    + otherForm);
        }
    }

    Span span(Object buf, int offset, int count, Datatype type, boolean receive) throws MPIException {
        return new Span(buf, offset, count, type).checked(call, receive);
    }

    /** Block i of {@code count} items at item {@code i * count}, for every rank i. */
    Span[] uniformSpans(Object buf, int count, Datatype type, boolean receive) throws MPIException {
        int[] counts = uniformCounts(count);
        int[] displs = new int[size];
        for (int i = 0; i < size; i++) {
            long at = (long) i * count;
            if (at > Integer.MAX_VALUE) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": " + size + " blocks of " + count + " items reach past item "
                        + Integer.MAX_VALUE);
            }
            displs[i] = (int) at;
        }
        return spans(buf, counts, displs, type, receive);
    }

    int[] uniformCounts(int count) throws MPIException {
        if (count < 0) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": negative count " + count);
        }
        int[] counts = new int[size];
        java.util.Arrays.fill(counts, count);
        return counts;
    }

    /** Block i of {@code counts[i]} items at item {@code displs[i]}, for every rank i. */
    Span[] spans(Object buf, int[] counts, int[] displs, Datatype type, boolean receive) throws MPIException {
        checkPerRank(counts, "counts");
        checkPerRank(displs, "displacements");
        Span[] out = new Span[size];
        for (int i = 0; i < size; i++) {
            out[i] = span(buf, displs[i], counts[i], type, receive);
        }
        return out;
    }

    /**
     * Block i of {@code counts[i]} items of {@code types[i]} at byte {@code displs[i]}, for every
     * rank i. A byte displacement that is not a whole number of items shifts the type map instead,
     * as buffers are raw memory.
     */
    Span[] byteSpans(Object buf, int[] counts, int[] displs, Datatype[] types, boolean receive)
            throws MPIException {
        checkPerRank(counts, "counts");
        checkPerRank(displs, "displacements");
        checkPerRank(types, "datatypes");
        Span[] out = new Span[size];
        for (int i = 0; i < size; i++) {
            Datatype type = types[i];
            if (type == null) {
                throw MPIException.of(MPI.ERR_TYPE, call + ": null datatype for rank " + i);
            }
            int item = type.extentBytes();
            if (counts[i] == 0) {
                out[i] = span(buf, 0, 0, type, receive);
            } else if (item > 0 && displs[i] % item == 0) {
                out[i] = span(buf, displs[i] / item, counts[i], type, receive);
            } else {
                Datatype.checkUsable(call, type);
                out[i] = span(buf, 0, counts[i], type.shifted(call, displs[i]), receive);
            }
        }
        return out;
    }

    /** {@code values} (an array) has an entry per rank. */
    private void checkPerRank(Object values, String what) throws MPIException {
        if (values == null) {
            throw MPIException.of(MPI.ERR_ARG, call + ": null array of " + what);
        }
        int length = java.lang.reflect.Array.getLength(values);
        if (length < size) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + length + " " + what + " for a communicator of "
                    + size + " ranks");
        }
    }

    /** The sum of per-rank counts: the length of a reduce-scatter's vector. */
    int total(int[] counts) throws MPIException {
        checkPerRank(counts, "counts");
        long sum = 0;
        for (int i = 0; i < size; i++) {
            if (counts[i] < 0) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": negative count " + counts[i] + " for rank " + i);
            }
            sum += counts[i];
        }
        if (sum > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": the counts add up to " + sum + " items");
        }
        return (int) sum;
    }

    /** The blocks a member sends, checked to fit one message (under 2 GiB). */
    Span[] sent(Span... blocks) throws MPIException {
        long total = 0;
        for (Span b : blocks) {
            total += b.bytes();
        }
        if (total > Integer.MAX_VALUE - 64) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + total + " bytes to send are 2 GiB or more");
        }
        return blocks;
    }

    /** The slots but this member's own, whose block an in-place call leaves where it is. */
    private Span[] withoutOwn(Span[] slots) {
        Span[] out = slots.clone();
        out[rank] = null;
        return out;
    }

    static long[] lengths(Span[] blocks) {
        long[] out = new long[blocks.length];
        for (int i = 0; i < blocks.length; i++) {
            out[i] = blocks[i].bytes();
        }
        return out;
    }
}
