package mpi;

/**
 * The result of {@link CartComm#shift(int, int)}: the ranks a shift receives from and sends to,
 * either of which may be {@code MPI.PROC_NULL} past the edge of a non-periodic dimension.
 */
public final class ShiftParms {

    /** mpiJava 1.2: the rank to receive from (what {@link #getRankSource} returns). */
    public final int rank_source;
    /** mpiJava 1.2: the rank to send to (what {@link #getRankDest} returns). */
    public final int rank_dest;

    /**
     * The two ranks.
     *
     * @param source the rank {@code disp} steps below the caller
     * @param dest the rank {@code disp} steps above the caller
     */
    protected ShiftParms(int source, int dest) {
        this.rank_source = source;
        this.rank_dest = dest;
    }

    /**
     * The rank to receive from.
     *
     * @return the rank {@code disp} steps below the caller, or {@code MPI.PROC_NULL}
     */
    public int getRankSource() {
        return rank_source;
    }

    /**
     * The rank to send to.
     *
     * @return the rank {@code disp} steps above the caller, or {@code MPI.PROC_NULL}
     */
    public int getRankDest() {
        return rank_dest;
    }
}
