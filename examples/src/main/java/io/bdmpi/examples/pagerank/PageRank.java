package io.bdmpi.examples.pagerank;

import io.bdmpi.examples.BadInput;
import io.bdmpi.examples.Checkpoints;
import io.bdmpi.examples.IterationTimer;
import io.bdmpi.examples.Options;
import io.bdmpi.examples.data.CsrBlock;
import io.bdmpi.examples.data.CsrFile;
import io.bdmpi.examples.data.VectorFile;
import io.bdmpi.examples.store.Storage;
import io.bdmpi.examples.store.Styles;
import mpi.Checkpointable;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;

/**
 * PageRank as an MPI program: 1-D row-wise decomposition of the adjacency matrix (a
 * {@link CsrFile} graph) balanced by non-zeros, push algorithm, contributions exchanged with
 * {@code allToAllv}, convergence checked with {@code allReduce}.
 *
 * <pre>bdmpiexec -ns 8 -nr 2 -cp examples.jar io.bdmpi.examples.pagerank.PageRank
 *     --graph G --out RANKS [--iterations 100] [--tolerance 1e-9] [--style heap]
 *     [--checkpoint-every 0] [--die-at RANK:ITERATION]</pre>
 *
 * Each rank reads its rows once and, at set-up, the distinct destinations of its edges, grouped by
 * owning rank; every iteration it sends one fixed-point partial sum per distinct destination. It
 * stops when the L1 change of the rank vector is below the tolerance or after the given number of
 * iterations. {@code RANKS} receives the rank vector (see {@link VectorFile}), bit-identical to
 * {@link PageRankSerial}'s for the same graph whatever the number of ranks (see
 * {@link PageRankCore}). Rank 0 prints one summary line; bad input aborts the job with code 2.
 * With {@code --checkpoint-every N} it checkpoints its {@link State} every N iterations, and goes
 * on from the last checkpoint when restarted or recovered (see {@link Checkpoints}).
 */
public final class PageRank {


    /** Elements per bulk copy between a storage array and the heap at set-up. */
    private static final int CHUNK = CsrBlock.RUN_NNZ;

    private PageRank() {
    }

    /** What carries over from one iteration to the next: the rank vector and the last sums. */
    private static final class State implements Checkpointable {
        int iteration;
        final long[] totals = new long[2];
        final Storage.Doubles pr;

        State(Storage.Doubles pr) {
            this.pr = pr;
        }

        @Override
        public void save(DataOutputStream out) throws IOException {
            out.writeInt(iteration);
            out.writeLong(totals[0]);
            out.writeLong(totals[1]);
            Checkpoints.save(out, pr);
        }

        @Override
        public void restore(DataInputStream in) throws IOException {
            iteration = in.readInt();
            totals[0] = in.readLong();
            totals[1] = in.readLong();
            Checkpoints.restore(in, pr);
        }
    }

