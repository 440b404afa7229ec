package io.bdmpi.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A one-sided operation on the part of a window that a member of another node exposes: the origin
 * slave sends it to its master ({@link SlaveRequest.WinRma}), which sends it to the master of
 * {@code targetNode}; that master applies it to the target's segment (a file of its node's work
 * directory) and answers with {@link MasterReply.RmaResult}. The origin resolves the target's
 * datatype into byte ranges of the segment, so the applying master knows no datatypes.
 *
 * <p>Wire form (after the caller's own header), in the buffer's byte order:
 * <pre>
 *   kind:byte targetNode:int segmentFile:string segmentOffset:long segmentBytes:int
 *   controlFile:string slot:int markUpdated:byte op:byte element:byte
 *   n:int (offset:int length:int) * n  dataLength:int data[dataLength]
 *   string  n:int UTF-8 bytes[n]
 * </pre>
 *
 * @param kind          what to do
 * @param targetNode    the node whose master applies it
 * @param segmentFile   the file holding the target's segment; for a dynamic window, the target's
 *                      {@link WindowRegions} file
 * @param segmentOffset where the segment starts in that file; {@link #DYNAMIC} for a dynamic
 *                      window, whose ranges are then displacements that must lie in one region
 * @param segmentBytes  the segment's size (every range lies inside it)
 * @param controlFile   the window's control file on the target's node (its lock words)
 * @param slot          the target's slot in the control file (its rank in the window)
 * @param markUpdated   whether to flag the segment as changed by another rank (a window over the
 *                      owner's own buffer copies it in at its next synchronization)
 * @param op            for the accumulates: a {@link ReduceOp} code, {@link #REPLACE} or {@link #NO_OP}
 * @param element       the element type the accumulates combine, {@link ElementType#NONE} otherwise
 * @param ranges        (offset, length) pairs of bytes in the segment, in the order of the data
 * @param data          the origin's packed bytes: as many as the ranges hold (PUT and the
 *                      accumulates), none (GET), or the new value then the compared one (COMPARE_AND_SWAP)
 */
public record RmaRequest(Kind kind, int targetNode, String segmentFile, long segmentOffset, int segmentBytes,
                         String controlFile, int slot, boolean markUpdated, byte op, ElementType element, int[] ranges,
                         ByteBuffer data) {

    /** The accumulate operator MPI.REPLACE (atomic put). */
    public static final byte REPLACE = -1;
    /** The accumulate operator MPI.NO_OP (atomic read). */
    public static final byte NO_OP = -2;
    /** {@code segmentOffset} of an operation on a dynamic window. */
    public static final long DYNAMIC = -1;

    /** How an operation ended at the target's master; the code is the wire value. */
    public enum Outcome {
        /** Applied; the result holds the target's bytes before it, when the kind returns them. */
        APPLIED(0),
        /** Not applied: the bytes lie in no region attached to the dynamic window (MPI_ERR_RMA_RANGE). */
        OUT_OF_RANGE(1),
        /** Not applied: the target's master could not (its files, a bad request). */
        FAILED(2);

        /** The byte on the wire. */
        public final byte code;

        Outcome(int code) {
            this.code = (byte) code;
        }

        /** The outcome with this code, or null. */
        public static Outcome ofCode(byte code) {
            return code >= 0 && code < values().length ? values()[code] : null;
        }
    }

    /** What a request does; the code is the wire value. */
    public enum Kind {
        PUT(0), GET(1), ACCUMULATE(2), GET_ACCUMULATE(3), COMPARE_AND_SWAP(4);

        /** The byte on the wire. */
        public final byte code;

        Kind(int code) {
            this.code = (byte) code;
        }

        /** The kind with this code, or null. */
        public static Kind ofCode(byte code) {
            return code >= 0 && code < values().length ? values()[code] : null;
        }

        /** Whether the origin gets bytes back: the target's data before the operation. */
        public boolean returnsData() {
            return this != PUT && this != ACCUMULATE;
        }
    }

    /** Total bytes of the ranges. */
    public int rangeBytes() {
        long n = 0;
        for (int i = 1; i < ranges.length; i += 2) {
            n += ranges[i];
        }
        return (int) n;
    }

    /** Exact number of bytes {@link #writeTo} writes. */
    public int encodedLength() {
        return 1 + 4 + stringLength(segmentFile) + 8 + 4 + stringLength(controlFile) + 4 + 1 + 1 + 1 + 4
                + 4 * ranges.length + 4 + data.remaining();
    }

    /** Writes the wire form at the buffer's position, in its byte order. */
    public void writeTo(ByteBuffer b) {
        b.put(kind.code).putInt(targetNode);
        putString(b, segmentFile);
        b.putLong(segmentOffset).putInt(segmentBytes);
        putString(b, controlFile);
        b.putInt(slot).put((byte) (markUpdated ? 1 : 0)).put(op).put(element.code).putInt(ranges.length / 2);
        for (int r : ranges) {
            b.putInt(r);
        }
        b.putInt(data.remaining()).put(data.duplicate());
    }

    /**
     * Reads the wire form from the buffer's position, in its byte order; the data is a view of
     * {@code b} (no copy).
     *
     * @throws IllegalArgumentException for an unknown code, a negative count or length, or ranges
     *                                  outside the segment
     * @throws java.nio.BufferUnderflowException for a short message
     */
    public static RmaRequest readFrom(ByteBuffer b) {
        Kind kind = Kind.ofCode(b.get());
        if (kind == null) {
            throw new IllegalArgumentException("unknown one-sided operation");
        }
        int targetNode = b.getInt();
        String segmentFile = getString(b);
        long segmentOffset = b.getLong();
        int segmentBytes = b.getInt();
        String controlFile = getString(b);
        int slot = b.getInt();
        boolean markUpdated = b.get() != 0;
        byte op = b.get();
        ElementType element = ElementType.ofCode(b.get());
        int n = b.getInt();
        if (element == null || n < 0 || (long) n * 8 > b.remaining()) {
            throw new IllegalArgumentException("bad element type or range count " + n);
        }
        int[] ranges = new int[2 * n];
        for (int i = 0; i < ranges.length; i += 2) {
            ranges[i] = b.getInt();
            ranges[i + 1] = b.getInt();
            if (ranges[i] < 0 || ranges[i + 1] < 0
                    || segmentOffset != DYNAMIC && (long) ranges[i] + ranges[i + 1] > segmentBytes) {
                throw new IllegalArgumentException("range " + ranges[i] + "+" + ranges[i + 1] + " outside a segment of "
                        + segmentBytes + " bytes");
            }
        }
        int length = b.getInt();
        if (length < 0 || length > b.remaining()) {
            throw new IllegalArgumentException("data of " + length + " bytes in " + b.remaining());
        }
        ByteBuffer data = b.slice().limit(length);
        b.position(b.position() + length);
        return new RmaRequest(kind, targetNode, segmentFile, segmentOffset, segmentBytes, controlFile, slot, markUpdated,
                op, element, ranges, data);
    }

    static int stringLength(String s) {
        return 4 + s.getBytes(StandardCharsets.UTF_8).length;
    }

    static void putString(ByteBuffer b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.putInt(bytes.length).put(bytes);
    }

    static String getString(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("string of " + n + " bytes in " + b.remaining());
        }
        byte[] bytes = new byte[n];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
