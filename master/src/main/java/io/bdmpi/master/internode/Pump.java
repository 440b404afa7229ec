package io.bdmpi.master.internode;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The thread that drives every MPI call of a master. It initializes MPI, then loops: posts the
 * sends other threads queued, probes for arriving messages, tests the requests in flight, and backs
 * off while nothing happens, so an idle master does not spin a core the way a blocked
 * {@code MPI_Recv} would: it only yields while a receive is in flight (MPI moves a large message
 * only while it is called) or something arrived or was queued in the last {@link #ACTIVE_NS} (a
 * conversation is going on: parking would add its length to every round trip); with only sends in
 * flight it polls every {@link #SEND_POLL_NS}; else it parks for growing times.
 *
 * <p><b>Other threads may call MPI too</b>, one at a time ({@code MPI_THREAD_SERIALIZED}, when the
 * library provides it): a thread that queues a send posts it itself when the pump's lock is free
 * ({@link #send}), and a thread about to sleep can take small messages first ({@link #pollControl}).
 * Each thread a small message passes through costs a wake-up, and on a loaded machine a wait for
 * a core: the scheduler thread posting its own sends and catching replies while it spins takes the
 * pump out of a round trip. The lock is only ever tried by those threads, never waited for, so
 * they never wait for a transfer or a collective call of the pump's; everything this class keeps
 * (requests, lanes, the inbox's state) is touched only under it.
 *
 * <p>Messages from one source reach the {@link Inbox} in the order they were sent: a message of
 * the {@linkplain #CONTROL_TAG control tag} is received at once when it is probed (it is small, its
 * bytes are here already), so the inbox knows a header before it hands out the buffer for the data
 * that follows it; data messages complete in the background and the inbox orders them itself.
 *
 * <p>Messages of the staging tags ({@link #STAGING_TAG}, {@link #STAGING_DATA_TAG}), which the
 * masters exchange before a job starts, are never given to an inbox: a thread asks for each with
 * {@link #receive}, knowing what comes; by the time a job's inbox is set, every one has been taken.
 *
 * <p>At most {@link #DATA_WINDOW} data messages to one destination are in flight; the others wait
 * here, in order. A receiver posts a receive for every message it probes, so this bounds the
 * memory a receiving master holds for one sender, and a large payload streams through in chunks.
 */
public final class Pump implements AutoCloseable {

    /** Tag of small master-to-master messages (headers, control); everything else is bulk data. */
    public static final int CONTROL_TAG = 1;
    /** Tag of bulk data (large payloads, in chunks). */
    public static final int DATA_TAG = 2;
    /**
     * Tag of what the masters tell each other while they stage a restart's checkpoint, before the
     * job starts: taken only by {@link #receive}, never by an {@link Inbox}.
     */
    public static final int STAGING_TAG = 3;
    /** Tag of the bytes of a staged checkpoint file, in chunks like {@link #DATA_TAG}'s; taken only by {@link #receive}. */
    public static final int STAGING_DATA_TAG = 4;

    /** Data messages to one destination in flight at once: one moving, one ready to move next. */
    static final int DATA_WINDOW = 2;

    /** How long after the last transfer the pump keeps polling without parking. */
    private static final long ACTIVE_NS = TimeUnit.MILLISECONDS.toNanos(5);
    /**
     * How often a pump with only sends in flight polls. A receiver moves a large message while it
     * is called (it pulls the bytes), so a receiving pump yields between polls; a sender that
     * did the same would only take the core from the slaves that write and read the data.
     */
    private static final long SEND_POLL_NS = TimeUnit.MICROSECONDS.toNanos(200);
    /** Parks grow from the first to the longest: the worst added latency of an idle master. */
    private static final long FIRST_PARK_NS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final long LONGEST_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long {@link #close} lets queued sends finish before it gives up on them. */
    private static final long DRAIN_NS = TimeUnit.SECONDS.toNanos(10);

    /** Where arriving messages go; called on the pump thread only. */
    public interface Inbox {
        /** A direct buffer of exactly {@code count} remaining bytes to receive the message into. */
        ByteBuffer bufferFor(int source, int tag, int count);

        /** The message has arrived into the buffer {@link #bufferFor} gave. */
        void received(int source, int tag, ByteBuffer message);
    }

    /** What the pump learnt at start. */
    public record Started(int rank, int size) {
    }

    private record Outgoing(int dest, int tag, ByteBuffer bytes, Runnable onSent) {
    }

    /**
     * A request MPI is working on.
     *
     * @param bytes its buffer, referenced until the request completes (MPI holds only its address)
     * @param lane  the lane of a data send, which gets room again when it completes; else null
     */
    private record InFlight(int request, ByteBuffer bytes, Runnable onDone, DataLane lane) {
    }

    /** A {@link #receive} waiting for its message. */
    private record Directed(int source, int tag, IntFunction<ByteBuffer> bufferFor, CompletableFuture<ByteBuffer> done) {
    }

    /** One destination's data sends: how many are in flight, and the ones waiting their turn. */
    private static final class DataLane {
        final ArrayDeque<Outgoing> waiting = new ArrayDeque<>();
        int inFlight;
    }

    private final MpiLibrary mpi;
    private final Queue<Object> commands = new ConcurrentLinkedQueue<>();
    /** The {@link #receive}s waiting, in the order they were asked for. */
    private final Queue<Directed> directed = new ConcurrentLinkedQueue<>();
    /**
     * Held by whichever thread calls MPI; the pump waits for it, the others only try it. Guards
     * every field below that is not volatile, and the inbox's own state.
     */
    private final ReentrantLock lock = new ReentrantLock();
    /** Data sends per destination, for the {@link #DATA_WINDOW}. */
    private final Map<Integer, DataLane> dataLanes = new HashMap<>();
    private final List<InFlight> sends = new ArrayList<>();
    private final List<InFlight> receives = new ArrayList<>();
    private final CompletableFuture<Started> started = new CompletableFuture<>();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private final Thread thread;
    private volatile Inbox inbox;
    private volatile boolean stopping;
    private volatile Integer abortCode;
    /**
     * Whether threads other than the pump may call MPI now: the library provides
     * MPI_THREAD_SERIALIZED, and MPI is not being finalized or aborted (cleared under the lock;
     * the others check it again once they hold it).
     */
    private volatile boolean shared;
    /** When a message last arrived or was queued, by any thread: the pump stays awake for {@link #ACTIVE_NS} after. */
    private volatile long lastActivityNs;

    /** Starts the pump thread, which initializes MPI; see {@link #started()}. */
    public Pump(MpiLibrary mpi) {
        this.mpi = mpi;
        this.thread = new Thread(this::run, "bdmpi-mpi-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /** Completes with this process's rank and the number of processes once MPI is initialized (or fails). */
    public CompletableFuture<Started> started() {
        return started;
    }

    /** Where arriving messages go from now on; messages arriving before are kept in MPI until it is set. */
    public void deliverTo(Inbox target) {
        inbox = target;
        LockSupport.unpark(thread);
    }

    /**
     * Queues a send of the buffer's remaining bytes (any thread), and posts it (with any queued
     * before it) at once when MPI is free for this thread. The buffer must be direct and untouched
     * until {@code onSent} runs (on whichever thread finds the send complete: keep it short).
     */
    public void send(int dest, int tag, ByteBuffer bytes, Runnable onSent) {
        commands.add(new Outgoing(dest, tag, bytes, onSent));
        lastActivityNs = System.nanoTime();
        if (Thread.currentThread() != thread && shared && lock.tryLock()) {
            try {
                if (shared) {
                    postSends();
                }
            } finally {
                lock.unlock();
            }
        }
        // The pump tests the send to its end, and keeps polling for the answer that may follow.
        LockSupport.unpark(thread);
    }

    /**
     * Receives the next message of {@code tag} from {@code source} (any thread), outside the
     * {@link Inbox}: for the tags no inbox takes ({@link #STAGING_TAG}, {@link #STAGING_DATA_TAG}),
     * exchanged before a job's inbox is set. At most one receive per source and tag at a time.
     *
     * @param bufferFor a direct buffer of exactly the given number of remaining bytes
     * @return completes with that buffer, holding the message, once it has arrived
     */
    public CompletableFuture<ByteBuffer> receive(int source, int tag, IntFunction<ByteBuffer> bufferFor) {
        Directed d = new Directed(source, tag, bufferFor, new CompletableFuture<>());
        directed.add(d);
        lastActivityNs = System.nanoTime();
        LockSupport.unpark(thread);
        return d.done();
    }

    /**
     * Takes the small messages that have arrived, as the pump would, on the calling thread, if MPI
     * is free for it (never waits): for a thread about to sleep until something arrives, which the
     * pump would otherwise have to wake. The inbox is called on this thread then, for at most
     * {@code max} messages; data messages are left to the pump (their completion may wait for the
     * disk). Never called on the pump thread.
     *
     * @return whether a message arrived
     */
    public boolean pollControl(int max) {
        Inbox target = inbox;
        if (target == null || !shared || !lock.tryLock()) {
            return false;
        }
        try {
            if (!shared) {
                return false;
            }
            postSends();
            int taken = 0;
            MpiLibrary.Probed m;
            while (taken < max && (m = mpi.iprobe(MpiLibrary.ANY_SOURCE, CONTROL_TAG, MpiLibrary.COMM_WORLD)) != null) {
                receiveControl(target, m);
                taken++;
            }
            if (taken > 0) {
                lastActivityNs = System.nanoTime();
            }
            return taken > 0;
        } finally {
            lock.unlock();
        }
    }

    /** Whether a message was queued or arrived in the last {@link #ACTIVE_NS} (any thread). */
    public boolean active() {
        return System.nanoTime() - lastActivityNs < ACTIVE_NS;
    }

    /** Runs {@code task} on the pump thread, between polls (for calls such as a communicator split). */
    public void execute(Consumer<MpiLibrary> task) {
        commands.add(task);
        LockSupport.unpark(thread);
    }

    /**
     * Ends every process of the MPI job with {@code code} (MPI_Abort), from the pump thread. For
     * when the masters cannot agree to stop (one died, or does not answer).
     */
    public void abort(int code) {
        abortCode = code;
        stopping = true;
        LockSupport.unpark(thread);
    }

    /**
     * Lets queued sends finish (bounded), then finalizes MPI and ends the thread. Every master of
     * the job must close, as MPI_Finalize is collective.
     */
    @Override
    public void close() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            stopped.get(DRAIN_NS + TimeUnit.SECONDS.toNanos(20), TimeUnit.NANOSECONDS);
        } catch (Exception e) {
            System.err.println("bdmpiexec: the MPI pump did not stop: " + e);
        }
    }

    private void run() {
        lock.lock();
        try {
            shared = mpi.init();
            started.complete(new Started(mpi.rank(MpiLibrary.COMM_WORLD), mpi.size(MpiLibrary.COMM_WORLD)));
        } catch (RuntimeException | Error e) {
            started.completeExceptionally(e);
            stopped.complete(null);
            return;
        } finally {
            lock.unlock();
        }
        try {
            lastActivityNs = System.nanoTime();
            int parks = 0;
            long drainDeadline = 0;
            while (true) {
                boolean receiving;
                boolean sending;
                lock.lock();
                try {
                    if (abortCode != null) {
                        shared = false;
                        mpi.abort(abortCode);
                        return;
                    }
                    // A finished send alone is no sign that anything comes back soon: it is not activity.
                    boolean active = postCommands();
                    active |= probe();
                    active |= probeDirected();
                    active |= complete(receives);
                    complete(sends);
                    if (stopping && commands.isEmpty()) {
                        if (sends.isEmpty()) {
                            break;
                        }
                        if (drainDeadline == 0) {
                            drainDeadline = System.nanoTime() + DRAIN_NS;
                        } else if (System.nanoTime() - drainDeadline > 0) {
                            System.err.println("bdmpiexec: " + sends.size() + " message(s) to other masters not delivered at exit");
                            break;
                        }
                    }
                    if (active) {
                        lastActivityNs = System.nanoTime();
                    }
                    receiving = !receives.isEmpty();
                    sending = !sends.isEmpty();
                } finally {
                    lock.unlock();
                }
                long now = System.nanoTime();
                if (receiving || now - lastActivityNs < ACTIVE_NS) {
                    parks = 0;
                    Thread.yield();
                } else if (sending) {
                    parks = 0;
                    LockSupport.parkNanos(SEND_POLL_NS);
                } else {
                    LockSupport.parkNanos(Math.min(LONGEST_PARK_NS, FIRST_PARK_NS << Math.min(parks++, 10)));
                }
            }
            lock.lock();
            try {
                shared = false; // no other thread calls MPI from here on
                for (InFlight r : receives) {
                    mpi.cancel(r.request());
                    while (!mpi.test(r.request())) {
                        Thread.onSpinWait();
                    }
                }
                mpi.finish();
            } finally {
                lock.unlock();
            }
        } catch (RuntimeException | Error e) {
            System.err.println("bdmpiexec: MPI failed on this master: " + e.getMessage());
            shared = false;
            mpi.abort(1);
        } finally {
            stopped.complete(null);
        }
    }

    /** Posts what is queued, in order, and runs the tasks (pump thread, under the lock). */
    @SuppressWarnings("unchecked")
    private boolean postCommands() {
        boolean any = false;
        for (Object c; (c = commands.poll()) != null; ) {
            any = true;
            if (c instanceof Outgoing o) {
                post(o);
            } else {
                ((Consumer<MpiLibrary>) c).accept(mpi);
            }
        }
        return any;
    }

    /**
     * Posts the queued sends up to the first task, which is left for the pump thread (any thread,
     * under the lock: the holder is the queue's only consumer, so what it peeks is what it polls).
     */
    private void postSends() {
        while (commands.peek() instanceof Outgoing) {
            post((Outgoing) commands.poll());
        }
    }

    private void post(Outgoing o) {
        if (o.tag() != DATA_TAG && o.tag() != STAGING_DATA_TAG) {
            post(o, null);
        } else {
            DataLane lane = dataLanes.computeIfAbsent(o.dest(), d -> new DataLane());
            lane.waiting.addLast(o);
            postWaitingData(lane);
        }
    }

    private void post(Outgoing o, DataLane lane) {
        sends.add(new InFlight(mpi.isend(o.bytes(), o.dest(), o.tag(), MpiLibrary.COMM_WORLD), o.bytes(), o.onSent(), lane));
    }

    private void postWaitingData(DataLane lane) {
        while (lane.inFlight < DATA_WINDOW && !lane.waiting.isEmpty()) {
            lane.inFlight++;
            post(lane.waiting.pollFirst(), lane);
        }
    }

    private boolean probe() {
        Inbox target = inbox;
        if (target == null) {
            return false;
        }
        boolean any = false;
        MpiLibrary.Probed m;
        while ((m = mpi.iprobe(MpiLibrary.ANY_SOURCE, MpiLibrary.ANY_TAG, MpiLibrary.COMM_WORLD)) != null) {
            any = true;
            if (m.tag() == CONTROL_TAG) {
                receiveControl(target, m);
            } else {
                ByteBuffer buffer = target.bufferFor(m.source(), m.tag(), m.count());
                int request = mpi.irecv(buffer, m.source(), m.tag(), MpiLibrary.COMM_WORLD);
                int source = m.source();
                int tag = m.tag();
                receives.add(new InFlight(request, buffer, () -> target.received(source, tag, buffer), null));
            }
        }
        return any;
    }

    /** Posts the receive of each {@link #receive} whose message has come (pump thread, under the lock). */
    private boolean probeDirected() {
        boolean any = false;
        for (Iterator<Directed> it = directed.iterator(); it.hasNext(); ) {
            Directed d = it.next();
            MpiLibrary.Probed m = mpi.iprobe(d.source(), d.tag(), MpiLibrary.COMM_WORLD);
            if (m != null) {
                it.remove();
                any = true;
                ByteBuffer buffer = d.bufferFor().apply(m.count());
                int request = mpi.irecv(buffer, d.source(), d.tag(), MpiLibrary.COMM_WORLD);
                receives.add(new InFlight(request, buffer, () -> d.done().complete(buffer), null));
            }
        }
        return any;
    }

    /** Receives a probed control message whole (its bytes are here already) and hands it to the inbox. */
    private void receiveControl(Inbox target, MpiLibrary.Probed m) {
        ByteBuffer buffer = target.bufferFor(m.source(), m.tag(), m.count());
        int request = mpi.irecv(buffer, m.source(), m.tag(), MpiLibrary.COMM_WORLD);
        while (!mpi.test(request)) {
            Thread.onSpinWait();
        }
        target.received(m.source(), m.tag(), buffer);
    }

    /**
     * Tests the requests; a finished data send makes room in its lane, whose next send is posted
     * after the walk (to {@link #sends}, which may be the list being walked).
     */
    private boolean complete(List<InFlight> requests) {
        boolean any = false;
        List<DataLane> roomMade = new ArrayList<>(0);
        for (Iterator<InFlight> it = requests.iterator(); it.hasNext(); ) {
            InFlight r = it.next();
            if (mpi.test(r.request())) {
                it.remove();
                any = true;
                if (r.onDone() != null) {
                    runQuietly(r.onDone());
                }
                if (r.lane() != null) {
                    r.lane().inFlight--;
                    roomMade.add(r.lane());
                }
            }
        }
        for (DataLane lane : roomMade) {
            postWaitingData(lane);
        }
        return any;
    }

    /** A callback that throws must not stop the pump (the other masters would hang): it is reported. */
    private static void runQuietly(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            System.err.println("bdmpiexec: after an MPI transfer: " + e);
        }
    }
}
