package io.bdmpi.master;

import io.bdmpi.ooc.ArrayStore;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Reads the data of the slave that will resume next into memory while others run, off the
 * scheduler thread. A resumed slave brings its off-heap arrays back (or loads its saved ones)
 * before its blocking call returns; with one slave running, that read and the others' computing
 * would take turns, where a serial out-of-core program overlaps them (the kernel reads ahead while
 * it computes). The scheduler names the next slave whenever it resumes one ({@link #offer}); this
 * thread asks the kernel to read that slave's files ({@link ArrayStore#readAhead}), which it does
 * in the background, so the slave finds them in the page cache.
 *
 * <p>Only the latest offer counts, and only once it has stood for {@link #SETTLE_MS}. A read that
 * would not fit the memory left to the job (see NodeMaster's freeMemory) is skipped: it would
 * evict the running slaves' data.
 */
final class ReadAhead implements AutoCloseable {

    private static final int NOBODY = -1;
    /** How long an offer must stand (no other slave named meanwhile) before the read starts. */
    private static final long SETTLE_MS = 20;

    private final Path spillDir;
    private final LongSupplier freeBytes;
    private final AtomicInteger offered = new AtomicInteger(NOBODY);
    private final Thread thread;
    private volatile boolean stopped;

    /**
     * @param spillDir  the job's spill directory, below which the slaves keep their array stores
     * @param freeBytes memory the job may still fill now
     */
    ReadAhead(Path spillDir, LongSupplier freeBytes) {
        this.spillDir = spillDir;
        this.freeBytes = freeBytes;
        this.thread = new Thread(this::loop, "bdmpi-read-ahead");
        thread.setDaemon(true);
    }

    ReadAhead start() {
        thread.start();
        return this;
    }

    /** The slave of world rank {@code worldRank} will resume next: read its data in. Called on the scheduler thread; returns at once. */
    void offer(int worldRank) {
        offered.set(worldRank);
        LockSupport.unpark(thread);
    }

    private void loop() {
        while (!stopped) {
            int rank = offered.getAndSet(NOBODY);
            if (rank == NOBODY) {
                LockSupport.park(this);
                continue;
            }
            // A slave resumed only to make its next blocking call parks again within
            // milliseconds, and its successor is offered at once: only an offer that stands
            // for a while is worth a read (else every slave would be read in at every such
            // round, evicting what the others need, e.g. their messages).
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(SETTLE_MS));
            if (stopped || offered.get() != NOBODY) {
                continue;
            }
            try {
                ArrayStore.readAhead(ArrayStore.rankDirectory(spillDir, rank), freeBytes.getAsLong());
            } catch (IOException | RuntimeException e) {
                // A read ahead only saves time: the slave reads its data itself when it resumes.
            }
        }
    }

    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(thread);
    }
}
