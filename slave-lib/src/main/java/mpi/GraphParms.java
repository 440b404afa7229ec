package mpi;

/**
 * A graph communicator's graph as {@link GraphComm#getDims()} reports it: the arrays
 * {@code createGraph} took. Node i's neighbours are edges {@code getIndex(i-1)} (0 for node 0) to
 * {@code getIndex(i) - 1}.
 */
public final class GraphParms {

    /** mpiJava 1.2: the cumulative neighbour counts (what {@link #getIndex} reads). */
    public final int[] index;
    /** mpiJava 1.2: the neighbour lists (what {@link #getEdge} reads). */
    public final int[] edges;

    /**
     * The graph; the arrays are kept, not copied.
     *
     * @param index cumulative neighbour counts, one per node
     * @param edges the neighbour lists one after another
     */
    protected GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /**
     * The number of nodes.
     *
     * @return the length of the index array
     */
    public int getIndexCount() {
        return index.length;
    }

    /**
     * The number of neighbours of nodes 0 to i together.
     *
     * @param i a node
     * @return the cumulative count
     */
    public int getIndex(int i) {
        return index[i];
    }

    /**
     * The number of edges.
     *
     * @return the length of the edges array
     */
    public int getEdgeCount() {
        return edges.length;
    }

    /**
     * An edge's end.
     *
     * @param i the edge, 0 to {@code getEdgeCount() - 1}
     * @return the neighbour it names
     */
    public int getEdge(int i) {
        return edges[i];
    }
}
