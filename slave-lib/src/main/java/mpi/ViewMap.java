package mpi;

import java.io.IOException;

/**
 * A file view as byte arithmetic: the bytes a view makes visible form one stream (the filetype's
 * segments, tile after tile from the displacement), and an access of {@code n} bytes from stream
 * byte {@code p} (a view-relative offset in etypes times the etype's size) is a list of file byte
 * ranges. Every access of {@link File} goes through {@link #forEachRange}.
 */
final class ViewMap {

    /** The default view: every byte of the file, from byte 0. */
    static final ViewMap BYTES = new ViewMap(0, 1, MPI.BYTE.map);

    /** What to do with one file byte range. */
    @FunctionalInterface
    interface Range {
        /**
         * Moves {@code length} bytes at file byte {@code filePos}, which are bytes
         * {@code streamOffset ...} of the access.
         *
         * @return bytes moved; fewer than {@code length} ends the access (end of file)
         */
        int apply(long filePos, int streamOffset, int length) throws IOException;
    }

    final long disp;
    final int etypeSize;
    private final TypeMap filetype;
    /** The filetype covers every byte of its extent from byte 0: the view is one run from {@code disp}. */
    private final boolean dense;

    ViewMap(long disp, int etypeSize, TypeMap filetype) {
        this.disp = disp;
        this.etypeSize = etypeSize;
        this.filetype = filetype;
        this.dense = filetype.dense();
    }

    /**
     * Calls {@code range} for each file byte range of the {@code n} stream bytes from {@code p},
     * in stream order, until one moves fewer bytes than asked.
     *
     * @return bytes moved
     */
    long forEachRange(long p, int n, Range range) throws IOException {
        if (n == 0) {
            return 0;
        }
        if (dense) {
            return range.apply(disp + p, 0, n);
        }
        long tile = p / filetype.size;
        long skip = p % filetype.size;
        int s = 0;
        while (skip >= filetype.length(s)) {
            skip -= filetype.length(s++);
        }
        long done = 0;
        while (done < n) {
            long pos = disp + tile * filetype.extent + filetype.offset(s) + skip;
            int length = (int) Math.min(filetype.length(s) - skip, n - done);
            int moved = range.apply(pos, (int) done, length);
            done += moved;
            if (moved < length) {
                break;
            }
            skip = 0;
            if (++s == filetype.segments()) {
                s = 0;
                tile++;
            }
        }
        return done;
    }

    /**
     * Whether stream bytes {@code [0, end)} all lie at file bytes a {@code long} holds: the map is
     * monotonic, so the last one decides. Past that, file positions would wrap around (to the
     * file's start, say), so an access there must be refused before it is made.
     */
    boolean reaches(long end) {
        if (end <= 0) {
            return true;
        }
        long last = end - 1;
        try {
            if (dense) {
                Math.addExact(disp, last);
                return true;
            }
            long skip = last % filetype.size;
            int s = 0;
            while (skip >= filetype.length(s)) {
                skip -= filetype.length(s++);
            }
            long tileStart = Math.addExact(disp, Math.multiplyExact(last / filetype.size, (long) filetype.extent));
            Math.addExact(tileStart, filetype.offset(s) + skip);
            return true;
        } catch (ArithmeticException e) {
            return false;
        }
    }

    /** The file byte of stream byte {@code p}. */
    long fileByte(long p) {
        long[] at = {disp + p};
        try {
            forEachRange(p, 1, (pos, off, len) -> {
                at[0] = pos;
                return len;
            });
        } catch (IOException impossible) {
            throw new IllegalStateException(impossible);
        }
        return at[0];
    }

    /** Stream bytes that lie before file byte {@code fileByte}. */
    long visibleBefore(long fileByte) {
        long rel = fileByte - disp;
        if (rel <= 0) {
            return 0;
        }
        if (dense) {
            return rel;
        }
        long tiles = rel / filetype.extent;
        long rest = rel % filetype.extent;
        long visible = tiles * filetype.size;
        for (int s = 0; s < filetype.segments(); s++) {
            visible += Math.max(0, Math.min(filetype.length(s), rest - filetype.offset(s)));
        }
        return visible;
    }
}
