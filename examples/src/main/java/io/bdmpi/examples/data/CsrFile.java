package io.bdmpi.examples.data;

import io.bdmpi.examples.store.Storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * A sparse matrix in one binary file, compressed sparse row, little-endian, with 64-bit offsets so
 * that it can have any size:
 *
 * <pre>
 * offset  size          field
 *      0  8             magic "BDMPICSR"
 *      8  4             version = 1
 *     12  4             flags: bit 0 = the non-zeros have float values
 *     16  8             rows
 *     24  8             cols (below 2^31)
 *     32  8             nnz
 *     40  8             colIdxOffset (= 72)
 *     48  8             valuesOffset (0 without values)
 *     56  8             rowPtrOffset
 *     64  8             reserved, 0
 * colIdxOffset:  int32[nnz]      column of each non-zero, strictly increasing within a row
 * valuesOffset:  float32[nnz]    value of each non-zero (only with flag bit 0)
 * rowPtrOffset:  int64[rows+1]   row r's non-zeros are rowPtr[r] .. rowPtr[r+1]-1
 * </pre>
 *
 * Graphs are pattern matrices (row = source vertex, column = destination); document-term and
 * rating matrices carry values. Written by {@link CsrWriter}; this class reads it.
 */
public final class CsrFile implements AutoCloseable {

    static final byte[] MAGIC = "BDMPICSR".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int FLAG_VALUES = 1;
    static final int HEADER_BYTES = 72;
    /** Non-zeros decoded per bulk step when whole rows are read. */
    private static final int BULK = 1 << 16;

    private final Path path;
    private final FileChannel channel;
    private final long rows;
    private final long cols;
    private final long nnz;
    private final boolean hasValues;
    private final long valuesOffset;
    private final long rowPtrOffset;

    private CsrFile(Path path, FileChannel channel) throws IOException {
        this.path = path;
        this.channel = channel;
        ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        readFully(h, 0);
        h.flip();
        byte[] magic = new byte[MAGIC.length];
        h.get(magic);
        int version = h.getInt();
        int flags = h.getInt();
        if (!Arrays.equals(magic, MAGIC) || version != VERSION) {
            throw new IOException(path + " is not a CSR file of version " + VERSION);
        }
        rows = h.getLong();
        cols = h.getLong();
        nnz = h.getLong();
        long colIdxOffset = h.getLong();
        valuesOffset = h.getLong();
        rowPtrOffset = h.getLong();
        hasValues = (flags & FLAG_VALUES) != 0;
        long expected = HEADER_BYTES + nnz * Integer.BYTES + (hasValues ? nnz * Float.BYTES : 0) + (rows + 1) * Long.BYTES;
        if (colIdxOffset != HEADER_BYTES || channel.size() != expected || rows < 0 || nnz < 0) {
            throw new IOException(path + " is damaged: its header announces " + rows + " rows and " + nnz
                    + " non-zeros (" + expected + " bytes) but the file has " + channel.size() + " bytes");
        }
    }