    /** Runs the program with the options of the class comment. */
    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        Comm comm = MPI.COMM_WORLD;
        try {
            Options o = Options.parse(args, 0, Checkpoints.withOptions(Set.of("graph", "out", "iterations", "tolerance", "style")));
            try (Storage st = Styles.open(o.string("style", Styles.HEAP))) {
                run(comm, o.path("graph"), o.path("out"), o.integer("iterations", 100, 1, Integer.MAX_VALUE),
                        o.real("tolerance", 1e-9), Checkpoints.from(o), st);
            }
        } catch (IllegalArgumentException | IOException e) {
            BadInput.abort("PageRank", comm, e);
        }
        MPI.Finalize();
    }

    private static void run(Comm comm, Path graph, Path out, int maxIterations, double tolerance, Checkpoints checkpoints,
            Storage st) throws MPIException, IOException {
        int rank = comm.getRank();
        int p = comm.getSize();
        IterationTimer timer = new IterationTimer();
        try (CsrFile g = CsrFile.open(graph)) {
            if (g.rows() != g.cols()) {
                throw new IllegalArgumentException(graph + " is " + g.rows() + " x " + g.cols() + ", not a graph's square matrix");
            }
            long n = g.rows();
            long[] bounds = g.partitionByNonZeros(p);
            long lo = bounds[rank];
            int local = (int) (bounds[rank + 1] - lo);
            State state = new State(st.doubles("pr", local));
            Storage.Doubles pr = state.pr;
            long[] totals = state.totals;
            CsrBlock block = g.read(lo, bounds[rank + 1], st);
            // Set-up parks the rank twice, and each park of a file-backed style writes out what it
            // holds and reads it back: so the targets overwrite the columns, and everything that
            // needs a message before the iterations shares those two stretches (the checkpoint's
            // restore, the plan's two exchanges, the first sums and the first iteration's exchange).
            Outgoing outgoing = Outgoing.of(st, block, bounds);
            st.readOnly(block.rowPtr());
            st.readOnly(outgoing.targets());
            int[] recvCounts = new int[p];
            boolean[] restoredOut = new boolean[1];
            st.blocking(() -> {
                restoredOut[0] = checkpoints.restoreInStretch(state);
                comm.allToAll(outgoing.sendCounts(), 1, MPI.INT, recvCounts, 1, MPI.INT);
            });
            boolean restored = restoredOut[0];
            Exchange ex = Exchange.of(st, outgoing, recvCounts, bounds, rank);
            Storage.IntMessage sources = st.intMessage("sources", ex.recvLength());
            // The sums are dead once sent or added up: scratch buffers with no file behind them,
            // dropped before the rank blocks again.
            Storage.LongScratch send = st.longScratch("send", ex.sendLength());
            Storage.LongScratch recv = st.longScratch("recv", ex.recvLength());
            if (!restored) {
                initialRanks(pr, local, n);
                totals[1] = PageRankCore.dangling(block, pr, 0);
                ex.push(block, pr, send);
            }
            st.blocking(() -> {
                // The first iteration's exchange starts first, so its sums are copied out (and
                // dropped) before another call can park the rank.
                Request exchange = restored ? null : ex.start(comm, send, recv);
                ex.learnSources(comm, outgoing, sources);
                if (exchange != null) {
                    comm.allReduce(totals, 2, MPI.LONG, MPI.SUM);
                    exchange.waitFor();
                }
            });
            ex.setIncoming(sources, lo);
            st.discard(outgoing.destinations());
            st.discard(sources);
            // After set-up only the row offsets, the index maps and the ranks are used, and only
            // the ranks change.
            st.readOnly(ex.incoming());
            // The incoming sums of the next rank update, once received: a heap array that is never
            // held while the rank is parked.
            long[] in = restored ? null : ex.receive(recv, local);
            timer.start();
            boolean converged = state.iteration > 0 && PageRankCore.converged(totals[0], tolerance);
            while (state.iteration < maxIterations && !converged) {
                int iteration = ++state.iteration;
                checkpoints.startIteration(rank, iteration);
                if (in == null) {
                    ex.push(block, pr, send);
                    st.blocking(() -> ex.start(comm, send, recv).waitFor());
                    in = ex.receive(recv, local);
                }
                update(in, block.rowPtr(), pr, n, totals);
                in = null;
                // The next iteration's exchange runs in the same blocking stretch as the allReduce
                // that ends this one, so the data leaves memory once per iteration. It starts
                // first: its sums are then copied out (and dropped) before the allReduce can park
                // the rank. When the allReduce says stop, that exchange was in vain. A checkpoint
                // (which saves the ranks) ends the stretch after the allReduce.
                boolean last = iteration == maxIterations;
                boolean exchangeNext = !checkpoints.due(iteration) && !last;
                if (exchangeNext) {
                    ex.push(block, pr, send);
                }
                // After the last iteration only the ranks are read again: let the rest go before
                // the stretch ends, which would bring it back. In the last iteration that is
                // before the stretch, so the master does not read it ahead for the resumes in it.
                Runnable keepOnlyRanks = () -> {
                    recv.drop();
                    ex.discard(st);
                    st.discard(block.rowPtr());
                };
                if (last) {
                    keepOnlyRanks.run();
                }
                st.blocking(() -> {
                    Request exchange = exchangeNext ? ex.start(comm, send, recv) : null;
                    comm.allReduce(totals, 2, MPI.LONG, MPI.SUM);
                    if (exchange != null) {
                        exchange.waitFor();
                    }
                    if (!last && PageRankCore.converged(totals[0], tolerance)) {
                        keepOnlyRanks.run();
                    }
                });
                converged = PageRankCore.converged(totals[0], tolerance);
                if (exchangeNext && !converged) {
                    in = ex.receive(recv, local);
                }
                checkpoints.endIteration(st, iteration, state);
                timer.iterationDone();
            }
            int iteration = state.iteration;
            if (rank == 0) {
                Files.deleteIfExists(out);
                Files.createFile(out);
            }
            st.blocking(() -> {
                timer.gather(comm);
                comm.barrier();
            });
            String timing = timer.line("PageRank", iteration);
            VectorFile.writeDoubles(out, lo, pr, local);
            st.blocking(comm::barrier);
            if (rank == 0) {
                System.out.println(PageRankSerial.summary(n, g.nnz(), iteration, totals[0]));
                System.out.println(timing);
            }
        }
    }

    // The loops over the vertices are methods of their own, not loops in run: the JIT would
    // otherwise compile the whole of run (on-stack, at the loop) and again after each
    // deoptimisation, in every one of the S slave JVMs, while the ranks take turns on the cores.

    private static void initialRanks(Storage.Doubles pr, int local, long n) {
        double[] ranks = new double[Math.max(1, Math.min(CHUNK, local))];
        Arrays.fill(ranks, PageRankCore.initialRank(n));
        for (int at = 0; at < local; at += ranks.length) {
            pr.copyFrom(at, ranks, Math.min(ranks.length, local - at));
        }
    }

    /**
     * Sets the ranks from their incoming sums {@code in} and the last dangling total
     * ({@code totals[1]}), and leaves in {@code totals} this rank's L1 change and the new ranks'
     * dangling mass ({@link PageRankCore#dangling}, summed in the same pass).
     */
    private static void update(long[] in, Storage.Ints rowPtr, Storage.Doubles pr, long n, long[] totals) {
        long lastDangling = totals[1];
        long change = 0;
        long dangling = 0;
        // A heap chunk of ranks and row offsets at a time, as an array of the mlock style pays an
        // index check and a view lookup per element.
        double[] ranks = new double[Math.max(1, Math.min(CHUNK, in.length))];
        int[] offsets = new int[ranks.length + 1];
        for (int at = 0; at < in.length; at += ranks.length) {
            int len = Math.min(ranks.length, in.length - at);
            pr.copyTo(at, ranks, len);
            rowPtr.copyTo(at, offsets, len + 1);
            for (int i = 0; i < len; i++) {
                double next = PageRankCore.rank(in[at + i], lastDangling, n);
                change += PageRankCore.change(next, ranks[i]);
                ranks[i] = next;
                if (offsets[i + 1] == offsets[i]) {
                    dangling += PageRankCore.toFixed(next);
                }
            }
            pr.copyFrom(at, ranks, len);
        }
        totals[0] = change;
        totals[1] = dangling;
    }

    /**
     * Who sends what to whom, worked out once at set-up: this rank sends one partial sum per
     * distinct destination of its edges, grouped by owning rank ({@code targets}: the index of
     * each edge's destination among them). Each source sends its sums in increasing order of
     * destination, so where they go is one bit per local vertex and source ({@code incoming}: for
     * source s, words {@code s * words .. (s+1) * words - 1}, bit v set if s sends to local vertex
     * v). That is n/8 bytes per rank whatever the number of ranks, against 4 bytes per incoming sum
     * for a list of local vertices (about 10x more at 32 ranks of the benchmark's R-MAT graph),
     * and what a rank reads back every iteration is what out-of-core PageRank is bound by.
     */
    private record Exchange(Storage.Ints targets, Storage.Longs incoming, int[] sendCounts, int[] sendDispls,
                            int[] recvCounts, int[] recvDispls) {

        /**
         * The exchange of a rank holding rows {@code bounds[rank] ..}, which sends {@code outgoing}
         * and receives {@code recvCounts[s]} sums from each source s. The map of where the incoming
         * sums go is all zeros until {@link #setIncoming}.
         */
        static Exchange of(Storage st, Outgoing outgoing, int[] recvCounts, long[] bounds, int rank) {
            int p = recvCounts.length;
            int words = (int) ((bounds[rank + 1] - bounds[rank] + 63) >>> 6);
            return new Exchange(outgoing.targets(), st.longs("incoming", p * words), outgoing.sendCounts(),
                    prefixSums(outgoing.sendCounts()), recvCounts, prefixSums(recvCounts));
        }

        /**
         * Tells every owner which of its vertices this rank sends to, and receives in
         * {@code sources} the local vertices each source sends to (for {@link #setIncoming});
         * collective.
         */
        void learnSources(Comm comm, Outgoing outgoing, Storage.IntMessage sources) throws MPIException {
            comm.allToAllv(outgoing.destinations().buffer(), sendCounts, sendDispls, MPI.INT, sources.buffer(), recvCounts,
                    recvDispls, MPI.INT);
        }

        /** Fills the map of where the incoming sums go from {@code sources} (rank's first vertex {@code lo}). */
        void setIncoming(Storage.IntMessage sources, long lo) {
            int words = incoming.length() / recvCounts.length;
            long[] bits = new long[incoming.length()];
            for (int source = 0; source < recvCounts.length; source++) {
                int offset = source * words;
                inChunks(sources, recvDispls[source], recvDispls[source] + recvCounts[source], (chunk, at, len) -> {
                    for (int k = 0; k < len; k++) {
                        int v = (int) (chunk[k] - lo);
                        bits[offset + (v >>> 6)] |= 1L << v;
                    }
                });
            }
            incoming.copyFrom(0, bits, bits.length);
        }

        /** The program will not exchange again: lets {@code st} free the index maps. */
        void discard(Storage st) {
            st.discard(targets);
            st.discard(incoming);
        }

        /**
         * Pushes the ranks {@code pr} of {@code block} into {@code send}: summed in a heap array
         * that lives only while the rank runs, then copied (see {@link PageRankCore#push}).
         */
        void push(CsrBlock block, Storage.Doubles pr, Storage.LongScratch send) {
            long[] sums = new long[sendLength()];
            PageRankCore.push(block, targets, pr, 0, sums);
            send.copyFrom(0, sums, sums.length);
        }

        /** Sums received per iteration: one per distinct destination of every source. */
        int recvLength() {
            return total(recvCounts, recvDispls);
        }

        /**
         * The incoming sum of each of the {@code local} vertices: every source's sums in
         * {@code recv} added at its destinations, one source at a time (a heap copy of its
         * sums and bits, not an access to a mapped array per sum). Drops {@code recv}.
         */
        long[] receive(Storage.LongScratch recv, int local) {
            int words = incoming.length() / recvCounts.length;
            long[] in = new long[local];
            long[] bits = new long[words];
            long[] sums = new long[Arrays.stream(recvCounts).max().orElse(0)];
            for (int source = 0; source < recvCounts.length; source++) {
                incoming.copyTo(source * words, bits, words);
                recv.copyTo(recvDispls[source], sums, recvCounts[source]);
                int k = 0;
                for (int w = 0; w < words; w++) {
                    for (long word = bits[w]; word != 0; word &= word - 1) {
                        in[(w << 6) + Long.numberOfTrailingZeros(word)] += sums[k++];
                    }
                }
            }
            recv.drop();
            return in;
        }

        /** Sums sent per iteration: one per distinct destination. */
        int sendLength() {
            return total(sendCounts, sendDispls);
        }

        /**
         * Starts one iteration's exchange of partial sums; collective. The sums in {@code send}
         * are copied out before it returns, and dropped; {@code recv} holds the incoming ones
         * once the request completes.
         */
        Request start(Comm comm, Storage.LongScratch send, Storage.LongScratch recv) throws MPIException {
            Request exchange = comm.iAllToAllv(send.buffer(), sendCounts, sendDispls, MPI.LONG, recv.buffer(), recvCounts,
                    recvDispls, MPI.LONG);
            send.drop();
            return exchange;
        }
    }

    /**
     * What a rank sends, worked out from its block alone: the index of each edge's destination
     * among the block's distinct destinations ({@code targets}, which overwrite the columns), how
     * many of them each rank owns, and the destinations themselves in increasing order (a message,
     * which a parked rank need not hold in memory), which tell each owner what it will receive.
     */
    private record Outgoing(Storage.Ints targets, int[] sendCounts, Storage.IntMessage destinations) {

        /** Replaces the columns of {@code block} with their targets. */
        static Outgoing of(Storage st, CsrBlock block, long[] bounds) {
            int p = bounds.length - 1;
            Columns distinct = Columns.of(block, bounds[p]);
            // Each column becomes its index in place: the block's columns are not needed again, and
            // a second array as large would be written out and read back at every park of set-up.
            Storage.Ints targets = block.cols();
            inChunks(targets, 0, block.nnz(), (chunk, at, len) -> {
                for (int k = 0; k < len; k++) {
                    chunk[k] = distinct.below(chunk[k]);
                }
                targets.copyFrom(at, chunk, len);
            });
            int[] sendCounts = new int[p];
            for (int owner = 0; owner < p; owner++) {
                sendCounts[owner] = distinct.below(bounds[owner + 1]) - distinct.below(bounds[owner]);
            }
            Storage.IntMessage destinations = st.intMessage("destinations", distinct.count());
            distinct.writeTo(destinations);
            return new Outgoing(targets, sendCounts, destinations);
        }
    }

    /**
     * The distinct columns of a block, as a bit set over all vertices with the count of set bits
     * before each word: finding them costs one pass over the non-zeros and a few MiB, not a sort
     * of a copy of them.
     */
    private record Columns(long[] bits, int[] countBefore) {

        static Columns of(CsrBlock block, long vertices) {
            long[] bits = new long[(int) ((vertices + 63) >>> 6)];
            inChunks(block.cols(), 0, block.nnz(), (chunk, at, len) -> {
                for (int k = 0; k < len; k++) {
                    int c = chunk[k];
                    bits[c >>> 6] |= 1L << c;
                }
            });
            int[] countBefore = new int[bits.length + 1];
            for (int w = 0; w < bits.length; w++) {
                countBefore[w + 1] = countBefore[w] + Long.bitCount(bits[w]);
            }
            return new Columns(bits, countBefore);
        }

        int count() {
            return countBefore[bits.length];
        }

        /** How many of the columns are below {@code vertex}: for a column, its index among them. */
        int below(long vertex) {
            int word = (int) (vertex >>> 6);
            if (word >= bits.length) {
                return count();
            }
            return countBefore[word] + Long.bitCount(bits[word] & ((1L << vertex) - 1));
        }

        /** Writes the columns in increasing order, a chunk at a time. */
        void writeTo(Storage.Ints out) {
            int[] chunk = new int[Math.max(1, Math.min(CHUNK, count()))];
            int filled = 0;
            int at = 0;
            for (int w = 0; w < bits.length; w++) {
                for (long word = bits[w]; word != 0; word &= word - 1) {
                    chunk[filled++] = (w << 6) + Long.numberOfTrailingZeros(word);
                    if (filled == chunk.length) {
                        out.copyFrom(at, chunk, filled);
                        at += filled;
                        filled = 0;
                    }
                }
            }
            out.copyFrom(at, chunk, filled);
        }
    }

    /** What {@link #inChunks} does with elements {@code at .. at+len-1}, copied to {@code chunk[0 .. len-1]}. */
    @FunctionalInterface
    private interface ChunkAction {
        void accept(int[] chunk, int at, int len);
    }

    /**
     * Hands elements {@code from .. to-1} of {@code a} to {@code action} a heap chunk at a time: at
     * set-up every pass over the non-zeros goes through bulk copies, as element by element an
     * array of the mlock or ooc style pays an index check and a view lookup each.
     */
    private static void inChunks(Storage.Ints a, int from, int to, ChunkAction action) {
        int[] chunk = new int[Math.min(CHUNK, to - from)];
        for (int at = from; at < to; at += chunk.length) {
            int len = Math.min(chunk.length, to - at);
            a.copyTo(at, chunk, len);
            action.accept(chunk, at, len);
        }
    }

    /** Elements of all the blocks of an allToAllv side. */
    private static int total(int[] counts, int[] displs) {
        return displs[displs.length - 1] + counts[counts.length - 1];
    }

    private static int[] prefixSums(int[] counts) {
        int[] displs = new int[counts.length];
        for (int i = 1; i < counts.length; i++) {
            displs[i] = displs[i - 1] + counts[i - 1];
        }
        return displs;
    }
}
