package io.bdmpi.slave;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.Payload;
import io.bdmpi.spill.SpillException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * This slave's result of a collective or split: small values and data pieces, as listed for each
 * kind in {@link CollectiveKind}. A piece is read with {@link #piece(int)}; pieces on disk belong
 * to the master, which deletes them once every member has moved on.
 */
public final class CollectiveResult implements Completed {

    private final SlaveRuntime runtime;
    private final long requestId;
    private final int[] values;
    private final List<Payload> pieces;

    CollectiveResult(SlaveRuntime runtime, long requestId, int[] values, List<Payload> pieces) {
        this.runtime = runtime;
        this.requestId = requestId;
        this.values = values;
        this.pieces = pieces;
    }

    @Override
    public long requestId() {
        return requestId;
    }

    /** The small results (a split's new communicator id, rank and size); empty otherwise. */
    public int[] values() {
        return values.clone();
    }

    /** Number of data pieces. */
    public int pieceCount() {
        return pieces.size();
    }

    /** Length of piece {@code i} in bytes. */
    public long pieceLength(int i) {
        return pieces.get(i).length();
    }

    /**
     * The bytes of piece {@code i}, position 0 to limit = length, native byte order. A piece read
     * from disk lands in the runtime's staging area: valid only until the next read of any piece or
     * message of this slave, or its next request to the master.
     */
    public ByteBuffer piece(int i) throws SpillException {
        Payload p = pieces.get(i);
        if (p instanceof Payload.Inline in) {
            return in.bytes().duplicate().order(ByteOrder.nativeOrder());
        }
        return runtime.readSlice((Payload.Slice) p);
    }
}
