package mpi;

import io.bdmpi.ooc.ByteArray;
import io.bdmpi.ooc.Unmapper;
import io.bdmpi.protocol.WindowControl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

/**
 * The memory of one window as this rank sees it: the segments of the members of its node and the
 * node's control block of the window, each a shared mapping of a file in the node's work
 * directory for the job (removed with the job). A put is a copy into the target's mapping,
 * complete when it returns, and the pages of a parked owner can leave memory like its off-heap
 * arrays. The segments of other nodes' members are never mapped here: {@link Win} sends the
 * operations on them to their node's master, which maps them.
 *
 * <p>The control block ({@link WindowControl}) holds, per member, the lock word that makes the
 * accumulate operations on that member's segment atomic (a spin lock across processes, which the
 * node's master also takes to apply another node's accumulates: a holder makes no MPI call while
 * it holds it, so it is never parked with it), and the flag "updated by another rank since the
 * owner last reconciled", which a window over the program's own buffer needs at its
 * synchronization points.
 *
 * <p>Used by the one thread that uses the window.
 */
final class WinMemory implements AutoCloseable {

    /** Control bytes per member (see {@link WindowControl}). */
    static final int SLOT_BYTES = WindowControl.SLOT_BYTES;
    /** Spins before the wait for an atomic lock starts yielding the core, then sleeping. */
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long SLEEP_NS = 20_000;
    /** Sleeps (about a millisecond of waiting) between two polls of the master. */
    private static final int STALL_SLEEPS = 50;

    /**
     * Where a member's segment lives.
     *
     * @param path     the file, or "" for a member with no memory
     * @param offset   byte offset of the segment in the file
     * @param bytes    size of the segment
     * @param dispUnit bytes per target displacement
     * @param control  the window's control file on the member's node
     */
    record Segment(String path, long offset, int bytes, int dispUnit, String control) {

        /** The descriptor every member sends the others. */
        String encode() {
            return path + "\n" + offset + "\n" + bytes + "\n" + dispUnit + "\n" + control;
        }

        static Segment decode(String s) {
            String[] f = s.split("\n", -1);
            return new Segment(f[0], Long.parseLong(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]), f[4]);
        }
    }

    private final Segment[] segments;
    private final int self;
    /** The members' mappings, made on first use; this rank's own comes from its store or its buffer. */
    private final ByteBuffer[] maps;
    /** Whether maps[r] is a mapping of this class's own, to unmap on close. */
    private final boolean[] ownMapping;
    /** Typed as the VarHandle's coordinate (ByteBuffer), so that its calls are exact. */
    private final ByteBuffer control;

    /**
     * @param own the view of this rank's own segment (its off-heap array's mapping), or null to map it
     */
    WinMemory(Path controlFile, Segment[] segments, int self, ByteBuffer own) throws IOException {
        this.segments = segments;
        this.self = self;
        this.maps = new ByteBuffer[segments.length];
        this.ownMapping = new boolean[segments.length];
        try (FileChannel ch = FileChannel.open(controlFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            this.control = ch.map(FileChannel.MapMode.READ_WRITE, 0, (long) SLOT_BYTES * segments.length);
        }
        if (own != null) {
            maps[self] = own.duplicate().clear().order(ByteOrder.nativeOrder());
        }
    }

    /** Makes the control file of a window of {@code members} members: zeros, every lock free. */
    static void createControl(Path file, int members) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(1), (long) SLOT_BYTES * members - 1);
        }
    }

    /** The view of a segment the library made: an off-heap byte array of at most one mapping. */
    static ByteBuffer view(ByteArray array) {
        return array.chunkCount() == 0 ? ByteBuffer.allocateDirect(0) : array.chunkView(0);
    }

    Segment segment(int rank) {
        return segments[rank];
    }

    int members() {
        return segments.length;
    }

    /** Rank {@code rank}'s segment, mapped on first use: a native-order view of all of it, position 0. */
    ByteBuffer memory(int rank) throws IOException {
        ByteBuffer m = maps[rank];
        if (m == null) {
            Segment s = segments[rank];
            if (s.bytes() == 0) {
                m = ByteBuffer.allocateDirect(0);
            } else {
                try (FileChannel ch = FileChannel.open(Path.of(s.path()), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    m = ch.map(FileChannel.MapMode.READ_WRITE, s.offset(), s.bytes());
                }
                ownMapping[rank] = true;
            }
            m.order(ByteOrder.nativeOrder());
            maps[rank] = m;
        }
        return m.duplicate().clear().order(ByteOrder.nativeOrder());
    }

    /**
     * Takes the lock that makes accumulates on {@code rank}'s segment atomic; waits while another
     * rank holds it. The holder makes no MPI call while it holds the lock, but the master may have
     * stopped it (it ran past the quantum) or another rank may hold the running slot it needs:
     * every {@link #STALL_SLEEPS} sleeps the waiter calls {@code stalled}, a poll of the master
     * that gives its slot up when others wait for one.
     */
    void lockAtomic(int rank, Runnable stalled) {
        for (int i = 0; !WindowControl.tryLock(control, rank, self + 1); i++) {
            if (i < SPINS) {
                Thread.onSpinWait();
            } else if (i < SPINS + YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(SLEEP_NS);
                if ((i - SPINS - YIELDS) % STALL_SLEEPS == STALL_SLEEPS - 1) {
                    stalled.run();
                }
            }
        }
    }

    void unlockAtomic(int rank) {
        WindowControl.unlock(control, rank);
    }

    /** Notes that another rank changed {@code rank}'s segment (a window over the program's buffer pulls it in). */
    void markUpdated(int rank) {
        WindowControl.markUpdated(control, rank);
    }

    /** Whether this rank's segment was changed by others since the last call; clears the flag. */
    boolean takeUpdated() {
        return WindowControl.takeUpdated(control, self);
    }

    /** Unmaps what this class mapped; the owners' files stay until the window is freed. */
    @Override
    public void close() {
        for (int r = 0; r < maps.length; r++) {
            if (ownMapping[r]) {
                Unmapper.unmap(maps[r]);
            }
            maps[r] = null;
        }
        Unmapper.unmap(control);
    }
}
