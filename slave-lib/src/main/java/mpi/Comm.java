package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.Reduction;
import io.bdmpi.slave.Outgoing;
import io.bdmpi.slave.Received;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * A communicator: point-to-point calls, collectives, and its error handler.
 *
 * <p>Every send is buffered by the master, so {@code send}, {@code bSend} and {@code rSend} are
 * the same call (but for the attached space a {@code bSend} needs): each returns as soon as the
 * master owns the message, and a nonblocking send is complete when it returns. A synchronous send
 * ({@code sSend}, {@code isSend}) completes only once a receive has matched its message, as MPI
 * requires. A blocking call that must wait (recv, probe, a
 * collective) parks this rank until the master wakes it, so the node's other ranks can run.
 *
 * <p>Collectives hand the master this rank's part and park until the result is there; the master
 * combines the predefined reductions, a user-defined {@link Op} is folded here in rank order.
 * A nonblocking collective hands its part over at once (its send data is copied then) and lands
 * its result when a wait or test completes its request. Buffers and counts are as in
 * point-to-point calls; displacements are in items of the datatype given with them; the in-place
 * forms are Open MPI's (MPI_IN_PLACE).
 *
 * <p>Errors (bad arguments, truncation, a lost master) go to the communicator's error handler:
 * by default the job ends with one line on stderr; under {@code MPI.ERRORS_RETURN} the call
 * throws {@link MPIException} with the error class. "MPI is not initialized." and "MPI is
 * finalized." are thrown whatever the handler. Calls on a null or freed communicator are
 * {@code MPI.ERR_COMM} errors of {@code MPI.COMM_WORLD}'s handler.
 */
public class Comm implements Freeable, Cloneable {

    /** The communicator's id on the wire; {@link Protocol#NO_COMM} for a null communicator. */
    final int commId;
    /** Rank and size when known at creation (derived communicators, COMM_SELF); else -1. */
    private final int knownRank;
    private final int knownSize;
    private volatile String name;
    private volatile Errhandler errhandler = Errhandler.FATAL;
    private volatile boolean freed;
    /** Where the members live, once asked; tied to the MPI life (runtime) it was asked in. */
    private volatile CachedInfo cachedInfo;

    private record CachedInfo(SlaveRuntime runtime, MasterReply.CommInfo info) {
    }

    /** One member's collective, built from checked arguments. */
    @FunctionalInterface
    interface Plan {
        CollectiveCall build(CollectiveBuilder b) throws MPIException;
    }

    /** A predefined communicator whose rank and size come from the environment or the master. */
    Comm(int commId, String name) {
        this(commId, -1, -1, name);
    }

    Comm(int commId, int rank, int size, String name) {
        this.commId = commId;
        this.knownRank = rank;
        this.knownSize = size;
        this.name = name;
    }

    // ---------------------------------------------------------------- basics

    /**
     * This process's rank in the communicator.
     *
     * @return the rank, from 0
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final int getRank() throws MPIException {
        String call = "MPI_Comm_rank";
        SlaveRuntime rt = enter(call);
        try {
            return rank(call, rt);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Number of processes in the communicator.
     *
     * @return the number of processes
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final int getSize() throws MPIException {
        String call = "MPI_Comm_size";
        SlaveRuntime rt = enter(call);
        try {
            return size(call, rt);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Compares two communicators.
     *
     * @param comm1 a communicator
     * @param comm2 another communicator
     * @return {@code MPI.IDENT} for the same communicator, {@code MPI.CONGRUENT} for the same
     *         processes in the same order, {@code MPI.SIMILAR} for the same processes in another
     *         order, {@code MPI.UNEQUAL} otherwise; an intracommunicator and an intercommunicator
     *         are unequal, and two intercommunicators are congruent or similar only when both their
     *         local groups and their remote groups are
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        String call = "MPI_Comm_compare";
        SlaveRuntime rt = Session.enter(call);
        if (comm1 == null || comm2 == null || comm1.isNull() || comm2.isNull()) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_COMM, call + ": null communicator"));
        }
        if (comm1.commId == comm2.commId) {
            return MPI.IDENT;
        }
        if (comm1 instanceof Intercomm || comm2 instanceof Intercomm) {
            // The master's communicator of an intercommunicator is the union of its two groups,
            // which says nothing of which process is on which side: compare the sides.
            return comm1 instanceof Intercomm inter1 && comm2 instanceof Intercomm inter2
                    ? Intercomm.compareSides(inter1, inter2) : MPI.UNEQUAL;
        }
        MasterReply.CommInfo a;
        MasterReply.CommInfo b;
        try {
            a = comm1.info(call, rt);
            b = comm2.info(call, rt);
        } catch (MPIException e) {
            throw comm1.handle(e);
        }
        if (a.size() != b.size()) {
            return MPI.UNEQUAL;
        }
        return a.groupHash() == b.groupHash() ? MPI.CONGRUENT : a.groupSetHash() == b.groupSetHash() ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /**
     * A new communicator with the same members in the same order (collective: every member calls
     * it). It inherits the error handler.
     *
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public Comm dup() throws MPIException {
        return dupFor("MPI_Comm_dup");
    }

    /**
     * A dup made as the collective part of {@code call} ({@code MPI_Comm_dup}, or a window's or a
     * file's creation, see {@link Protocol#dupColor}), which its errors and the master's reports name.
     */
    final Intracomm dupFor(String call) throws MPIException {
        SlaveRuntime rt = enter(call);
        int rank;
        try {
            rank = rank(call, rt);
        } catch (MPIException e) {
            throw handle(e);
        }
        // A dup is the split in which every member has the same colour and keeps its rank.
        Intracomm c = splitAtMaster(call, rt, Protocol.dupColor(call), rank, "DUP");
        c.inheritFrom(this);
        return c;
    }

    /** As {@link #dup()}, with an error wrapped in a RuntimeException, as Open MPI's clone. */
    @Override
    public Comm clone() {
        return Errors.unchecked(this::dup);
    }

    /**
     * Frees a communicator made by dup or split (collective: every member calls it); the handle
     * becomes null, and using it is an {@code MPI.ERR_COMM} error. The predefined communicators
     * cannot be freed ({@code MPI.ERR_COMM}). A topology's private channel goes with it.
     */
    @Override
    public void free() throws MPIException {
        String call = "MPI_Comm_free";
        SlaveRuntime rt = enter(call);
        if (commId < Protocol.FIRST_DERIVED_COMM_ID) {
            throw handle(MPIException.of(MPI.ERR_COMM, call + ": " + name + " is predefined and cannot be freed"));
        }
        runCollective(call, rt, CollectiveBuilder::free);
        freed = true;
        Neighborhood n = neighborhood();
        if (n != null) {
            n.free();
        }
    }

    /**
     * Whether this is a null communicator: freed, or the result of a split with {@code MPI.UNDEFINED}.
     *
     * @return whether the communicator is null
     */
    public final boolean isNull() {
        return commId == Protocol.NO_COMM || freed;
    }

    /**
     * Whether this is an intercommunicator (an {@link Intercomm}).
     *
     * @return whether it is
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final boolean isInter() throws MPIException {
        enter("MPI_Comm_test_inter");
        return this instanceof Intercomm;
    }

    /**
     * Sets what errors of calls on this communicator do; {@code MPI.ERRORS_ARE_FATAL} by default.
     *
     * @param errhandler the new error handler
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        enter("MPI_Comm_set_errhandler");
        if (errhandler == null) {
            throw handle(MPIException.of(MPI.ERR_ARG, "MPI_Comm_set_errhandler: null error handler"));
        }
        this.errhandler = errhandler;
    }

    /**
     * The communicator's error handler.
     *
     * @return the error handler
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Errhandler getErrhandler() throws MPIException {
        enter("MPI_Comm_get_errhandler");
        return errhandler;
    }

    /**
     * Names the communicator, for messages; a name is cut to {@code MPI.MAX_OBJECT_NAME - 1} characters.
     * The master's reports (a deadlock, calls that do not match) call it by this name too.
     *
     * @param name the new name
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void setName(String name) throws MPIException {
        String call = "MPI_Comm_set_name";
        SlaveRuntime rt = enter(call);
        if (name == null) {
            throw handle(MPIException.of(MPI.ERR_ARG, call + ": null name"));
        }
        this.name = name.length() < MPI.MAX_OBJECT_NAME ? name : name.substring(0, MPI.MAX_OBJECT_NAME - 1);
        nameAtMaster(call, rt, this.name);
    }

    /**
     * Names, in the master's reports, a communicator the runtime made for its own use (a window's,
     * a file's), which the program never sees: its collectives are the internals of the calls
     * the program made on that window or file.
     */
    final void describeAs(String what) throws MPIException {
        nameAtMaster("MPI_Comm_set_name", Session.runtime(), what);
    }

    /** The name, without entering a call (for what the runtime says of the communicator). */
    final String name() {
        return name;
    }

    private void nameAtMaster(String call, SlaveRuntime rt, String name) throws MPIException {
        if (commId == Protocol.COMM_SELF_ID) {
            return; // the master keeps one per rank, never in a report of several ranks
        }
        try {
            rt.nameComm(commId, name);
        } catch (IOException e) {
            throw handle(Errors.transport(call, e));
        }
    }

    /**
     * The communicator's name: {@code MPI_COMM_WORLD}, {@code MPI_COMM_SELF}, one saying how a
     * derived communicator was made ({@code MPI COMMUNICATOR 16 SPLIT FROM MPI_COMM_WORLD}), or as set.
     *
     * @return the name
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final String getName() throws MPIException {
        enter("MPI_Comm_get_name");
        return name;
    }

    /**
     * Ends the whole job with {@code errorcode} as its exit status. Does not return.
     *
     * @param errorcode the job's exit status
     * @throws MPIException if MPI is not running
     */
    public final void abort(int errorcode) throws MPIException {
        Session.enter("MPI_Abort").abort(errorcode, "MPI_Abort(" + name + ", " + errorcode + ")");
    }

    // ---------------------------------------------------------------- sends

