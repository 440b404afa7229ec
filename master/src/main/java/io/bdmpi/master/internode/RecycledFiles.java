package io.bdmpi.master.internode;

import io.bdmpi.spill.SpillDirectory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The spill files a receiving master writes the large messages of other nodes into, reused from
 * one message to the next instead of a new file each: overwriting the cached pages of a file costs
 * 4 to 20 ms for 64 MiB on the reference VM, writing a new one 30 to 120 (page cache pages
 * allocated and charged, ext4's delayed allocation). A file is never truncated (ext4 would force
 * its data to disk); one longer than its message holds stale bytes after it, which its reader
 * never maps ({@link SpillDirectory#mapMessage}).
 *
 * <p>A file goes back to the pool only once its reader is done with it: the receiving slave
 * unmaps it and then says so ({@code SlaveRequest.ReleaseSpill}), and the scheduler thread passes
 * the name on ({@link #giveBack}, any thread, a queue). A message that is deleted instead (a
 * receive cancelled, a job's end) just takes its file out of the pool. The pool keeps at most
 * {@code maxIdleBytes} of files nobody uses (their page cache stays, up to that much); a file
 * handed back beyond that is deleted. Every file lives in the job's spill directory, which goes
 * with the job on every path.
 *
 * <p>Owned by the thread that takes files ({@link #take}: the pump's inbox); only
 * {@link #giveBack} is called from elsewhere.
 */
final class RecycledFiles {

    /** A file taken for a message: written through {@code channel}, published as {@code name}. */
    record Taken(String name, FileChannel channel) {
    }

    private final Path dir;
    private final long maxIdleBytes;
    private final Queue<String> handedBack = new ConcurrentLinkedQueue<>();
    /** The length of every file of the pool that a message holds now (not idle). */
    private final Map<String, Long> inUse = new HashMap<>();
    /** Idle files and their lengths, oldest first. */
    private final ArrayDeque<Map.Entry<String, Long>> idle = new ArrayDeque<>();
    private long idleBytes;
    /** Files made so far: the next one's number. */
    private long created;

    /** @param maxIdleBytes the most bytes of files kept while no message holds them; 0 recycles nothing */
    RecycledFiles(Path dir, long maxIdleBytes) {
        this.dir = dir;
        this.maxIdleBytes = maxIdleBytes;
    }

    /** Any thread: the reader of {@code name} has unmapped it; a name the pool did not hand out is ignored. */
    void giveBack(String name) {
        handedBack.add(name);
    }

    /**
     * A file for a message of {@code length} bytes, opened for writing at any offset: the shortest
     * idle one that holds it, else the longest idle one (it grows), else a new one.
     *
     * @throws IOException when no file can be opened or made
     */
    Taken take(long length) throws IOException {
        takeHandedBack();
        Map.Entry<String, Long> fit = null;
        Map.Entry<String, Long> longest = null;
        for (Map.Entry<String, Long> e : idle) {
            if (e.getValue() >= length && (fit == null || e.getValue() < fit.getValue())) {
                fit = e;
            }
            if (longest == null || e.getValue() > longest.getValue()) {
                longest = e;
            }
        }
        Map.Entry<String, Long> pick = fit != null ? fit : longest;
        String name;
        FileChannel channel;
        if (pick != null) {
            idle.remove(pick);
            idleBytes -= pick.getValue();
            name = pick.getKey();
            try {
                channel = FileChannel.open(dir.resolve(name), StandardOpenOption.WRITE);
            } catch (IOException gone) {
                return take(length); // deleted meanwhile (the job ends): try the next
            }
        } else {
            name = SpillDirectory.RECYCLED_PREFIX + created;
            channel = FileChannel.open(dir.resolve(name), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            created++;
        }
        inUse.put(name, Math.max(length, pick == null ? 0 : pick.getValue()));
        return new Taken(name, channel);
    }

    /** Moves the files handed back to the idle list, deleting the ones beyond {@code maxIdleBytes}. */
    private void takeHandedBack() {
        for (String name; (name = handedBack.poll()) != null; ) {
            Long length = inUse.remove(name);
            if (length == null) {
                continue;
            }
            idle.addLast(Map.entry(name, length));
            idleBytes += length;
        }
        for (Iterator<Map.Entry<String, Long>> it = idle.iterator(); it.hasNext() && idleBytes > maxIdleBytes; ) {
            Map.Entry<String, Long> e = it.next();
            it.remove();
            idleBytes -= e.getValue();
            try {
                Files.deleteIfExists(dir.resolve(e.getKey()));
            } catch (IOException ignored) {
                // The spill directory goes with the job.
            }
        }
    }
}
