package mpi;

import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.Reduction;
import io.bdmpi.slave.CollectiveResult;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where a member's share of a collective's result goes: the receive side of a
 * {@link CollectiveCall}. The pieces come in the order {@link io.bdmpi.protocol.CollectiveKind}
 * lists for each kind.
 */
interface Placement {

    /** For members that get nothing back (barrier, the non-roots of reduce and gather, ...). */
    Placement NOTHING = (call, result) -> {
    };

    /**
     * Copies the pieces into the user's buffers.
     *
     * @throws MPIException ERR_TRUNCATE when a piece is longer than its receive space (then nothing
     *                      is copied), ERR_OTHER when a piece cannot be read from disk, ERR_INTERN
     *                      when the pieces are not what the kind promises; not passed to a handler
     */
    void place(String call, CollectiveResult result) throws MPIException;

    /** The bytes of piece {@code i}; valid until the next piece is read. */
    private static ByteBuffer piece(String call, CollectiveResult result, int i) throws MPIException {
        try {
            return result.piece(i);
        } catch (IOException e) {
            throw Errors.transport(call, e);
        }
    }

    private static MPIException wrongPieces(String call, int got, String expected) {
        return MPIException.of(MPI.ERR_INTERN, call + ": the bdmpi master returned " + got + " pieces, expected " + expected);
    }

    /**
     * Piece {@code i} into span {@code i}: gather, allgather and alltoall (one piece per source
     * rank), and scatter and bcast (one piece, from the root). A null span skips its piece: an
     * in-place member's own block, already where it belongs.
     */
    final class Slots implements Placement {

        private final Span[] spans;
        /** The rank piece 0 came from when there is one piece (scatter, bcast); -1 when piece i is rank i's. */
        private final int onlySource;

        private Slots(Span[] spans, int onlySource) {
            this.spans = spans;
            this.onlySource = onlySource;
        }

        /** One piece per rank, in rank order. */
        static Slots perRank(Span[] spans) {
            return new Slots(spans, -1);
        }

        /** A single piece from {@code root}. */
        static Slots from(int root, Span span) {
            return new Slots(new Span[] {span}, root);
        }

        @Override
        public void place(String call, CollectiveResult result) throws MPIException {
            if (result.pieceCount() != spans.length) {
                throw wrongPieces(call, result.pieceCount(), Integer.toString(spans.length));
            }
            // Check every length before copying anything, so a truncation leaves the buffer as it was.
            for (int i = 0; i < spans.length; i++) {
                if (spans[i] != null && result.pieceLength(i) > spans[i].bytes()) {
                    throw MPIException.of(MPI.ERR_TRUNCATE, call + ": the data from rank " + source(i) + " has "
                            + result.pieceLength(i) + " bytes, more than the " + spans[i].bytes()
                            + " bytes of receive space for it (" + spans[i].count() + " items of " + spans[i].type() + ")");
                }
            }
            for (int i = 0; i < spans.length; i++) {
                if (spans[i] != null) {
                    spans[i].unpackFrom(piece(call, result, i));
                }
            }
        }

        private int source(int piece) {
            return onlySource >= 0 ? onlySource : piece;
        }
    }

    /**
     * The reduction into {@code target}: the master's one combined piece for a predefined
     * operator; for a user-defined one, the contributions the master would have combined, folded
     * here in rank order. No piece: no result for this member (a non-root, or rank 0 of exScan).
     * On an intercommunicator the contributions of the other group, a range of the pieces, are
     * folded here whatever the operator.
     */
    final class Reduced implements Placement {

        private final Span target;
        private final Op op;
        /** The pieces to fold, {@code [first, first + count)}; count -1: every piece, as the master combined them. */
        private final int first;
        private final int count;
        /** Where the target's part starts in each piece, in bytes (a reduce-scatter's block). */
        private final int offset;

        Reduced(Span target, Op op) {
            this(target, op, 0, -1, 0);
        }

        /** Folds pieces {@code [first, first + count)} here, each from byte {@code offset}. */
        Reduced(Span target, Op op, int first, int count, int offset) {
            this.target = target;
            this.op = op;
            this.first = first;
            this.count = count;
            this.offset = offset;
        }

        @Override
        public void place(String call, CollectiveResult result) throws MPIException {
            int n = result.pieceCount();
            if (n == 0) {
                return;
            }
            int from = count < 0 ? 0 : first;
            int pieces = count < 0 ? n : count;
            if (from + pieces > n) {
                throw wrongPieces(call, n, "at least " + (from + pieces));
            }
            for (int i = from; i < from + pieces; i++) {
                long length = result.pieceLength(i);
                if (count < 0 ? length != target.bytes() : length < offset + (long) target.bytes()) {
                    throw MPIException.of(count < 0 ? MPI.ERR_INTERN : MPI.ERR_COUNT, call + ": a contribution of "
                            + length + " bytes for a reduction of " + target.bytes() + " bytes"
                            + (offset > 0 ? " from byte " + offset : "") + (count < 0 ? " from the bdmpi master" : ""));
                }
            }
            if (count < 0 && !op.isUserDefined()) {
                if (n != 1) {
                    throw wrongPieces(call, n, "1 for " + op);
                }
                target.unpackFrom(piece(call, result, 0));
                return;
            }
            target.unpackFrom(fold(call, result, from, pieces));
        }

        /**
         * x0 op (x1 op (... op x(n-1))): from the highest rank down, each lower rank's contribution
         * comes in as {@code in} and the accumulation as {@code inOut}, so a non-commutative (but
         * associative) operator gives x0 op x1 op ... op x(n-1).
         */
        private ByteBuffer fold(String call, CollectiveResult result, int from, int pieces) throws MPIException {
            ReduceOp wire = op.isUserDefined() ? null : op.wireFor(call, target.type());
            ByteBuffer acc = direct(target.bytes());
            acc.put(contribution(call, result, from + pieces - 1));
            ByteBuffer in = direct(target.bytes());
            for (int i = from + pieces - 2; i >= from; i--) {
                in.clear().put(contribution(call, result, i));
                if (wire == null) {
                    op.applyUserFunction(in, acc, target.count(), target.type());
                } else {
                    Reduction.combine(wire, target.type().element, in.clear(), acc.clear(),
                            target.bytes() / target.type().element.size);
                    ByteBuffer lower = in;
                    in = acc;
                    acc = lower;
                }
            }
            return acc.clear();
        }

        /** Piece {@code i}'s bytes for the target. */
        private ByteBuffer contribution(String call, CollectiveResult result, int i) throws MPIException {
            ByteBuffer p = piece(call, result, i).duplicate();
            int start = p.position() + offset;
            return p.limit(start + target.bytes()).position(start);
        }

        private static ByteBuffer direct(int bytes) {
            return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
        }
    }
}
