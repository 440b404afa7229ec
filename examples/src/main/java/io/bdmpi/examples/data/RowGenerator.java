package io.bdmpi.examples.data;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes a matrix whose rows are each a pure function of their index: chunks of rows are made on
 * {@code threads} threads and written in row order, so the file is the same for every chunk size
 * and thread count, and memory holds only {@code threads} chunks.
 */
final class RowGenerator {

    /** Makes row {@code r}. Must depend on nothing but {@code r} and fixed parameters. */
    @FunctionalInterface
    interface RowSource {
        Row row(long r);
    }

    private RowGenerator() {
    }

    static void write(Path out, long rows, long cols, boolean values, RowSource source, int chunkRows, int threads)
            throws IOException {
        if (chunkRows < 1 || threads < 1) {
            throw new IllegalArgumentException("chunk rows and threads must be at least 1");
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (CsrWriter writer = new CsrWriter(out, rows, cols, values)) {
            for (long batch = 0; batch < rows; batch += (long) chunkRows * threads) {
                List<Future<Row[]>> chunks = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long from = batch + (long) t * chunkRows;
                    long to = Math.min(rows, from + chunkRows);
                    if (from < to) {
                        chunks.add(pool.submit(() -> make(source, from, to)));
                    }
                }
                for (Future<Row[]> chunk : chunks) {
                    for (Row row : chunk.get()) {
                        writer.appendRow(row.cols(), row.values(), row.cols().length);
                    }
                }
            }
            writer.finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while generating " + out, e);
        } catch (ExecutionException e) {
            throw new IOException("generating " + out + " failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static Row[] make(RowSource source, long from, long to) {
        Row[] rows = new Row[(int) (to - from)];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = source.row(from + i);
        }
        return rows;
    }
}
