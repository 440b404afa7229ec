package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.slave.CollectiveResult;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;

/**
 * One member's part of one collective, checked and ready: what it hands the master (the start's
 * arguments and the blocks it sends) and where its share of the result goes. The blocking call
 * runs it at once; the nonblocking one starts it and leaves {@link #place} to its {@link Request}.
 * Built by {@link CollectiveBuilder}.
 */
final class CollectiveCall {

    /** The MPI call, for messages: {@code MPI_Gather}, {@code MPI_Igather}, ... */
    final String name;
    private final CollectiveKind kind;
    private final int root;
    private final ReduceOp op;
    private final ElementType type;
    private final int count;
    /** The blocks this member sends, packed one after the other. */
    private final Span[] sends;
    /** Bytes of each rank's block, for the kinds that have them (scatter root, alltoall, reduce-scatter). */
    private final long[] blockBytes;
    private final Placement placement;

    /**
     * @param count      elements of a reduction, bytes of a broadcast, else 0
     * @param blockBytes bytes of each rank's block, or empty
     */
    CollectiveCall(String name, CollectiveKind kind, int root, ReduceOp op, ElementType type, int count, Span[] sends,
                   long[] blockBytes, Placement placement) {
        this.name = name;
        this.kind = kind;
        this.root = root;
        this.op = op;
        this.type = type;
        this.count = count;
        this.sends = sends;
        this.blockBytes = blockBytes;
        this.placement = placement;
    }

    /** Sends this member's part and waits (parked) for its result, which it then places. */
    void run(SlaveRuntime rt, int commId) throws IOException, MPIException {
        CollectiveResult result = rt.collective(commId, kind, root, op, type, count, blockBytes, Span.message(sends));
        place(result);
    }

    /**
     * Sends this member's part without waiting; its data is copied now, so the program's send
     * buffers are free again on return.
     *
     * @return the request id whose result {@link #place} takes
     */
    long start(SlaveRuntime rt, int commId) throws IOException {
        return rt.startCollective(commId, kind, root, op, type, count, blockBytes, Span.message(sends));
    }

    /** Copies this member's share of the result into the program's buffers. */
    void place(CollectiveResult result) throws MPIException {
        placement.place(name, result);
    }
}
