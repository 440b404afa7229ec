package mpi;

import io.bdmpi.slave.SlaveRuntime;

/**
 * A communicator whose ranks form a cartesian grid ({@link Intracomm#createCart}), numbered in
 * row-major order: the last dimension varies fastest. Ranks keep their order from the parent
 * communicator whatever {@code reorder} says, as MPI allows. Its neighbourhood collectives
 * exchange with the -1 and +1 neighbour of each dimension, in that order.
 */
public class CartComm extends TopologyComm {

    CartComm(int commId, int rank, int size, String name, Neighborhood neighborhood) {
        super(commId, rank, size, name, neighborhood);
    }

    /** MPI_Cart_create over {@code parent} (collective): ranks past the grid get a null one. */
    static CartComm create(Intracomm parent, int[] dims, boolean[] periods) throws MPIException {
        return create(parent, dims, periods, CartComm::new);
    }

    /** As {@link #create(Intracomm, int[], boolean[])}, made by {@code maker} (mpiJava's {@link Cartcomm}). */
    static <C extends CartComm> C create(Intracomm parent, int[] dims, boolean[] periods, Neighborhood.Maker<C> maker)
            throws MPIException {
        String call = "MPI_Cart_create";
        return Neighborhood.create(parent, call, "CART", size -> {
            Topology.Cart grid = Topology.Cart.of(call, dims, periods);
            checkFits(call, grid, size);
            return grid;
        }, Topology.Cart::ranks, maker);
    }

    private static void checkFits(String call, Topology.Cart grid, int size) throws MPIException {
        if (grid.ranks() > size) {
            throw MPIException.of(MPI.ERR_ARG, call + ": a grid of " + grid.ranks() + " ranks in a communicator of "
                    + size);
        }
    }

    /** The grid, once the call is entered (a null communicator is an error). */
    /** What makes this class's communicators: its dups and subgrids keep the class. */
    Neighborhood.Maker<? extends CartComm> maker() {
        return CartComm::new;
    }

    private Topology.Cart grid(String call) throws MPIException {
        enter(call);
        return (Topology.Cart) neighborhood().topology;
    }

    /**
     * A new communicator with the same grid and members (collective).
     *
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public CartComm dup() throws MPIException {
        Topology.Cart grid = grid("MPI_Comm_dup");
        return Neighborhood.wrap(super.dup(), grid, maker());
    }

    /**
     * As {@link Comm#iDup()}: the duplicate, with the same topology, is made before this returns.
     *
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public CartComm iDup() throws MPIException {
        return (CartComm) super.iDup();
    }

    /**
     * As {@link Comm#dupWithInfo(Info)}, with the same topology.
     *
     * @param info the hints, or {@code MPI.INFO_NULL}
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        return (CartComm) super.dupWithInfo(info);
    }

    /** As {@link #dup()}, with an error wrapped in a RuntimeException, as Open MPI's clone. */
    @Override
    public CartComm clone() {
        return (CartComm) super.clone();
    }

    /**
     * The grid's dimensions and periods, and the caller's coordinates.
     *
     * @return the grid's shape
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public CartParms getTopo() throws MPIException {
        Topology.Cart grid = grid("MPI_Cart_get");
        return new CartParms(grid.dims().clone(), grid.periods().clone(), grid.coordsOf(getRank()));
    }

    /**
     * The rank at some coordinates; on periodic dimensions coordinates out of range wrap around.
     *
     * @param coords one coordinate per dimension
     * @return the rank there
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_ARG} for too
     *                      few coordinates or one outside a non-periodic dimension
     */
    public int getRank(int[] coords) throws MPIException {
        String call = "MPI_Cart_rank";
        Topology.Cart grid = grid(call);
        try {
            return grid.rankOf(call, coords);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * The coordinates of a rank.
     *
     * @param rank a rank of this communicator
     * @return a new array, one coordinate per dimension
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_RANK} for a
     *                      rank not in the communicator
     */
    public int[] getCoords(int rank) throws MPIException {
        String call = "MPI_Cart_coords";
        Topology.Cart grid = grid(call);
        Neighborhood.checkRank(this, call, rank);
        return grid.coordsOf(rank);
    }

    /**
     * The ranks {@code disp} steps below (the source) and above (the destination) the caller along
     * a dimension, as a shift along it exchanges with; past the edge of a non-periodic dimension
     * the rank is {@code MPI.PROC_NULL}.
     *
     * @param direction the dimension, 0 to its number of dimensions - 1
     * @param disp the steps: positive up, negative down
     * @return the source and destination
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_DIMS} for a
     *                      direction that is no dimension
     */
    public ShiftParms shift(int direction, int disp) throws MPIException {
        String call = "MPI_Cart_shift";
        Topology.Cart grid = grid(call);
        if (direction < 0 || direction >= grid.ndims()) {
            throw handle(MPIException.of(MPI.ERR_DIMS, call + ": direction " + direction + " in a grid of "
                    + grid.ndims() + " dimensions"));
        }
        int[] ranks = grid.shift(getRank(), direction, disp);
        return new ShiftParms(ranks[0], ranks[1]);
    }

    /**
     * Splits the grid into sub-grids that keep the dimensions where {@code remainDims} is true
     * (collective): the ranks sharing their coordinates in the other dimensions form one. Keeping
     * no dimension gives each rank a grid of its own, with no dimensions.
     *
     * @param remainDims per dimension, whether the sub-grids keep it
     * @return this rank's sub-grid
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_ARG} for too
     *                      few entries
     */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        String call = "MPI_Cart_sub";
        int rank = getRank();
        Topology.Cart grid = grid(call);
        if (remainDims == null || remainDims.length < grid.ndims()) {
            throw handle(MPIException.of(MPI.ERR_ARG, call + ": " + (remainDims == null ? "null remainDims"
                    : remainDims.length + " entries") + " for " + grid.ndims() + " dimensions"));
        }
        SlaveRuntime rt = enter(call);
        return Neighborhood.wrap(derive(call, rt, grid.subGrid(rank, remainDims), rank, "SUB"), grid.sub(remainDims),
                maker());
    }

    /**
     * The caller's rank in a grid of that shape placed on this communicator: as ranks keep their
     * order, its own rank if the grid reaches it.
     *
     * @param dims the extent of each dimension
     * @param periods whether each dimension wraps around
     * @return the caller's rank in the grid, or {@code MPI.UNDEFINED} if the grid has fewer ranks
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_DIMS} or
     *                      {@code MPI.ERR_ARG} for a bad shape or one larger than the communicator
     */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        String call = "MPI_Cart_map";
        int rank = getRank();
        int size = getSize();
        enter(call);
        try {
            Topology.Cart grid = Topology.Cart.of(call, dims, periods);
            checkFits(call, grid, size);
            return rank < grid.ranks() ? rank : MPI.UNDEFINED;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * MPI_Dims_create: a balanced grid of {@code nnodes} ranks. Fills the zero entries of
     * {@code dims} in place, keeping the others as given, so that all multiply to {@code nnodes};
     * the filled values are as close to each other as possible and non-increasing. Errors go to
     * {@code MPI.COMM_WORLD}'s handler.
     *
     * @param nnodes the number of ranks in the grid
     * @param dims one entry per dimension: 0 to choose it, or the extent it must have
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_DIMS} when
     *                      the given entries are negative or do not divide {@code nnodes}
     */
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        String call = "MPI_Dims_create";
        Session.enter(call);
        try {
            Topology.Cart.createDims(call, nnodes, dims);
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.handle(e);
        }
    }
}
