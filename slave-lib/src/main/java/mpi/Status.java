package mpi;

/**
 * What a completed receive, probe or request found: the actual source, tag and size of the
 * message (never {@code ANY_SOURCE} or {@code ANY_TAG} for a real message). Open MPI programs read
 * it through the getters; mpiJava programs read the public fields {@link #source}, {@link #tag}
 * and {@link #index}, which the getters return, so the two views never disagree.
 */
public final class Status {

    /** mpiJava 1.2: the message's source; what {@link #getSource()} returns. */
    public int source;
    /** mpiJava 1.2: the message's tag; what {@link #getTag()} returns. */
    public int tag;
    /** mpiJava 1.2: the index of the request in a wait-any, test-any or some call; what {@link #getIndex()} returns. */
    public int index;
    private final int error;
    private final long byteCount;
    private final boolean cancelled;
    /** For a message of mpiJava's {@code MPI.OBJECT}: its number of objects; else -1. */
    private int objects = -1;

    private Status(int source, int tag, int error, long byteCount, boolean cancelled, int index) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.byteCount = byteCount;
        this.cancelled = cancelled;
        this.index = index;
    }

    /** A received (or probed) message of {@code byteCount} bytes. */
    static Status received(int source, int tag, long byteCount) {
        return new Status(source, tag, MPI.SUCCESS, byteCount, false, 0);
    }

    /** MPI's empty status (null requests, sends): ANY_SOURCE, ANY_TAG, count 0. */
    static Status empty() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, false, 0);
    }

    /** The status of an operation with {@code PROC_NULL}: source PROC_NULL, tag ANY_TAG, count 0. */
    static Status procNull() {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, 0, false, 0);
    }

    /** The status of a receive withdrawn by {@code Request.cancel}. */
    static Status cancelledReceive() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, true, 0);
    }

    Status withIndex(int i) {
        return new Status(source, tag, error, byteCount, cancelled, i).withObjects(objects);
    }

    Status withError(int errorClass) {
        return new Status(source, tag, errorClass, byteCount, cancelled, index);
    }

    /**
     * Rank of the sender in the communicator.
     *
     * @return the source rank
     */
    public int getSource() {
        return source;
    }

    /**
     * The message's tag.
     *
     * @return the tag
     */
    public int getTag() {
        return tag;
    }

    /**
     * MPI error class of the operation: {@code MPI.SUCCESS}, or e.g. {@code MPI.ERR_TRUNCATE}.
     *
     * @return the error class
     */
    public int getError() {
        return error;
    }

    /**
     * Position in the request array: set by waitAny, testAny, waitSome and testSome (and their
     * Status forms); 0 otherwise. {@code MPI.UNDEFINED} when waitAny found only null requests.
     *
     * @return the index
     */
    public int getIndex() {
        return index;
    }

    /**
     * Items of {@code datatype} in the message, or {@code MPI.UNDEFINED} when its size is not a
     * whole number of items (or does not fit an int).
     *
     * @param datatype the datatype of the items
     * @return the number of items, or {@code MPI.UNDEFINED}
     * @throws MPIException {@code MPI.ERR_TYPE} for a null datatype
     */
    public int getCount(Datatype datatype) throws MPIException {
        if (datatype == null) {
            throw MPIException.of(MPI.ERR_TYPE, "MPI_Get_count: null datatype");
        }
        if (datatype == MPI.OBJECT) {
            return objectCount();
        }
        long size = datatype.byteSize();
        if (size == 0) {
            return byteCount == 0 ? 0 : MPI.UNDEFINED;
        }
        long items = byteCount / size;
        return byteCount % size == 0 && items <= Integer.MAX_VALUE ? (int) items : MPI.UNDEFINED;
    }

    /**
     * Basic elements in the message: for a derived type, the elements of its whole items and of a
     * partial last one; for a predefined type (pair and complex types included) the same as
     * {@link #getCount}. {@code MPI.UNDEFINED} when the message ends inside an element.
     *
     * @param datatype the datatype of the items
     * @return the number of elements, or {@code MPI.UNDEFINED}
     * @throws MPIException {@code MPI.ERR_TYPE} for a null datatype
     */
    public int getElements(Datatype datatype) throws MPIException {
        if (datatype == null) {
            throw MPIException.of(MPI.ERR_TYPE, "MPI_Get_elements: null datatype");
        }
        if (datatype == MPI.OBJECT) {
            return objectCount();
        }
        long n = datatype.map.elements(byteCount);
        return n >= 0 && n <= Integer.MAX_VALUE ? (int) n : MPI.UNDEFINED;
    }

    /**
     * Whether the request was cancelled instead of receiving a message.
     *
     * @return whether the request was cancelled
     * @throws MPIException never here; declared as in Open MPI
     */
    public boolean isCancelled() throws MPIException {
        return cancelled;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", bytes=" + byteCount + ", error=" + error
                + (cancelled ? ", cancelled" : "") + ", index=" + index + "]";
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters

    /**
     * mpiJava 1.2 (MPJ Express): an empty status (source {@code ANY_SOURCE}, tag {@code ANY_TAG}, count 0).
     */
    public Status() {
        this(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, false, 0);
    }

    /** This status, of a message of {@code n} mpiJava objects (-1: not an object message). */
    Status withObjects(int n) {
        objects = n;
        return this;
    }

    /** The number of objects of an {@code MPI.OBJECT} message; {@code MPI.UNDEFINED} for other messages and probes. */
    private int objectCount() {
        return objects >= 0 ? objects : byteCount == 0 ? 0 : MPI.UNDEFINED;
    }

    /**
     * mpiJava 1.2: as {@link #getCount}; with {@code MPI.OBJECT}, the number of objects received.
     *
     * @param datatype the datatype of the items
     * @return the number of items, or {@code MPI.UNDEFINED}
     * @throws MPIException as {@link #getCount}
     */
    public int Get_count(Datatype datatype) throws MPIException {
        return getCount(datatype);
    }

    /**
     * mpiJava 1.2: as {@link #getElements}.
     *
     * @param datatype the datatype of the items
     * @return the number of basic elements, or {@code MPI.UNDEFINED}
     * @throws MPIException as {@link #getElements}
     */
    public int Get_elements(Datatype datatype) throws MPIException {
        return getElements(datatype);
    }

    /**
     * mpiJava 1.2: as {@link #isCancelled}.
     *
     * @return whether the operation was cancelled
     * @throws MPIException as {@link #isCancelled}
     */
    public boolean Test_cancelled() throws MPIException {
        return isCancelled();
    }
}
