package io.bdmpi.master.internode;

import io.bdmpi.ooc.Unmapper;
import io.bdmpi.spill.SpillDirectory;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
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
 * <p><b>Mapped once, received into directly.</b> The pool keeps a writable shared mapping of the
 * part of each file that earlier messages wrote, from the first message that reuses it until the
 * file leaves the pool, so MPI receives the next message straight into the file's cached pages (no
 * chunk buffer, no {@code write}, and no page faults once the mapping's pages are in place). Only
 * bytes beyond that part (a new file, or one that grows) are written through a channel: MPI
 * writing into pages that do not exist yet would fault on every page while the file system
 * allocates it, which measured ten times slower than {@code pwrite} from a reused buffer.
 *
 * <p>A file goes back to the pool only once its reader is done with it: the receiving slave
 * unmaps it (or drops the message unread) and then says so ({@code SlaveRequest.ReleaseSpill}),
 * and the scheduler thread passes the name on ({@link #giveBack}). The pool keeps at most
 * {@code maxIdleBytes} of files nobody uses (their page cache stays, up to that much, mapped in
 * the master); the files beyond it are unmapped and leave the pool as they are handed back, for
 * the master's file deleter. A file a message still holds when the job ends goes with the job's
 * spill directory, on every path, and its mapping with the master's process.
 *
 * <p>Shared by the pump's inbox ({@link #take}) and the scheduler thread ({@link #giveBack}) under
 * its lock: one call of each per large message, never on a path of small ones. A mapping is
 * unmapped only while its file is idle (or grew, once its message is done), so never while MPI
 * writes into it.
 */
final class RecycledFiles implements AutoCloseable {

    /**
     * A file taken for a message, published as {@code name}.
     *
     * @param mapped  a writable mapping of the file's first {@code mapped.capacity()} bytes, which
     *                earlier messages wrote, to receive into; null for a new file
     * @param channel for the bytes beyond {@code mapped}, written with {@code write} (the file
     *                grows there); null when the mapping holds the whole message
     */
    record Taken(String name, MappedByteBuffer mapped, FileChannel channel) {
    }

    /** A file of the pool: its length (what messages have written of it) and its mapping, once made. */
    private static final class Pooled {
        final String name;
        long length;
        MappedByteBuffer mapping;

        Pooled(String name, long length) {
            this.name = name;
            this.length = length;
        }

        void unmap() {
            if (mapping != null) {
                Unmapper.unmap(mapping);
                mapping = null;
            }
        }
    }

    private final Path dir;
    private final long maxIdleBytes;
    /** Every file of the pool that a message holds now (not idle). */
    private final Map<String, Pooled> inUse = new HashMap<>();
    /** Idle files, oldest first. */
    private final ArrayDeque<Pooled> idle = new ArrayDeque<>();
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
     * {@code maxIdleBytes}, oldest first, which leave the pool (unmapped) and which the caller
     * deletes (so the bound holds while no new message comes, and the deletion is off the caller's
     * own path). A name the pool did not hand out, or handed back already, changes nothing.
     */
    synchronized List<String> giveBack(String name) {
        Pooled file = inUse.remove(name);
        if (file == null) {
            return List.of();
        }
        if (file.mapping != null && file.mapping.capacity() < Math.min(file.length, Integer.MAX_VALUE)) {
            file.unmap(); // it grew: the next message maps all of it
        }
        idle.addLast(file);
        idleBytes += file.length;
        List<String> beyond = new ArrayList<>();
        while (idleBytes > maxIdleBytes) {
            Pooled oldest = idle.removeFirst();
            idleBytes -= oldest.length;
            oldest.unmap();
            beyond.add(oldest.name);
        }
        return beyond;
    }

    /**
     * A file for a message of {@code length} bytes: the shortest idle one that holds it, else the
     * longest idle one (it grows), else a new one.
     *
     * @throws IOException when no file can be opened, mapped or made
     */
    synchronized Taken take(long length) throws IOException {
        Pooled fit = null;
        Pooled longest = null;
        for (Pooled p : idle) {
            if (p.length >= length && (fit == null || p.length < fit.length)) {
                fit = p;
            }
            if (longest == null || p.length > longest.length) {
                longest = p;
            }
        }
        Pooled pick = fit != null ? fit : longest;
        if (pick == null) {
            String name = SpillDirectory.RECYCLED_PREFIX + created;
            FileChannel channel = FileChannel.open(dir.resolve(name), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            created++;
            inUse.put(name, new Pooled(name, length));
            return new Taken(name, null, channel);
        }
        idle.remove(pick);
        idleBytes -= pick.length;
        // Bytes beyond what can be mapped (a file that grows, or past the 2 GiB of one mapping) are written.
        boolean beyondMapping = length > Math.min(pick.length, Integer.MAX_VALUE);
        FileChannel channel = null;
        try {
            if (pick.mapping == null || beyondMapping) {
                channel = FileChannel.open(dir.resolve(pick.name), StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            if (pick.mapping == null) {
                pick.mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, Math.min(pick.length, Integer.MAX_VALUE));
            }
        } catch (IOException gone) {
            // Deleted meanwhile (the job ends): try the next.
            pick.unmap();
            if (channel != null) {
                channel.close();
            }
            return take(length);
        }
        if (!beyondMapping && channel != null) {
            channel.close();
            channel = null;
        }
        pick.length = Math.max(length, pick.length);
        inUse.put(pick.name, pick);
        return new Taken(pick.name, pick.mapping, channel);
    }

    /** Unmaps the idle files (the pump has stopped, nothing receives into them any more); the files go with the spill directory. */
    @Override
    public synchronized void close() {
        idle.forEach(Pooled::unmap);
    }
}
