package mpi;

import java.util.ArrayList;
import java.util.List;

/**
 * A communicator with a graph topology: a graph ({@link Intracomm#createGraph}, whose nodes'
 * neighbours serve as both in- and out-neighbours) or a distributed graph
 * ({@link Intracomm#createDistGraph}, {@link Intracomm#createDistGraphAdjacent}, where each rank
 * knows its own in- and out-neighbours); {@link #getTopology()} tells them apart. Ranks keep their
 * order from the parent communicator whatever {@code reorder} says, as MPI allows.
 */
public class GraphComm extends TopologyComm {

    GraphComm(int commId, int rank, int size, String name, Neighborhood neighborhood) {
        super(commId, rank, size, name, neighborhood);
    }

    /** MPI_Graph_create over {@code parent} (collective): ranks past the graph's nodes get a null one. */
    static GraphComm create(Intracomm parent, int[] index, int[] edges) throws MPIException {
        return create(parent, index, edges, GraphComm::new);
    }

    /** As {@link #create(Intracomm, int[], int[])}, made by {@code maker} (mpiJava's {@link Graphcomm}). */
    static <C extends GraphComm> C create(Intracomm parent, int[] index, int[] edges, Neighborhood.Maker<C> maker)
            throws MPIException {
        String call = "MPI_Graph_create";
        return Neighborhood.create(parent, call, "GRAPH", size -> Topology.Graph.of(call, index, edges, size),
                graph -> graph.index().length, maker);
    }

    /** MPI_Dist_graph_create_adjacent over {@code parent} (collective); null weights when unweighted. */
    static GraphComm createAdjacent(Intracomm parent, int[] sources, int[] sourceWeights, int[] destinations,
                                    int[] destWeights, boolean weighted) throws MPIException {
        String call = "MPI_Dist_graph_create_adjacent";
        return distGraph(parent, call,
                size -> Topology.DistGraph.of(call, sources, sourceWeights, destinations, destWeights, weighted, size));
    }