    /**
     * Sends {@code count} items of {@code type} from the start of {@code buf} (an array, or a
     * Buffer used from its base) to {@code dest}. Returns once the master owns the message.
     *
     * @param buf the items to send: an array or a Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send("MPI_Send", buf, count, type, dest, tag);
    }

    /**
     * As {@link #send} (every send is buffered by the master), with MPI's rule on buffered-send
     * space: it needs a buffer attached by {@code MPI.attachBuffer} of at least the message's bytes
     * plus {@code MPI.BSEND_OVERHEAD}, else it is an {@code MPI.ERR_BUFFER} error. The space is
     * free again when the call returns.
     *
     * @param buf the items to send: an array or a Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        bufferedSend("MPI_Bsend", buf, count, type, dest, tag);
    }

    /**
     * Synchronous send: as {@link #send}, but returns only once a receive has matched the message
     * (this rank is parked meanwhile).
     *
     * @param buf the items to send: an array or a Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send("MPI_Ssend", buf, count, type, dest, tag, (rt, message) -> {
            rt.syncSend(commId, dest, tag, message);
            return 0;
        });
    }

    /**
     * As {@link #send}: a ready send needs no posted receive when the master buffers it.
     *
     * @param buf the items to send: an array or a Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send("MPI_Rsend", buf, count, type, dest, tag);
    }

    /**
     * Nonblocking send; the returned request is already complete (the master owns the message).
     *
     * @param buf the items to send: a direct Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @return a request that is already complete
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSend("MPI_Isend", buf, count, type, dest, tag);
    }

    /**
     * As {@link #iSend}, needing attached space as {@link #bSend} does.
     *
     * @param buf the items to send: a direct Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @return a request that is already complete
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        enter("MPI_Ibsend");
        requireDirect(buf);
        bufferedSend("MPI_Ibsend", buf, count, type, dest, tag);
        return Request.completedSend();
    }

    /**
     * Nonblocking synchronous send: the master has the message on return, and the request completes
     * once a receive has matched it.
     *
     * @param buf the items to send: a direct Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @return a request that completes once a receive has matched the message (already complete
     *         for {@code MPI.PROC_NULL})
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        String call = "MPI_Issend";
        enter(call);
        requireDirect(buf);
        return synchronousSend(call, buf, count, type, dest, tag);
    }

    /** Sends and returns the request that completes once a receive has matched the message. */
    private Request synchronousSend(String call, Object buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        long id = send(call, buf, count, type, dest, tag, (rt, message) -> rt.startSyncSend(commId, dest, tag, message));
        return id == 0 ? Request.completedSend() : Request.synchronousSend(this, id);
    }

    /** How a send completes: as the master owns the message, the same with attached space, or once matched. */
    private enum SendMode { STANDARD, BUFFERED, SYNCHRONOUS }

    /** Sends in {@code mode}; the request of a synchronous send completes once a receive has matched it. */
    private Request send(String call, SendMode mode, Object buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        switch (mode) {
            case BUFFERED:
                bufferedSend(call, buf, count, type, dest, tag);
                return Request.completedSend();
            case SYNCHRONOUS:
                return synchronousSend(call, buf, count, type, dest, tag);
            default:
                send(call, buf, count, type, dest, tag);
                return Request.completedSend();
        }
    }

    /**
     * As {@link #iSend}.
     *
     * @param buf the items to send: a direct Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @return a request that is already complete
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSend("MPI_Irsend", buf, count, type, dest, tag);
    }

    private Request iSend(String call, Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        enter(call);
        requireDirect(buf);
        send(call, buf, count, type, dest, tag);
        return Request.completedSend();
    }

    /** How a checked message goes to the master. */
    @FunctionalInterface
    private interface Transfer {
        /** @return the synchronous send's request id, or 0 for a buffered send */
        long send(SlaveRuntime rt, Outgoing message) throws IOException;
    }

    /** A buffered send. */
    private void send(String call, Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send(call, buf, count, type, dest, tag, (rt, message) -> {
            rt.send(commId, dest, tag, message);
            return 0;
        });
    }

