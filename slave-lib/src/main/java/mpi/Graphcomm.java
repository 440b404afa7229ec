package mpi;

/**
 * mpiJava 1.2's graph communicator, made by {@link Intracomm#Create_graph}: a {@link GraphComm}
 * (so Open MPI's methods work on it too) with mpiJava's method names. On the case clash with
 * {@code GraphComm}, see {@link Cartcomm}.
 */
public final class Graphcomm extends GraphComm {

    Graphcomm(int commId, int rank, int size, String name, Neighborhood neighborhood) {
        super(commId, rank, size, name, neighborhood);
    }

    /** MPI_Graph_create as mpiJava's class. */
    static Graphcomm create(Intracomm parent, int[] index, int[] edges) throws MPIException {
        return GraphComm.create(parent, index, edges, Graphcomm::new);
    }

    @Override
    Neighborhood.Maker<Graphcomm> maker() {
        return Graphcomm::new;
    }

    /**
     * As {@link GraphComm#dup}, as a {@code Graphcomm}.
     *
     * @return the new communicator
     * @throws MPIException as {@link GraphComm#dup}
     */
    @Override
    public Graphcomm dup() throws MPIException {
        return (Graphcomm) super.dup();
    }

    /**
     * mpiJava 1.2: a duplicate (MPI_Comm_dup), as {@link #dup}; errors as a RuntimeException.
     *
     * @return the new communicator
     */
    @Override
    public Graphcomm clone() {
        return (Graphcomm) super.clone();
    }

    /**
     * mpiJava 1.2: as {@link #getDims}; the result has public fields {@code index}, {@code edges}.
     *
     * @return the graph
     * @throws MPIException as {@link #getDims}
     */
    public GraphParms Get() throws MPIException {
        return getDims();
    }

    /**
     * mpiJava 1.2: as {@link #getNeighbors}.
     *
     * @param rank a node of the graph
     * @return its neighbours
     * @throws MPIException as {@link #getNeighbors}
     */
    public int[] Neighbours(int rank) throws MPIException {
        return getNeighbors(rank);
    }

    /**
     * mpiJava 1.2: as {@link #map}.
     *
     * @param index cumulative neighbour counts
     * @param edges the neighbour lists
     * @return this rank's rank in such a graph, or {@code MPI.UNDEFINED}
     * @throws MPIException as {@link #map}
     */
    public int Map(int[] index, int[] edges) throws MPIException {
        return map(index, edges);
    }
}
