package mpi;

import io.bdmpi.slave.Received;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;
import java.nio.Buffer;

/**
 * A matched probe (MPI_Mprobe): a message taken out of matching by {@link #mProbe} or
 * {@link #imProbe}, to be received by {@link #mRecv} or {@link #imRecv} and by no other receive.
 *
 * <p>The probe receives the message from the master at once and this object holds it (a large one
 * stays in its spill file until {@code mRecv}), so no receive posted after the probe, from any
 * thread, can take it, as MPI requires. A message probed but never received is dropped with the
 * object; a second probe on a loaded object drops the first message, as in Open MPI.
 */
public final class Message {

    private Comm comm;
    private Received message;
    private boolean noProc;

    /** An empty message object: {@link #isNull()} is true. */
    public Message() {
    }

    /**
     * Whether the object holds no message: never probed, or received already.
     *
     * @return whether the object is empty
     */
    public boolean isNull() {
        return message == null && !noProc;
    }

    /**
     * Whether the object holds the "no process" message of a probe of {@code MPI.PROC_NULL}.
     *
     * @return whether this is the "no process" message
     */
    public boolean isNoProc() {
        return noProc;
    }

    /**
     * Waits (parked) until a matching message is pending, takes it out of matching and binds it here.
     *
     * @param source the sender's rank to match, {@code MPI.ANY_SOURCE}, or {@code MPI.PROC_NULL}
     * @param tag the tag to match, or {@code MPI.ANY_TAG}
     * @param comm the communicator
     * @return the message's source, tag and size
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        return probe("MPI_Mprobe", source, tag, comm, true);
    }

    /**
     * As {@link #mProbe}, without waiting: binds a matching message if one is pending now.
     *
     * @param source the sender's rank to match, {@code MPI.ANY_SOURCE}, or {@code MPI.PROC_NULL}
     * @param tag the tag to match, or {@code MPI.ANY_TAG}
     * @param comm the communicator
     * @return the message's status, or null (the object unchanged) when none matches now
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        return probe("MPI_Improbe", source, tag, comm, false);
    }

    /**
     * Receives the bound message into the start of {@code buf}; the object becomes empty.
     *
     * @param buf where the message lands: an array or a Buffer, used from its start
     * @param count the number of items {@code buf} can take
     * @param type the datatype of the items
     * @return the message's status
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} ERR_TRUNCATE for a message
     *                      longer than {@code count} items (of the communicator's handler), ERR_REQUEST for an
     *                      empty object (of COMM_WORLD's)
     */
    public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
        return receive("MPI_Mrecv", buf, count, type);
    }

    /**
     * As {@link #mRecv}, returning a request; the message is in {@code buf} on return, and the
     * request reports it (and any error, such as ERR_TRUNCATE) when a wait or test completes it.
     *
     * @param buf where the message lands: a direct Buffer, used from its start
     * @param count the number of items {@code buf} can take
     * @param type the datatype of the items
     * @return the request
     * @throws IllegalArgumentException if {@code buf} is not direct, as in Open MPI
     * @throws MPIException if MPI is not running; ERR_REQUEST for an empty object under {@code MPI.ERRORS_RETURN}
     */
    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        String call = "MPI_Imrecv";
        Session.enter(call);
        Comm.requireDirect(buf);
        Comm c = take(call);
        Received m = message;
        clear();
        if (m == null) {
            return Request.completed(c, Status.procNull(), null);
        }
        try {
            return Request.completed(c, Comm.deliver(call, m, new Span(buf, 0, count, type)), null);
        } catch (MPIException e) {
            // As a receive request: the error comes when a wait or test completes it.
            return Request.completed(c, Status.received(m.source(), m.tag(), m.length()).withError(e.getErrorClass()), e);
        }
    }

    private Status probe(String call, int source, int tag, Comm comm, boolean block) throws MPIException {
        if (comm == null) {
            Session.enter(call);
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_COMM, call + ": null communicator"));
        }
        Status s = comm.probe(call, source, tag, block);
        if (s == null) {
            return null;
        }
        drop();
        this.comm = comm;
        if (source == MPI.PROC_NULL) {
            noProc = true;
            return s;
        }
        SlaveRuntime rt = Session.runtime();
        try {
            // The first message of this source and tag is the one probed: pairs do not overtake.
            message = rt.recv(comm.commId, s.getSource(), s.getTag());
        } catch (IOException e) {
            throw comm.handle(Errors.transport(call, e));
        }
        return s;
    }

    private Status receive(String call, Object buf, int count, Datatype type) throws MPIException {
        Session.enter(call);
        Comm c = take(call);
        Received m = message;
        clear();
        if (m == null) {
            return Status.procNull();
        }
        try {
            return Comm.deliver(call, m, new Span(buf, 0, count, type));
        } catch (MPIException e) {
            throw c.handle(e);
        }
    }

    /** The communicator of the bound message; an error if there is none. */
    private Comm take(String call) throws MPIException {
        if (isNull()) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_REQUEST, call + ": no message (MPI_MESSAGE_NULL)"));
        }
        return comm;
    }

    /** Forgets a message bound earlier, deleting its spill file. */
    private void drop() {
        if (message != null) {
            message.discard();
        }
        clear();
    }

    private void clear() {
        message = null;
        noProc = false;
        comm = null;
    }
}
