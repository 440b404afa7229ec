package mpi;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.ByteArray;
import io.bdmpi.ooc.Libc;
import io.bdmpi.ooc.Residency;
import io.bdmpi.ooc.Unmapper;
import io.bdmpi.protocol.WindowRegions;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory attached to a dynamic window: this rank's regions, published in its
 * {@link WindowRegions} file for the members and the master of its node, and the regions of the
 * other members of its node, read from theirs. A displacement is a byte offset into the
 * concatenation of a rank's regions in attach order; a detached region leaves a hole.
 *
 * <p>Like a window over the program's own buffer, a region over a plain direct buffer has a
 * public copy, an off-heap array of this rank's store, into which the buffer is copied at attach
 * and at the synchronizations that publish it, and out of which others' updates are copied back
 * ({@link #reconcile}); a buffer that already is such a mapping is used in place. Used by the one
 * thread that uses the window.
 */
final class WinRegions implements AutoCloseable {

    /** A region this rank attached: its buffer, and the array holding its public copy (null when used in place). */
    private record Own(Buffer base, long address, int index, String array, ByteBuffer publicCopy) {
    }

    /** Every member's regions file (those of other nodes are named for their master). */
    private final Path[] files;
    private final int self;
    private final String arrayPrefix;
    private final Residency residency;
    private final List<WindowRegions.Region> mine = new ArrayList<>();
    private final List<Own> owns = new ArrayList<>();
    private int next;
    private int made;
    /** Mappings of regions, by file, offset and size, unmapped at close. */
    private final Map<String, ByteBuffer> maps = new HashMap<>();

    WinRegions(Path[] files, int self, String arrayPrefix, Residency residency) {
        this.files = files;
        this.self = self;
        this.arrayPrefix = arrayPrefix;
        this.residency = residency;
    }

    /** Rank {@code rank}'s regions file. */
    Path file(int rank) {
        return files[rank];
    }

    /** Attaches {@code bytes} of {@code base} after the regions attached so far, and publishes it. */
    void attach(String call, Buffer base, int bytes) throws MPIException {
        long address = Libc.address(base);
        for (Own o : owns) {
            if (o.address() == address) {
                throw MPIException.of(MPI.ERR_RMA_ATTACH, call + ": the buffer is attached already");
            }
        }
        if ((long) next + bytes > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_SIZE, call + ": the regions of one rank span at most " + Integer.MAX_VALUE
                    + " bytes (displacements are ints)");
        }
        String array = null;
        try {
            ArrayStore store = Session.runtime().arrays();
            ArrayStore.Location in = bytes == 0 ? null : store.locate(base, bytes);
            WindowRegions.Region region;
            ByteBuffer publicCopy = null;
            if (bytes == 0) {
                region = new WindowRegions.Region(next, 0, "", 0);
            } else if (in != null) {
                region = new WindowRegions.Region(next, bytes, in.file().toString(), in.offset());
            } else {
                array = arrayPrefix + (made++);
                ByteArray a = store.bytes(array, bytes, residency);
                publicCopy = WinMemory.view(a);
                BufferAccess.pack(base, bytes, MPI.BYTE, publicCopy.duplicate().clear());
                region = new WindowRegions.Region(next, bytes, a.file().toString(), 0);
            }
            mine.add(region);
            owns.add(new Own(base, address, mine.size() - 1, array, publicCopy));
            next += bytes;
            WindowRegions.write(files[self], mine);
        } catch (IOException e) {
            delete(array);
            throw MPIException.of(MPI.ERR_NO_MEM, call + ": cannot attach " + bytes + " bytes: " + e.getMessage());
        }
    }

    /** Detaches the region attached over {@code base}: its displacements become a hole. */
    void detach(String call, Buffer base) throws MPIException {
        long address = Libc.address(base);
        for (int i = 0; i < owns.size(); i++) {
            Own o = owns.get(i);
            if (o.address() == address) {
                WindowRegions.Region r = mine.get(o.index());
                mine.set(o.index(), new WindowRegions.Region(r.start(), r.bytes(), null, 0));
                owns.remove(i);
                try {
                    WindowRegions.write(files[self], mine);
                } catch (IOException e) {
                    throw MPIException.of(MPI.ERR_WIN, call + ": cannot publish the detach: " + e.getMessage());
                }
                unmap(r);
                delete(o.array());
                return;
            }
        }
        throw MPIException.of(MPI.ERR_RMA_ATTACH, call + ": the buffer is not attached to the window");
    }

    /**
     * A view of the bytes of rank {@code rank}'s memory from displacement {@code lo} on (index 0 at
     * {@code lo}), if one region holds {@code [lo, hi)}; else null. Another rank's regions are read
     * afresh from its file, so an attach or detach counts from the synchronization after it.
     */
    ByteBuffer view(int rank, long lo, long hi) throws IOException {
        List<WindowRegions.Region> regions = rank == self ? mine : WindowRegions.read(files[rank]);
        WindowRegions.Region r = WindowRegions.find(regions, lo, hi);
        if (r == null) {
            return null;
        }
        if (r.bytes() == 0) {
            return ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder());
        }
        String key = key(r);
        ByteBuffer m = maps.get(key);
        if (m == null) {
            try (FileChannel ch = FileChannel.open(Path.of(r.path()), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                m = ch.map(FileChannel.MapMode.READ_WRITE, r.offset(), r.bytes());
            }
            maps.put(key, m);
        }
        return m.duplicate().position((int) (lo - r.start())).slice().order(ByteOrder.nativeOrder());
    }

    /** Whether some region keeps a private copy (a buffer that is not a mapping). */
    boolean keepsPrivateCopies() {
        for (Own o : owns) {
            if (o.publicCopy() != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * One synchronization of the regions over plain buffers: their public copies go into the
     * buffers if others changed them ({@code updated}); else, if {@code publish}, the buffers go
     * into the public copies (see {@code Win.reconcile}).
     */
    void reconcile(boolean updated, boolean publish) {
        for (Own o : owns) {
            if (o.publicCopy() == null) {
                continue;
            }
            if (updated) {
                BufferAccess.unpack(o.publicCopy().duplicate().clear(), o.base(), MPI.BYTE);
            } else if (publish) {
                BufferAccess.pack(o.base(), o.publicCopy().capacity(), MPI.BYTE, o.publicCopy().duplicate().clear());
            }
        }
    }

    /** Unmaps every region, deletes this rank's arrays and regions file. */
    @Override
    public void close() {
        for (ByteBuffer m : maps.values()) {
            Unmapper.unmap(m);
        }
        maps.clear();
        for (Own o : owns) {
            delete(o.array());
        }
        owns.clear();
        try {
            Files.deleteIfExists(files[self]);
        } catch (IOException e) {
            // It goes with the job's work directory.
        }
    }

    private void unmap(WindowRegions.Region r) {
        ByteBuffer m = maps.remove(key(r));
        if (m != null) {
            Unmapper.unmap(m);
        }
    }

    private static String key(WindowRegions.Region r) {
        return r.path() + "@" + r.offset() + "+" + r.bytes();
    }

    private static void delete(String array) {
        if (array != null) {
            try {
                Session.runtime().arrays().delete(array);
            } catch (IOException | MPIException e) {
                // Its file goes with the job's work directory.
            }
        }
    }
}
