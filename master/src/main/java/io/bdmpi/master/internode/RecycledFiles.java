package io.bdmpi.master.internode;

import io.bdmpi.spill.SpillDirectory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The spill files a receiving master writes the large messages of other nodes into, reused from
 * one message to the next instead of a new file each: overwriting the cached pages of a file costs
 * 4 to 20 ms for 64 MiB on the reference VM, writing a new one 30 to 120 (page cache pages
 * allocated and charged, ext4's delayed allocation). A file is never truncated (ext4 would force
 * its data to disk); one longer than its message holds stale bytes after it, which its reader
 * never maps ({@link SpillDirectory#mapMessage}).
 *
 * <p>A file goes back to the pool only once its reader is done with it: the receiving slave
 * unmaps it (or drops the message unread) and then says so ({@code SlaveRequest.ReleaseSpill}),
 * and the scheduler thread passes the name on ({@link #giveBack}). The pool keeps at most
 * {@code maxIdleBytes} of files nobody uses (their page cache stays, up to that much); the files
 * beyond it leave the pool as they are handed back, for the master's file deleter. A file a
 * message still holds when the job ends goes with the job's spill directory, on every path.
 *
 * <p>Shared by the pump's inbox ({@link #take}) and the scheduler thread ({@link #giveBack}) under
 * its lock: one call of each per large message, never on a path of small ones.
 */
final class RecycledFiles {

    /** A file taken for a message: written through {@code channel}, published as {@code name}. */
    record Taken(String name, FileChannel channel) {
    }

    private final Path dir;
    private final long maxIdleBytes;
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

    /**
     * The reader of {@code name} has unmapped it: it becomes idle. Returns the idle files now beyond
     * {@code maxIdleBytes}, oldest first, which leave the pool and which the caller deletes (so the
     * bound holds while no new message comes, and the deletion is off the caller's own path). A name
     * the pool did not hand out, or handed back already, changes nothing.
     */
    synchronized List<String> giveBack(String name) {
        Long length = inUse.remove(name);
        if (length == null) {
            return List.of();
        }
        idle.addLast(Map.entry(name, length));
        idleBytes += length;
        List<String> beyond = new ArrayList<>();
        while (idleBytes > maxIdleBytes) {
            Map.Entry<String, Long> oldest = idle.removeFirst();
            idleBytes -= oldest.getValue();
            beyond.add(oldest.getKey());
        }
        return beyond;
    }

    /**
     * A file for a message of {@code length} bytes, opened for writing at any offset: the shortest
     * idle one that holds it, else the longest idle one (it grows), else a new one.
     *
     * @throws IOException when no file can be opened or made
     */
    synchronized Taken take(long length) throws IOException {
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
}
