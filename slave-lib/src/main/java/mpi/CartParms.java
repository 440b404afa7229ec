package mpi;

/**
 * A cartesian communicator's shape as {@link CartComm#getTopo()} reports it: the extent and
 * periodicity of each dimension, and the caller's coordinates.
 */
public final class CartParms {

    /** mpiJava 1.2: the extent of each dimension (what {@link #getDim} reads). */
    public final int[] dims;
    /** mpiJava 1.2: whether each dimension wraps around (what {@link #getPeriod} reads). */
    public final boolean[] periods;
    /** mpiJava 1.2: this rank's coordinates (what {@link #getCoord} reads). */
    public final int[] coords;

    /**
     * The shape; the arrays are kept, not copied.
     *
     * @param dims the extent of each dimension
     * @param periods whether each dimension wraps around
     * @param coords the caller's coordinates
     */
    protected CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    /**
     * The number of dimensions.
     *
     * @return the number of dimensions
     */
    public int getDimCount() {
        return dims.length;
    }

    /**
     * The extent of a dimension.
     *
     * @param i the dimension, 0 to {@code getDimCount() - 1}
     * @return its number of positions
     */
    public int getDim(int i) {
        return dims[i];
    }

    /**
     * Whether a dimension wraps around.
     *
     * @param i the dimension, 0 to {@code getDimCount() - 1}
     * @return whether it is periodic
     */
    public boolean getPeriod(int i) {
        return periods[i];
    }

    /**
     * The caller's coordinate in a dimension.
     *
     * @param i the dimension, 0 to {@code getDimCount() - 1}
     * @return the coordinate, from 0
     */
    public int getCoord(int i) {
        return coords[i];
    }
}
