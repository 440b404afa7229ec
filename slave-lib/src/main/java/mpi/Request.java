package mpi;

import io.bdmpi.slave.Received;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;
import java.nio.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A nonblocking operation. Sends are complete when created (the master owns the data). A receive
 * is posted to the master at once and matched there in posting order; its message is fetched by
 * the wait and test calls, which ask the master for all the receives they name in one request, and
 * is copied into the request's buffer as soon as it arrives. Completing a request (as MPI sees it)
 * turns it into a null request, in place.
 */
public class Request implements Freeable {

    private enum Kind {
        /** Inactive: REQUEST_NULL, or a request already completed by a wait or test. */
        NULL,
        /** A send, or a receive from PROC_NULL: complete from the start. */
        DONE,
        /** A posted receive. */
        RECV
    }

    private Kind kind;
    private final Comm comm;
    private final long id;
    private final Buffer buf;
    private final int count;
    private final Datatype type;
    /** The outcome, once the message is here or the receive was cancelled. */
    private Status status;
    /** An error found when the message arrived (e.g. truncation), raised when the request completes. */
    private MPIException error;

    private Request(Kind kind, Comm comm, long id, Buffer buf, int count, Datatype type, Status status) {
        this.kind = kind;
        this.comm = comm;
        this.id = id;
        this.buf = buf;
        this.count = count;
        this.type = type;
        this.status = status;
    }

    static Request nullRequest() {
        return new Request(Kind.NULL, null, 0, null, 0, null, null);
    }

    static Request completedSend() {
        return new Request(Kind.DONE, null, 0, null, 0, null, Status.empty(MPI.ANY_SOURCE));
    }

    static Request completedProcNull() {
        return new Request(Kind.DONE, null, 0, null, 0, null, Status.empty(MPI.PROC_NULL));
    }

    static Request receive(Comm comm, long id, Buffer buf, int count, Datatype type) {
        return new Request(Kind.RECV, comm, id, buf, count, type, null);
    }

    // ---------------------------------------------------------------- one request

    /** True once a non-persistent request has completed through a wait or test. */
    public boolean isNull() {
        return kind == Kind.NULL;
    }

    public void waitFor() throws MPIException {
        waitStatus();
    }

    public Status waitStatus() throws MPIException {
        fetch(new Request[] {this}, true, true);
        return complete();
    }

    public boolean test() throws MPIException {
        return testStatus() != null || isNull();
    }

    public Status testStatus() throws MPIException {
        fetch(new Request[] {this}, false, false);
        return hasOutcome() ? complete() : null;
    }

    /** The status if complete, without completing the request; null otherwise. */
    public Status getStatus() throws MPIException {
        MPI.runtime();
        fetch(new Request[] {this}, false, false);
        return hasOutcome() ? status : null;
    }

