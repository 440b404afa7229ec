package io.bdmpi.examples.data;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * An R-MAT graph (Chakrabarti, Zhan, Faloutsos 2004) with quadrant probabilities a, b, c, d =
 * 0.57, 0.19, 0.19, 0.05 on {@code 2^scale} vertices, written as the pattern matrix of its
 * adjacency (row = source, column = destination; see {@link CsrFile}).
 *
 * <p>Edge {@code e} (0 <= e < edgeFactor * 2^scale) descends {@code scale} levels, at level l
 * choosing a quadrant with {@code Counter.unit(seed, STREAM, e * 64 + l)}. Both ends are then
 * renumbered by a {@link Permutation} of the vertices, so that vertex ids carry no degree
 * information and row blocks are balanced. Duplicate edges and self-loops are dropped, so the
 * file holds the set of distinct edges, sorted: the same for every chunk size, thread count and
 * memory budget.
 *
 * <p>Out of core: pass 1 generates chunks of edges on several threads and appends them to bucket
 * files by source-vertex range; pass 2 sorts one bucket at a time in memory and writes its rows.
 * The number of buckets follows from the memory budget (8 bytes per edge).
 *
 * @param scale      log2 of the vertex count, 1 .. 30 (vertex ids are non-negative ints)
 * @param edgeFactor edges generated per vertex, before duplicates are dropped
 * @param seed       selects the graph
 */
public record RmatGenerator(int scale, int edgeFactor, long seed) {

    static final double A = 0.57;
    static final double B = 0.19;
    static final double C = 0.19;
    private static final long STREAM_EDGE = 21;
    private static final int BUCKET_BUFFER_BYTES = 64 * 1024;

    /** Checks the parameters. */
    public RmatGenerator {
        if (scale < 1 || scale > 30 || edgeFactor < 1) {
            throw new IllegalArgumentException("scale must be 1..30 and edge factor >= 1, got " + scale + ", " + edgeFactor);
        }
    }

    /** Vertices: {@code 2^scale}. */
    public long vertices() {
        return 1L << scale;
    }

    /** Edges generated, before duplicates and self-loops are dropped. */
    public long edges() {
        return vertices() * edgeFactor;
    }

    /**
     * Writes the graph to {@code out}.
     *
     * @param chunkEdges  edges generated per task in pass 1
     * @param threads     threads of pass 1
     * @param memoryBytes memory for sorting a bucket in pass 2; sets the number of buckets
     */
    public void write(Path out, int chunkEdges, int threads, long memoryBytes) throws IOException {
        if (chunkEdges < 1 || threads < 1 || memoryBytes < 1024) {
            throw new IllegalArgumentException("chunk >= 1, threads >= 1 and memory >= 1024 bytes needed");
        }
        if (Files.exists(out)) {
            throw new IOException(out + " exists already; remove it first");
        }
        long n = vertices();
        int buckets = (int) Math.min(n, Math.max(1, (edges() * Long.BYTES + memoryBytes - 1) / memoryBytes));
        Path scratch = Files.createTempDirectory(out.toAbsolutePath().getParent(), ".rmat-buckets");
        try {
            FileChannel[] files = new FileChannel[buckets];
            try {
                for (int b = 0; b < buckets; b++) {
                    files[b] = FileChannel.open(scratch.resolve("bucket-" + b), CREATE_NEW, WRITE, READ);
                }
                distribute(files, chunkEdges, threads);
                try (CsrWriter writer = new CsrWriter(out, n, n, false)) {
                    for (int b = 0; b < buckets; b++) {
                        writeBucket(files[b], firstVertex(b, buckets), firstVertex(b + 1, buckets), writer);
                        files[b].close();
                    }
                    writer.finish();
                }
            } finally {
                for (FileChannel f : files) {
                    if (f != null) {
                        f.close();
                    }
                }
            }
        } finally {
            try (Stream<Path> left = Files.list(scratch)) {
                for (Path p : (Iterable<Path>) left::iterator) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(scratch);
        }
    }

    /** Edge {@code e} as {@code source << 32 | destination}, before renumbering. */
    long edge(long e) {
        long src = 0;
        long dst = 0;
        for (int l = 0; l < scale; l++) {
            double u = Counter.unit(seed, STREAM_EDGE, e * 64 + l);
            src <<= 1;
            dst <<= 1;
            if (u >= A + B + C) {
                src |= 1;
                dst |= 1;
            } else if (u >= A + B) {
                src |= 1;
            } else if (u >= A) {
                dst |= 1;
            }
        }
        return src << 32 | dst;
    }

    private long firstVertex(int bucket, int buckets) {
        return vertices() * bucket / buckets;
    }

    private int bucketOf(long vertex, int buckets) {
        // inverse of firstVertex: the last bucket whose first vertex is <= vertex
        int b = (int) ((vertex * buckets) / vertices());
        while (b + 1 < buckets && firstVertex(b + 1, buckets) <= vertex) {
            b++;
        }
        while (firstVertex(b, buckets) > vertex) {
            b--;
        }
        return b;
    }

    private void distribute(FileChannel[] files, int chunkEdges, int threads) throws IOException {
        Permutation renumber = new Permutation(vertices(), seed ^ 0x6A4L);
        LittleEndianOutput[] outs = new LittleEndianOutput[files.length];
        for (int b = 0; b < files.length; b++) {
            outs[b] = new LittleEndianOutput(files[b], BUCKET_BUFFER_BYTES);
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long m = edges();
            for (long batch = 0; batch < m; batch += (long) chunkEdges * threads) {
                List<Future<long[]>> chunks = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long from = batch + (long) t * chunkEdges;
                    long to = Math.min(m, from + chunkEdges);
                    if (from < to) {
                        chunks.add(pool.submit(() -> renumbered(from, to, renumber)));
                    }
                }
                for (Future<long[]> chunk : chunks) {
                    for (long key : chunk.get()) {
                        outs[bucketOf(key >>> 32, files.length)].putLong(key);
                    }
                }
            }
            for (LittleEndianOutput o : outs) {
                o.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while generating", e);
        } catch (ExecutionException e) {
            throw new IOException("generating edges failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private long[] renumbered(long from, long to, Permutation renumber) {
        long[] keys = new long[(int) (to - from)];
        for (int i = 0; i < keys.length; i++) {
            long key = edge(from + i);
            keys[i] = renumber.apply(key >>> 32) << 32 | renumber.apply(key & 0xFFFFFFFFL);
        }
        return keys;
    }

    private static void writeBucket(FileChannel file, long firstVertex, long endVertex, CsrWriter writer) throws IOException {
        long count = file.size() / Long.BYTES;
        if (count > Integer.MAX_VALUE - 8) {
            throw new IOException("a bucket of " + count + " edges does not fit in an array: give more memory");
        }
        long[] keys = new long[(int) count];
        LittleEndianInput in = new LittleEndianInput(file, 0);
        for (int i = 0; i < keys.length; i++) {
            keys[i] = in.getLong();
        }
        Arrays.sort(keys);
        int[] cols = new int[16];
        int k = 0;
        for (long v = firstVertex; v < endVertex; v++) {
            int len = 0;
            long prev = -1;
            for (; k < keys.length && keys[k] >>> 32 == v; k++) {
                long dst = keys[k] & 0xFFFFFFFFL;
                if (dst != v && dst != prev) {
                    if (len == cols.length) {
                        cols = Arrays.copyOf(cols, len * 2);
                    }
                    cols[len++] = (int) dst;
                    prev = dst;
                }
            }
            writer.appendRow(cols, null, len);
        }
    }
}
