package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.slave.Received;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * A communicator: point-to-point calls, barrier, and its error handler.
 *
 * <p>Every send is buffered by the master, so {@code send}, {@code bSend}, {@code sSend} and
 * {@code rSend} are the same call: each returns as soon as the master owns the message, and a
 * nonblocking send is complete when it returns. A blocking call that must wait (recv, probe,
 * barrier) parks this rank until the master wakes it, so the node's other ranks can run.
 *
 * <p>Errors (bad arguments, truncation, a lost master) go to the communicator's error handler:
 * by default the job ends with one line on stderr; under {@code MPI.ERRORS_RETURN} the call
 * throws {@link MPIException} with the error class. "MPI is not initialized." and "MPI is
 * finalized." are thrown whatever the handler.
 */
public class Comm implements Freeable {

    /** The communicator's id on the wire. */
    final int commId;
    private final String builtinName;
    private volatile String name;
    private volatile Errhandler errhandler = Errhandler.FATAL;

    Comm(int commId, String name) {
        this.commId = commId;
        this.builtinName = name;
        this.name = name;
    }

    // ---------------------------------------------------------------- basics

    /** This process's rank in the communicator. */
    public final int getRank() throws MPIException {
        return rank(Session.enter("MPI_Comm_rank"));
    }

    /** Number of processes in the communicator. */
    public final int getSize() throws MPIException {
        return size(Session.enter("MPI_Comm_size"));
    }