    /** Withdraws a receive that no message matched yet; a later wait then reports it cancelled. */
    public void cancel() throws MPIException {
        SlaveRuntime rt = MPI.runtime();
        if (kind == Kind.RECV && !hasOutcome()) {
            try {
                if (rt.cancel(id)) {
                    status = new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0, true, 0);
                }
            } catch (IOException e) {
                throw comm.handle(comm.lost("MPI_Cancel", e));
            }
        }
    }

    /** Releases the request; a pending receive is cancelled, or its message dropped if it had matched. */
    @Override
    public void free() throws MPIException {
        if (kind == Kind.RECV && !hasOutcome()) {
            cancel();
            if (!hasOutcome()) {
                fetch(new Request[] {this}, true, true);
            }
        }
        if (this != MPI.REQUEST_NULL) {
            kind = Kind.NULL;
        }
    }

    // ---------------------------------------------------------------- arrays

    public static void waitAll(Request[] requests) throws MPIException {
        waitAllStatus(requests);
    }

    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        fetch(requests, true, true);
        return completeAll(requests);
    }

    public static int waitAny(Request[] requests) throws MPIException {
        Status s = waitAnyStatus(requests);
        return s.getIndex();
    }

    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        if (allNull(requests)) {
            return Status.empty(MPI.ANY_SOURCE).withIndex(MPI.UNDEFINED);
        }
        fetch(requests, firstReady(requests) < 0, false);
        int i = firstReady(requests);
        return requests[i].complete().withIndex(i);
    }

    public static boolean testAll(Request[] requests) throws MPIException {
        return testAllStatus(requests) != null;
    }

    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        fetch(requests, false, false);
        for (Request r : requests) {
            if (!r.isNull() && !r.hasOutcome()) {
                return null;
            }
        }
        return completeAll(requests);
    }

    public static int testAny(Request[] requests) throws MPIException {
        Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    public static Status testAnyStatus(Request[] requests) throws MPIException {
        fetch(requests, false, false);
        int i = firstReady(requests);
        return i < 0 ? null : requests[i].complete().withIndex(i);
    }

    public static int[] waitSome(Request[] requests) throws MPIException {
        return indices(waitSomeStatus(requests));
    }

    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        if (allNull(requests)) {
            return null;
        }
        fetch(requests, firstReady(requests) < 0, false);
        return completeReady(requests);
    }

    public static int[] testSome(Request[] requests) throws MPIException {
        return indices(testSomeStatus(requests));
    }

    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        if (allNull(requests)) {
            return null;
        }
        fetch(requests, false, false);
        return completeReady(requests);
    }

    // ---------------------------------------------------------------- internals

    private boolean hasOutcome() {
        return kind == Kind.DONE || (kind == Kind.RECV && (status != null || error != null));
    }

    /** Completes as MPI sees it: the request becomes null; a deferred error is raised now. */
    private Status complete() throws MPIException {
        if (kind == Kind.NULL) {
            return Status.empty(MPI.ANY_SOURCE);
        }
        Status s = status;
        MPIException e = error;
        kind = Kind.NULL;
        if (e != null) {
            throw e;
        }
        return s;
    }

    /**
     * Asks the master for the messages of the receives among {@code requests} that have none yet.
     *
     * @param block   wait (parked) until enough have one
     * @param waitAll with {@code block}: until all have one; otherwise until at least one has
     */
    private static void fetch(Request[] requests, boolean block, boolean waitAll) throws MPIException {
        SlaveRuntime rt = MPI.runtime();
        List<Request> open = new ArrayList<>();
        for (Request r : requests) {
            if (r == null) {
                throw MPIException.of(MPI.ERR_REQUEST, "null element in a request array: use MPI.REQUEST_NULL");
            }
            if (r.kind == Kind.RECV && !r.hasOutcome()) {
                open.add(r);
            }
        }
        if (open.isEmpty()) {
            return;
        }
        long[] ids = new long[open.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = open.get(i).id;
        }
        int minReady = !block ? 0 : waitAll ? ids.length : 1;
        List<Received> got;
        try {
            rt.enter(block ? "MPI_Wait" : "MPI_Test");
            got = rt.collect(ids, minReady, block);
        } catch (IOException e) {
            throw open.get(0).comm.handle(open.get(0).comm.lost(block ? "MPI_Wait" : "MPI_Test", e));
        }
        for (Received m : got) {
            for (Request r : open) {
                if (r.id == m.requestId()) {
                    try {
                        r.status = r.comm.deliver("MPI_Wait", m, r.buf, r.count, r.type);
                    } catch (MPIException e) {
                        r.error = e;
                    }
                }
            }
        }
    }

    private static boolean allNull(Request[] requests) {
        for (Request r : requests) {
            if (!r.isNull()) {
                return false;
            }
        }
        return true;
    }

    private static int firstReady(Request[] requests) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i].hasOutcome()) {
                return i;
            }
        }
        return -1;
    }

    private static Status[] completeAll(Request[] requests) throws MPIException {
        Status[] out = new Status[requests.length];
        MPIException first = null;
        for (int i = 0; i < requests.length; i++) {
            try {
                out[i] = requests[i].complete();
            } catch (MPIException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    private static Status[] completeReady(Request[] requests) throws MPIException {
        List<Status> out = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            if (requests[i].hasOutcome()) {
                out.add(requests[i].complete().withIndex(i));
            }
        }
        return out.toArray(new Status[0]);
    }

    private static int[] indices(Status[] statuses) {
        if (statuses == null) {
            return null;
        }
        int[] out = new int[statuses.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = statuses[i].getIndex();
        }
        return out;
    }
}
