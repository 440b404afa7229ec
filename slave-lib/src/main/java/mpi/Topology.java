package mpi;

import java.util.Arrays;

/**
 * What a topology communicator knows about its shape: pure data and arithmetic, no MPI calls.
 * Ranks keep their order in a topology communicator (MPI allows it whatever {@code reorder} says),
 * so grid positions and graph nodes are ranks of the communicator.
 *
 * <p>For the neighbourhood collectives each kind lists, for a rank, its in-neighbours (the
 * sources of the blocks it receives, in receive-buffer order) and its out-neighbours (the
 * destinations of the blocks it sends), and tags each message so that it lands in the right block
 * of the receiver even when two blocks travel between the same pair of ranks.
 */
sealed interface Topology permits Topology.Cart, Topology.Graph, Topology.DistGraph {

    /** {@code MPI.CART}, {@code MPI.GRAPH} or {@code MPI.DIST_GRAPH}. */
    int kind();

    /** The in-neighbours of {@code rank}, in MPI's order; {@code MPI.PROC_NULL} where a grid ends. */
    int[] sources(int rank);

    /** The out-neighbours of {@code rank}, in MPI's order; {@code MPI.PROC_NULL} where a grid ends. */
    int[] destinations(int rank);

    /** The tag of the block sent to out-neighbour {@code j}. */
    default int sendTag(int j) {
        return 0;
    }

    /** The tag of the block received from in-neighbour {@code i}. */
    default int receiveTag(int i) {
        return 0;
    }

    /**
     * A cartesian grid of {@code dims[0] × ... × dims[n-1]} ranks numbered in row-major order (the
     * last dimension varies fastest), periodic where {@code periods[d]} is true.
     *
     * @param dims the extent of each dimension, each 1 or more
     * @param periods whether each dimension wraps around, as long as {@code dims}
     */
    record Cart(int[] dims, boolean[] periods) implements Topology {

