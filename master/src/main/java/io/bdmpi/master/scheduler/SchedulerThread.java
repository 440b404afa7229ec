package io.bdmpi.master.scheduler;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.EventTranslatorOneArg;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;
import io.bdmpi.master.slaveio.SlaveConnection;
import io.bdmpi.master.slaveio.SlaveIo;
import io.bdmpi.protocol.SlaveRequest;

import java.util.concurrent.CompletableFuture;

/**
 * The scheduler thread: the single writer that feeds the {@link Scheduler} from two sources, the
 * slaves' sockets ({@link SlaveIo}, polled here, so a request is handled on the thread that reads
 * it) and a Disruptor ring where every other thread publishes its {@link MasterEvent}s. The thread
 * waits in the sockets' selector, and a publication wakes it (the ring's wait strategy is that
 * wake-up); after each round of events it calls {@link Scheduler#onEndOfBatch}, which resumes
 * slaves into free running slots.
 *
 * <p>Why the sockets are polled here rather than by a thread of their own: a slave switch is a
 * request in and a reply out, and a hand-off between an I/O thread and the scheduler thread added
 * two thread wake-ups to it (most of its cost on a loaded machine). The rules do not change: one
 * thread owns all master state, a slave runs only when its reply says so, and at most
 * {@code nrunning} run at once ({@link Scheduler#transition} checks it).
 *
 * <p>On several nodes the same reasoning takes the MPI pump out of a small message's way: this
 * thread posts its sends to other masters itself, and while it spins it also takes what they sent
 * ({@link #alsoPoll}); the pump only wakes it for what arrives while it sleeps.
 */
public final class SchedulerThread implements SlaveIo.Listener, AutoCloseable {

    /** Events the ring holds; publishers wait when it is full. */
    static final int RING_SIZE = 16 * 1024;
    /**
     * How long the thread polls the sockets before it sleeps in the selector once a round left
     * nothing to do. The reply it just wrote resumes a slave, whose next request often follows
     * within microseconds: caught by the spin, it costs no wake-up of this thread.
     */
    static final long SPIN_NS = 20_000;
    /**
     * How long the thread keeps polling, yielding the core in between, while messages go to and
     * come from other nodes: an answer from another node takes longer than {@link #SPIN_NS}, and
     * caught here it costs neither the MPI pump's hand-off nor this thread's wake-up.
     */
    static final long REMOTE_SPIN_NS = 1_000_000;

    private static final EventTranslatorOneArg<Slot, MasterEvent> PUBLISH = (slot, seq, event) -> slot.event = event;

    /** A ring slot; cleared after use so a big payload does not stay reachable. */
    private static final class Slot {
        MasterEvent event;
    }

    private final RingBuffer<Slot> ring;
    private final EventPoller<Slot> poller;
    private final CompletableFuture<JobOutcome> outcome;
    private final Thread thread;
    private final EventPoller.Handler<Slot> handler = (slot, sequence, endOfBatch) -> {
        MasterEvent event = slot.event;
        slot.event = null;
        handle(event);
        return true;
    };
    private volatile SlaveIo io;
    /** Takes what other nodes' masters sent, on this thread ({@link #alsoPoll}); null on one node. */
    private volatile RemoteArrivals remote;
    private Scheduler scheduler;
    private volatile boolean halted;

    /**
     * @param outcome completed with a failure when the scheduler throws: the job must not hang
     */
    public SchedulerThread(CompletableFuture<JobOutcome> outcome) {
        this.outcome = outcome;
        this.ring = RingBuffer.createMultiProducer(Slot::new, RING_SIZE, new WakeTheSelector());
        this.poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
        this.thread = new Thread(this::loop, "bdmpi-scheduler");
        thread.setDaemon(true);
    }

    /** Hands {@code event} to the scheduler thread; any thread. Waits while the ring is full. */
    public void publish(MasterEvent event) {
        ring.publishEvent(PUBLISH, event);
    }

    /** Hands {@code event} to the scheduler thread if the ring has room; whether it did. Never waits. */
    public boolean tryPublish(MasterEvent event) {
        return ring.tryPublishEvent(PUBLISH, event);
    }

    /** Starts feeding {@code scheduler} from {@code io}'s sockets and from the ring (events published before wait for it). */
    public void start(SlaveIo io, Scheduler scheduler) {
        this.scheduler = scheduler;
        this.io = io;
        thread.start();
    }

