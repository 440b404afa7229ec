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

    /** Largest frame either side accepts; a longer length prefix means a corrupt stream. */
    public static final int MAX_FRAME_LENGTH = 1 << 30;

    private Protocol() {
    }
}
