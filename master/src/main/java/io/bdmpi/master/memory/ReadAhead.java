package io.bdmpi.master.memory;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.Libc;
import io.bdmpi.protocol.Payload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Reads the data of the slave that will resume next into memory while others run, off the
 * scheduler thread. A resumed slave reads the spilled messages and collective results it collects
 * and brings its off-heap arrays back (or loads its saved ones) before its blocking call returns;
 * with one slave running, those reads and the others' computing would take turns, where a serial
 * out-of-core program overlaps them (the kernel reads ahead while it computes). The scheduler names
 * the next slave whenever it resumes one ({@link #offer}); this thread asks the kernel to read that
 * slave's spilled data and its files ({@link ArrayStore#readAhead}), which it does in the
 * background, so the slave finds them in the page cache.
 *
 * <p>Only the latest offer counts, and only once it has stood for {@link #SETTLE_MS}. A read that
 * would not fit the memory left to the job (see NodeMaster's freeMemory) is skipped: it would
 * evict the running slaves' data. An offer wakes this thread only when it waits for one: fast
 * switches (a ping-pong at {@code -nr 1} names a slave at every switch) must not wake a thread
 * each time, as that wake-up costs as much as the switch itself.
 */
public final class ReadAhead implements AutoCloseable {

    /** How long an offer must stand (no other slave named meanwhile) before the read starts. */
    private static final long SETTLE_MS = 20;

    /** The slave named, and the spilled data it will collect. */
    private record Offer(int worldRank, List<Payload> spilled) {
    }

    private final Path spillDir;
    private final LongSupplier freeBytes;
    private final AtomicReference<Offer> offered = new AtomicReference<>();
    private final Thread thread;
    /** The thread is parked until an offer comes (not settling one). */
    private volatile boolean idle;
    private volatile boolean stopped;

    /**
     * @param spillDir  the job's spill directory, which holds the spill files and, below it, the
     *                  slaves' array stores
     * @param freeBytes memory the job may still fill now
     */
    public ReadAhead(Path spillDir, LongSupplier freeBytes) {
        this.spillDir = spillDir;
        this.freeBytes = freeBytes;
        this.thread = new Thread(this::loop, "bdmpi-read-ahead");
        thread.setDaemon(true);
    }

    public ReadAhead start() {
        thread.start();
        return this;
    }

    /**
     * The slave of world rank {@code worldRank} will resume next and collect {@code spilled}
     * (spill files or parts of them): read them and its arrays in. Called on the scheduler thread;
     * returns at once.
     */
    public void offer(int worldRank, List<Payload> spilled) {
        offered.set(new Offer(worldRank, List.copyOf(spilled)));
        if (idle) {
            LockSupport.unpark(thread);
        }
    }

    private void loop() {
        while (!stopped) {
            Offer offer = offered.getAndSet(null);
            if (offer == null) {
                idle = true;
                if (offered.get() == null && !stopped) { // an offer made before idle was set did not unpark
                    LockSupport.park(this);
                }
                idle = false;
                continue;
            }
            // A slave resumed only to make its next blocking call parks again within
            // milliseconds, and its successor is offered at once: only an offer that stands
            // for a while is worth a read (else every slave would be read in at every such
            // round, evicting what the others need, e.g. their messages).
            long settled = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MS);
            long left;
            while (!stopped && (left = settled - System.nanoTime()) > 0) {
                LockSupport.parkNanos(this, left);
            }
            if (stopped || offered.get() != null) {
                continue;
            }
            try {
                long free = freeBytes.getAsLong();
                long spilled = offer.spilled().stream().mapToLong(Payload::length).sum();
                // First what the slave reads first: what it collects, inside its blocking call.
                if (spilled <= free) {
                    readSpilled(offer.spilled());
                    free -= spilled;
                }
                ArrayStore.readAhead(ArrayStore.rankDirectory(spillDir, offer.worldRank()), free);
            } catch (IOException | RuntimeException e) {
                // A read ahead only saves time: the slave reads its data itself when it resumes.
            }
        }
    }

    /** Asks the kernel to read the spilled payloads in; a file deleted meanwhile is skipped. */
    private void readSpilled(List<Payload> spilled) throws IOException {
        for (Payload p : spilled) {
            if (p instanceof Payload.Slice s) {
                Libc.willNeed(spillDir.resolve(s.fileName()), s.offset(), s.length());
            } else if (p instanceof Payload.Spilled s) {
                Libc.willNeed(spillDir.resolve(s.fileName()), 0, s.length());
            }
        }
    }

    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(thread);
    }
}