    /**
     * What other nodes' masters send, as this thread takes it itself: a reply caught while this
     * thread spins needs no wake-up by the MPI pump (on a loaded machine, a wait for a core).
     */
    public interface RemoteArrivals {
        /**
         * Takes what arrived, if MPI is free for this thread (never waits), publishing a bounded
         * number of events to this thread's ring ({@code Internode.POLLED_ARRIVALS_MAX}).
         *
         * @return whether anything arrived
         */
        boolean poll();

        /** Whether messages went to or came from other nodes lately, so that more may come soon. */
        boolean conversing();
    }

    /**
     * Polls {@code arrivals} too while this thread spins before it sleeps, and keeps spinning (and
     * yielding the core) for as long as a conversation with other nodes goes on. Polled only while
     * the ring has room for many times what one poll may publish, as this thread cannot wait for
     * room in its own ring.
     */
    public void alsoPoll(RemoteArrivals arrivals) {
        remote = arrivals;
    }

    private void loop() {
        SlaveIo sockets = io;
        while (!halted) {
            boolean busy = drainRing();
            busy |= sockets.poll(0);
            if (!busy) {
                busy = spin(sockets) || sockets.poll(SlaveIo.UNTIL_READY);
            }
            busy |= drainRing();
            if (busy && !halted) {
                try {
                    scheduler.onEndOfBatch();
                } catch (RuntimeException | Error e) {
                    failed(e);
                }
            }
        }
    }

    /** Handles every event published to the ring so far; whether there was any. */
    private boolean drainRing() {
        try {
            return poller.poll(handler) == EventPoller.PollState.PROCESSING;
        } catch (Exception e) {
            failed(e); // handle() catches what the scheduler throws: this is the ring's own failure
            return false;
        }
    }

    /**
     * Polls the sockets (and other nodes, see {@link #alsoPoll}) without sleeping for up to
     * {@link #SPIN_NS}, then, while a conversation with other nodes goes on, up to
     * {@link #REMOTE_SPIN_NS} more, yielding the core between polls; whether anything came.
     */
    private boolean spin(SlaveIo sockets) {
        long start = System.nanoTime();
        long now;
        do {
            Thread.onSpinWait();
            if (sockets.poll(0) || drainRing() || pollRemote()) {
                return true;
            }
            now = System.nanoTime();
        } while (now - start < SPIN_NS && !halted);
        RemoteArrivals arrivals = remote;
        while (arrivals != null && now - start < REMOTE_SPIN_NS && !halted && arrivals.conversing()) {
            Thread.yield();
            if (sockets.poll(0) || drainRing() || pollRemote()) {
                return true;
            }
            now = System.nanoTime();
        }
        return false;
    }

    private boolean pollRemote() {
        RemoteArrivals arrivals = remote;
        return arrivals != null && ring.remainingCapacity() > RING_SIZE / 2 && arrivals.poll();
    }

    private void handle(MasterEvent event) {
        try {
            scheduler.onEvent(event);
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    /** A scheduler that throws would leave the job hanging: fail it instead. */
    private void failed(Throwable e) {
        e.printStackTrace();
        outcome.complete(JobOutcome.failed(1, "internal error in the master scheduler: " + e));
    }

    @Override
    public void requestArrived(SlaveConnection connection, SlaveRequest request) {
        handle(new MasterEvent.RequestArrived(connection, request));
    }

    @Override
    public void connectionLost(SlaveConnection connection, String reason) {
        handle(new MasterEvent.ConnectionLost(connection, reason));
    }

    @Override
    public void stop(String reason) {
        handle(new MasterEvent.StopRequested(reason, 1));
    }

    /** Stops the thread (after the round it is in) and waits for it; the sockets stay open. */
    @Override
    public void close() {
        halted = true;
        SlaveIo sockets = io;
        if (sockets != null) {
            sockets.wakeup();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The ring's wait strategy: nobody waits on the ring itself (the scheduler thread polls it), so a
     * publication only has to wake the selector the thread may sleep in.
     */
    private final class WakeTheSelector implements WaitStrategy {
        @Override
        public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier) {
            throw new UnsupportedOperationException("the scheduler thread polls the ring; nothing waits on it");
        }

        @Override
        public void signalAllWhenBlocking() {
            SlaveIo sockets = io;
            if (sockets != null) {
                sockets.wakeup();
            }
        }
    }
}
