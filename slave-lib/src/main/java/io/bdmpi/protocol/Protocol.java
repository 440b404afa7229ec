package io.bdmpi.protocol;

import java.util.List;

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
    /**
     * The calls whose collective part is a dup of the caller's communicator, each with a colour of
     * its own below {@link #DUP_COLOR}, so that a report names the call the program made: a window
     * created on some ranks only waits in MPI_Win_create, not in a dup the program never wrote.
     */
    private static final List<String> DUP_CALLS = List.of("MPI_Comm_dup", "MPI_Win_create", "MPI_Win_allocate",
            "MPI_Win_allocate_shared", "MPI_Win_create_dynamic", "MPI_File_open");

    /** The split colour of a dup made by {@code call}, one of {@link #DUP_CALLS}. */
    public static int dupColor(String call) {
        int i = DUP_CALLS.indexOf(call);
        if (i < 0) {
            throw new IllegalArgumentException(call + " makes no dup");
        }
        return DUP_COLOR - i;
    }

    /** The call that made a dup of split colour {@code color}, or null for a program's own split. */
    public static String dupCall(int color) {
        int i = DUP_COLOR - color;
        return i >= 0 && i < DUP_CALLS.size() ? DUP_CALLS.get(i) : null;
    }

    /** Largest frame either side accepts; a longer length prefix means a corrupt stream. */
    public static final int MAX_FRAME_LENGTH = 1 << 30;

    private Protocol() {
    }
}