    /** Opens {@code path} for reading and checks its header against its size. */
    public static CsrFile open(Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            return new CsrFile(path, channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Rows of the matrix. */
    public long rows() {
        return rows;
    }

    /** Columns of the matrix. */
    public long cols() {
        return cols;
    }

    /** Non-zeros of the matrix. */
    public long nnz() {
        return nnz;
    }

    /** Whether the non-zeros carry float values (else the matrix is a pattern, e.g. a graph). */
    public boolean hasValues() {
        return hasValues;
    }

    /** Offset of row {@code row}'s first non-zero; {@code rowPtr(rows)} is nnz. */
    public long rowPtr(long row) throws IOException {
        if (row < 0 || row > rows) {
            throw new IndexOutOfBoundsException("row " + row + " of " + rows);
        }
        ByteBuffer b = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        readFully(b, rowPtrOffset + row * Long.BYTES);
        return b.getLong(0);
    }

    /**
     * The first row {@code r} in {@code [0, rows]} with {@code rowPtr(r) >= target}: the boundary
     * that splits the non-zeros at {@code target}. Binary search: O(log rows) small reads.
     */
    public long rowAtNonZero(long target) throws IOException {
        long lo = 0;
        long hi = rows;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (rowPtr(mid) < target) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Row boundaries {@code b[0] = 0 <= b[1] <= ... <= b[parts] = rows} that give each part about
     * nnz/parts non-zeros: part k is rows {@code [b[k], b[k+1])}. The same for every caller.
     */
    public long[] partitionByNonZeros(int parts) throws IOException {
        long[] b = new long[parts + 1];
        for (int k = 1; k < parts; k++) {
            b[k] = Math.max(b[k - 1], rowAtNonZero(Math.floorDiv(nnz * k + parts - 1, parts)));
        }
        b[parts] = rows;
        return b;
    }

    /**
     * The end of a chunk that starts at row {@code from}: the largest {@code to <= rows} whose rows
     * {@code [from, to)} hold at most {@code maxNnz} non-zeros, but at least one row.
     */
    public long chunkEnd(long from, long maxNnz) throws IOException {
        long start = rowPtr(from);
        if (nnz - start <= maxNnz) {
            return rows;
        }
        // the first row that starts past the budget; the row before it is the last one that ends inside
        long past = rowAtNonZero(start + maxNnz + 1);
        return Math.max(from + 1, past - 1);
    }

    /**
     * The number of rows {@code [from, to)}, which a {@link CsrBlock} can hold: a program that
     * sizes its per-row arrays before it reads the block gets the same check as {@link #read}.
     *
     * @throws IllegalArgumentException if there are 2^31 - 1 rows or more
     */
    public static int blockRows(long from, long to) {
        if (to - from >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a block holds fewer than 2^31 rows: [" + from + ", " + to + ")");
        }
        return (int) (to - from);
    }

    /** Rows {@code [from, to)} with all their columns, in arrays of {@code storage}. */
    public CsrBlock read(long from, long to, Storage storage) throws IOException {
        return read(from, to, 0, (int) Math.min(Integer.MAX_VALUE, cols), storage);
    }

    /**
     * Rows {@code [from, to)} restricted to the columns {@code [colFrom, colTo)}, which keep their
     * global indices. Reads the rows' non-zeros twice (count, then fill) so that only the kept
     * ones are ever held.
     */
    public CsrBlock read(long from, long to, int colFrom, int colTo, Storage storage) throws IOException {
        return read(from, to, colFrom, colTo, null, storage);
    }

    /**
     * As {@link #read(long, long, int, int, Storage)}, but into the arrays of {@code reuse} where
     * they are large enough (a streaming reader passes its previous chunk, so that chunks of
     * similar size cost no allocation); new arrays come from {@code storage}.
     */
    public CsrBlock read(long from, long to, int colFrom, int colTo, CsrBlock reuse, Storage storage) throws IOException {
        return read(from, to, colFrom, colTo, reuse, storage, false);
    }

    /**
     * Rows {@code [from, to)} with all their columns, for a program that never writes them: a
     * storage that can map the columns and values straight from this file does ({@link
     * Storage#intsOfFile}: nothing copied, nothing to write out when the rank parks), the others
     * get copies as from {@link #read(long, long, Storage)}. Every array of the block is declared
     * {@linkplain Storage#readOnly read-only}.
     */
    public CsrBlock readOnly(long from, long to, Storage storage) throws IOException {
        CsrBlock block = read(from, to, 0, (int) Math.min(Integer.MAX_VALUE, cols), null, storage, true);
        storage.readOnly(block.rowPtr());
        storage.readOnly(block.cols());
        if (block.values() != null) {
            storage.readOnly(block.values());
        }
        return block;
    }

    /** See {@link #read(long, long, int, int, CsrBlock, Storage)}; {@code inPlace}: see {@link #readOnly}. */
    private CsrBlock read(long from, long to, int colFrom, int colTo, CsrBlock reuse, Storage storage, boolean inPlace)
            throws IOException {
        if (from < 0 || to < from || to > rows) {
            throw new IndexOutOfBoundsException("rows [" + from + ", " + to + ") of " + rows);
        }
        int n = blockRows(from, to);
        long first = rowPtr(from);
        LittleEndianInput ptrs = new LittleEndianInput(channel, rowPtrOffset + (from + 1) * Long.BYTES);
        long[] ends = new long[n];
        ptrs.getLongs(ends, n);
        Storage.Ints rowPtr = reuse != null && reuse.rowPtr().length() >= n + 1 ? reuse.rowPtr() : storage.ints("rowPtr", n + 1);
        // Built on the heap and copied in one go: element by element, a mapped array pays an index
        // check and a view lookup each.
        int[] offsets = new int[n + 1];
        boolean allCols = colFrom == 0 && colTo >= cols;
        long kept = 0;
        LittleEndianInput colIn = new LittleEndianInput(channel, HEADER_BYTES + first * Integer.BYTES);
        long at = first;
        for (int i = 0; i < n; i++) {
            if (allCols) {
                kept += ends[i] - at;
            } else {
                for (; at < ends[i]; at++) {
                    int c = colIn.getInt();
                    if (c >= colFrom && c < colTo) {
                        kept++;
                    }
                }
            }
            at = ends[i];
            if (kept > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("rows [" + from + ", " + to + ") of " + path
                        + " hold more than 2^31 non-zeros: split them into more parts");
            }
            offsets[i + 1] = (int) kept;
        }
        rowPtr.copyFrom(0, offsets, n + 1);
        if (allCols && inPlace) {
            // A storage that maps one type of array from a file maps the other too.
            Storage.Ints mapped = storage.intsOfFile("cols", path, HEADER_BYTES + first * Integer.BYTES, (int) kept);
            if (mapped != null) {
                return new CsrBlock(from, n, rowPtr, mapped,
                        hasValues ? storage.floatsOfFile("values", path, valuesOffset + first * Float.BYTES, (int) kept) : null);
            }
        }
        Storage.Ints colIdx = reuse != null && reuse.cols().length() >= kept ? reuse.cols() : storage.ints("cols", (int) kept);
        Storage.Floats values = !hasValues ? null
                : reuse != null && reuse.values() != null && reuse.values().length() >= kept ? reuse.values()
                : storage.floats("values", (int) kept);
        colIn = new LittleEndianInput(channel, HEADER_BYTES + first * Integer.BYTES);
        LittleEndianInput valueIn = hasValues ? new LittleEndianInput(channel, valuesOffset + first * Float.BYTES) : null;
        long total = n == 0 ? 0 : ends[n - 1] - first;
        if (allCols) {
            copyAll(colIn, valueIn, (int) total, colIdx, values);
            return new CsrBlock(from, n, rowPtr, colIdx, values);
        }
        int k = 0;
        for (long j = 0; j < total; j++) {
            int c = colIn.getInt();
            float v = hasValues ? valueIn.getFloat() : 0f;
            if (c >= colFrom && c < colTo) {
                colIdx.set(k, c);
                if (hasValues) {
                    values.set(k, v);
                }
                k++;
            }
        }
        return new CsrBlock(from, n, rowPtr, colIdx, values);
    }

    /** Decodes {@code total} column indices (and values) in bulk: the common case of whole rows. */
    private static void copyAll(LittleEndianInput colIn, LittleEndianInput valueIn, int total, Storage.Ints colIdx,
                                Storage.Floats values) throws IOException {
        int[] ints = new int[Math.min(BULK, total)];
        float[] floats = valueIn == null ? null : new float[ints.length];
        for (int done = 0; done < total; ) {
            int len = Math.min(ints.length, total - done);
            colIn.getInts(ints, len);
            colIdx.copyFrom(done, ints, len);
            if (valueIn != null) {
                valueIn.getFloats(floats, len);
                values.copyFrom(done, floats, len);
            }
            done += len;
        }
    }

    private void readFully(ByteBuffer b, long position) throws IOException {
        while (b.hasRemaining()) {
            int n = channel.read(b, position);
            if (n < 0) {
                throw new IOException(path + " is shorter than its header says");
            }
            position += n;
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