    /**
     * Checks a send's arguments and hands its message over with {@code transfer}.
     *
     * @return what {@code transfer} returned; 0 when nothing was sent ({@code MPI.PROC_NULL})
     */
    private long send(String call, Object buf, int count, Datatype type, int dest, int tag, Transfer transfer)
            throws MPIException {
        SlaveRuntime rt = enter(call);
        try {
            checkSend(call, rt, buf, count, type, dest, tag);
        } catch (MPIException e) {
            throw handle(e);
        }
        if (dest == MPI.PROC_NULL) {
            return 0;
        }
        try {
            return transfer.send(rt, Span.message(new Span(buf, 0, count, type)));
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
     * @param buf where the message lands: an array or a Buffer, used from its start
     * @param count the number of items {@code buf} can take
     * @param type the datatype of the items
     * @param source the sender's rank to match, {@code MPI.ANY_SOURCE}, or {@code MPI.PROC_NULL}
     * @param tag the tag to match, or {@code MPI.ANY_TAG}
     * @return the actual source, tag and size of the message
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        String call = "MPI_Recv";
        SlaveRuntime rt = enter(call);
        checkRecv(call, rt, buf, count, type, source, tag);
        return receive(call, rt, buf, count, type, source, tag);
    }

    /**
     * Posts a receive and returns at once; the message lands in {@code buf} by the time a wait or
     * test completes the request.
     *
     * @param buf where the message lands: a direct Buffer, used from its start
     * @param count the number of items {@code buf} can take
     * @param type the datatype of the items
     * @param source the sender's rank to match, {@code MPI.ANY_SOURCE}, or {@code MPI.PROC_NULL}
     * @param tag the tag to match, or {@code MPI.ANY_TAG}
     * @return the receive's request
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return iRecv("MPI_Irecv", buf, count, type, source, tag);
    }

    private Request iRecv(String call, Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        SlaveRuntime rt = enter(call);
        requireDirect(buf);
        checkRecv(call, rt, buf, count, type, source, tag);
        return postRecv(call, rt, source, tag, new Span(buf, 0, count, type));
    }

    /** Posts a checked receive whose message goes to {@code slot}. */
    private Request postRecv(String call, SlaveRuntime rt, int source, int tag, MessageSlot slot) throws MPIException {
        if (source == MPI.PROC_NULL) {
            return Request.completedProcNull();
        }
        try {
            return Request.receive(this, rt.postRecv(commId, source, tag), slot);
        } catch (IOException e) {
            throw handle(Errors.transport(call, e));
        }
    }

    /**
     * Sends one message and receives another; the send cannot deadlock, as the master buffers it.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param sendtag the tag of the message sent (0 or more)
     * @param recvbuf where the received items land
     * @param recvcount the number of items {@code recvbuf} can take
     * @param recvtype the datatype of the items received
     * @param source the sender's rank to match, {@code MPI.ANY_SOURCE}, or {@code MPI.PROC_NULL}
     * @param recvtag the tag to match, or {@code MPI.ANY_TAG}
     * @return the status of the message received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        String call = "MPI_Sendrecv";
        SlaveRuntime rt = enter(call);
        checkRecv(call, rt, recvbuf, recvcount, recvtype, source, recvtag);
        send(call, sendbuf, sendcount, sendtype, dest, sendtag);
        return receive(call, rt, recvbuf, recvcount, recvtype, source, recvtag);
    }

    /**
     * Sends the contents of {@code buf}, then receives a message into it.
     *
     * @param buf the items to send, then where the message received lands
     * @param count the number of items {@code buf} can take
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param sendtag the tag of the message sent (0 or more)
     * @param source the sender's rank to match, {@code MPI.ANY_SOURCE}, or {@code MPI.PROC_NULL}
     * @param recvtag the tag to match, or {@code MPI.ANY_TAG}
     * @return the status of the message received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Status sendRecvReplace(Object buf, int count, Datatype type,
                                        int dest, int sendtag, int source, int recvtag) throws MPIException {
        String call = "MPI_Sendrecv_replace";
        SlaveRuntime rt = enter(call);
        checkRecv(call, rt, buf, count, type, source, recvtag);
        // Once send returns the master has its own copy, so buf is free to be overwritten.
        send(call, buf, count, type, dest, sendtag);
        return receive(call, rt, buf, count, type, source, recvtag);
    }

    /**
     * Waits (parked) until a matching message is pending and describes it without receiving it.
     *
     * @param source the sender's rank to match, {@code MPI.ANY_SOURCE}, or {@code MPI.PROC_NULL}
     * @param tag the tag to match, or {@code MPI.ANY_TAG}
     * @return the source, tag and size of the message
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Status probe(int source, int tag) throws MPIException {
        return probe("MPI_Probe", source, tag, true);
    }

    /**
     * Describes a pending message that matches, or returns null if there is none now.
     *
     * @param source the sender's rank to match, {@code MPI.ANY_SOURCE}, or {@code MPI.PROC_NULL}
     * @param tag the tag to match, or {@code MPI.ANY_TAG}
     * @return the message's status, or null if no matching message is pending
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Status iProbe(int source, int tag) throws MPIException {
        return probe("MPI_Iprobe", source, tag, false);
    }

    final Status probe(String call, int source, int tag, boolean block) throws MPIException {
        SlaveRuntime rt = enter(call);
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
        return receive(call, rt, source, tag, new Span(buf, 0, count, type));
    }

    /** A checked blocking receive whose message goes to {@code slot}. */
    private Status receive(String call, SlaveRuntime rt, int source, int tag, MessageSlot slot) throws MPIException {
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
            return slot.take(call, r);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    // ---------------------------------------------------------------- blocking collectives

    /**
     * Waits (parked) until every member of this communicator has called barrier.
     *
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void barrier() throws MPIException {
        collective("MPI_Barrier", CollectiveBuilder::barrier);
    }

    /**
     * Copies {@code count} items of the root's {@code buf} into every other member's {@code buf}.
     *
     * @param buf the items to send at the root; where they land elsewhere
     * @param count the number of items
     * @param type the datatype of the items
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        collective("MPI_Bcast", b -> b.bcast(buf, count, type, root));
    }

    /**
     * Each member sends {@code sendcount} items; the root receives rank i's at item
     * {@code i * recvcount} of {@code recvbuf} (which only the root uses; others may pass null).
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the items land (used at the root only)
     * @param recvcount the number of items received from each rank
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void gather(Object sendbuf, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        collective("MPI_Gather", b -> b.gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
    }

    /**
     * In-place gather: at the root {@code buf} is the whole receive area ({@code count} items per
     * rank) with its own block already in its slot; elsewhere {@code buf} holds the items to send.
     *
     * @param buf the in-place buffer, as above
     * @param count the number of items per rank
     * @param type the datatype of the items
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        collective("MPI_Gather", b -> b.gatherInPlace(buf, count, type, root));
    }

    /**
     * As gather, with rank i's {@code recvcount[i]} items landing at item {@code displs[i]} of the root's {@code recvbuf}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the items land (used at the root only)
     * @param recvcount per rank, the number of items received from it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype,
                              Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        collective("MPI_Gatherv", b -> b.gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root));
    }

    /**
     * The root's in-place gatherv: its own block already sits at {@code displs[root]}; the others call the next form.
     *
     * @param recvbuf where the items land (used at the root only)
     * @param recvcount per rank, the number of items received from it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        collective("MPI_Gatherv", b -> b.gathervInPlaceAtRoot(recvbuf, recvcount, displs, recvtype, root));
    }

    /**
     * The non-roots' side of an in-place gatherv: they send {@code sendcount} items.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        collective("MPI_Gatherv", b -> b.gathervInPlaceOffRoot(sendbuf, sendcount, sendtype, root));
    }

    /**
     * The root sends items {@code i * sendcount} onwards of {@code sendbuf} (which only the root
     * uses) to rank i; every member receives its block into {@code recvbuf}.
     *
     * @param sendbuf the items to send (used at the root only)
     * @param sendcount the number of items sent to each rank
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount the number of items this rank receives
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype,
                              Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        collective("MPI_Scatter", b -> b.scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
    }

    /**
     * In-place scatter: at the root {@code buf} is the whole send area and its own block stays in
     * place; elsewhere {@code buf} receives {@code count} items.
     *
     * @param buf the in-place buffer, as above
     * @param count the number of items per rank
     * @param type the datatype of the items
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        collective("MPI_Scatter", b -> b.scatterInPlace(buf, count, type, root));
    }

    /**
     * As scatter, with rank i's {@code sendcount[i]} items taken from item {@code displs[i]} of the root's {@code sendbuf}.
     *
     * @param sendbuf the items to send (used at the root only)
     * @param sendcount per rank, the number of items sent to it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount the number of items this rank receives
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                               Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        collective("MPI_Scatterv", b -> b.scatterv(sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root));
    }

    /**
     * The root's in-place scatterv: its own block stays in place; the others call the next form.
     *
     * @param sendbuf the items to send (used at the root only)
     * @param sendcount per rank, the number of items sent to it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param sendtype the datatype of the items sent
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        collective("MPI_Scatterv", b -> b.scattervInPlaceAtRoot(sendbuf, sendcount, displs, sendtype, root));
    }

    /**
     * The non-roots' side of an in-place scatterv: they receive {@code recvcount} items.
     *
     * @param recvbuf where the received items land
     * @param recvcount the number of items this rank receives
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        collective("MPI_Scatterv", b -> b.scattervInPlaceOffRoot(recvbuf, recvcount, recvtype, root));
    }

    /**
     * Gather to every member: rank i's items land at item {@code i * recvcount} of each {@code recvbuf}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount the number of items received from each rank
     * @param recvtype the datatype of the items received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype,
                                Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        collective("MPI_Allgather", b -> b.allGather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    /**
     * In-place allGather: {@code buf} is the whole receive area, each member's own block already in its slot.
     *
     * @param buf the in-place buffer, as above
     * @param count the number of items per rank
     * @param type the datatype of the items
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        collective("MPI_Allgather", b -> b.allGatherInPlace(buf, count, type));
    }

    /**
     * As allGather, with rank i's {@code recvcount[i]} items landing at item {@code displs[i]}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount per rank, the number of items received from it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param recvtype the datatype of the items received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype,
                                 Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        collective("MPI_Allgatherv", b -> b.allGatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
    }

    /**
     * In-place allGatherv: each member's own block already sits at {@code displs[rank]}.
     *
     * @param recvbuf where the received items land
     * @param recvcount per rank, the number of items received from it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param recvtype the datatype of the items received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        collective("MPI_Allgatherv", b -> b.allGathervInPlace(recvbuf, recvcount, displs, recvtype));
    }

    /**
     * Every member sends block j of {@code sendbuf} to rank j and receives rank i's block at block i of {@code recvbuf}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items sent to each rank
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount the number of items received from each rank
     * @param recvtype the datatype of the items received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype,
                               Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        collective("MPI_Alltoall", b -> b.allToAll(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    /**
     * As allToAll with per-rank counts and displacements on both sides.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount per rank, the number of items sent to it
     * @param sdispls per rank, where the block sent to it starts, in items from the start of {@code sendbuf}
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount per rank, the number of items received from it
     * @param rdispls per rank, where the block received from it starts, in items from the start of
     *                {@code recvbuf}
     * @param recvtype the datatype of the items received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        collective("MPI_Alltoallv",
                b -> b.allToAllv(sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype));
    }

    /**
     * As {@link #allToAllv}, with a datatype per rank on each side. A displacement that is not a
     * whole number of items of its datatype needs a ByteBuffer ({@code MPI.ERR_ARG} otherwise): an
     * array or typed Buffer holds items only at multiples of their size.
     *
     * @param sendBuf the items this rank sends
     * @param sendCount per rank, the number of items sent to it
     * @param sDispls per rank, where the block sent to it starts, in <em>bytes</em> from the start of
     *                {@code sendBuf} (as in C)
     * @param sendTypes per rank, the datatype of the items sent to it
     * @param recvBuf where the received items land
     * @param recvCount per rank, the number of items received from it
     * @param rDispls per rank, where the block received from it starts, in <em>bytes</em> from the start of
     *                {@code recvBuf} (as in C)
     * @param recvTypes per rank, the datatype of the items received from it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void allToAllw(Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                                Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        collective("MPI_Alltoallw",
                b -> b.allToAllw(sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes));
    }

    /**
     * Combines the members' {@code count} items element by element with {@code op}, in rank
     * order; the result lands in the root's {@code recvbuf} (which only the root uses).
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands (used at the root only)
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        collective("MPI_Reduce", b -> b.reduce(sendbuf, recvbuf, count, type, op, root));
    }

    /**
     * In-place reduce: {@code buf} is every member's input, and receives the result at the root.
     *
     * @param buf this rank's input, and where the result lands, as above
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @param root the root's rank in this communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        collective("MPI_Reduce", b -> b.reduceInPlace(buf, count, type, op, root));
    }

    /**
     * As reduce, with the result in every member's {@code recvbuf}.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Allreduce", b -> b.reduceToAll(CollectiveKind.ALLREDUCE, sendbuf, recvbuf, count, type, op));
    }

    /**
     * In-place allReduce: {@code buf} is the input and receives the result.
     *
     * @param buf this rank's input, and where the result lands, as above
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Allreduce", b -> b.reduceToAllInPlace(CollectiveKind.ALLREDUCE, buf, count, type, op));
    }

    /**
     * Reduces vectors of {@code sum(recvcounts)} items and scatters the result: rank i receives
     * its {@code recvcounts[i]} items (block i) in {@code recvbuf}.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where this rank's block of the result lands
     * @param recvcounts per rank, the number of result items it receives
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        collective("MPI_Reduce_scatter", b -> b.reduceScatter(sendbuf, recvbuf, recvcounts, type, op));
    }

    /**
     * In-place reduceScatter: {@code buf} holds the whole input; this rank's block of the result lands at its start.
     *
     * @param buf this rank's input, and where the result lands, as above
     * @param counts per rank, the number of result items it receives
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        collective("MPI_Reduce_scatter", b -> b.reduceScatterInPlace(buf, counts, type, op));
    }

    /**
     * As reduceScatter with {@code recvcount} items for every rank.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where this rank's block of the result lands
     * @param recvcount the number of result items each rank receives
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        collective("MPI_Reduce_scatter_block", b -> b.reduceScatterBlock(sendbuf, recvbuf, recvcount, type, op));
    }

    /**
     * In-place reduceScatterBlock: {@code buf} holds the whole input; this rank's block lands at its start.
     *
     * @param buf this rank's input, and where the result lands, as above
     * @param count the number of result items each rank receives
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Reduce_scatter_block", b -> b.reduceScatterBlockInPlace(buf, count, type, op));
    }

    /**
     * Computes {@code inBuf op inOutBuf} into {@code inOutBuf}, locally, for {@code count} items
     * ({@code inBuf} counts as the lower rank for a non-commutative operator). Errors go to
     * {@code MPI.COMM_WORLD}'s handler.
     *
     * @param inBuf the first operand: an array or a Buffer, used from its start
     * @param inOutBuf the second operand, replaced by the result
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        String call = "MPI_Reduce_local";
        Session.enter(call);
        try {
            Span in = new Span(inBuf, 0, count, type).checked(call, false);
            Span inOut = new Span(inOutBuf, 0, count, type).checked(call, true);
            if (op == null) {
                throw MPIException.of(MPI.ERR_OP, call + ": null operator");
            }
            ReduceOp wire = op.wireFor(call, type);
            ByteBuffer acc = packed(in);
            ByteBuffer next = packed(inOut);
            if (op.isUserDefined()) {
                op.applyUserFunction(acc, next, count, type);
                inOut.unpackFrom(next.clear());
            } else {
                Reduction.combine(wire, type.element, acc, next, in.bytes() / type.element.size);
                inOut.unpackFrom(acc.clear());
            }
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.handle(e);
        }
    }

    private static ByteBuffer packed(Span span) {
        ByteBuffer b = ByteBuffer.allocateDirect(span.bytes()).order(ByteOrder.nativeOrder());
        span.packInto(b);
        return b.clear();
    }

    // ---------------------------------------------------------------- nonblocking collectives

    /**
     * Starts a barrier; the request completes once every member has started it.
     * Every nonblocking collective hands the master this rank's data at once, and takes direct
     * Buffers only ({@link IllegalArgumentException} otherwise, as in Open MPI).
     *
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iBarrier() throws MPIException {
        return iCollective("MPI_Ibarrier", CollectiveBuilder::barrier);
    }

    /**
     * Nonblocking {@link #bcast}.
     *
     * @param buf the items to send at the root; where they land elsewhere
     * @param count the number of items
     * @param type the datatype of the items
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return iCollective("MPI_Ibcast", b -> b.bcast(buf, count, type, root), buf);
    }

    /**
     * Nonblocking {@link #gather(Object, int, Datatype, Object, int, Datatype, int)}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the items land (used at the root only)
     * @param recvcount the number of items received from each rank
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype,
                                 Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return iCollective("MPI_Igather", b -> b.gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #gather(Object, int, Datatype, int)}.
     *
     * @param buf the in-place buffer, as in the blocking form
     * @param count the number of items per rank
     * @param type the datatype of the items
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return iCollective("MPI_Igather", b -> b.gatherInPlace(buf, count, type, root), buf);
    }

    /**
     * Nonblocking {@link #gatherv(Object, int, Datatype, Object, int[], int[], Datatype, int)}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the items land (used at the root only)
     * @param recvcount per rank, the number of items received from it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype,
                                  Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return iCollective("MPI_Igatherv",
                b -> b.gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root), sendbuf, recvbuf);
    }

    /**
     * Nonblocking root side of the in-place {@link #gatherv(Object, int[], int[], Datatype, int)}.
     *
     * @param recvbuf where the items land (used at the root only)
     * @param recvcount per rank, the number of items received from it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return iCollective("MPI_Igatherv", b -> b.gathervInPlaceAtRoot(recvbuf, recvcount, displs, recvtype, root), recvbuf);
    }

    /**
     * Nonblocking non-root side of the in-place {@link #gatherv(Object, int, Datatype, int)}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        return iCollective("MPI_Igatherv", b -> b.gathervInPlaceOffRoot(sendbuf, sendcount, sendtype, root), sendbuf);
    }

    /**
     * Nonblocking {@link #scatter(Object, int, Datatype, Object, int, Datatype, int)}.
     *
     * @param sendbuf the items to send (used at the root only)
     * @param sendcount the number of items sent to each rank
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount the number of items this rank receives
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype,
                                  Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return iCollective("MPI_Iscatter", b -> b.scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #scatter(Object, int, Datatype, int)}.
     *
     * @param buf the in-place buffer, as in the blocking form
     * @param count the number of items per rank
     * @param type the datatype of the items
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return iCollective("MPI_Iscatter", b -> b.scatterInPlace(buf, count, type, root), buf);
    }

    /**
     * Nonblocking {@link #scatterv(Object, int[], int[], Datatype, Object, int, Datatype, int)}.
     *
     * @param sendbuf the items to send (used at the root only)
     * @param sendcount per rank, the number of items sent to it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount the number of items this rank receives
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                                   Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return iCollective("MPI_Iscatterv",
                b -> b.scatterv(sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root), sendbuf, recvbuf);
    }

    /**
     * Nonblocking root side of the in-place {@link #scatterv(Object, int[], int[], Datatype, int)}.
     *
     * @param sendbuf the items to send (used at the root only)
     * @param sendcount per rank, the number of items sent to it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param sendtype the datatype of the items sent
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return iCollective("MPI_Iscatterv", b -> b.scattervInPlaceAtRoot(sendbuf, sendcount, displs, sendtype, root),
                sendbuf);
    }

    /**
     * Nonblocking non-root side of the in-place {@link #scatterv(Object, int, Datatype, int)}.
     *
     * @param recvbuf where the received items land
     * @param recvcount the number of items this rank receives
     * @param recvtype the datatype of the items received
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return iCollective("MPI_Iscatterv", b -> b.scattervInPlaceOffRoot(recvbuf, recvcount, recvtype, root), recvbuf);
    }

    /**
     * Nonblocking {@link #allGather(Object, int, Datatype, Object, int, Datatype)}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount the number of items received from each rank
     * @param recvtype the datatype of the items received
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype,
                                    Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return iCollective("MPI_Iallgather", b -> b.allGather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #allGather(Object, int, Datatype)}.
     *
     * @param buf the in-place buffer, as in the blocking form
     * @param count the number of items per rank
     * @param type the datatype of the items
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        return iCollective("MPI_Iallgather", b -> b.allGatherInPlace(buf, count, type), buf);
    }

    /**
     * Nonblocking {@link #allGatherv(Object, int, Datatype, Object, int[], int[], Datatype)}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items this rank sends
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount per rank, the number of items received from it
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param recvtype the datatype of the items received
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype,
                                     Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return iCollective("MPI_Iallgatherv",
                b -> b.allGatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype), sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #allGatherv(Object, int[], int[], Datatype)}.
     *
     * @param buf the in-place buffer, as in the blocking form
     * @param count per rank, the number of items in its block
     * @param displs per rank, where its block starts, in items from the start of the buffer
     * @param type the datatype of the items
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) throws MPIException {
        return iCollective("MPI_Iallgatherv", b -> b.allGathervInPlace(buf, count, displs, type), buf);
    }

    /**
     * Nonblocking {@link #allToAll}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount the number of items sent to each rank
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount the number of items received from each rank
     * @param recvtype the datatype of the items received
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype,
                                   Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return iCollective("MPI_Ialltoall", b -> b.allToAll(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking {@link #allToAllv}.
     *
     * @param sendbuf the items this rank sends
     * @param sendcount per rank, the number of items sent to it
     * @param sdispls per rank, where the block sent to it starts, in items from the start of {@code sendbuf}
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the received items land
     * @param recvcount per rank, the number of items received from it
     * @param rdispls per rank, where the block received from it starts, in items from the start of
     *                {@code recvbuf}
     * @param recvtype the datatype of the items received
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                    Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return iCollective("MPI_Ialltoallv",
                b -> b.allToAllv(sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking {@link #allToAllw}.
     *
     * @param sendBuf the items this rank sends
     * @param sendCount per rank, the number of items sent to it
     * @param sDispls per rank, where the block sent to it starts, in <em>bytes</em> from the start of
     *                {@code sendBuf} (as in C)
     * @param sendTypes per rank, the datatype of the items sent to it
     * @param recvBuf where the received items land
     * @param recvCount per rank, the number of items received from it
     * @param rDispls per rank, where the block received from it starts, in <em>bytes</em> from the start of
     *                {@code recvBuf} (as in C)
     * @param recvTypes per rank, the datatype of the items received from it
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                                    Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes)
            throws MPIException {
        return iCollective("MPI_Ialltoallw",
                b -> b.allToAllw(sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes),
                sendBuf, recvBuf);
    }

    /**
     * Nonblocking {@link #reduce(Object, Object, int, Datatype, Op, int)}.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands (used at the root only)
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return iCollective("MPI_Ireduce", b -> b.reduce(sendbuf, recvbuf, count, type, op, root), sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #reduce(Object, int, Datatype, Op, int)}.
     *
     * @param buf this rank's input, and where the result lands, as in the blocking form
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @param root the root's rank in this communicator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        return iCollective("MPI_Ireduce", b -> b.reduceInPlace(buf, count, type, op, root), buf);
    }

    /**
     * Nonblocking {@link #allReduce(Object, Object, int, Datatype, Op)}.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Iallreduce",
                b -> b.reduceToAll(CollectiveKind.ALLREDUCE, sendbuf, recvbuf, count, type, op), sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #allReduce(Object, int, Datatype, Op)}.
     *
     * @param buf this rank's input, and where the result lands, as in the blocking form
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Iallreduce", b -> b.reduceToAllInPlace(CollectiveKind.ALLREDUCE, buf, count, type, op), buf);
    }

    /**
     * Nonblocking {@link #reduceScatter(Object, Object, int[], Datatype, Op)}.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where this rank's block of the result lands
     * @param recvcounts per rank, the number of result items it receives
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return iCollective("MPI_Ireduce_scatter", b -> b.reduceScatter(sendbuf, recvbuf, recvcounts, type, op),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #reduceScatter(Object, int[], Datatype, Op)}.
     *
     * @param buf this rank's input, and where the result lands, as in the blocking form
     * @param counts per rank, the number of result items it receives
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Ireduce_scatter", b -> b.reduceScatterInPlace(buf, counts, type, op), buf);
    }

    /**
     * Nonblocking {@link #reduceScatterBlock(Object, Object, int, Datatype, Op)}.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where this rank's block of the result lands
     * @param recvcount the number of result items each rank receives
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return iCollective("MPI_Ireduce_scatter_block", b -> b.reduceScatterBlock(sendbuf, recvbuf, recvcount, type, op),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #reduceScatterBlock(Object, int, Datatype, Op)}.
     *
     * @param buf this rank's input, and where the result lands, as in the blocking form
     * @param count the number of result items each rank receives
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Ireduce_scatter_block", b -> b.reduceScatterBlockInPlace(buf, count, type, op), buf);
    }

    // ---------------------------------------------------------------- topologies (logic in Neighborhood)

    /**
     * The kind of topology the communicator has.
     *
     * @return {@code MPI.CART}, {@code MPI.GRAPH}, {@code MPI.DIST_GRAPH}, or {@code MPI.UNDEFINED} for none
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final int getTopology() throws MPIException {
        enter("MPI_Topo_test");
        Neighborhood n = neighborhood();
        return n == null ? MPI.UNDEFINED : n.topology.kind();
    }

    /** The topology and its private channel: none here, {@link CartComm} and {@link GraphComm} have one. */
    Neighborhood neighborhood() {
        return null;
    }

    /**
     * Sends the same items to every out-neighbour of the topology and receives a block from each
     * in-neighbour (a cartesian grid: per dimension the -1, then the +1 neighbour; a graph: the
     * neighbours; a distributed graph: the sources and destinations). Blocks from
     * {@code MPI.PROC_NULL} neighbours (the edges of a non-periodic grid) are left as they were.
     *
     * @param sendbuf the items sent to every out-neighbour
     * @param sendcount the number of items sent
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the blocks land, block i (from in-neighbour i) at item {@code i * recvcount}
     * @param recvcount the number of items received from each in-neighbour
     * @param recvtype the datatype of the items received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     *                      ({@code MPI.ERR_TOPOLOGY} on a communicator without a topology)
     */
    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype,
                                        Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        Neighborhood.run(this, "MPI_Neighbor_allgather",
                b -> b.allGather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    /**
     * As {@link #neighborAllGather}, with a count and a place per in-neighbour.
     *
     * @param sendbuf the items sent to every out-neighbour
     * @param sendcount the number of items sent
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the blocks land
     * @param recvcount per in-neighbour, the number of items received from it
     * @param displs per in-neighbour, where its block starts, in items from the start of {@code recvbuf}
     * @param recvtype the datatype of the items received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     *                      ({@code MPI.ERR_TOPOLOGY} on a communicator without a topology)
     */
    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype,
                                         Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype)
            throws MPIException {
        Neighborhood.run(this, "MPI_Neighbor_allgatherv",
                b -> b.allGatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
    }

    /**
     * Sends block j to out-neighbour j and receives block i from in-neighbour i (the neighbours
     * as for {@link #neighborAllGather}).
     *
     * @param sendbuf the blocks to send, block j (to out-neighbour j) at item {@code j * sendcount}
     * @param sendcount the number of items sent to each out-neighbour
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the blocks land, block i (from in-neighbour i) at item {@code i * recvcount}
     * @param recvcount the number of items received from each in-neighbour
     * @param recvtype the datatype of the items received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     *                      ({@code MPI.ERR_TOPOLOGY} on a communicator without a topology)
     */
    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype,
                                       Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        Neighborhood.run(this, "MPI_Neighbor_alltoall",
                b -> b.allToAll(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    /**
     * As {@link #neighborAllToAll}, with a count and a place per neighbour.
     *
     * @param sendbuf the blocks to send
     * @param sendcount per out-neighbour, the number of items sent to it
     * @param sdispls per out-neighbour, where its block starts, in items from the start of {@code sendbuf}
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the blocks land
     * @param recvcount per in-neighbour, the number of items received from it
     * @param rdispls per in-neighbour, where its block starts, in items from the start of {@code recvbuf}
     * @param recvtype the datatype of the items received
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     *                      ({@code MPI.ERR_TOPOLOGY} on a communicator without a topology)
     */
    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                        Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        Neighborhood.run(this, "MPI_Neighbor_alltoallv",
                b -> b.allToAllv(sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype));
    }

    /**
     * Nonblocking {@link #neighborAllGather}; direct Buffers only.
     *
     * @param sendbuf the items sent to every out-neighbour
     * @param sendcount the number of items sent
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the blocks land, block i (from in-neighbour i) at item {@code i * recvcount}
     * @param recvcount the number of items received from each in-neighbour
     * @param recvtype the datatype of the items received
     * @return the request; a wait or test completes it
     * @throws IllegalArgumentException if a buffer is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     *                      ({@code MPI.ERR_TOPOLOGY} on a communicator without a topology)
     */
    public final Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype,
                                            Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return Neighborhood.start(this, "MPI_Ineighbor_allgather",
                b -> b.allGather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), sendbuf, recvbuf);
    }

    /**
     * Nonblocking {@link #neighborAllGatherv}; direct Buffers only.
     *
     * @param sendbuf the items sent to every out-neighbour
     * @param sendcount the number of items sent
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the blocks land
     * @param recvcount per in-neighbour, the number of items received from it
     * @param displs per in-neighbour, where its block starts, in items from the start of {@code recvbuf}
     * @param recvtype the datatype of the items received
     * @return the request; a wait or test completes it
     * @throws IllegalArgumentException if a buffer is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     *                      ({@code MPI.ERR_TOPOLOGY} on a communicator without a topology)
     */
    public final Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype,
                                             Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype)
            throws MPIException {
        return Neighborhood.start(this, "MPI_Ineighbor_allgatherv",
                b -> b.allGatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype), sendbuf, recvbuf);
    }

