package mpi;

import io.bdmpi.protocol.ElementType;

import java.util.Arrays;

/**
 * The layout of one item of a datatype, in bytes from the item's start: the contiguous runs of
 * data ("segments") in type-map order, the bounds, and the signature (the basic elements, in
 * order, by their sizes). Immutable; the constructors of MPI's derived types build new maps from
 * old ones, as MPI defines them.
 *
 * <p>A message carries each item's segments back to back (the packed form), so an item takes
 * {@link #size} bytes in a message whatever its extent, and a receive writes only the bytes the
 * segments cover: gaps keep their old values.
 */
final class TypeMap {

    /** Byte offset of each segment from the item's start (may be negative after a resize). */
    private final int[] offsets;
    /** Bytes of each segment; never 0. */
    private final int[] lengths;
    /** Lower bound and extent (ub - lb), in bytes. */
    final int lb;
    final int extent;
    /** Bounds of the data itself, ignoring resizing: first byte and one past the last. */
    final int trueLb;
    final int trueUb;
    /** Bytes of data in one item: the sum of the segment lengths. */
    final int size;
    /** The signature, run-length coded: {@code runCounts[i]} basic elements of {@code runBytes[i]} bytes each. */
    private final int[] runBytes;
    private final int[] runCounts;
    /** The one element type of every basic element of the item, or null when there are several (or none reducible). */
    final ElementType element;

    private TypeMap(int[] offsets, int[] lengths, int lb, int extent, int[] runBytes, int[] runCounts,
                    ElementType element) {
        this.offsets = offsets;
        this.lengths = lengths;
        this.lb = lb;
        this.extent = extent;
        this.runBytes = runBytes;
        this.runCounts = runCounts;
        this.element = element;
        int lo = 0;
        int hi = 0;
        long bytes = 0;
        for (int i = 0; i < offsets.length; i++) {
            lo = i == 0 ? offsets[i] : Math.min(lo, offsets[i]);
            hi = i == 0 ? offsets[i] + lengths[i] : Math.max(hi, offsets[i] + lengths[i]);
            bytes += lengths[i];
        }
        this.trueLb = lo;
        this.trueUb = hi;
        this.size = (int) bytes;
    }

    /**
     * One basic element, or an opaque block of {@code bytes} moved whole (a pair type, a Struct's
     * bytes): one segment, one element of {@code bytes} bytes.
     */
    static TypeMap basic(int bytes, ElementType element) {
        return new TypeMap(new int[] {0}, new int[] {bytes}, 0, bytes, new int[] {bytes}, new int[] {1}, element);
    }

    /** The empty map of {@code MPI.DATATYPE_NULL}. */
    static TypeMap empty() {
        return new TypeMap(new int[0], new int[0], 0, 0, new int[0], new int[0], null);
    }

    /** Whether {@code count} items are one run of {@code count * size} bytes from byte 0. */
    boolean dense() {
        return offsets.length == 1 && offsets[0] == 0 && lengths[0] == extent && lb == 0;
    }

    /** Number of segments of one item. */
    int segments() {
        return offsets.length;
    }

    int offset(int segment) {
        return offsets[segment];
    }

    int length(int segment) {
        return lengths[segment];
    }

    /**
     * Basic elements in {@code bytes} bytes of packed items, or -1 when the bytes end inside an
     * element.
     */
    long elements(long bytes) {
        if (size == 0) {
            return bytes == 0 ? 0 : -1;
        }
        long perItem = 0;
        for (int c : runCounts) {
            perItem += c;
        }
        long n = bytes / size * perItem;
        long rest = bytes % size;
        for (int i = 0; i < runBytes.length && rest > 0; i++) {
            long whole = Math.min(runCounts[i], rest / runBytes[i]);
            n += whole;
            rest -= whole * runBytes[i];
            if (whole < runCounts[i]) {
                break;
            }
        }
        return rest == 0 ? n : -1;
    }

