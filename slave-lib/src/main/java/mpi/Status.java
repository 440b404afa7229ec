package mpi;

/** What a completed receive (or probe) found: the actual source, tag and size of the message. */
public final class Status {

    private final int source;
    private final int tag;
    private final int error;
    private final long byteCount;
    private final boolean cancelled;
    private final int index;

    Status(int source, int tag, int error, long byteCount, boolean cancelled, int index) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.byteCount = byteCount;
        this.cancelled = cancelled;
        this.index = index;
    }

    static Status of(int source, int tag, long byteCount) {
        return new Status(source, tag, MPI.SUCCESS, byteCount, false, 0);
    }

    /** The status of a null, send or PROC_NULL request: no message. */
    static Status empty(int source) {
        return new Status(source, MPI.ANY_TAG, MPI.SUCCESS, 0, false, 0);
    }

    Status withIndex(int i) {
        return new Status(source, tag, error, byteCount, cancelled, i);
    }

    /** Rank of the sender in the communicator. */
    public int getSource() {
        return source;
    }

    /** The message's tag. */
    public int getTag() {
        return tag;
    }

    /** MPI error class of the operation ({@code MPI.SUCCESS} if none). */
    public int getError() {
        return error;
    }

    /** Position in the request array, for waitAny/testAny/waitSome/testSome; 0 otherwise. */
    public int getIndex() {
        return index;
    }

    /** Items of {@code datatype} received, or {@code MPI.UNDEFINED} if not a whole number. */
    public int getCount(Datatype datatype) throws MPIException {
        if (datatype == null) {
            throw MPIException.of(MPI.ERR_TYPE, "MPI_Get_count: null datatype");
        }
        long size = datatype.byteSize();
        return byteCount % size == 0 ? (int) (byteCount / size) : MPI.UNDEFINED;
    }

    /** Basic elements received (the same as {@link #getCount} for basic types). */
    public int getElements(Datatype datatype) throws MPIException {
        return getCount(datatype);
    }

    public boolean isCancelled() throws MPIException {
        return cancelled;
    }
}