    /**
     * Compares two communicators.
     *
     * @return {@code MPI.IDENT} for the same communicator, {@code MPI.UNEQUAL} otherwise (for now
     *         no two distinct communicators here share their group)
     */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        Session.enter("MPI_Comm_compare");
        if (comm1 == null || comm2 == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_COMM, "MPI_Comm_compare: null communicator"));
        }
        return comm1.commId == comm2.commId ? MPI.IDENT : MPI.UNEQUAL;
    }

    /** An error ({@code MPI.ERR_COMM}): the predefined communicators cannot be freed. */
    @Override
    public void free() throws MPIException {
        Session.enter("MPI_Comm_free");
        throw handle(MPIException.of(MPI.ERR_COMM, "MPI_Comm_free: " + builtinName + " is predefined and cannot be freed"));
    }

    /** Whether this is the null communicator: never, for the communicators that exist so far. */
    public final boolean isNull() {
        return false;
    }

    /** Whether this is an intercommunicator: never, so far. */
    public final boolean isInter() throws MPIException {
        Session.enter("MPI_Comm_test_inter");
        return false;
    }

    /** Sets what errors of calls on this communicator do; {@code MPI.ERRORS_ARE_FATAL} by default. */
    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        Session.enter("MPI_Comm_set_errhandler");
        if (errhandler == null) {
            throw handle(MPIException.of(MPI.ERR_ARG, "MPI_Comm_set_errhandler: null error handler"));
        }
        this.errhandler = errhandler;
    }

    /** The communicator's error handler. */
    public final Errhandler getErrhandler() throws MPIException {
        Session.enter("MPI_Comm_get_errhandler");
        return errhandler;
    }

    /** Names the communicator, for messages. */
    public final void setName(String name) throws MPIException {
        Session.enter("MPI_Comm_set_name");
        if (name == null) {
            throw handle(MPIException.of(MPI.ERR_ARG, "MPI_Comm_set_name: null name"));
        }
        this.name = name;
    }

    /** The communicator's name: {@code MPI_COMM_WORLD}, {@code MPI_COMM_SELF}, or as set. */
    public final String getName() throws MPIException {
        Session.enter("MPI_Comm_get_name");
        return name;
    }

    /** Ends the whole job with {@code errorcode} as its exit status. Does not return. */
    public final void abort(int errorcode) throws MPIException {
        Session.enter("MPI_Abort").abort(errorcode, "MPI_Abort(" + builtinName + ", " + errorcode + ")");
    }

    // ---------------------------------------------------------------- sends

    /**
     * Sends {@code count} items of {@code type} from the start of {@code buf} (an array, or a
     * Buffer used from its base) to {@code dest}. Returns once the master owns the message.
     */
    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send("MPI_Send", buf, count, type, dest, tag);
    }

    /** As {@link #send}: every send is buffered by the master. */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send("MPI_Bsend", buf, count, type, dest, tag);
    }

    /** As {@link #send}: the master buffers it, so it does not wait for the matching receive. */
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send("MPI_Ssend", buf, count, type, dest, tag);
    }

    /** As {@link #send}: a ready send needs no posted receive when the master buffers it. */
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send("MPI_Rsend", buf, count, type, dest, tag);
    }

    /**
     * Nonblocking send; the returned request is already complete (the master owns the message).
     *
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     */
    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSend("MPI_Isend", buf, count, type, dest, tag);
    }

    /** As {@link #iSend}. */
    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSend("MPI_Ibsend", buf, count, type, dest, tag);
    }

    /** As {@link #iSend}. */
    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSend("MPI_Issend", buf, count, type, dest, tag);
    }

    /** As {@link #iSend}. */
    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSend("MPI_Irsend", buf, count, type, dest, tag);
    }

    private Request iSend(String call, Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Session.runtime();
        requireDirect(buf);
        send(call, buf, count, type, dest, tag);
        return Request.completedSend();
    }

    private void send(String call, Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        int bytes;
        try {
            bytes = checkSend(call, rt, buf, count, type, dest, tag);
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
            throw handle(Errors.transport(call, e));
        }
    }

    // ---------------------------------------------------------------- receives

    /**
     * Receives a message into the start of {@code buf}, waiting (parked) until one matches.
     * {@code source} may be {@code MPI.ANY_SOURCE} and {@code tag} {@code MPI.ANY_TAG}; a message
     * longer than {@code count} items is an {@code MPI.ERR_TRUNCATE} error.
     *
     * @return the actual source, tag and size of the message
     */
    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        String call = "MPI_Recv";
        SlaveRuntime rt = Session.enter(call);
        checkRecv(call, rt, buf, count, type, source, tag);
        return receive(call, rt, buf, count, type, source, tag);
    }

    /**
     * Posts a receive and returns at once; the message lands in {@code buf} by the time a wait or
     * test completes the request.
     *
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     */
    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        String call = "MPI_Irecv";
        SlaveRuntime rt = Session.enter(call);
        requireDirect(buf);
        checkRecv(call, rt, buf, count, type, source, tag);
        if (source == MPI.PROC_NULL) {
            return Request.completedProcNull();
        }
        try {
            return Request.receive(this, rt.postRecv(commId, source, tag), buf, count, type);
        } catch (IOException e) {
            throw handle(Errors.transport(call, e));
        }
    }

    /** Sends one message and receives another; the send cannot deadlock, as the master buffers it. */
    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        String call = "MPI_Sendrecv";
        SlaveRuntime rt = Session.enter(call);
        checkRecv(call, rt, recvbuf, recvcount, recvtype, source, recvtag);
        send(call, sendbuf, sendcount, sendtype, dest, sendtag);
        return receive(call, rt, recvbuf, recvcount, recvtype, source, recvtag);
    }

    /** Sends the contents of {@code buf}, then receives a message into it. */
    public final Status sendRecvReplace(Object buf, int count, Datatype type,
                                        int dest, int sendtag, int source, int recvtag) throws MPIException {
        String call = "MPI_Sendrecv_replace";
        SlaveRuntime rt = Session.enter(call);
        checkRecv(call, rt, buf, count, type, source, recvtag);
        // Once send returns the master has its own copy, so buf is free to be overwritten.
        send(call, buf, count, type, dest, sendtag);
        return receive(call, rt, buf, count, type, source, recvtag);
    }

    /** Waits (parked) until a matching message is pending and describes it without receiving it. */
    public final Status probe(int source, int tag) throws MPIException {
        return probe("MPI_Probe", source, tag, true);
    }

    /** Describes a pending message that matches, or returns null if there is none now. */
    public final Status iProbe(int source, int tag) throws MPIException {
        return probe("MPI_Iprobe", source, tag, false);
    }

    private Status probe(String call, int source, int tag, boolean block) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        try {
            checkRank(call, rt, source, true);
            checkRecvTag(call, tag);
        } catch (MPIException e) {
            throw handle(e);
        }
        if (source == MPI.PROC_NULL) {
            return Status.procNull();
        }
        MasterReply.ProbeResult p;
        try {
            p = rt.probe(commId, source, tag, block);
        } catch (IOException e) {
            throw handle(Errors.transport(call, e));
        }
        return p.found() ? Status.received(p.source(), p.tag(), p.length()) : null;
    }

    private Status receive(String call, SlaveRuntime rt, Object buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        if (source == MPI.PROC_NULL) {
            return Status.procNull();
        }
        Received r;
        try {
            r = rt.recv(commId, source, tag);
        } catch (IOException e) {
            throw handle(Errors.transport(call, e));
        }
        try {
            return deliver(call, r, buf, count, type);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    // ---------------------------------------------------------------- collectives

    /** Waits (parked) until every member of this communicator has called barrier. */
    public final void barrier() throws MPIException {
        String call = "MPI_Barrier";
        SlaveRuntime rt = Session.enter(call);
        try {
            rt.collective(commId, CollectiveKind.BARRIER, 0, ReduceOp.NONE, ElementType.NONE, 0, new long[0],
                    ByteBuffer.allocate(0));
        } catch (IOException e) {
            throw handle(Errors.transport(call, e));
        }
    }

    // ---------------------------------------------------------------- shared with Request

    /**
     * Copies a received message into the user's buffer, taking its bytes exactly once (a spill
     * file is read and deleted, or deleted unread when the message does not fit).
     *
     * @return the message's status
     * @throws MPIException ERR_TRUNCATE when the message is longer than {@code count} items, ERR_OTHER
     *                      when its spill file cannot be read; not passed to any handler yet
     */
    static Status deliver(String call, Received r, Object buf, int count, Datatype type) throws MPIException {
        long capacity = (long) count * type.byteSize();
        if (r.length() > capacity) {
            r.discard();
            throw MPIException.of(MPI.ERR_TRUNCATE, call + ": message of " + r.length() + " bytes from rank " + r.source()
                    + " (tag " + r.tag() + ") truncated: the receive buffer holds " + capacity + " bytes");
        }
        ByteBuffer data;
        try {
            data = r.data();
        } catch (IOException e) {
            throw Errors.transport(call, e);
        }
        BufferAccess.unpack(data, buf, type);
        return Status.received(r.source(), r.tag(), r.length());
    }

    /**
     * Applies this communicator's error handler. Under a fatal handler prints one line to stderr
     * and ends the job (does not return); otherwise returns {@code e} for the caller to throw.
     */
    final MPIException handle(MPIException e) {
        if (!errhandler.isFatal()) {
            return e;
        }
        SlaveRuntime rt = Session.connection();
        System.err.println(Errors.fatalLine(rt == null ? -1 : rt.environment().worldRank(), e));
        System.err.flush();
        if (rt != null) {
            // The master's report names the rank itself.
            rt.abort(e.getErrorClass(), Errors.describe(e));
        }
        return e;
    }

    // ---------------------------------------------------------------- checks

    private int rank(SlaveRuntime rt) {
        return commId == Protocol.COMM_SELF_ID ? 0 : rt.environment().worldRank();
    }

    private int size(SlaveRuntime rt) {
        return commId == Protocol.COMM_SELF_ID ? 1 : rt.environment().worldSize();
    }

    private int checkSend(String call, SlaveRuntime rt, Object buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        checkType(call, type);
        int bytes = BufferAccess.byteLength(call, buf, count, type, false);
        checkRank(call, rt, dest, false);
        if (tag < 0 || tag > MPI.TAG_UB_VALUE) {
            throw MPIException.of(MPI.ERR_TAG, call + ": invalid tag " + tag + " (valid: 0 to " + MPI.TAG_UB_VALUE + ")");
        }
        return bytes;
    }

    private void checkRecv(String call, SlaveRuntime rt, Object buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        try {
            checkType(call, type);
            BufferAccess.byteLength(call, buf, count, type, true);
            checkRank(call, rt, source, true);
            checkRecvTag(call, tag);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    private static void checkType(String call, Datatype type) throws MPIException {
        if (type == null) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": null datatype");
        }
    }

    private void checkRank(String call, SlaveRuntime rt, int rank, boolean anySource) throws MPIException {
        int size = size(rt);
        if ((rank < 0 || rank >= size) && rank != MPI.PROC_NULL && !(anySource && rank == MPI.ANY_SOURCE)) {
            throw MPIException.of(MPI.ERR_RANK, call + ": invalid rank " + rank + " in " + name + " of size " + size);
        }
    }

    private static void checkRecvTag(String call, int tag) throws MPIException {
        if (tag != MPI.ANY_TAG && (tag < 0 || tag > MPI.TAG_UB_VALUE)) {
            throw MPIException.of(MPI.ERR_TAG, call + ": invalid tag " + tag
                    + " (valid: MPI.ANY_TAG, or 0 to " + MPI.TAG_UB_VALUE + ")");
        }
    }

    private static void requireDirect(Buffer buf) {
        if (buf != null && !buf.isDirect()) {
            throw new IllegalArgumentException("The buffer must be direct.");
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
