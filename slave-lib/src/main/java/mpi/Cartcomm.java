package mpi;

/**
 * mpiJava 1.2's cartesian communicator, made by {@link Intracomm#Create_cart}: a {@link CartComm}
 * (so Open MPI's methods work on it too) with mpiJava's method names.
 *
 * <p>{@code Cartcomm} and {@code CartComm} differ only in case: their class files collide on a
 * case-insensitive file system (macOS, Windows) if the jar is unpacked there. Both are kept so
 * that programs of either API compile unchanged; slave-lib is built and run on Linux only (the
 * runtime needs Unix-domain sockets, /proc and signals), and a jar keeps both entries anywhere.
 */
public final class Cartcomm extends CartComm {

    Cartcomm(int commId, int rank, int size, String name, Neighborhood neighborhood) {
        super(commId, rank, size, name, neighborhood);
    }

    /** MPI_Cart_create as mpiJava's class. */
    static Cartcomm create(Intracomm parent, int[] dims, boolean[] periods) throws MPIException {
        return CartComm.create(parent, dims, periods, Cartcomm::new);
    }

    @Override
    Neighborhood.Maker<Cartcomm> maker() {
        return Cartcomm::new;
    }

    /**
     * As {@link CartComm#dup}, as a {@code Cartcomm}.
     *
     * @return the new communicator
     * @throws MPIException as {@link CartComm#dup}
     */
    @Override
    public Cartcomm dup() throws MPIException {
        return (Cartcomm) super.dup();
    }

    /**
     * mpiJava 1.2: a duplicate (MPI_Comm_dup), as {@link #dup}; errors as a RuntimeException.
     *
     * @return the new communicator
     */
    @Override
    public Cartcomm clone() {
        return (Cartcomm) super.clone();
    }

    /**
     * mpiJava 1.2: as {@link #getTopo}; the result has public fields {@code dims}, {@code periods}, {@code coords}.
     *
     * @return the grid and this rank's coordinates
     * @throws MPIException as {@link #getTopo}
     */
    public CartParms Get() throws MPIException {
        return getTopo();
    }

    /**
     * mpiJava 1.2: as {@link #getRank(int[])}.
     *
     * @param coords coordinates in the grid
     * @return the rank there
     * @throws MPIException as {@link #getRank(int[])}
     */
    public int Rank(int[] coords) throws MPIException {
        return getRank(coords);
    }

    /**
     * mpiJava 1.2: as {@link #getCoords}.
     *
     * @param rank a rank of the grid
     * @return its coordinates
     * @throws MPIException as {@link #getCoords}
     */
    public int[] Coords(int rank) throws MPIException {
        return getCoords(rank);
    }

    /**
     * mpiJava 1.2: as {@link #shift}; the result has public fields {@code rank_source}, {@code rank_dest}.
     *
     * @param direction the dimension
     * @param disp the displacement
     * @return the ranks to receive from and send to
     * @throws MPIException as {@link #shift}
     */
    public ShiftParms Shift(int direction, int disp) throws MPIException {
        return shift(direction, disp);
    }

    /**
     * mpiJava 1.2: as {@link #sub}.
     *
     * @param remainDims which dimensions the subgrids keep
     * @return this rank's subgrid
     * @throws MPIException as {@link #sub}
     */
    public Cartcomm Sub(boolean[] remainDims) throws MPIException {
        return (Cartcomm) sub(remainDims);
    }

    /**
     * mpiJava 1.2: as {@link #map}.
     *
     * @param dims the extent of each dimension
     * @param periods whether each dimension wraps around
     * @return this rank's rank in such a grid, or {@code MPI.UNDEFINED}
     * @throws MPIException as {@link #map}
     */
    public int Map(int[] dims, boolean[] periods) throws MPIException {
        return map(dims, periods);
    }

    /**
     * mpiJava 1.2: as {@link #createDims}.
     *
     * @param nnodes the number of ranks
     * @param dims the extents, 0 where they are to be chosen
     * @throws MPIException as {@link #createDims}
     */
    public static void Dims_create(int nnodes, int[] dims) throws MPIException {
        createDims(nnodes, dims);
    }
}
