package io.bdmpi.examples.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.DELETE_ON_CLOSE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * Writes a {@linkplain CsrFile CSR file} row by row in constant memory, whatever its size: column
 * indices go straight to the file, values and row offsets to two scratch files appended at
 * {@link #finish()}. The file appears under its name only when finished (it is written as
 * {@code NAME.partial} and renamed); {@link #close()} without {@link #finish()} removes everything.
 */
public final class CsrWriter implements AutoCloseable {

    private final Path target;
    private final Path partial;
    private final long rows;
    private final long cols;
    private final boolean hasValues;
    private final FileChannel main;
    private final FileChannel valuesScratch;
    private final FileChannel rowPtrScratch;
    private final LittleEndianOutput colOut;
    private final LittleEndianOutput valueOut;
    private final LittleEndianOutput rowPtrOut;
    private long rowsWritten;
    private long nnz;
    private boolean finished;

    /**
     * @param target    the file to write; must not exist
     * @param rows      rows the file will have (each added by {@link #appendRow})
     * @param cols      columns: every column index is in [0, cols), cols < 2^31
     * @param hasValues whether each non-zero carries a float value
     */
    public CsrWriter(Path target, long rows, long cols, boolean hasValues) throws IOException {
        if (rows < 0 || cols < 0 || cols > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a CSR file has 0 or more rows and 0 to 2^31 - 1 columns, not "
                    + rows + " x " + cols);
        }
        if (Files.exists(target)) {
            throw new IOException(target + " exists already; remove it first");
        }
        this.target = target;
        this.partial = target.resolveSibling(target.getFileName() + ".partial");
        this.rows = rows;
        this.cols = cols;
        this.hasValues = hasValues;
        Path dir = target.toAbsolutePath().getParent();
        FileChannel m = null;
        FileChannel v = null;
        try {
            m = FileChannel.open(partial, CREATE_NEW, WRITE, READ);
            v = FileChannel.open(Files.createTempFile(dir, ".csr-values", ".tmp"), WRITE, READ, DELETE_ON_CLOSE);
            rowPtrScratch = FileChannel.open(Files.createTempFile(dir, ".csr-rowptr", ".tmp"), WRITE, READ,
                    DELETE_ON_CLOSE);
        } catch (IOException | RuntimeException e) {
            closeQuietly(m);
            closeQuietly(v);
            Files.deleteIfExists(partial);
            throw e;
        }
        main = m;
        valuesScratch = v;
        main.position(CsrFile.HEADER_BYTES);
        colOut = new LittleEndianOutput(main);
        valueOut = new LittleEndianOutput(valuesScratch);
        rowPtrOut = new LittleEndianOutput(rowPtrScratch);
        rowPtrOut.putLong(0);
    }

    /**
     * Adds the next row: {@code len} non-zeros with strictly increasing column indices
     * {@code colIndex[0..len)} and, if the file has values, {@code values[0..len)} (else null).
     */
    public void appendRow(int[] colIndex, float[] values, int len) throws IOException {
        if (rowsWritten == rows) {
            throw new IllegalStateException("all " + rows + " rows are written already");
        }
        if ((values != null) != hasValues) {
            throw new IllegalArgumentException(hasValues ? "this file needs values" : "this file has no values");
        }
        for (int i = 0; i < len; i++) {
            int c = colIndex[i];
            if (c < 0 || c >= cols || i > 0 && c <= colIndex[i - 1]) {
                throw new IllegalArgumentException("row " + rowsWritten + ": column " + c + " at position " + i
                        + " is outside [0, " + cols + ") or not above the previous one");
            }
            colOut.putInt(c);
            if (hasValues) {
                valueOut.putFloat(values[i]);
            }
        }
        nnz += len;
        rowsWritten++;
        rowPtrOut.putLong(nnz);
    }

    /** Completes the file and gives it its name. */
    public void finish() throws IOException {
        if (rowsWritten != rows) {
            throw new IllegalStateException(rowsWritten + " of " + rows + " rows written");
        }
        colOut.flush();
        valueOut.flush();
        rowPtrOut.flush();
        long valuesOffset = hasValues ? main.position() : 0;
        if (hasValues) {
            append(valuesScratch);
        }
        long rowPtrOffset = main.position();
        append(rowPtrScratch);
        ByteBuffer header = ByteBuffer.allocate(CsrFile.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.put(CsrFile.MAGIC).putInt(CsrFile.VERSION).putInt(hasValues ? CsrFile.FLAG_VALUES : 0)
                .putLong(rows).putLong(cols).putLong(nnz)
                .putLong(CsrFile.HEADER_BYTES).putLong(valuesOffset).putLong(rowPtrOffset).putLong(0).flip();
        while (header.hasRemaining()) {
            main.write(header, header.position()); // buffer position == file offset: the header starts at 0
        }
        main.close();
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        finished = true;
    }

    private void append(FileChannel scratch) throws IOException {
        long size = scratch.size();
        long done = 0;
        while (done < size) {
            done += scratch.transferTo(done, size - done, main);
        }
    }

    /** Releases the scratch files; removes the partial file unless {@link #finish()} succeeded. */
    @Override
    public void close() throws IOException {
        closeQuietly(valuesScratch);
        closeQuietly(rowPtrScratch);
        closeQuietly(main);
        if (!finished) {
            Files.deleteIfExists(partial);
        }
    }

    private static void closeQuietly(FileChannel c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (IOException ignored) {
            // a scratch file: nothing of value is lost, and DELETE_ON_CLOSE has unlinked it
        }
    }
}
