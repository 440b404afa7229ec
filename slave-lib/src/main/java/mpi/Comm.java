package mpi;

import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.slave.Received;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * A communicator: point-to-point calls and barrier. Every send is buffered by the master, so
 * {@code send}, {@code bSend}, {@code sSend} and {@code rSend} return as soon as the master owns
 * the message, and nonblocking sends are complete when they return.
 */
public class Comm implements Freeable {

    final int commId;
    private final String defaultName;
    private String name;
    private Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    private boolean freed;

    Comm(int commId, String name) {
        this.commId = commId;
        this.defaultName = name;
        this.name = name;
    }

    // ---------------------------------------------------------------- basics

    public final int getRank() throws MPIException {
        SlaveRuntime rt = MPI.runtime();
        checkNotFreed("MPI_Comm_rank");
        return commId == Protocol.COMM_SELF_ID ? 0 : rt.environment().worldRank();
    }

    public final int getSize() throws MPIException {
        SlaveRuntime rt = MPI.runtime();
        checkNotFreed("MPI_Comm_size");
        return commId == Protocol.COMM_SELF_ID ? 1 : rt.environment().worldSize();
    }

    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        MPI.runtime();
        return comm1.commId == comm2.commId ? MPI.IDENT : MPI.UNEQUAL;
    }

    /** Predefined communicators cannot be freed; the handle becomes null. */
    @Override
    public void free() throws MPIException {
        MPI.runtime();
        freed = true;
    }

    public final boolean isNull() {
        return freed;
    }

    public final boolean isInter() throws MPIException {
        MPI.runtime();
        return false;
    }

    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        MPI.runtime();
        if (errhandler == null) {
            throw MPIException.of(MPI.ERR_ARG, "MPI_Comm_set_errhandler: null error handler");
        }
        this.errhandler = errhandler;
    }

    public final Errhandler getErrhandler() throws MPIException {
        MPI.runtime();
        return errhandler;
    }

    public final void setName(String name) throws MPIException {
        MPI.runtime();
        this.name = name;
    }

    public final String getName() throws MPIException {
        MPI.runtime();
        return name;
    }

    /** Ends the whole job with {@code errorcode}. */
    public final void abort(int errorcode) throws MPIException {
        MPI.runtime().abort(errorcode, "MPI_Abort(" + defaultName + ", " + errorcode + ")");
    }

    // ---------------------------------------------------------------- sends

    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        doSend("MPI_Send", buf, count, type, dest, tag);
    }

    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        doSend("MPI_Bsend", buf, count, type, dest, tag);
    }

    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        doSend("MPI_Ssend", buf, count, type, dest, tag);
    }

    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        doSend("MPI_Rsend", buf, count, type, dest, tag);
    }

    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return doISend("MPI_Isend", buf, count, type, dest, tag);
    }

    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return doISend("MPI_Ibsend", buf, count, type, dest, tag);
    }

    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return doISend("MPI_Issend", buf, count, type, dest, tag);
    }

    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return doISend("MPI_Irsend", buf, count, type, dest, tag);
    }

    private Request doISend(String call, Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        requireDirect(buf);
        doSend(call, buf, count, type, dest, tag);
        return Request.completedSend();
    }

    private void doSend(String call, Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        SlaveRuntime rt = enter(call);
        int bytes;
        try {
            checkCountAndType(call, count, type);
            checkRank(call, dest, false);
            if (tag < 0 || tag > MPI.TAG_UB_VALUE) {
                throw MPIException.of(MPI.ERR_TAG, call + ": invalid tag " + tag);
            }
            bytes = BufferAccess.checkedBytes(call, buf, count, type);
        } catch (MPIException e) {
            throw handle(e);
        }
        if (dest == MPI.PROC_NULL) {
            return;
        }
        ByteBuffer packed = rt.packingBuffer(bytes);
        BufferAccess.pack(buf, count, type, packed);
        try {
            rt.send(commId, dest, tag, packed.flip());
        } catch (IOException e) {
            throw handle(lost(call, e));
        }
    }

    // ---------------------------------------------------------------- receives

    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        String call = "MPI_Recv";
        SlaveRuntime rt = enter(call);
        try {
            checkRecvArgs(call, buf, count, type, source, tag);
        } catch (MPIException e) {
            throw handle(e);
        }
        if (source == MPI.PROC_NULL) {
            return Status.empty(MPI.PROC_NULL);
        }
        Received r;
        try {
            r = rt.recv(commId, source, tag);
        } catch (IOException e) {
            throw handle(lost(call, e));
        }
        return deliver(call, r, buf, count, type);
    }

    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        String call = "MPI_Irecv";
        requireDirect(buf);
        SlaveRuntime rt = enter(call);
        try {
            checkRecvArgs(call, buf, count, type, source, tag);
        } catch (MPIException e) {
            throw handle(e);
        }
        if (source == MPI.PROC_NULL) {
            return Request.completedProcNull();
        }
        try {
            return Request.receive(this, rt.postRecv(commId, source, tag), buf, count, type);
        } catch (IOException e) {
            throw handle(lost(call, e));
        }
    }

    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) throws MPIException {
        doSend("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag);
        return recv(recvbuf, recvcount, recvtype, source, recvtag);
    }

    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source, int recvtag)
            throws MPIException {
        // The master has its own copy of the outgoing message once send returns, so buf is free to refill.
        doSend("MPI_Sendrecv_replace", buf, count, type, dest, sendtag);
        return recv(buf, count, type, source, recvtag);
    }

    /** Waits (parked) for a message that matches and describes it without receiving it. */
    public final Status probe(int source, int tag) throws MPIException {
        return doProbe("MPI_Probe", source, tag, true);
    }

    /** Describes a pending message that matches, or returns null if there is none. */
    public final Status iProbe(int source, int tag) throws MPIException {
        return doProbe("MPI_Iprobe", source, tag, false);
    }

    private Status doProbe(String call, int source, int tag, boolean block) throws MPIException {
        SlaveRuntime rt = enter(call);
        try {
            checkRank(call, source, true);
            checkRecvTag(call, tag);
        } catch (MPIException e) {
            throw handle(e);
        }
        if (source == MPI.PROC_NULL) {
            return Status.empty(MPI.PROC_NULL);
        }
        try {
            MasterReply.ProbeResult p = rt.probe(commId, source, tag, block);
            return p.found() ? Status.of(p.source(), p.tag(), p.length()) : null;
        } catch (IOException e) {
            throw handle(lost(call, e));
        }
    }

    // ---------------------------------------------------------------- collectives

    /** Waits (parked) until every member of this communicator has called barrier. */
    public final void barrier() throws MPIException {
        String call = "MPI_Barrier";
        SlaveRuntime rt = enter(call);
        try {
            rt.barrier(commId);
        } catch (IOException e) {
            throw handle(lost(call, e));
        }
    }

    // ---------------------------------------------------------------- shared with Request

    /** Copies a received message into the user's buffer; ERR_TRUNCATE if it does not fit. */
    final Status deliver(String call, Received r, Object buf, int count, Datatype type) throws MPIException {
        long capacity = (long) count * type.byteSize();
        if (r.length() > capacity) {
            r.discard();
            throw handle(MPIException.of(MPI.ERR_TRUNCATE, call + ": message of " + r.length() + " bytes from rank "
                    + r.source() + " (tag " + r.tag() + ") is longer than the receive buffer of " + capacity + " bytes"));
        }
        try {
            BufferAccess.unpack(r.data(), buf, type);
        } catch (IOException e) {
            throw handle(MPIException.of(MPI.ERR_OTHER, call + ": " + e.getMessage()));
        }
        return Status.of(r.source(), r.tag(), r.length());
    }

    /**
     * Applies this communicator's error handler: returns the exception to throw under
     * ERRORS_RETURN, or ends the job with one clear line under ERRORS_ARE_FATAL.
     */
    final MPIException handle(MPIException e) {
        if (!errhandler.isFatal()) {
            return e;
        }
        String line = "bdmpi: rank " + worldRankOrUnknown() + ": " + e.getMessage() + " (" + errorClassName(e.getErrorClass()) + ")";
        System.err.println(line);
        System.err.flush();
        try {
            MPI.runtime().abort(e.getErrorClass(), line);
        } catch (MPIException notInitialized) {
            // Cannot happen: errors are raised only by initialized calls.
        }
        return e;
    }

    final MPIException lost(String call, IOException e) {
        return MPIException.of(MPI.ERR_OTHER, call + ": " + e.getMessage());
    }

    // ---------------------------------------------------------------- checks

    private SlaveRuntime enter(String call) throws MPIException {
        SlaveRuntime rt = MPI.runtime();
        rt.enter(call);
        if (freed) {
            throw handle(MPIException.of(MPI.ERR_COMM, call + ": communicator " + defaultName + " was freed"));
        }
        return rt;
    }

    private void checkNotFreed(String call) throws MPIException {
        if (freed) {
            throw handle(MPIException.of(MPI.ERR_COMM, call + ": communicator " + defaultName + " was freed"));
        }
    }

    private void checkRecvArgs(String call, Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        checkCountAndType(call, count, type);
        checkRank(call, source, true);
        checkRecvTag(call, tag);
        BufferAccess.checkedBytes(call, buf, count, type);
    }

    private static void checkCountAndType(String call, int count, Datatype type) throws MPIException {
        if (type == null) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": null datatype");
        }
        if (count < 0) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": negative count " + count);
        }
    }

    private void checkRank(String call, int rank, boolean wildcardAllowed) throws MPIException {
        int size = getSize();
        boolean ok = (rank >= 0 && rank < size) || rank == MPI.PROC_NULL || (wildcardAllowed && rank == MPI.ANY_SOURCE);
        if (!ok) {
            throw MPIException.of(MPI.ERR_RANK, call + ": invalid rank " + rank + " in " + defaultName + " of size " + size);
        }
    }

    private static void checkRecvTag(String call, int tag) throws MPIException {
        if (tag < MPI.ANY_TAG || tag > MPI.TAG_UB_VALUE) {
            throw MPIException.of(MPI.ERR_TAG, call + ": invalid tag " + tag);
        }
    }

    private static void requireDirect(Buffer buf) {
        if (buf != null && !buf.isDirect()) {
            throw new IllegalArgumentException("The buffer must be direct.");
        }
    }

    private static int worldRankOrUnknown() {
        try {
            return MPI.runtime().environment().worldRank();
        } catch (MPIException e) {
            return -1;
        }
    }

    static String errorClassName(int errorClass) {
        String[] names = {"MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE", "MPI_ERR_TAG", "MPI_ERR_COMM",
            "MPI_ERR_RANK", "MPI_ERR_REQUEST", "MPI_ERR_ROOT", "MPI_ERR_GROUP", "MPI_ERR_OP", "MPI_ERR_TOPOLOGY",
            "MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN", "MPI_ERR_TRUNCATE", "MPI_ERR_OTHER", "MPI_ERR_INTERN"};
        return errorClass >= 0 && errorClass < names.length ? names[errorClass] : "MPI error class " + errorClass;
    }

    @Override
    public String toString() {
        return name;
    }
}
