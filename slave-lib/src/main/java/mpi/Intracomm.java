package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.slave.SlaveRuntime;

import java.nio.Buffer;

/**
 * An intracommunicator: a group of ranks that talk among themselves. {@code MPI.COMM_WORLD},
 * {@code MPI.COMM_SELF}, {@code BDMPI.COMM_CWORLD}, {@code BDMPI.COMM_NODE}, and those made from
 * them by {@link #dup()} and {@link #split(int, int)}.
 */
public class Intracomm extends Comm {

    /** A predefined communicator; rank and size come from the environment or the master. */
    Intracomm(int commId, String name) {
        super(commId, name);
    }

    /** A communicator whose rank and size are known (derived ones, COMM_SELF). */
    Intracomm(int commId, int rank, int size, String name) {
        super(commId, rank, size, name);
    }

    /** What a split with {@code MPI.UNDEFINED} returns: {@link #isNull()} is true. */
    static Intracomm nullComm() {
        return new Intracomm(Protocol.NO_COMM, "MPI_COMM_NULL");
    }

    /** A new communicator with the same members in the same order (collective). */
    @Override
    public Intracomm dup() throws MPIException {
        return (Intracomm) super.dup();
    }

    /** As {@link #dup()}, with an error wrapped in a RuntimeException, as Open MPI's clone. */
    @Override
    public Intracomm clone() {
        return (Intracomm) super.clone();
    }

    /**
     * Splits the communicator (collective): members with the same {@code colour} form a new one,
     * ranked by {@code key} and then by their rank here. It inherits the error handler.
     *
     * @param colour 0 or more, or {@code MPI.UNDEFINED} to be in no new communicator
     * @param key orders the members in the new communicator (ties by rank here)
     * @return the new communicator; a null one ({@link #isNull()}) for {@code MPI.UNDEFINED}
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Intracomm split(int colour, int key) throws MPIException {
        String call = "MPI_Comm_split";
        SlaveRuntime rt = enter(call);
        return derive(call, rt, colour, key, "SPLIT");
    }

    // ---------------------------------------------------------------- scans

    /**
     * Rank i receives the reduction of ranks 0..i's {@code count} items, in rank order.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Scan", b -> b.reduceToAll(CollectiveKind.SCAN, sendbuf, recvbuf, count, type, op));
    }

    /**
     * In-place scan: {@code recvbuf} is the input and receives the result.
     *
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Scan", b -> b.reduceToAllInPlace(CollectiveKind.SCAN, recvbuf, count, type, op));
    }

    /**
     * Rank i &gt; 0 receives the reduction of ranks 0..i-1; rank 0's {@code recvbuf} is left as it was.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Exscan", b -> b.reduceToAll(CollectiveKind.EXSCAN, sendbuf, recvbuf, count, type, op));
    }

    /**
     * In-place exScan: {@code buf} is the input and receives the result (rank 0's is left as it was).
     *
     * @param buf this rank's input, and where the result lands, as above
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Exscan", b -> b.reduceToAllInPlace(CollectiveKind.EXSCAN, buf, count, type, op));
    }

    /**
     * Nonblocking {@link #scan(Object, Object, int, Datatype, Op)}; direct Buffers only.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Iscan", b -> b.reduceToAll(CollectiveKind.SCAN, sendbuf, recvbuf, count, type, op),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #scan(Object, int, Datatype, Op)}; direct Buffers only.
     *
     * @param buf this rank's input, and where the result lands, as in the blocking form
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Iscan", b -> b.reduceToAllInPlace(CollectiveKind.SCAN, buf, count, type, op), buf);
    }

    /**
     * Nonblocking {@link #exScan(Object, Object, int, Datatype, Op)}; direct Buffers only.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Iexscan", b -> b.reduceToAll(CollectiveKind.EXSCAN, sendbuf, recvbuf, count, type, op),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #exScan(Object, int, Datatype, Op)}; direct Buffers only.
     *
     * @param buf this rank's input, and where the result lands, as in the blocking form
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Iexscan", b -> b.reduceToAllInPlace(CollectiveKind.EXSCAN, buf, count, type, op), buf);
    }
}