        /**
         * A checked grid; the arrays are copied.
         *
         * @throws MPIException ERR_DIMS for a null or non-positive dimension, ERR_ARG for fewer
         *                      periods than dimensions
         */
        static Cart of(String call, int[] dims, boolean[] periods) throws MPIException {
            if (dims == null) {
                throw MPIException.of(MPI.ERR_DIMS, call + ": null dims");
            }
            if (periods == null || periods.length < dims.length) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + (periods == null ? "null periods" : periods.length
                        + " periods") + " for " + dims.length + " dimensions");
            }
            for (int d = 0; d < dims.length; d++) {
                if (dims[d] <= 0) {
                    throw MPIException.of(MPI.ERR_DIMS, call + ": dimension " + d + " has extent " + dims[d]
                            + " (1 or more)");
                }
            }
            return new Cart(dims.clone(), Arrays.copyOf(periods, dims.length));
        }

        @Override
        public int kind() {
            return MPI.CART;
        }

        int ndims() {
            return dims.length;
        }

        /** The number of ranks in the grid (1 for no dimensions); Long, as a product may overflow. */
        long ranks() {
            long n = 1;
            for (int d : dims) {
                n *= d;
            }
            return n;
        }

        /**
         * The rank at {@code coords}; on periodic dimensions out-of-range coordinates wrap.
         *
         * @throws MPIException ERR_ARG for too few coordinates or one outside a non-periodic dimension
         */
        int rankOf(String call, int[] coords) throws MPIException {
            if (coords == null || coords.length < dims.length) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + (coords == null ? "null coordinates" : coords.length
                        + " coordinates") + " for " + dims.length + " dimensions");
            }
            int rank = 0;
            for (int d = 0; d < dims.length; d++) {
                int c = coords[d];
                if (periods[d]) {
                    c = Math.floorMod(c, dims[d]);
                } else if (c < 0 || c >= dims[d]) {
                    throw MPIException.of(MPI.ERR_ARG, call + ": coordinate " + c + " outside non-periodic dimension "
                            + d + " of extent " + dims[d]);
                }
                rank = rank * dims[d] + c;
            }
            return rank;
        }

        /** The coordinates of {@code rank}, which must be in the grid. */
        int[] coordsOf(int rank) {
            int[] coords = new int[dims.length];
            for (int d = dims.length - 1; d >= 0; d--) {
                coords[d] = rank % dims[d];
                rank /= dims[d];
            }
            return coords;
        }

        /**
         * The ranks {@code disp} steps below and above {@code rank} along {@code direction}:
         * {@code {source, destination}}, {@code MPI.PROC_NULL} past a non-periodic edge.
         */
        int[] shift(int rank, int direction, int disp) {
            int[] coords = coordsOf(rank);
            int here = coords[direction];
            return new int[] {step(coords, direction, here - disp), step(coords, direction, here + disp)};
        }

        private int step(int[] coords, int direction, int to) {
            if (!periods[direction] && (to < 0 || to >= dims[direction])) {
                return MPI.PROC_NULL;
            }
            int[] c = coords.clone();
            c[direction] = Math.floorMod(to, dims[direction]);
            int rank = 0;
            for (int d = 0; d < dims.length; d++) {
                rank = rank * dims[d] + c[d];
            }
            return rank;
        }

        /** Per dimension d: the -1 neighbour, then the +1 neighbour. */
        @Override
        public int[] sources(int rank) {
            int[] out = new int[2 * dims.length];
            for (int d = 0; d < dims.length; d++) {
                int[] s = shift(rank, d, 1);
                out[2 * d] = s[0];
                out[2 * d + 1] = s[1];
            }
            return out;
        }

        @Override
        public int[] destinations(int rank) {
            return sources(rank);
        }

        /**
         * The block for the -1 neighbour (j = 2d) lands in its +1 block (2d + 1), and the other way
         * round: so a dimension of extent 1 or 2, where both neighbours are one rank, still fills
         * each block from the right direction.
         */
        @Override
        public int sendTag(int j) {
            return j ^ 1;
        }

        @Override
        public int receiveTag(int i) {
            return i;
        }

        /**
         * The sub-grid of {@code rank} keeping the dimensions where {@code remain[d]} is true.
         *
         * @return the sub-grid's shape
         */
        Cart sub(boolean[] remain) {
            int kept = 0;
            for (int d = 0; d < dims.length; d++) {
                kept += remain[d] ? 1 : 0;
            }
            int[] subDims = new int[kept];
            boolean[] subPeriods = new boolean[kept];
            int k = 0;
            for (int d = 0; d < dims.length; d++) {
                if (remain[d]) {
                    subDims[k] = dims[d];
                    subPeriods[k++] = periods[d];
                }
            }
            return new Cart(subDims, subPeriods);
        }

        /**
         * Which sub-grid {@code rank} belongs to: its coordinates in the dimensions dropped, as one
         * row-major number (0 or more).
         */
        int subGrid(int rank, boolean[] remain) {
            int[] coords = coordsOf(rank);
            int colour = 0;
            for (int d = 0; d < dims.length; d++) {
                if (!remain[d]) {
                    colour = colour * dims[d] + coords[d];
                }
            }
            return colour;
        }

        /**
         * MPI_Dims_create: fills the zero entries of {@code dims} with a factorization of what
         * {@code nnodes} leaves once divided by the non-zero entries, as balanced as possible (the
         * smallest largest factor, then the smallest spread) and in non-increasing order.
         *
         * @throws MPIException ERR_DIMS for a negative entry or when the non-zero entries do not
         *                      divide {@code nnodes}; ERR_ARG for a non-positive {@code nnodes} or null dims
         */
        static void createDims(String call, int nnodes, int[] dims) throws MPIException {
            if (dims == null) {
                throw MPIException.of(MPI.ERR_ARG, call + ": null dims");
            }
            if (nnodes <= 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + nnodes + " nodes (1 or more)");
            }
            long fixed = 1;
            int free = 0;
            for (int d = 0; d < dims.length; d++) {
                if (dims[d] < 0) {
                    throw MPIException.of(MPI.ERR_DIMS, call + ": dimension " + d + " is " + dims[d]
                            + " (0 to choose it, or 1 or more)");
                }
                if (dims[d] == 0) {
                    free++;
                } else {
                    fixed *= dims[d];
                }
            }
            if (nnodes % fixed != 0 || (free == 0 && fixed != nnodes)) {
                throw MPIException.of(MPI.ERR_DIMS, call + ": the given dimensions " + Arrays.toString(dims)
                        + " do not " + (free == 0 ? "multiply to " : "divide ") + nnodes);
            }
            int[] factors = balancedFactors((int) (nnodes / fixed), free);
            int k = 0;
            for (int d = 0; d < dims.length; d++) {
                if (dims[d] == 0) {
                    dims[d] = factors[k++];
                }
            }
        }

        /**
         * {@code n} as a product of {@code parts} non-increasing factors "as close to each other as
         * possible": the smallest spread (largest minus smallest), then the smallest sum, then the
         * first found from the largest factors down. That is MPICH's choice for every {@code n} up
         * to 1100 in 1 to 4 dimensions and up to 400 in 5 and 6 (checked against its
         * {@code MPI_Dims_create}); a rule on the largest factor alone gives [5, 4, 1, 1] for 20 in
         * 4 dimensions instead of [5, 2, 2, 1].
         */
        static int[] balancedFactors(int n, int parts) {
            int[] best = new int[parts];
            if (parts == 0) {
                return best;
            }
            best[0] = n;
            Arrays.fill(best, 1, parts, 1);
            search(n, parts, n, new int[parts], 0, best);
            return best;
        }

        /** Tries every non-increasing factor list of {@code rest} for positions {@code at..}, each at most {@code max}. */
        private static void search(int rest, int parts, int max, int[] current, int at, int[] best) {
            if (at == parts - 1) {
                if (rest <= max) {
                    current[at] = rest;
                    if (better(current, best)) {
                        System.arraycopy(current, 0, best, 0, parts);
                    }
                }
                return;
            }
            for (int f = Math.min(max, rest); f >= 1; f--) {
                // Factors are non-increasing, so the later ones cannot make up more than f each.
                if (Math.pow(f, parts - at) < rest) {
                    break;
                }
                if (rest % f == 0) {
                    current[at] = f;
                    search(rest / f, parts, f, current, at + 1, best);
                }
            }
        }

        private static boolean better(int[] a, int[] best) {
            int last = a.length - 1;
            int spread = a[0] - a[last];
            int bestSpread = best[0] - best[last];
            return spread < bestSpread || spread == bestSpread && Arrays.stream(a).sum() < Arrays.stream(best).sum();
        }
    }

    /**
     * A graph over ranks 0..index.length-1 (MPI_Graph_create): node i's neighbours are
     * {@code edges[index[i-1]] .. edges[index[i]-1]}, and serve as both its in- and out-neighbours.
     *
     * @param index cumulative neighbour counts
     * @param edges the neighbour lists one after another
     */
    record Graph(int[] index, int[] edges) implements Topology {

        /**
         * A checked graph of at most {@code size} nodes; the arrays are copied.
         *
         * @throws MPIException ERR_ARG for null arrays, more nodes than ranks, decreasing counts or
         *                      too few edges; ERR_RANK for an edge to no node
         */
        static Graph of(String call, int[] index, int[] edges, int size) throws MPIException {
            if (index == null || edges == null) {
                throw MPIException.of(MPI.ERR_ARG, call + ": null " + (index == null ? "index" : "edges"));
            }
            if (index.length > size) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + index.length + " nodes for a communicator of " + size
                        + " ranks");
            }
            int previous = 0;
            for (int i = 0; i < index.length; i++) {
                if (index[i] < previous) {
                    throw MPIException.of(MPI.ERR_ARG, call + ": index[" + i + "] = " + index[i] + " is below "
                            + previous + " (the counts are cumulative)");
                }
                previous = index[i];
            }
            if (previous > edges.length) {
                throw MPIException.of(MPI.ERR_ARG, call + ": the index counts " + previous + " edges, edges has "
                        + edges.length);
            }
            for (int e = 0; e < previous; e++) {
                if (edges[e] < 0 || edges[e] >= index.length) {
                    throw MPIException.of(MPI.ERR_RANK, call + ": edge " + e + " goes to " + edges[e]
                            + ", not a node of 0.." + (index.length - 1));
                }
            }
            return new Graph(index.clone(), Arrays.copyOf(edges, previous));
        }

        @Override
        public int kind() {
            return MPI.GRAPH;
        }

        /** The neighbours of node {@code rank}, in the order given. */
        int[] neighbors(int rank) {
            return Arrays.copyOfRange(edges, rank == 0 ? 0 : index[rank - 1], index[rank]);
        }

        @Override
        public int[] sources(int rank) {
            return neighbors(rank);
        }

        @Override
        public int[] destinations(int rank) {
            return neighbors(rank);
        }
    }

    /**
     * One rank's part of a distributed graph: its in- and out-neighbours with their weights. The
     * weights are all 1 when the graph is unweighted.
     *
     * @param sources the in-neighbours
     * @param sourceWeights their weights
     * @param destinations the out-neighbours
     * @param destWeights their weights
     * @param weighted whether weights were given
     */
    record DistGraph(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights, boolean weighted)
            implements Topology {

        /**
         * A checked part; the arrays are copied. Unweighted, every weight is 1.
         *
         * @throws MPIException ERR_ARG for null neighbour arrays, or weights missing or too few for a
         *                      weighted graph; ERR_RANK for a neighbour outside the communicator
         */
        static DistGraph of(String call, int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
                            boolean weighted, int size) throws MPIException {
            int[] in = ranks(call, sources, "sources", size);
            int[] out = ranks(call, destinations, "destinations", size);
            return new DistGraph(in, weights(call, sourceWeights, in.length, weighted), out,
                    weights(call, destWeights, out.length, weighted), weighted);
        }

        private static int[] ranks(String call, int[] ranks, String what, int size) throws MPIException {
            if (ranks == null) {
                throw MPIException.of(MPI.ERR_ARG, call + ": null " + what);
            }
            for (int r : ranks) {
                if (r < 0 || r >= size) {
                    throw MPIException.of(MPI.ERR_RANK, call + ": " + what + " names rank " + r
                            + " in a communicator of " + size + " ranks");
                }
            }
            return ranks.clone();
        }

        private static int[] weights(String call, int[] weights, int count, boolean weighted) throws MPIException {
            if (!weighted) {
                int[] ones = new int[count];
                Arrays.fill(ones, 1);
                return ones;
            }
            if (count > 0 && (weights == null || weights.length < count)) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + (weights == null ? "no" : weights.length)
                        + " weights for " + count + " neighbours");
            }
            return count == 0 ? new int[0] : Arrays.copyOf(weights, count);
        }

        @Override
        public int kind() {
            return MPI.DIST_GRAPH;
        }

        @Override
        public int[] sources(int rank) {
            return sources.clone();
        }

        @Override
        public int[] destinations(int rank) {
            return destinations.clone();
        }
    }
}
