package mpi;

/**
 * The caller's neighbours in a distributed graph, as {@link GraphComm#getDistGraphNeighbors()}
 * reports them: in-neighbours (sources) and out-neighbours (destinations), in the order the
 * neighbourhood collectives use, with their weights. The weights mean something only when
 * {@link #isWeighted()} is true.
 */
public final class DistGraphNeighbors {

    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    /**
     * The neighbours; the arrays are kept, not copied.
     *
     * @param sources the in-neighbours
     * @param sourceWeights their weights
     * @param destinations the out-neighbours
     * @param destWeights their weights
     * @param weighted whether the graph was made with weights
     */
    protected DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
                                 boolean weighted) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
        this.weighted = weighted;
    }

    /**
     * The number of in-neighbours.
     *
     * @return the in-degree
     */
    public int getInDegree() {
        return sources.length;
    }

    /**
     * The number of out-neighbours.
     *
     * @return the out-degree
     */
    public int getOutDegree() {
        return destinations.length;
    }

    /**
     * Whether the graph was made with weights.
     *
     * @return whether the weights mean something
     */
    public boolean isWeighted() {
        return weighted;
    }

    /**
     * An in-neighbour.
     *
     * @param i 0 to {@code getInDegree() - 1}
     * @return its rank
     */
    public int getSource(int i) {
        return sources[i];
    }

    /**
     * An in-neighbour's weight.
     *
     * @param i 0 to {@code getInDegree() - 1}
     * @return the weight of its edge (1 when unweighted)
     */
    public int getSourceWeight(int i) {
        return sourceWeights[i];
    }

    /**
     * An out-neighbour.
     *
     * @param i 0 to {@code getOutDegree() - 1}
     * @return its rank
     */
    public int getDestination(int i) {
        return destinations[i];
    }

    /**
     * An out-neighbour's weight.
     *
     * @param i 0 to {@code getOutDegree() - 1}
     * @return the weight of its edge (1 when unweighted)
     */
    public int getDestinationWeight(int i) {
        return destWeights[i];
    }
}