    /**
     * Whether each basic element can change byte order on its own ("external32"): elements of 1,
     * 2, 4 or 8 bytes, none of them a pair or complex type (whose parts would swap as one).
     */
    boolean byteSwappable() {
        if (element != null) {
            return element != ElementType.NONE && !element.isPair() && !element.isComplex();
        }
        for (int bytes : runBytes) {
            if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) {
                return false;
            }
        }
        return runBytes.length > 0;
    }

    /**
     * Reverses the bytes of every whole basic element in bytes {@code [from, from + length)} of
     * {@code b}, which hold packed items from an item's start: native order to big-endian and back.
     */
    void swapElements(java.nio.ByteBuffer b, int from, int length) {
        int at = from;
        int end = from + length;
        while (at < end) {
            for (int i = 0; i < runBytes.length && at < end; i++) {
                int bytes = runBytes[i];
                int whole = (int) Math.min(runCounts[i], (end - at) / bytes);
                for (int k = 0; k < whole; k++, at += bytes) {
                    if (bytes == 2) {
                        b.putShort(at, Short.reverseBytes(b.getShort(at)));
                    } else if (bytes == 4) {
                        b.putInt(at, Integer.reverseBytes(b.getInt(at)));
                    } else if (bytes == 8) {
                        b.putLong(at, Long.reverseBytes(b.getLong(at)));
                    }
                }
                if (whole < runCounts[i]) {
                    return; // the bytes end inside this run: a short read
                }
            }
        }
    }

    // ---------------------------------------------------------------- constructors of derived types

    /**
     * Blocks of copies of {@code old}: block i has {@code blockLengths[i]} items of {@code old}, the
     * first at byte {@code displacements[i]}, the next ones an extent apart. MPI's contiguous,
     * (h)vector and (h)indexed types are all this.
     *
     * @throws MPIException ERR_COUNT when the type would be 2 GiB or more
     */
    static TypeMap blocks(String call, int[] blockLengths, long[] displacements, TypeMap old) throws MPIException {
        TypeMap[] types = new TypeMap[blockLengths.length];
        Arrays.fill(types, old);
        return struct(call, blockLengths, displacements, types);
    }

    /**
     * MPI's struct: block i has {@code blockLengths[i]} items of {@code types[i]} at byte
     * {@code displacements[i]}.
     *
     * @throws MPIException ERR_COUNT when the type would be 2 GiB or more
     */
    static TypeMap struct(String call, int[] blockLengths, long[] displacements, TypeMap[] types) throws MPIException {
        Builder b = new Builder(call);
        for (int i = 0; i < blockLengths.length; i++) {
            TypeMap t = types[i];
            for (int j = 0; j < blockLengths[i]; j++) {
                b.add(t, displacements[i] + (long) j * t.extent);
            }
            if (blockLengths[i] > 0) {
                long first = displacements[i] + t.lb;
                b.bounds(first, first + (long) blockLengths[i] * t.extent);
            }
        }
        return b.build();
    }

    /**
     * The same data with a new lower bound and extent, in bytes.
     *
     * @throws MPIException ERR_ARG for a negative extent
     */
    static TypeMap resized(String call, TypeMap old, int lb, int extent) throws MPIException {
        if (extent < 0) {
            throw MPIException.of(MPI.ERR_ARG, call + ": negative extent " + extent);
        }
        return new TypeMap(old.offsets, old.lengths, lb, extent, old.runBytes, old.runCounts, old.element);
    }

    /** A growing list of int pairs whose last pair can absorb the next one. */
    private static final class Pairs {
        int[] first = new int[8];
        int[] second = new int[8];
        int n;

        /** Adds {@code y} to the last pair's second value when {@code merge}, else appends {@code (x, y)}. */
        void add(int x, int y, boolean merge) {
            if (merge) {
                second[n - 1] += y;
                return;
            }
            if (n == first.length) {
                first = Arrays.copyOf(first, n * 2);
                second = Arrays.copyOf(second, n * 2);
            }
            first[n] = x;
            second[n++] = y;
        }
    }

    /** Collects segments (merging adjacent ones), signature runs and bounds. */
    private static final class Builder {
        private final String call;
        /** Offset and length of each segment. */
        private final Pairs segments = new Pairs();
        /** Element bytes and element count of each signature run. */
        private final Pairs runs = new Pairs();
        private long lo = Long.MAX_VALUE;
        private long hi = Long.MIN_VALUE;
        private long total;
        private ElementType element;
        private boolean mixed;

        Builder(String call) {
            this.call = call;
        }

        void add(TypeMap t, long at) throws MPIException {
            for (int s = 0; s < t.offsets.length; s++) {
                long off = at + t.offsets[s];
                total += t.lengths[s];
                if (off < Integer.MIN_VALUE || off + t.lengths[s] > Integer.MAX_VALUE || total > Integer.MAX_VALUE - 64) {
                    throw tooLarge();
                }
                int last = segments.n - 1;
                segments.add((int) off, t.lengths[s],
                        last >= 0 && segments.first[last] + segments.second[last] == off);
            }
            for (int r = 0; r < t.runBytes.length; r++) {
                runs.add(t.runBytes[r], t.runCounts[r], runs.n > 0 && runs.first[runs.n - 1] == t.runBytes[r]);
            }
            if (t.size > 0) {
                if (t.element == null || (element != null && element != t.element)) {
                    mixed = true;
                }
                element = t.element;
            }
        }

        void bounds(long first, long last) {
            lo = Math.min(lo, first);
            hi = Math.max(hi, last);
        }

        TypeMap build() throws MPIException {
            if (lo == Long.MAX_VALUE) {
                lo = 0;
                hi = 0;
            }
            if (lo < Integer.MIN_VALUE || hi > Integer.MAX_VALUE || hi - lo > Integer.MAX_VALUE) {
                throw tooLarge();
            }
            return new TypeMap(Arrays.copyOf(segments.first, segments.n), Arrays.copyOf(segments.second, segments.n),
                    (int) lo, (int) (hi - lo), Arrays.copyOf(runs.first, runs.n), Arrays.copyOf(runs.second, runs.n),
                    mixed ? null : element);
        }

        private MPIException tooLarge() {
            return MPIException.of(MPI.ERR_COUNT, call + ": the datatype would span or hold 2 GiB or more");
        }
    }
}