    /**
     * Nonblocking {@link #neighborAllToAll}; direct Buffers only.
     *
     * @param sendbuf the blocks to send, block j (to out-neighbour j) at item {@code j * sendcount}
     * @param sendcount the number of items sent to each out-neighbour
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the blocks land, block i (from in-neighbour i) at item {@code i * recvcount}
     * @param recvcount the number of items received from each in-neighbour
     * @param recvtype the datatype of the items received
     * @return the request; a wait or test completes it
     * @throws IllegalArgumentException if a buffer is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     *                      ({@code MPI.ERR_TOPOLOGY} on a communicator without a topology)
     */
    public final Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype,
                                           Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return Neighborhood.start(this, "MPI_Ineighbor_alltoall",
                b -> b.allToAll(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), sendbuf, recvbuf);
    }

    /**
     * Nonblocking {@link #neighborAllToAllv}; direct Buffers only.
     *
     * @param sendbuf the blocks to send
     * @param sendcount per out-neighbour, the number of items sent to it
     * @param sdispls per out-neighbour, where its block starts, in items from the start of {@code sendbuf}
     * @param sendtype the datatype of the items sent
     * @param recvbuf where the blocks land
     * @param recvcount per in-neighbour, the number of items received from it
     * @param rdispls per in-neighbour, where its block starts, in items from the start of {@code recvbuf}
     * @param recvtype the datatype of the items received
     * @return the request; a wait or test completes it
     * @throws IllegalArgumentException if a buffer is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     *                      ({@code MPI.ERR_TOPOLOGY} on a communicator without a topology)
     */
    public final Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                            Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        return Neighborhood.start(this, "MPI_Ineighbor_alltoallv",
                b -> b.allToAllv(sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype),
                sendbuf, recvbuf);
    }

    // ---------------------------------------------------------------- running collectives

    /** Runs a blocking collective: checks, hands the master this rank's part, waits (parked), places the result. */
    final void collective(String call, Plan plan) throws MPIException {
        runCollective(call, enter(call), plan);
    }

    private void runCollective(String call, SlaveRuntime rt, Plan plan) throws MPIException {
        CollectiveCall c = plan(call, rt, plan);
        try {
            c.run(rt, commId);
        } catch (IOException e) {
            throw handle(Errors.transport(call, e));
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /** Starts a nonblocking collective; its request places the result when a wait or test completes it. */
    final Request iCollective(String call, Plan plan, Buffer... buffers) throws MPIException {
        SlaveRuntime rt = enter(call);
        for (Buffer b : buffers) {
            requireDirect(b);
        }
        CollectiveCall c = plan(call, rt, plan);
        try {
            return Request.collective(this, c.start(rt, commId), c);
        } catch (IOException e) {
            throw handle(Errors.transport(call, e));
        }
    }

    private CollectiveCall plan(String call, SlaveRuntime rt, Plan plan) throws MPIException {
        try {
            return plan.build(builder(call, rank(call, rt), size(call, rt)));
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    // ---------------------------------------------------------------- communicators

    /**
     * Splits this communicator at the master (collective), waiting (parked) until every member has
     * called it. The master's answer names the new communicator's members.
     *
     * @return the new communicator, which inherits the error handler; a null one for
     *         {@code MPI.UNDEFINED}
     */
    final Intracomm derive(String call, SlaveRuntime rt, int colour, int key, String how) throws MPIException {
        if (colour < 0 && colour != MPI.UNDEFINED) {
            throw handle(MPIException.of(MPI.ERR_ARG, call + ": invalid colour " + colour
                    + " (valid: 0 or more, or MPI.UNDEFINED)"));
        }
        return splitAtMaster(call, rt, colour, key, how);
    }

    private Intracomm splitAtMaster(String call, SlaveRuntime rt, int colour, int key, String how) throws MPIException {
        int[] made;
        try {
            made = rt.split(commId, colour, key);
        } catch (IOException e) {
            throw handle(Errors.transport(call, e));
        }
        if (made[0] == Protocol.NO_COMM) {
            return Intracomm.nullComm();
        }
        return made(new Intracomm(made[0], made[1], made[2], "MPI COMMUNICATOR " + made[0] + " " + how + " FROM " + name),
                Arrays.copyOfRange(made, 3, 3 + made[2]));
    }

    /** Where this communicator's members live (asked of the master once per MPI life), for the BDMPI extensions. */
    final MasterReply.CommInfo nodeInfo(String call) throws MPIException {
        SlaveRuntime rt = enter(call);
        try {
            return info(call, rt);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    // ---------------------------------------------------------------- pack and unpack (logic in Packing)

    /**
     * Packs {@code incount} items of {@code type} from {@code inbuf} into {@code outbuf} from byte
     * {@code position}, as a message would carry them; the bytes can be sent as {@code MPI.PACKED}.
     *
     * @param inbuf the items: an array or a Buffer, used from its start
     * @param incount the number of items
     * @param type the datatype of the items
     * @param outbuf the packed bytes
     * @param position where the items go in {@code outbuf}
     * @return the position just past the packed items
     * @throws MPIException ERR_TRUNCATE when the items do not fit in {@code outbuf}; if MPI is not
     *                      running, or on another error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        enter("MPI_Pack");
        try {
            return Packing.pack(inbuf, incount, type, outbuf, position);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Unpacks {@code outcount} items of {@code type} from {@code inbuf}, starting at byte
     * {@code position}, into {@code outbuf}.
     *
     * @param inbuf the packed bytes
     * @param position where the items start in {@code inbuf}
     * @param outbuf where the items land: an array or a Buffer, used from its start
     * @param outcount the number of items
     * @param type the datatype of the items
     * @return the position just past the unpacked items
     * @throws MPIException ERR_TRUNCATE when {@code inbuf} is too short; if MPI is not running, or on
     *                      another error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) throws MPIException {
        enter("MPI_Unpack");
        try {
            return Packing.unpack(inbuf, position, outbuf, outcount, type);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Bytes that {@code incount} items of {@code type} take packed (here exactly what
     * {@link #pack} writes).
     *
     * @param incount the number of items
     * @param type the datatype of the items
     * @return the packed size in bytes
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final int packSize(int incount, Datatype type) throws MPIException {
        enter("MPI_Pack_size");
        try {
            return Packing.packSize(incount, type);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    // ---------------------------------------------------------------- shared with Request

    /**
     * Copies a received message into its slot in the user's buffer, taking its bytes exactly once (a
     * spill file is read and deleted, or deleted unread when the message does not fit).
     *
     * @return the message's status
     * @throws MPIException ERR_TRUNCATE when the message is longer than the slot's items, ERR_OTHER
     *                      when its spill file cannot be read; not passed to any handler yet
     */
    static Status deliver(String call, Received r, Span slot) throws MPIException {
        long capacity = slot.bytes();
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
        slot.unpackFrom(data);
        return Status.received(r.source(), r.tag(), r.length());
    }

    /**
     * Applies this communicator's error handler. Under a fatal handler prints one line to stderr
     * and ends the job (does not return); otherwise returns {@code e} for the caller to throw.
     */
    final MPIException handle(MPIException e) {
        return errhandler.apply(e);
    }

    // ---------------------------------------------------------------- membership

    /**
     * As {@link Session#enter}, and refuses a null communicator: its error goes to
     * {@code MPI.COMM_WORLD}'s handler, as a null handle has none of its own.
     */
    final SlaveRuntime enter(String call) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        if (isNull()) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_COMM, call + ": null communicator ("
                    + (freed ? "freed" : "from a split with MPI.UNDEFINED") + ")"));
        }
        return rt;
    }

    /** This rank in the communicator; not passed to the handler. */
    private int rank(String call, SlaveRuntime rt) throws MPIException {
        if (knownRank >= 0) {
            return knownRank;
        }
        return commId == Protocol.COMM_WORLD_ID ? rt.environment().worldRank() : info(call, rt).rank();
    }

    /** The communicator's size; not passed to the handler. */
    private int size(String call, SlaveRuntime rt) throws MPIException {
        if (knownSize >= 0) {
            return knownSize;
        }
        return commId == Protocol.COMM_WORLD_ID ? rt.environment().worldSize() : info(call, rt).size();
    }

    /** Where the members live: asked once per MPI life, as membership never changes. Not passed to the handler. */
    private MasterReply.CommInfo info(String call, SlaveRuntime rt) throws MPIException {
        CachedInfo cached = cachedInfo;
        if (cached != null && cached.runtime() == rt) {
            return cached.info();
        }
        MasterReply.CommInfo info;
        try {
            info = rt.queryComm(commId);
        } catch (IOException e) {
            throw Errors.transport(call, e);
        }
        cachedInfo = new CachedInfo(rt, info);
        return info;
    }

    // ---------------------------------------------------------------- checks

    private void checkSend(String call, SlaveRuntime rt, Object buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        BufferAccess.byteLength(call, buf, count, type, false);
        checkRank(call, rt, dest, false);
        if (tag < 0 || tag > MPI.TAG_UB_VALUE) {
            throw MPIException.of(MPI.ERR_TAG, call + ": invalid tag " + tag + " (valid: 0 to " + MPI.TAG_UB_VALUE + ")");
        }
    }

    private void checkRecv(String call, SlaveRuntime rt, Object buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        try {
            BufferAccess.byteLength(call, buf, count, type, true);
            checkRank(call, rt, source, true);
            checkRecvTag(call, tag);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    private void checkRank(String call, SlaveRuntime rt, int rank, boolean anySource) throws MPIException {
        int size = peerCount(call, rt);
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

    static void requireDirect(Buffer buf) {
        if (buf != null && !buf.isDirect()) {
            throw new IllegalArgumentException("The buffer must be direct.");
        }
    }

    // ---------------------------------------------------------------- groups, attributes, info, persistent requests
    // The logic is in Group, Attributes, Info, Prequest and BsendSpace; these delegate.

    /** Split type of {@link Intracomm#splitType}: the processes of one node, which can share memory. */
    public static final int TYPE_SHARED = 0;

    /** The members' COMM_WORLD ranks in rank order (set at creation); null where this rank cannot know them. */
    private volatile int[] worldRanks;
    /** Cached attributes; made on first use, as COMM_WORLD's differ. */
    private volatile Attributes attributes;
    /** Hints given by setInfo or dupWithInfo, or inherited by dup. */
    private volatile Map<String, String> hints = Map.of();
    /** The request of the iDup that made this communicator; null otherwise. */
    private volatile Request creation;

    /**
     * The group of this communicator's processes, in rank order (a new group, for the caller to free).
     *
     * @return the group
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} ERR_UNSUPPORTED_OPERATION on
     *                      {@code BDMPI.COMM_CWORLD} and {@code BDMPI.COMM_NODE}, whose members a rank does not know
     */
    public final Group getGroup() throws MPIException {
        String call = "MPI_Comm_group";
        return new Group(worldRanks(call, enter(call)).clone());
    }

    /**
     * As {@link #dup()}: here the duplicate is made (collectively, parked until every member has
     * called) before iDup returns, and {@link #getRequest()} of the result is already complete.
     *
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public Comm iDup() throws MPIException {
        Comm c = dup();
        c.creation = Request.completedSend();
        return c;
    }

    /**
     * The request of the {@link #iDup()} that made this communicator, to wait for.
     *
     * @return the request; a null one for a communicator not made by iDup
     */
    public final Request getRequest() {
        Request r = creation;
        return r != null ? r : Request.nullRequest();
    }

    /**
     * As {@link #dup()}, with the hints of {@code info} instead of this communicator's.
     *
     * @param info the hints, or {@code MPI.INFO_NULL}
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public Comm dupWithInfo(Info info) throws MPIException {
        Map<String, String> given = Info.hintsOf("MPI_Comm_dup_with_info", info);
        Comm c = dup();
        c.hints = given;
        return c;
    }

    /**
     * Sets hints on the communicator: each key given replaces its value. bdmpi acts on none; {@link #getInfo()} reports them.
     *
     * @param info the hints, or {@code MPI.INFO_NULL}
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void setInfo(Info info) throws MPIException {
        String call = "MPI_Comm_set_info";
        enter(call);
        Map<String, String> merged = new LinkedHashMap<>(hints);
        merged.putAll(Info.hintsOf(call, info));
        hints = Map.copyOf(merged);
    }

    /**
     * The communicator's hints, as set or inherited.
     *
     * @return a new info object, for the caller to free
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Info getInfo() throws MPIException {
        enter("MPI_Comm_get_info");
        return Info.withHints(hints);
    }

    /**
     * Runs the communicator's error handler on {@code errorCode}: under {@code MPI.ERRORS_ARE_FATAL}
     * (or {@code ERRORS_ABORT}) the job ends; under {@code MPI.ERRORS_RETURN} nothing happens and,
     * as in Open MPI, no exception is thrown.
     *
     * @param errorCode the error code, an {@code MPI.ERR_*} class here
     * @throws MPIException never here; declared as in Open MPI
     */
    public void callErrhandler(int errorCode) throws MPIException {
        handle(MPIException.of(errorCode, "MPI_Comm_call_errhandler: error code " + errorCode + " on " + name));
    }


    /**
     * A new keyval for communicator attributes.
     *
     * @return the keyval
     * @throws MPIException if MPI is not running
     */
    public static int createKeyval() throws MPIException {
        return Attributes.createKeyval(Attributes.Kind.COMM, "MPI_Comm_create_keyval");
    }

    /**
     * Frees a keyval made by {@link #createKeyval()}. As in MPI, values cached with it stay: they can
     * still be read and deleted (and are copied by a dup), but no value can be set with it any more.
     *
     * @param keyval the keyval
     * @throws MPIException if MPI is not running; ERR_KEYVAL for a predefined or invalid keyval under
     *                      {@code MPI.ERRORS_RETURN} on {@code MPI.COMM_WORLD}
     */
    public static void freeKeyval(int keyval) throws MPIException {
        Attributes.freeKeyval(Attributes.Kind.COMM, keyval, "MPI_Comm_free_keyval");
    }

    /**
     * Caches a copy of {@code value} (serialized now) on the communicator under {@code keyval}; {@link #dup()} copies it.
     *
     * @param keyval a keyval from {@link #createKeyval()}
     * @param value a Serializable value
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} ERR_KEYVAL for a predefined or
     *                      invalid keyval, ERR_ARG for a value that cannot be serialized
     */
    public final void setAttr(int keyval, Object value) throws MPIException {
        String call = "MPI_Comm_set_attr";
        enter(call);
        try {
            attributes().set(call, keyval, value);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * A fresh copy of the value cached under {@code keyval}. On {@code MPI.COMM_WORLD} (and, but for
     * {@code MPI.LASTUSEDCODE}, its dups) the predefined keys give Open MPI's values:
     * {@code MPI.TAG_UB} the largest tag, {@code MPI.HOST} {@code MPI.PROC_NULL}, {@code MPI.IO}
     * {@code MPI.ANY_SOURCE}, {@code MPI.WTIME_IS_GLOBAL} {@code Boolean.FALSE}, {@code MPI.APPNUM} 0,
     * {@code MPI.LASTUSEDCODE} {@code MPI.ERR_LASTCODE}, {@code MPI.UNIVERSE_SIZE} the number of ranks.
     *
     * @param keyval a keyval from {@link #createKeyval()}, or a predefined key
     * @return the value, or null when none is cached
     * @throws MPIException if MPI is not running; ERR_KEYVAL for an invalid keyval under {@code MPI.ERRORS_RETURN}
     */
    public final Object getAttr(int keyval) throws MPIException {
        String call = "MPI_Comm_get_attr";
        SlaveRuntime rt = enter(call);
        try {
            return attributes().get(call, rt, keyval);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Removes the value cached under {@code keyval}.
     *
     * @param keyval a keyval from {@link #createKeyval()}
     * @throws MPIException if MPI is not running; ERR_KEYVAL for a predefined or invalid keyval under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public final void deleteAttr(int keyval) throws MPIException {
        String call = "MPI_Comm_delete_attr";
        enter(call);
        try {
            attributes().delete(call, keyval);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * A persistent standard send: each {@link Prequest#start()} sends, as {@link #iSend}, the buffer's contents then.
     *
     * @param buf the items to send: a direct Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @return the inactive request
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit("MPI_Send_init", SendMode.STANDARD, buf, count, type, dest, tag);
    }

    /**
     * A persistent buffered send: as {@link #sendInit}, and each start needs attached space as {@link #bSend} does.
     *
     * @param buf the items to send: a direct Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @return the inactive request
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit("MPI_Bsend_init", SendMode.BUFFERED, buf, count, type, dest, tag);
    }

    /**
     * A persistent synchronous send: as {@link #sendInit}, since the master buffers every send.
     *
     * @param buf the items to send: a direct Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @return the inactive request
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit("MPI_Ssend_init", SendMode.SYNCHRONOUS, buf, count, type, dest, tag);
    }

    /**
     * A persistent ready send: as {@link #sendInit}, since the master buffers every send.
     *
     * @param buf the items to send: a direct Buffer, used from its start
     * @param count the number of items to send
     * @param type the datatype of the items
     * @param dest the receiver's rank in this communicator, or {@code MPI.PROC_NULL} (nothing is sent)
     * @param tag the message's tag (0 or more)
     * @return the inactive request
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit("MPI_Rsend_init", SendMode.STANDARD, buf, count, type, dest, tag);
    }

    /**
     * A persistent receive: each {@link Prequest#start()} posts a receive, as {@link #iRecv}, that fills the buffer.
     *
     * @param buf where each message lands: a direct Buffer, used from its start
     * @param count the number of items {@code buf} can take
     * @param type the datatype of the items
     * @param source the sender's rank to match, {@code MPI.ANY_SOURCE}, or {@code MPI.PROC_NULL}
     * @param tag the tag to match, or {@code MPI.ANY_TAG}
     * @return the inactive request
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        String call = "MPI_Recv_init";
        SlaveRuntime rt = enter(call);
        requireDirect(buf);
        checkRecv(call, rt, buf, count, type, source, tag);
        Datatype kept = Datatype.keptByRequest(type);
        return new Prequest(this, () -> iRecv("MPI_Start", buf, count, kept, source, tag));
    }

    private Prequest sendInit(String call, SendMode mode, Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        SlaveRuntime rt = enter(call);
        requireDirect(buf);
        try {
            checkSend(call, rt, buf, count, type, dest, tag);
        } catch (MPIException e) {
            throw handle(e);
        }
        Datatype kept = Datatype.keptByRequest(type);
        return new Prequest(this, () -> send("MPI_Start", mode, buf, count, kept, dest, tag));
    }

    /** A send that needs attached space, as MPI's buffered sends do (see {@link BsendSpace}). */
    private void bufferedSend(String call, Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        enter(call);
        if (dest != MPI.PROC_NULL && type != null) {
            try {
                BsendSpace.check(call, count, type);
            } catch (MPIException e) {
                throw handle(e);
            }
        }
        send(call, buf, count, type, dest, tag);
    }

    /**
     * The new communicator of {@link Intracomm#create(Group)} (collective over this one): a split
     * in which the members of {@code group} share a colour (its lowest COMM_WORLD rank, so that
     * disjoint groups passed by different processes make different communicators) and are ranked
     * by their rank in it; the others get a null communicator.
     */
    final Intracomm create(String call, SlaveRuntime rt, Group group) throws MPIException {
        int[] members = subgroup(call, rt, group);
        int key = group.indexOf(rt.environment().worldRank());
        int colour = key == MPI.UNDEFINED ? MPI.UNDEFINED : Arrays.stream(members).min().getAsInt();
        return derive(call, rt, colour, Math.max(key, 0), "CREATE");
    }

    /** The members of {@code group}, checked to be members of this communicator too (where this rank knows its members). */
    final int[] subgroup(String call, SlaveRuntime rt, Group group) throws MPIException {
        Group.check(call, group);
        int[] members = group.worldRanks();
        int[] mine = knownWorldRanks(rt);
        if (mine != null) {
            Set<Integer> here = new HashSet<>();
            for (int r : mine) {
                here.add(r);
            }
            for (int r : members) {
                if (!here.contains(r)) {
                    throw handle(MPIException.of(MPI.ERR_GROUP, call + ": the group holds COMM_WORLD rank " + r
                            + ", which is not in " + name));
                }
            }
        }
        return members;
    }

    /** A communicator made from this one: it takes this one's error handler and knows its members' COMM_WORLD ranks. */
    final <C extends Comm> C made(C c, int[] members) {
        ((Comm) c).errhandler = errhandler;
        ((Comm) c).worldRanks = members;
        return c;
    }

    // ---------------------------------------------------------------- intercommunicators (logic in Intercomm)

    /**
     * Ends this communicator (collective): as {@link #free}, since every send is buffered by the
     * master and so complete; the communicator becomes null.
     *
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void disconnect() throws MPIException {
        free();
    }

    /**
     * Makes an intercommunicator (collective over {@code localComm} and the remote group's local
     * communicator): this communicator is the peer through which the two leaders reach each other.
     *
     * @param localComm the caller's own intracommunicator, whose members form the local group
     * @param localLeader the local leader's rank in {@code localComm}
     * @param remoteLeader the remote leader's rank in this (peer) communicator; used at the local leader only
     * @param tag the tag of the leaders' messages on this communicator (0 or more)
     * @return the new intercommunicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag) throws MPIException {
        return Intercomm.create(this, localComm, localLeader, remoteLeader, tag);
    }

    /** What builds this communicator's collectives: an intercommunicator's maps them onto its two groups. */
    CollectiveBuilder builder(String call, int rank, int size) {
        return new CollectiveBuilder(call, rank, size);
    }

    /** How many ranks point-to-point calls may name: the size; an intercommunicator's remote group's. */
    int peerCount(String call, SlaveRuntime rt) throws MPIException {
        return size(call, rt);
    }

    /** Takes over what a {@code dup} of {@code parent} inherits: its attributes and hints. */
    final void inheritFrom(Comm parent) {
        attributes = parent.attributes().copyForDup();
        hints = parent.hints;
    }

    /** Sets the hints of a new communicator. */
    final void setHints(Map<String, String> given) {
        hints = given;
    }

    private Attributes attributes() {
        Attributes a = attributes;
        if (a == null) {
            synchronized (this) {
                a = attributes;
                if (a == null) {
                    a = commId == Protocol.COMM_WORLD_ID ? Attributes.forWorld() : Attributes.forComm();
                    attributes = a;
                }
            }
        }
        return a;
    }

    /** The members' COMM_WORLD ranks, or an unsupported-operation error (through this communicator's handler). */
    private int[] worldRanks(String call, SlaveRuntime rt) throws MPIException {
        int[] r = knownWorldRanks(rt);
        if (r == null) {
            throw handle(MPIException.of(MPI.ERR_UNSUPPORTED_OPERATION, call + " is not supported on " + name
                    + ": a rank does not know which ranks it holds; use the group of a dup of it"));
        }
        return r;
    }

    /** The members' COMM_WORLD ranks when this rank knows them: COMM_WORLD, COMM_SELF, communicators made here. */
    private int[] knownWorldRanks(SlaveRuntime rt) {
        if (commId == Protocol.COMM_WORLD_ID) {
            return IntStream.range(0, rt.environment().worldSize()).toArray();
        }
        if (commId == Protocol.COMM_SELF_ID) {
            return new int[] {rt.environment().worldRank()};
        }
        return worldRanks;
    }
    @Override
    public String toString() {
        return name;
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters

    // An mpiJava buffer is an array from element {@code offset}: BufferAccess.fromElement; with
    // MPI.OBJECT the elements are serialized into one byte message (ObjectCalls).

    /**
     * mpiJava 1.2: as {@link #getRank}.
     *
     * @return this rank
     * @throws MPIException as the Open MPI call
     */
    public final int Rank() throws MPIException {
        return getRank();
    }

    /**
     * mpiJava 1.2: as {@link #getSize}.
     *
     * @return the number of ranks
     * @throws MPIException as the Open MPI call
     */
    public final int Size() throws MPIException {
        return getSize();
    }

    /**
     * mpiJava 1.2: as {@link #getGroup}.
     *
     * @return the group of this communicator
     * @throws MPIException as the Open MPI call
     */
    public final Group Group() throws MPIException {
        return getGroup();
    }

    /**
     * mpiJava 1.2: as {@link #compare}.
     *
     * @param comm1 a communicator
     * @param comm2 another
     * @return {@code MPI.IDENT}, {@code CONGRUENT}, {@code SIMILAR} or {@code UNEQUAL}
     * @throws MPIException as the Open MPI call
     */
    public static int Compare(Comm comm1, Comm comm2) throws MPIException {
        return compare(comm1, comm2);
    }

    /**
     * mpiJava 1.2: as {@link #free}.
     *
     * @throws MPIException as the Open MPI call
     */
    public void Free() throws MPIException {
        free();
    }

    /**
     * mpiJava 1.2: as {@link #isNull}.
     *
     * @return whether the communicator is null
     * @throws MPIException as the Open MPI call
     */
    public final boolean Is_null() throws MPIException {
        return isNull();
    }

    /**
     * mpiJava 1.2: as {@link #isInter}.
     *
     * @return false: every communicator here is an intracommunicator
     * @throws MPIException as the Open MPI call
     */
    public final boolean Test_inter() throws MPIException {
        return isInter();
    }

    /**
     * mpiJava 1.2: as {@link #createIntercomm}, with this communicator as the peer.
     *
     * @param localComm the caller's own intracommunicator
     * @param localLeader the local leader's rank in {@code localComm}
     * @param remoteLeader the remote leader's rank in this communicator
     * @param tag the tag of the leaders' messages
     * @return the new intercommunicator
     * @throws MPIException as the Open MPI call
     */
    public final Intercomm Create_intercomm(Comm localComm, int localLeader, int remoteLeader, int tag)
            throws MPIException {
        return createIntercomm(localComm, localLeader, remoteLeader, tag);
    }

    /**
     * mpiJava 1.2: as {@link #getAttr}.
     *
     * @param keyval the key
     * @return the value, or null
     * @throws MPIException as the Open MPI call
     */
    public final Object Attr_get(int keyval) throws MPIException {
        return getAttr(keyval);
    }

    /**
     * mpiJava 1.2: as {@link #deleteAttr}.
     *
     * @param keyval the key
     * @throws MPIException as the Open MPI call
     */
    public final void Attr_delete(int keyval) throws MPIException {
        deleteAttr(keyval);
    }

    /**
     * mpiJava 1.2: as {@link #getTopology}.
     *
     * @return {@code MPI.CART}, {@code MPI.GRAPH}, {@code MPI.DIST_GRAPH} or {@code MPI.UNDEFINED}
     * @throws MPIException as the Open MPI call
     */
    public final int Topo_test() throws MPIException {
        return getTopology();
    }

    /**
     * mpiJava 1.2: as {@link #abort}.
     *
     * @param errorcode the exit status
     * @throws MPIException as the Open MPI call
     */
    public final void Abort(int errorcode) throws MPIException {
        abort(errorcode);
    }

    /**
     * mpiJava 1.2: as {@link #send}, from element {@code offset}.
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @throws MPIException as the Open MPI call
     */
    public final void Send(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        mpiJavaSend("MPI_Send", SendMode.STANDARD, buf, offset, count, type, dest, tag);
    }

    /**
     * mpiJava 1.2: as {@link #bSend}, from element {@code offset}.
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @throws MPIException as the Open MPI call
     */
    public final void Bsend(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        mpiJavaSend("MPI_Bsend", SendMode.BUFFERED, buf, offset, count, type, dest, tag);
    }

    /**
     * mpiJava 1.2: as {@link #sSend}, from element {@code offset}.
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @throws MPIException as the Open MPI call
     */
    public final void Ssend(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        mpiJavaSend("MPI_Ssend", SendMode.SYNCHRONOUS, buf, offset, count, type, dest, tag).waitFor();
    }

    /**
     * mpiJava 1.2: as {@link #rSend}, from element {@code offset}.
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @throws MPIException as the Open MPI call
     */
    public final void Rsend(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        mpiJavaSend("MPI_Rsend", SendMode.STANDARD, buf, offset, count, type, dest, tag);
    }

    /**
     * mpiJava 1.2: as {@link #iSend}, from element {@code offset} of an array (the master copies the message at once).
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @return a request that is already complete
     * @throws MPIException as the Open MPI call
     */
    public final Request Isend(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        mpiJavaSend("MPI_Isend", SendMode.STANDARD, buf, offset, count, type, dest, tag);
        return Request.completedSend();
    }

    /**
     * mpiJava 1.2: as {@link #ibSend}, from element {@code offset} of an array (the master copies the message at once).
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @return a request that is already complete
     * @throws MPIException as the Open MPI call
     */
    public final Request Ibsend(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        mpiJavaSend("MPI_Ibsend", SendMode.BUFFERED, buf, offset, count, type, dest, tag);
        return Request.completedSend();
    }

    /**
     * mpiJava 1.2: as {@link #isSend}, from element {@code offset} of an array (the master copies the message at once).
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @return a request that completes once a receive has matched the message
     * @throws MPIException as the Open MPI call
     */
    public final Request Issend(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        return mpiJavaSend("MPI_Issend", SendMode.SYNCHRONOUS, buf, offset, count, type, dest, tag);
    }

    /**
     * mpiJava 1.2: as {@link #irSend}, from element {@code offset} of an array (the master copies the message at once).
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @return a request that is already complete
     * @throws MPIException as the Open MPI call
     */
    public final Request Irsend(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        mpiJavaSend("MPI_Irsend", SendMode.STANDARD, buf, offset, count, type, dest, tag);
        return Request.completedSend();
    }

    /**
     * mpiJava 1.2: as {@link #recv}, from element {@code offset}.
     *
     * @param buf where the message lands
     * @param offset the element of {@code buf} where it starts
     * @param count the number of items {@code buf} can take from there
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param source the sender's rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag the tag, or {@code MPI.ANY_TAG}
     * @return the message's status ({@code Get_count(MPI.OBJECT)} counts objects)
     * @throws MPIException as the Open MPI call
     */
    public final Status Recv(Object buf, int offset, int count, Datatype type, int source, int tag) throws MPIException {
        String call = "MPI_Recv";
        SlaveRuntime rt = enter(call);
        return receive(call, rt, source, tag, mpiJavaSlot(call, rt, buf, offset, count, type, source, tag));
    }

    /**
     * mpiJava 1.2: as {@link #iRecv}, into an array from element {@code offset}; the message lands when a wait or test completes the request.
     *
     * @param buf where the message lands
     * @param offset the element of {@code buf} where it starts
     * @param count the number of items {@code buf} can take from there
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param source the sender's rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag the tag, or {@code MPI.ANY_TAG}
     * @return the receive's request
     * @throws MPIException as the Open MPI call
     */
    public final Request Irecv(Object buf, int offset, int count, Datatype type, int source, int tag) throws MPIException {
        String call = "MPI_Irecv";
        SlaveRuntime rt = enter(call);
        return postRecv(call, rt, source, tag, mpiJavaSlot(call, rt, buf, offset, count, type, source, tag));
    }

    /**
     * mpiJava 1.2: as {@link #sendInit}, from element {@code offset} of an array; each start sends its contents then.
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @return the inactive request
     * @throws MPIException as the Open MPI call
     */
    public final Prequest Send_init(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        enter("MPI_Send_init");
        Datatype kept = Datatype.keptByRequest(type);
        return new Prequest(this, () -> mpiJavaSend("MPI_Start", SendMode.STANDARD, buf, offset, count, kept, dest, tag));
    }

    /**
     * mpiJava 1.2: as {@link #bSendInit}, from element {@code offset} of an array; each start sends its contents then.
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @return the inactive request
     * @throws MPIException as the Open MPI call
     */
    public final Prequest Bsend_init(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        enter("MPI_Bsend_init");
        Datatype kept = Datatype.keptByRequest(type);
        return new Prequest(this, () -> mpiJavaSend("MPI_Start", SendMode.BUFFERED, buf, offset, count, kept, dest, tag));
    }

    /**
     * mpiJava 1.2: as {@link #sSendInit}, from element {@code offset} of an array; each start sends its contents then.
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @return the inactive request
     * @throws MPIException as the Open MPI call
     */
    public final Prequest Ssend_init(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        enter("MPI_Ssend_init");
        Datatype kept = Datatype.keptByRequest(type);
        return new Prequest(this, () -> mpiJavaSend("MPI_Start", SendMode.SYNCHRONOUS, buf, offset, count, kept, dest, tag));
    }

    /**
     * mpiJava 1.2: as {@link #rSendInit}, from element {@code offset} of an array; each start sends its contents then.
     *
     * @param buf the items to send
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param tag the tag
     * @return the inactive request
     * @throws MPIException as the Open MPI call
     */
    public final Prequest Rsend_init(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        enter("MPI_Rsend_init");
        Datatype kept = Datatype.keptByRequest(type);
        return new Prequest(this, () -> mpiJavaSend("MPI_Start", SendMode.STANDARD, buf, offset, count, kept, dest, tag));
    }

    /**
     * mpiJava 1.2: as {@link #recvInit}, into an array from element {@code offset}.
     *
     * @param buf where the message lands
     * @param offset the element of {@code buf} where it starts
     * @param count the number of items {@code buf} can take from there
     * @param type their datatype ({@code MPI.OBJECT}: {@code buf} is an {@code Object[]})
     * @param source the sender's rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag the tag, or {@code MPI.ANY_TAG}
     * @return the inactive request
     * @throws MPIException as the Open MPI call
     */
    public final Prequest Recv_init(Object buf, int offset, int count, Datatype type, int source, int tag) throws MPIException {
        String call = "MPI_Recv_init";
        MessageSlot slot = mpiJavaSlot(call, enter(call), buf, offset, count, type, source, tag);
        return new Prequest(this, () -> postRecv("MPI_Start", enter("MPI_Start"), source, tag, slot));
    }

    /**
     * mpiJava 1.2: as {@link #sendRecv}, with offsets.
     *
     * @param sendbuf the items to send
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param sendcount the number of items sent
     * @param sendtype their datatype
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param sendtag the tag sent
     * @param recvbuf where the message lands
     * @param recvoffset the element of {@code recvbuf} where it starts
     * @param recvcount the number of items {@code recvbuf} can take
     * @param recvtype their datatype
     * @param source the sender's rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param recvtag the tag, or {@code MPI.ANY_TAG}
     * @return the status of the message received
     * @throws MPIException as the Open MPI call
     */
    public final Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int source, int recvtag) throws MPIException {
        String call = "MPI_Sendrecv";
        SlaveRuntime rt = enter(call);
        MessageSlot slot = mpiJavaSlot(call, rt, recvbuf, recvoffset, recvcount, recvtype, source, recvtag);
        mpiJavaSend(call, SendMode.STANDARD, sendbuf, sendoffset, sendcount, sendtype, dest, sendtag);
        return receive(call, rt, source, recvtag, slot);
    }

    /**
     * mpiJava 1.2: as {@link #sendRecvReplace}, from element {@code offset}.
     *
     * @param buf the items to send, then where the message lands
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype
     * @param dest the receiver's rank, or {@code MPI.PROC_NULL}
     * @param sendtag the tag sent
     * @param source the sender's rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param recvtag the tag, or {@code MPI.ANY_TAG}
     * @return the status of the message received
     * @throws MPIException as the Open MPI call
     */
    public final Status Sendrecv_replace(Object buf, int offset, int count, Datatype type,
                                         int dest, int sendtag, int source, int recvtag) throws MPIException {
        String call = "MPI_Sendrecv_replace";
        SlaveRuntime rt = enter(call);
        MessageSlot slot = mpiJavaSlot(call, rt, buf, offset, count, type, source, recvtag);
        // The master owns a copy once the send returns, so buf is free to be overwritten.
        mpiJavaSend(call, SendMode.STANDARD, buf, offset, count, type, dest, sendtag);
        return receive(call, rt, source, recvtag, slot);
    }

    /**
     * mpiJava 1.2: as {@link #probe}.
     *
     * @param source the sender's rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag the tag, or {@code MPI.ANY_TAG}
     * @return the message's status
     * @throws MPIException as the Open MPI call
     */
    public final Status Probe(int source, int tag) throws MPIException {
        return probe(source, tag);
    }

    /**
     * mpiJava 1.2: as {@link #iProbe}: null if no message matches now.
     *
     * @param source the sender's rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag the tag, or {@code MPI.ANY_TAG}
     * @return the message's status, or null
     * @throws MPIException as the Open MPI call
     */
    public final Status Iprobe(int source, int tag) throws MPIException {
        return iProbe(source, tag);
    }

    /**
     * mpiJava 1.2: as {@link #packSize}.
     *
     * @param incount the number of items
     * @param type their datatype
     * @return the bytes they take packed
     * @throws MPIException as the Open MPI call
     */
    public final int Pack_size(int incount, Datatype type) throws MPIException {
        return packSize(incount, type);
    }

    /**
     * mpiJava 1.2: as {@link #pack}, from element {@code offset} of {@code inbuf}.
     *
     * @param inbuf the items
     * @param offset the element of {@code inbuf} where they start
     * @param incount the number of items
     * @param type their datatype
     * @param outbuf the packed bytes
     * @param position where in {@code outbuf} to write
     * @return the position after the bytes written
     * @throws MPIException as the Open MPI call
     */
    public final int Pack(Object inbuf, int offset, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        return pack(BufferAccess.fromElement(inbuf, offset), incount, type, outbuf, position);
    }

    /**
     * mpiJava 1.2: as {@link #unpack}, to element {@code offset} of {@code outbuf}.
     *
     * @param inbuf the packed bytes
     * @param position where in {@code inbuf} to read
     * @param outbuf where the items land
     * @param offset the element of {@code outbuf} where they start
     * @param outcount the number of items
     * @param type their datatype
     * @return the position after the bytes read
     * @throws MPIException as the Open MPI call
     */
    public final int Unpack(byte[] inbuf, int position, Object outbuf, int offset, int outcount, Datatype type) throws MPIException {
        return unpack(inbuf, position, BufferAccess.fromElement(outbuf, offset), outcount, type);
    }

    /** An mpiJava send: items of an array from {@code offset}, or its objects serialized. */
    private Request mpiJavaSend(String call, SendMode mode, Object buf, int offset, int count, Datatype type,
                                int dest, int tag) throws MPIException {
        Object items = BufferAccess.fromElement(buf, offset);
        int n = count;
        Datatype t = type;
        if (type == MPI.OBJECT) {
            enter(call);
            try {
                items = ObjectCalls.encode(call, buf, offset, count);
            } catch (MPIException e) {
                throw handle(e);
            }
            n = ((byte[]) items).length;
            t = MPI.BYTE;
        }
        return send(call, mode, items, n, t, dest, tag);
    }

    /** Where an mpiJava receive lands, checked: items of an array from {@code offset}, or objects. */
    private MessageSlot mpiJavaSlot(String call, SlaveRuntime rt, Object buf, int offset, int count, Datatype type,
                                    int source, int tag) throws MPIException {
        if (type != MPI.OBJECT) {
            Object items = BufferAccess.fromElement(buf, offset);
            checkRecv(call, rt, items, count, type, source, tag);
            return new Span(items, 0, count, type);
        }
        try {
            checkRank(call, rt, source, true);
            checkRecvTag(call, tag);
            return new ObjectCalls.Slot(buf, offset, count).checked(call);
        } catch (MPIException e) {
            throw handle(e);
        }
    }
}
