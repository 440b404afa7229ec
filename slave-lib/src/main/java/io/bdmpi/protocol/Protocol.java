package io.bdmpi.protocol;

/** Constants the slave and the master share. */
public final class Protocol {

    /** Wildcard source, as sent on the wire (equal to MPI.ANY_SOURCE). */
    public static final int ANY_SOURCE = -1;

    /** Wildcard tag, as sent on the wire (equal to MPI.ANY_TAG). */
    public static final int ANY_TAG = -1;

    /** Id of COMM_WORLD. */
    public static final int COMM_WORLD_ID = 0;

    /** Id of COMM_SELF: each slave's own one-member communicator. */
    public static final int COMM_SELF_ID = 1;

    /** Id of COMM_CWORLD: every slave, numbered cyclically over the nodes. */
    public static final int COMM_CWORLD_ID = 2;

    /** Id of COMM_NODE: the slaves of the caller's node. */
    public static final int COMM_NODE_ID = 3;

    /** Lowest id the master gives a communicator made by a split or dup. */
    public static final int FIRST_DERIVED_COMM_ID = 16;

    /** The id of no communicator: the result of a split with {@link #UNDEFINED_COLOR}. */
    public static final int NO_COMM = -1;

    /** Split colour of a member that wants no new communicator (equal to MPI.UNDEFINED). */
    public static final int UNDEFINED_COLOR = -32766;
    /**
     * The colour of every member of a dup (a split that keeps the ranks), which no program's split
     * can give (they are 0 or more): reports call the call MPI_Comm_dup.
     */
    public static final int DUP_COLOR = -2;

    /** Largest frame either side accepts; a longer length prefix means a corrupt stream. */
    public static final int MAX_FRAME_LENGTH = 1 << 30;

    private Protocol() {
    }
}
