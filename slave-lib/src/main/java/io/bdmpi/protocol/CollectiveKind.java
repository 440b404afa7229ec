package io.bdmpi.protocol;

/**
 * The operations a slave starts with {@link SlaveRequest.StartCollective}. The master only moves
 * bytes and, for the reductions, combines elements; the slave packs and unpacks typed buffers.
 *
 * <p>What each member sends (the request's {@code data}, {@code blockBytes} and {@code count}) and
 * what each gets back ({@link MasterReply.CollectiveDone#pieces()}):
 * <pre>
 *   BARRIER         nothing                          nothing
 *   BCAST           root: the data; count = bytes    one piece: root's data (root: none)
 *   REDUCE          its vector, count elements       root: one piece, the reduction; others none
 *   ALLREDUCE       its vector                       one piece, the reduction
 *   SCAN            its vector                       one piece, reduction over ranks 0..me
 *   EXSCAN          its vector                       ranks > 0: reduction over 0..me-1; rank 0 none
 *   REDUCE_SCATTER  its vector; blockBytes[i] =      one piece: block me of the reduction
 *                   bytes of rank i's block
 *   GATHER          its block                        root: one piece per rank, in rank order
 *   ALLGATHER       its block                        one piece per rank, in rank order
 *   SCATTER         root: all blocks, blockBytes     one piece: its block from root
 *   ALLTOALL        all its blocks, blockBytes[i] =  one piece per rank j: j's block for me
 *                   bytes for rank i
 *   FREE            nothing (frees the communicator) nothing
 *   CHECKPOINT      its saved state (COMM_WORLD only)  nothing; values: the checkpoint's number
 *   RESTORE         nothing (COMM_WORLD only)          one piece, its restored state, and values: the
 *                                                    checkpoint's number; or, with no checkpoint to
 *                                                    restore, no piece and values: -1
 * </pre>
 * With {@link ReduceOp#USER} the master does not combine: the members that need a reduction get
 * the contributions it would have combined, one piece per rank in rank order, and fold them.
 * Codes are wire values: never renumber.
 */
public enum CollectiveKind {
    BARRIER(1, false),
    BCAST(2, false),
    REDUCE(3, true),
    ALLREDUCE(4, true),
    SCAN(5, true),
    EXSCAN(6, true),
    REDUCE_SCATTER(7, true),
    GATHER(8, false),
    ALLGATHER(9, false),
    SCATTER(10, false),
    ALLTOALL(11, false),
    FREE(12, false),
    CHECKPOINT(13, false),
    RESTORE(14, false);

    private static final CollectiveKind[] BY_CODE = new CollectiveKind[16];

    static {
        for (CollectiveKind k : values()) {
            BY_CODE[k.code] = k;
        }
    }

    /** The byte on the wire. */
    public final byte code;
    /** Whether the master combines the members' vectors element by element. */
    public final boolean reduces;

    CollectiveKind(int code, boolean reduces) {
        this.code = (byte) code;
        this.reduces = reduces;
    }

    /** Whether the operation saves or restores the job's state (allowed on COMM_WORLD only). */
    public boolean checkpoints() {
        return this == CHECKPOINT || this == RESTORE;
    }

    /** Whether the operation has a root rank. */
    public boolean rooted() {
        return this == BCAST || this == REDUCE || this == GATHER || this == SCATTER;
    }

    /** The kind with this code, or null. */
    public static CollectiveKind ofCode(byte code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