    /**
     * MPI_Dist_graph_create over {@code parent} (collective): each rank gives some edges, and every
     * edge reaches its two ends by an all-to-all on the parent. A rank's neighbours come in the
     * order of the ranks that gave their edges, then the order each gave them in.
     */
    static GraphComm create(Intracomm parent, int[] sources, int[] degrees, int[] destinations, int[] weights,
                            boolean weighted) throws MPIException {
        String call = "MPI_Dist_graph_create";
        int size = parent.getSize();
        // Per rank, the ends of the given edges it is on: {OUT, destination, weight} or {IN, source, weight}.
        List<List<Integer>> ends;
        try {
            ends = edgeEnds(call, sources, degrees, destinations, weights, weighted, size);
        } catch (MPIException e) {
            throw parent.handle(e);
        }
        int[] sendCounts = new int[size];
        int[] sendDispls = new int[size];
        List<Integer> flat = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            sendDispls[r] = flat.size();
            sendCounts[r] = ends.get(r).size();
            flat.addAll(ends.get(r));
        }
        int[] recvCounts = new int[size];
        parent.allToAll(sendCounts, 1, MPI.INT, recvCounts, 1, MPI.INT);
        int[] recvDispls = new int[size];
        for (int r = 1; r < size; r++) {
            recvDispls[r] = recvDispls[r - 1] + recvCounts[r - 1];
        }
        int[] got = new int[size == 0 ? 0 : recvDispls[size - 1] + recvCounts[size - 1]];
        parent.allToAllv(flat.stream().mapToInt(Integer::intValue).toArray(), sendCounts, sendDispls, MPI.INT,
                got, recvCounts, recvDispls, MPI.INT);
        List<int[]> in = new ArrayList<>();
        List<int[]> out = new ArrayList<>();
        for (int k = 0; k < got.length; k += 3) {
            (got[k] == OUT ? out : in).add(new int[] {got[k + 1], got[k + 2]});
        }
        Topology.DistGraph part = new Topology.DistGraph(column(in, 0), column(in, 1), column(out, 0), column(out, 1),
                weighted);
        return distGraph(parent, call, parentSize -> part);
    }

    private static final int OUT = 0;
    private static final int IN = 1;

    /** Checks the edges given and sorts their ends by the rank they are on. */
    private static List<List<Integer>> edgeEnds(String call, int[] sources, int[] degrees, int[] destinations,
                                                int[] weights, boolean weighted, int size) throws MPIException {
        if (sources == null || degrees == null || destinations == null || (weighted && weights == null)) {
            throw MPIException.of(MPI.ERR_ARG, call + ": null sources, degrees, destinations or weights");
        }
        if (degrees.length < sources.length) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + degrees.length + " degrees for " + sources.length
                    + " sources");
        }
        List<List<Integer>> ends = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            ends.add(new ArrayList<>());
        }
        int e = 0;
        for (int i = 0; i < sources.length; i++) {
            if (degrees[i] < 0 || (long) e + degrees[i] > destinations.length
                    || (weighted && (long) e + degrees[i] > weights.length)) {
                throw MPIException.of(MPI.ERR_ARG, call + ": degree " + degrees[i] + " of source " + i
                        + " is negative or reaches past the destinations or weights given");
            }
            for (int k = 0; k < degrees[i]; k++, e++) {
                int s = checkedRank(call, sources[i], size);
                int d = checkedRank(call, destinations[e], size);
                int w = weighted ? weights[e] : 1;
                ends.get(s).addAll(List.of(OUT, d, w));
                ends.get(d).addAll(List.of(IN, s, w));
            }
        }
        return ends;
    }

    private static int checkedRank(String call, int rank, int size) throws MPIException {
        if (rank < 0 || rank >= size) {
            throw MPIException.of(MPI.ERR_RANK, call + ": an edge names rank " + rank + " in a communicator of "
                    + size + " ranks");
        }
        return rank;
    }

    private static int[] column(List<int[]> rows, int c) {
        return rows.stream().mapToInt(row -> row[c]).toArray();
    }

    /** The distributed graph over the whole parent: a dup of it with this rank's part. */
    private static GraphComm distGraph(Intracomm parent, String call, Neighborhood.Shape<Topology.DistGraph> part)
            throws MPIException {
        return Neighborhood.create(parent, call, "DIST GRAPH", part, everyone -> Long.MAX_VALUE, GraphComm::new);
    }

    /**
     * The topology, once the call is entered (a null communicator is an error), if it is of the
     * kind the call needs.
     *
     * @throws MPIException ERR_TOPOLOGY, through the handler, for the other kind
     */
    private <T extends Topology> T topology(String call, Class<T> kind) throws MPIException {
        enter(call);
        if (!kind.isInstance(neighborhood().topology)) {
            throw handle(MPIException.of(MPI.ERR_TOPOLOGY, call + ": " + this + " is a "
                    + (kind == Topology.Graph.class ? "distributed graph, not a graph" : "graph, not a distributed graph")));
        }
        return kind.cast(neighborhood().topology);
    }

    /**
     * A new communicator with the same graph and members (collective).
     *
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    /** What makes this class's communicators: its dups keep the class. */
    Neighborhood.Maker<? extends GraphComm> maker() {
        return GraphComm::new;
    }

    @Override
    public GraphComm dup() throws MPIException {
        enter("MPI_Comm_dup");
        return Neighborhood.wrap(super.dup(), neighborhood().topology, maker());
    }

    /**
     * As {@link Comm#iDup()}: the duplicate, with the same topology, is made before this returns.
     *
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public GraphComm iDup() throws MPIException {
        return (GraphComm) super.iDup();
    }

    /**
     * As {@link Comm#dupWithInfo(Info)}, with the same topology.
     *
     * @param info the hints, or {@code MPI.INFO_NULL}
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        return (GraphComm) super.dupWithInfo(info);
    }

    /** As {@link #dup()}, with an error wrapped in a RuntimeException, as Open MPI's clone. */
    @Override
    public GraphComm clone() {
        return (GraphComm) super.clone();
    }

    /**
     * The graph: the index and edges arrays it was made with (a graph, not a distributed graph).
     *
     * @return the graph
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_TOPOLOGY} on a
     *                      distributed graph
     */
    public GraphParms getDims() throws MPIException {
        Topology.Graph graph = topology("MPI_Graph_get", Topology.Graph.class);
        return new GraphParms(graph.index().clone(), graph.edges().clone());
    }

    /**
     * The neighbours of a node, in the order the graph gave them (a graph, not a distributed graph).
     *
     * @param rank a rank of this communicator
     * @return a new array of its neighbours
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_TOPOLOGY} on a
     *                      distributed graph, {@code MPI.ERR_RANK} for a rank not in the communicator
     */
    public int[] getNeighbors(int rank) throws MPIException {
        String call = "MPI_Graph_neighbors";
        Topology.Graph graph = topology(call, Topology.Graph.class);
        Neighborhood.checkRank(this, call, rank);
        return graph.neighbors(rank);
    }

    /**
     * The caller's in- and out-neighbours with their weights (a distributed graph), in the order the
     * neighbourhood collectives use.
     *
     * @return the neighbours
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_TOPOLOGY} on a
     *                      graph made by createGraph
     */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        Topology.DistGraph part = topology("MPI_Dist_graph_neighbors", Topology.DistGraph.class);
        return new DistGraphNeighbors(part.sources().clone(), part.sourceWeights().clone(), part.destinations().clone(),
                part.destWeights().clone(), part.weighted());
    }

    /**
     * The caller's rank in a graph of that shape placed on this communicator: as ranks keep their
     * order, its own rank if the graph has that many nodes.
     *
     * @param index cumulative neighbour counts, one per node
     * @param edges the neighbour lists one after another
     * @return the caller's rank in the graph, or {@code MPI.UNDEFINED} if the graph has fewer nodes
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_ARG} or
     *                      {@code MPI.ERR_RANK} for a bad graph or one larger than the communicator
     */
    public int map(int[] index, int[] edges) throws MPIException {
        String call = "MPI_Graph_map";
        int rank = getRank();
        int size = getSize();
        enter(call);
        try {
            return rank < Topology.Graph.of(call, index, edges, size).index().length ? rank : MPI.UNDEFINED;
        } catch (MPIException e) {
            throw handle(e);
        }
    }
}
