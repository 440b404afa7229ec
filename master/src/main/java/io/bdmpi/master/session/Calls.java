package io.bdmpi.master.session;

import io.bdmpi.protocol.Protocol;

/** How reports (deadlocks, crashes, the timeline) name the arguments of a slave's MPI calls. */
public final class Calls {

    private Calls() {
    }

    /**
     * A receive as reports name it, e.g. {@code receive(source=ANY_SOURCE, tag=3, comm=COMM_WORLD)}.
     *
     * @param comm the communicator as reports name it (see {@code Communicators.name})
     */
    public static String describeReceive(String comm, int source, int tag) {
        return "receive(source=" + rankName(source) + ", tag=" + tagName(tag) + ", comm=" + comm + ")";
    }

    /** A source rank as reports name it: a number or ANY_SOURCE. */
    public static String rankName(int rank) {
        return rank == Protocol.ANY_SOURCE ? "ANY_SOURCE" : Integer.toString(rank);
    }

    /** A tag as reports name it: a number or ANY_TAG. */
    public static String tagName(int tag) {
        return tag == Protocol.ANY_TAG ? "ANY_TAG" : Integer.toString(tag);
    }
}
