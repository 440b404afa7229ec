package mpi;

import io.bdmpi.slave.CollectiveResult;
import io.bdmpi.slave.Completed;
import io.bdmpi.slave.Received;
import io.bdmpi.slave.SendMatched;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A nonblocking operation.
 *
 * <p>A send request is complete when created: the master owns the message; a synchronous send's
 * request ({@link Comm#isSend}) waits, like a receive's, for its outcome: the master's word that a
 * receive has matched the message. A receive request is
 * posted to the master at once and matched there in posting order; a nonblocking collective hands
 * the master its part at once. Their outcomes are fetched by the wait and test calls: each asks
 * the master, in one round trip, for the outcomes of all the requests it names that have none yet
 * (receives and collectives alike), and copies every one that comes into its request's buffers
 * right away. The request is then <em>ready</em> but still active: a wait or test call
 * completes it as MPI sees it (testAll, say, only when all are ready), and a completed request
 * becomes a null request in place, so arrays passed to the static calls can be passed again.
 *
 * <p>A neighbourhood collective is one request over several receives, one per in-neighbour
 * ({@link #all}): it is ready once every one of them is.
 *
 * <p>Errors found when the outcome came (truncation) are raised, through the error handler of
 * the operation's communicator, when the request completes.
 *
 * <p>Not thread-safe: a request belongs to one thread at a time ({@code THREAD_SERIALIZED}).
 */
public class Request implements Freeable {

    /**
     * What a pending request does with the outcome the master hands over: copy a message or a
     * collective's result into the program's buffers.
     */
    interface Landing {

        /**
         * Takes the outcome in.
         *
         * @param call the wait or test call that collected it, for messages
         * @return the operation's status
         * @throws MPIException an error to raise when the request completes
         */
        Status land(String call, Completed outcome) throws MPIException;

        /**
         * Whether the master may be asked to withdraw the operation: receives and synchronous
         * sends may (the master withdraws receives only), collectives not.
         */
        boolean cancellable();
    }

    /** One operation at the master: its id, where its outcome goes, and whether that has come. */
    private static final class Part {
        final long id;
        final Landing landing;
        boolean arrived;

        Part(long id, Landing landing) {
            this.id = id;
            this.landing = landing;
        }
    }

    private static final Part[] NO_PARTS = new Part[0];

    /** The operation's communicator; null for requests complete from the start. */
    private final Comm comm;
    /** The operations at the master this request waits for; none for requests complete from the start. */
    private Part[] parts;
    /** How many parts have their outcome. */
    private int arrived;
    /** False once completed by a wait or test (or freed): a null request. */
    private boolean active;
    /** What the operation found, once every part is known; null while an outcome is still at the master. */
    private Status outcome;
    /** An error found when an outcome came, raised when the request completes. */
    private MPIException error;

    private Request(Comm comm, Part[] parts, boolean active, Status outcome) {
        this.comm = comm;
        this.parts = parts;
        this.active = active;
        this.outcome = outcome;
    }

    /** An inactive persistent request of {@code comm}: see {@link Prequest}. */
    Request(Comm comm) {
        this(comm, NO_PARTS, false, null);
    }

    private Request(Comm comm, long id, Landing landing) {
        this(comm, new Part[] {new Part(id, landing)}, true, null);
    }

    /** Takes over the operations {@code started} began, as a persistent request's start does. */
    final void adopt(Request started) {
        parts = started.parts;
        arrived = started.arrived;
        active = true;
        outcome = started.outcome;
        error = started.error;
    }

    /** Whether an operation is under way: started and not completed by a wait or test yet. */
    final boolean isActive() {
        return active;
    }

    /**
     * A request complete from the start, on {@code comm}, with {@code outcome}; {@code error}, if
     * not null, is raised when a wait or test completes it.
     */
    static Request completed(Comm comm, Status outcome, MPIException error) {
        Request r = new Request(comm, NO_PARTS, true, outcome);
        r.error = error;
        return r;
    }

    static Request nullRequest() {
        return new Request(null, NO_PARTS, false, null);
    }

    static Request completedSend() {
        return new Request(null, NO_PARTS, true, Status.empty());
    }

    static Request completedProcNull() {
        return new Request(null, NO_PARTS, true, Status.procNull());
    }

    /**
     * One request over the parts of {@code requests} (fresh, untouched receives): a neighbourhood
     * collective, ready once every receive is, with an empty status. It cannot be cancelled.
     */
    static Request all(Comm comm, List<Request> requests) {
        List<Part> all = new ArrayList<>();
        for (Request r : requests) {
            all.addAll(List.of(r.parts));
        }
        return new Request(comm, all.toArray(NO_PARTS), true, all.isEmpty() ? Status.empty() : null);
    }

    /** A posted receive; its message lands in {@code slot} (whose buffer the request keeps alive). */
    static Request receive(Comm comm, long id, MessageSlot slot) {
        return new Request(comm, id, new Landing() {
            @Override
            public Status land(String call, Completed outcome) throws MPIException {
                if (!(outcome instanceof Received m)) {
                    throw unexpected(call, outcome);
                }
                return slot.take(call, m);
            }

            @Override
            public boolean cancellable() {
                return true;
            }
        });
    }

    /** A started nonblocking collective; its result lands where {@code collective} says. */
    static Request collective(Comm comm, long id, CollectiveCall collective) {
        return new Request(comm, id, new Landing() {
            @Override
            public Status land(String call, Completed outcome) throws MPIException {
                if (!(outcome instanceof CollectiveResult r)) {
                    throw unexpected(collective.name, outcome);
                }
                collective.place(r);
                return Status.empty();
            }

            @Override
            public boolean cancellable() {
                return false;
            }
        });
    }

    /** A synchronous send ({@link Comm#isSend}); it completes when a receive has matched its message. */
    static Request synchronousSend(Comm comm, long id) {
        return new Request(comm, id, new Landing() {
            @Override
            public Status land(String call, Completed outcome) throws MPIException {
                if (!(outcome instanceof SendMatched)) {
                    throw unexpected("MPI_Issend", outcome);
                }
                return Status.empty();
            }

            @Override
            public boolean cancellable() {
                return true;
            }
        });
    }

    private static MPIException unexpected(String call, Completed outcome) {
        return MPIException.of(MPI.ERR_INTERN, call + ": the bdmpi master answered request " + outcome.requestId()
                + " with a " + outcome.getClass().getSimpleName());
    }

    // ---------------------------------------------------------------- one request

    /**
     * True for {@code MPI.REQUEST_NULL}, and for a request completed by a wait or test, or freed.
     *
     * @return whether the request is null
     */
    public boolean isNull() {
        return !active;
    }

    /**
     * Waits (parked) until the operation completes.
     *
     * @throws MPIException if MPI is not running, or on an error (such as {@code MPI.ERR_TRUNCATE}) under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public void waitFor() throws MPIException {
        waitStatus();
    }

    /**
     * Waits (parked) until the operation completes; the request becomes null.
     *
     * @return the status (MPI's empty status for a null or send request)
     * @throws MPIException if MPI is not running, or on an error (such as {@code MPI.ERR_TRUNCATE}) under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public Status waitStatus() throws MPIException {
        return waitStatus("MPI_Wait");
    }

    /** {@link #waitStatus()} on behalf of {@code call}: a blocking call made of nonblocking parts. */
    Status waitStatus(String call) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        if (pending()) {
            collect(call, rt, List.of(this), 1, true);
        }
        return complete();
    }

    /**
     * Whether the operation is complete; if so the request becomes null.
     *
     * @return whether the operation is complete
     * @throws MPIException if MPI is not running, or on an error (such as {@code MPI.ERR_TRUNCATE}) under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public boolean test() throws MPIException {
        return test("MPI_Test") != null;
    }

    /**
     * The status if the operation is complete (the request becomes null), else null.
     *
     * @return the status, or null
     * @throws MPIException if MPI is not running, or on an error (such as {@code MPI.ERR_TRUNCATE}) under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public Status testStatus() throws MPIException {
        return test("MPI_Test");
    }

    private Status test(String call) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        if (pending()) {
            collect(call, rt, List.of(this), 0, false);
        }
        return pending() ? null : complete();
    }

    /**
     * The status if the operation is complete, else null; unlike test, leaves the request active.
     *
     * @return the status, or null
     * @throws MPIException if MPI is not running, or on an error (such as {@code MPI.ERR_TRUNCATE}) under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public Status getStatus() throws MPIException {
        String call = "MPI_Request_get_status";
        SlaveRuntime rt = Session.enter(call);
        if (!active) {
            return Status.empty();
        }
        if (pending()) {
            collect(call, rt, List.of(this), 0, false);
        }
        return outcome;
    }

    /**
     * Withdraws a receive that no message has matched yet; its completion then reports
     * {@link Status#isCancelled()}. Does nothing to a send (the master has its message already; for
     * a pending synchronous send the cancel fails, as MPI allows) or to a receive whose message has
     * matched. The request must still be completed by a wait, test or free.
     * Cancelling a nonblocking collective is an error ({@code MPI.ERR_REQUEST}), as in MPI.
     *
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN}, {@code MPI.ERR_REQUEST} for a
     *                      nonblocking collective, or a lost master
     */
    public void cancel() throws MPIException {
        String call = "MPI_Cancel";
        SlaveRuntime rt = Session.enter(call);
        if (!pending()) {
            return;
        }
        if (!cancellable()) {
            throw comm.handle(MPIException.of(MPI.ERR_REQUEST, call + ": a nonblocking collective cannot be cancelled"));
        }
        try {
            if (rt.cancel(parts[0].id)) {
                outcome = Status.cancelledReceive();
            }
        } catch (IOException e) {
            throw comm.handle(Errors.transport(call, e));
        }
    }

    /**
     * Releases the request; it becomes null. A receive still waiting for a message stays posted,
     * as MPI asks: it takes the message it would have, which lands in its buffer at a later call
     * of this rank that asks the master for outcomes (a wait, test, receive or collective), and
     * any error is dropped. A synchronous send's match is taken in the same way. A nonblocking
     * collective is waited for (parked) first: its result must still land.
     */
    @Override
    public void free() throws MPIException {
        String call = "MPI_Request_free";
        SlaveRuntime rt = Session.enter(call);
        if (pending()) {
            if (cancellable()) {
                Part p = parts[0];
                rt.adoptFreed(p.id, c -> arrive(call, p, c));
            } else {
                collect(call, rt, List.of(this), 1, true);
            }
        }
        active = false;
        error = null;
    }

    // ---------------------------------------------------------------- arrays

    /**
     * Waits (parked) until every request completes; all become null. Elements must not be Java null.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @throws MPIException if MPI is not running, or under {@code MPI.ERRORS_RETURN} with
     *                      {@code MPI.ERR_IN_STATUS} when a request fails (its error is the cause)
     */
    public static void waitAll(Request[] requests) throws MPIException {
        waitAll("MPI_Waitall", requests);
    }

    /**
     * As {@link #waitAll}, returning one status per element (MPI's empty status for null requests).
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return the statuses
     * @throws MPIException if MPI is not running, or under {@code MPI.ERRORS_RETURN} with
     *                      {@code MPI.ERR_IN_STATUS} when a request fails (its error is the cause)
     */
    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        return waitAll("MPI_Waitall", requests);
    }

    private static Status[] waitAll(String call, Request[] requests) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        checkElements(call, requests);
        List<Request> pending = pending(requests);
        if (!pending.isEmpty()) {
            collect(call, rt, pending, Integer.MAX_VALUE, true);
        }
        return complete(call, requests, allIndices(requests), false);
    }

    /**
     * Waits (parked) until one request completes; it becomes null.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return its index, or {@code MPI.UNDEFINED} if every request is null
     * @throws MPIException if MPI is not running, or on an error (such as {@code MPI.ERR_TRUNCATE}) under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public static int waitAny(Request[] requests) throws MPIException {
        return waitAny("MPI_Waitany", requests).getIndex();
    }

    /**
     * As {@link #waitAny}, returning the status; {@link Status#getIndex()} is the index.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return the status, with the index
     * @throws MPIException if MPI is not running, or on an error (such as {@code MPI.ERR_TRUNCATE}) under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        return waitAny("MPI_Waitany", requests);
    }

    private static Status waitAny(String call, Request[] requests) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        checkElements(call, requests);
        if (!anyActive(requests)) {
            return Status.empty().withIndex(MPI.UNDEFINED);
        }
        if (readyIndices(requests).isEmpty()) {
            collect(call, rt, pending(requests), 1, true);
        }
        int i = readyIndices(requests).get(0);
        return requests[i].complete().withIndex(i);
    }

    /**
     * Whether every request is complete; if so all become null, else none changes.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return whether every request is complete
     * @throws MPIException if MPI is not running, or under {@code MPI.ERRORS_RETURN} with
     *                      {@code MPI.ERR_IN_STATUS} when a request fails (its error is the cause)
     */
    public static boolean testAll(Request[] requests) throws MPIException {
        return testAll("MPI_Testall", requests) != null;
    }

    /**
     * As {@link #testAll}, returning one status per element, or null if not all are complete.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return the statuses, or null
     * @throws MPIException if MPI is not running, or under {@code MPI.ERRORS_RETURN} with
     *                      {@code MPI.ERR_IN_STATUS} when a request fails (its error is the cause)
     */
    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        return testAll("MPI_Testall", requests);
    }

    private static Status[] testAll(String call, Request[] requests) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        checkElements(call, requests);
        List<Request> pending = pending(requests);
        if (!pending.isEmpty()) {
            collect(call, rt, pending, 0, false);
            if (!pending(requests).isEmpty()) {
                return null;
            }
        }
        return complete(call, requests, allIndices(requests), false);
    }

    /**
     * Completes one complete request, if any; it becomes null.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return its index, or {@code MPI.UNDEFINED} if none is complete or every request is null
     * @throws MPIException if MPI is not running, or on an error (such as {@code MPI.ERR_TRUNCATE}) under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public static int testAny(Request[] requests) throws MPIException {
        Status s = testAny("MPI_Testany", requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    /**
     * As {@link #testAny}, returning the status with the index, or null if none is complete. If
     * every request is null, an empty status whose index is {@code MPI.UNDEFINED}.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return the status, or null
     * @throws MPIException if MPI is not running, or on an error (such as {@code MPI.ERR_TRUNCATE}) under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public static Status testAnyStatus(Request[] requests) throws MPIException {
        return testAny("MPI_Testany", requests);
    }

    private static Status testAny(String call, Request[] requests) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        checkElements(call, requests);
        if (!anyActive(requests)) {
            return Status.empty().withIndex(MPI.UNDEFINED);
        }
        if (readyIndices(requests).isEmpty()) {
            collect(call, rt, pending(requests), 0, false);
        }
        List<Integer> ready = readyIndices(requests);
        if (ready.isEmpty()) {
            return null;
        }
        int i = ready.get(0);
        return requests[i].complete().withIndex(i);
    }

    /**
     * Waits (parked) until at least one request completes, and completes those that are.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return their indices, or null if every request is null
     * @throws MPIException if MPI is not running, or under {@code MPI.ERRORS_RETURN} with
     *                      {@code MPI.ERR_IN_STATUS} when a request fails (its error is the cause)
     */
    public static int[] waitSome(Request[] requests) throws MPIException {
        return indices(waitSome("MPI_Waitsome", requests));
    }

    /**
     * As {@link #waitSome}, returning statuses; {@link Status#getIndex()} gives each index.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return the statuses, or null if every request is null
     * @throws MPIException if MPI is not running, or under {@code MPI.ERRORS_RETURN} with
     *                      {@code MPI.ERR_IN_STATUS} when a request fails (its error is the cause)
     */
    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        return waitSome("MPI_Waitsome", requests);
    }

    private static Status[] waitSome(String call, Request[] requests) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        checkElements(call, requests);
        if (!anyActive(requests)) {
            return null;
        }
        if (readyIndices(requests).isEmpty()) {
            collect(call, rt, pending(requests), 1, true);
        }
        return complete(call, requests, readyIndices(requests), true);
    }

    /**
     * Completes the requests that are complete.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return their indices (length 0 if none), or null if every request is null
     * @throws MPIException if MPI is not running, or under {@code MPI.ERRORS_RETURN} with
     *                      {@code MPI.ERR_IN_STATUS} when a request fails (its error is the cause)
     */
    public static int[] testSome(Request[] requests) throws MPIException {
        return indices(testSome("MPI_Testsome", requests));
    }

    /**
     * As {@link #testSome}, returning statuses; {@link Status#getIndex()} gives each index.
     *
     * @param requests the requests: none may be Java null (use {@code MPI.REQUEST_NULL})
     * @return the statuses (none if no request is complete), or null if every request is null
     * @throws MPIException if MPI is not running, or under {@code MPI.ERRORS_RETURN} with
     *                      {@code MPI.ERR_IN_STATUS} when a request fails (its error is the cause)
     */
    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        return testSome("MPI_Testsome", requests);
    }

    private static Status[] testSome(String call, Request[] requests) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        checkElements(call, requests);
        if (!anyActive(requests)) {
            return null;
        }
        List<Request> pending = pending(requests);
        if (!pending.isEmpty()) {
            collect(call, rt, pending, 0, false);
        }
        return complete(call, requests, readyIndices(requests), true);
    }

    // ---------------------------------------------------------------- internals

    /** Active, and its outcome not here yet: only receives, collectives and synchronous sends are ever pending. */
    private boolean pending() {
        return active && outcome == null;
    }

    /** A single receive may be withdrawn; collectives, neighbourhood ones included, may not. */
    private boolean cancellable() {
        return parts.length == 1 && parts[0].landing.cancellable();
    }

    /** Completes as MPI sees it: the request becomes null; an error found earlier is raised now. */
    private Status complete() throws MPIException {
        if (!active) {
            return Status.empty();
        }
        active = false;
        MPIException e = error;
        error = null;
        if (e != null) {
            throw comm.handle(e);
        }
        return outcome;
    }

    /**
     * Asks the master for the outcomes of {@code pending} receives, collectives and synchronous
     * sends, and lands each in its request's buffers: in one round trip, unless a request of
     * several parts needs more.
     *
     * @param minReady with {@code block}, wait (parked) until this many of them are ready (capped
     *                 at their number)
     */
    private static void collect(String call, SlaveRuntime rt, List<Request> pending, int minReady, boolean block)
            throws MPIException {
        // Each request once, though listed twice.
        List<Request> requests = new ArrayList<>(new LinkedHashSet<>(pending));
        int wanted = Math.min(minReady, requests.size());
        do {
            // By id: each outcome names its operation.
            Map<Long, Part> byId = new LinkedHashMap<>();
            Map<Long, Request> owner = new HashMap<>();
            for (Request r : requests) {
                for (Part p : r.pending() ? r.parts : NO_PARTS) {
                    if (!p.arrived) {
                        byId.put(p.id, p);
                        owner.put(p.id, r);
                    }
                }
            }
            long[] ids = byId.keySet().stream().mapToLong(Long::longValue).toArray();
            List<Completed> got;
            try {
                got = rt.collect(ids, block ? fewestOutcomes(requests, wanted) : 0, block);
            } catch (IOException e) {
                throw pending.get(0).comm.handle(Errors.transport(call, e));
            }
            for (Completed c : got) {
                Part p = byId.get(c.requestId());
                if (p != null && !p.arrived) {
                    owner.get(c.requestId()).arrive(call, p, c);
                } else if (c instanceof Received m) {
                    m.discard(); // Not asked for: never from a correct master, but the spill file must go.
                }
            }
        } while (block && ready(requests) < wanted);
    }

    /** The fewest outcomes that can make {@code wanted} of {@code requests} ready: theirs that need fewest. */
    private static int fewestOutcomes(List<Request> requests, int wanted) {
        int more = wanted - ready(requests);
        return requests.stream().filter(Request::pending).mapToInt(r -> r.parts.length - r.arrived).sorted()
                .limit(Math.max(0, more)).sum();
    }

    private static int ready(List<Request> requests) {
        return (int) requests.stream().filter(r -> !r.pending()).count();
    }

    /** Takes in one part's outcome: into the buffers now, or an error for completion. */
    private void arrive(String call, Part p, Completed c) {
        Status status;
        try {
            status = p.landing.land(call, c);
        } catch (MPIException e) {
            error = error == null ? e : error;
            Status failed = c instanceof Received m ? Status.received(m.source(), m.tag(), m.length()) : Status.empty();
            status = failed.withError(e.getErrorClass());
        }
        p.arrived = true;
        if (++arrived == parts.length) {
            outcome = parts.length == 1 ? status
                    : error == null ? Status.empty() : Status.empty().withError(error.getErrorClass());
        }
    }

    /**
     * Completes the requests at {@code indices} for a call on several requests. All of them complete
     * even if some fail (under a fatal handler the job ends at the first failure, with its own
     * error); otherwise the call fails with {@code MPI.ERR_IN_STATUS}, as MPI's do, and says which
     * request failed first and why.
     */
    private static Status[] complete(String call, Request[] requests, List<Integer> indices, boolean withIndex)
            throws MPIException {
        Status[] out = new Status[indices.size()];
        MPIException first = null;
        int firstIndex = -1;
        int failed = 0;
        for (int k = 0; k < out.length; k++) {
            int i = indices.get(k);
            try {
                Status s = requests[i].complete();
                out[k] = withIndex ? s.withIndex(i) : s;
            } catch (MPIException e) {
                failed++;
                if (first == null) {
                    first = e;
                    firstIndex = i;
                }
            }
        }
        if (first != null) {
            MPIException inStatus = MPIException.of(MPI.ERR_IN_STATUS, call + ": " + failed + " of the requests failed;"
                    + " request " + firstIndex + ": " + first.getMessage());
            inStatus.initCause(first);
            throw inStatus;
        }
        return out;
    }

    /** Refuses a null array or element (an error of COMM_WORLD's handler). */
    static void checkElements(String call, Request[] requests) throws MPIException {
        if (requests == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_REQUEST, call + ": null request array"));
        }
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null) {
                throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_REQUEST, call + ": element " + i
                        + " of the request array is null" + (requests instanceof Prequest[] ? "" : "; use MPI.REQUEST_NULL")));
            }
        }
    }

    private static List<Request> pending(Request[] requests) {
        List<Request> out = new ArrayList<>();
        for (Request r : requests) {
            if (r.pending()) {
                out.add(r);
            }
        }
        return out;
    }

    private static boolean anyActive(Request[] requests) {
        for (Request r : requests) {
            if (r.active) {
                return true;
            }
        }
        return false;
    }

    /** Indices of the active requests whose outcome is known. */
    private static List<Integer> readyIndices(Request[] requests) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            if (requests[i].active && requests[i].outcome != null) {
                out.add(i);
            }
        }
        return out;
    }

    private static List<Integer> allIndices(Request[] requests) {
        List<Integer> out = new ArrayList<>(requests.length);
        for (int i = 0; i < requests.length; i++) {
            out.add(i);
        }
        return out;
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

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters

    /**
     * mpiJava 1.2: as {@link #waitStatus}.
     *
     * @return the operation's status
     * @throws MPIException as {@link #waitStatus}
     */
    public Status Wait() throws MPIException {
        return waitStatus();
    }

    /**
     * mpiJava 1.2: as {@link #testStatus}: null if the operation is not complete.
     *
     * @return the operation's status, or null
     * @throws MPIException as {@link #testStatus}
     */
    public Status Test() throws MPIException {
        return testStatus();
    }

    /**
     * mpiJava 1.2: as {@link #isNull}.
     *
     * @return whether the request is null
     */
    public boolean Is_null() {
        return isNull();
    }

    /**
     * mpiJava 1.2: as {@link #cancel}.
     *
     * @throws MPIException as {@link #cancel}
     */
    public void Cancel() throws MPIException {
        cancel();
    }

    /**
     * mpiJava 1.2: as {@link #free}.
     *
     * @throws MPIException as {@link #free}
     */
    public void Free() throws MPIException {
        free();
    }

    /**
     * mpiJava 1.2: as {@link #waitAnyStatus}; the request's index is in the status's {@code index}.
     *
     * @param requests the requests
     * @return the status of the one completed ({@code index} {@code MPI.UNDEFINED} if all are null)
     * @throws MPIException as {@link #waitAnyStatus}
     */
    public static Status Waitany(Request[] requests) throws MPIException {
        return waitAnyStatus(requests);
    }

    /**
     * mpiJava 1.2: as {@link #testAnyStatus}: null if none is complete.
     *
     * @param requests the requests
     * @return the status of the one completed, or null
     * @throws MPIException as {@link #testAnyStatus}
     */
    public static Status Testany(Request[] requests) throws MPIException {
        return testAnyStatus(requests);
    }

    /**
     * mpiJava 1.2: as {@link #waitAllStatus}.
     *
     * @param requests the requests
     * @return their statuses
     * @throws MPIException as {@link #waitAllStatus}
     */
    public static Status[] Waitall(Request[] requests) throws MPIException {
        return waitAllStatus(requests);
    }

    /**
     * mpiJava 1.2: as {@link #testAllStatus}: null unless all are complete.
     *
     * @param requests the requests
     * @return their statuses, or null
     * @throws MPIException as {@link #testAllStatus}
     */
    public static Status[] Testall(Request[] requests) throws MPIException {
        return testAllStatus(requests);
    }

    /**
     * mpiJava 1.2: as {@link #waitSomeStatus}.
     *
     * @param requests the requests
     * @return the statuses of those completed, each with its {@code index}
     * @throws MPIException as {@link #waitSomeStatus}
     */
    public static Status[] Waitsome(Request[] requests) throws MPIException {
        return waitSomeStatus(requests);
    }

    /**
     * mpiJava 1.2: as {@link #testSomeStatus}.
     *
     * @param requests the requests
     * @return the statuses of those completed, each with its {@code index}
     * @throws MPIException as {@link #testSomeStatus}
     */
    public static Status[] Testsome(Request[] requests) throws MPIException {
        return testSomeStatus(requests);
    }
}
