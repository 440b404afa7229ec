package io.bdmpi.master.memory;

import io.bdmpi.ooc.ArrayStore;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * For {@code -nr auto}: measures, off the scheduler thread, the node's memory budget and every
 * slave's footprint every {@value #PERIOD_MS} ms, and hands each reading to the scheduler (as a
 * MemorySampled event on its ring), whose RunningController decides from it.
 * Only started under {@code -nr auto}.
 *
 * <p>Sources: RssAnon and RssShmem of /proc/PID/status (the slave's heap and the JVM's own), the
 * size of the slave's off-heap arrays (the files of its store), the master's own
 * /proc/self/status, and the budget: the job's --memory-limit, else MemAvailable of /proc/meminfo
 * plus the anonymous memory the job holds (which MemAvailable no longer counts).
 */
public final class MemorySampler implements AutoCloseable {

    /** Time between two readings. */
    static final long PERIOD_MS = 250;

    private final long[] pids;
    private final Path[] storeDirs;
    private final long limitBytes;
    private final Consumer<MemorySample> publish;
    private final Thread thread;
    private volatile boolean stopped;

    /**
     * @param pids       the slaves' pids, by local index
     * @param worldRanks their world ranks (which name their array stores), by local index
     * @param spillDir   the job's spill directory, below which the slaves keep their array stores
     * @param limitBytes the job's --memory-limit on this node, or 0 for none
     * @param publish    puts a reading on the scheduler's ring
     */
    public MemorySampler(long[] pids, int[] worldRanks, Path spillDir, long limitBytes, Consumer<MemorySample> publish) {
        this.pids = pids.clone();
        this.storeDirs = new Path[pids.length];
        for (int i = 0; i < pids.length; i++) {
            storeDirs[i] = ArrayStore.rankDirectory(spillDir, worldRanks[i]);
        }
        this.limitBytes = limitBytes;
        this.publish = publish;
        this.thread = new Thread(this::loop, "bdmpi-memory");
        thread.setDaemon(true);
    }

    public MemorySampler start() {
        thread.start();
        return this;
    }

    private void loop() {
        while (!stopped) {
            try {
                publish.accept(sample());
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                // /proc unreadable for the master itself: no reading this time; the count stays.
            }
        }
    }

    /** One reading of the budget, the master and every slave. */
    MemorySample sample() throws IOException {
        long[] anon = new long[pids.length];
        long[] data = new long[pids.length];
        long held = anonymous(ProcMemory.status(ProcessHandle.current().pid(), "RssAnon", "RssShmem"));
        long master = held;
        for (int i = 0; i < pids.length; i++) {
            try {
                anon[i] = anonymous(ProcMemory.status(pids[i], "RssAnon", "RssShmem"));
                data[i] = arrayBytes(storeDirs[i]);
                held += anon[i];
            } catch (IOException | RuntimeException ended) {
                anon[i] = -1;
                data[i] = -1;
            }
        }
        long budget = limitBytes > 0 ? limitBytes : ProcMemory.meminfo("MemAvailable")[0] + held;
        return new MemorySample(budget, limitBytes > 0, master, anon, data);
    }

    /** The size of the off-heap arrays in a slave's store, views of other files included. */
    private static long arrayBytes(Path storeDir) throws IOException {
        return ArrayStore.arrayRanges(storeDir).stream().mapToLong(ArrayStore.View::length).sum();
    }

    private static long anonymous(long[] rssAnonAndShmem) {
        return rssAnonAndShmem[0] + rssAnonAndShmem[1];
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}
