package mpi;

/**
 * An MPI datatype. Only the basic types exist so far. Each has a Java element type, its "base"
 * (int for {@code MPI.INT}), that a buffer for it must have, and an extent of one base unit: sizes,
 * extents and bounds are counted in base units, not bytes, as in Open MPI's bindings.
 *
 * <p>These getters read Java fields only, so unlike Open MPI's they also work outside
 * {@code Init}/{@code Finalize}.
 */
public final class Datatype implements Freeable {

    /** Java element types; {@code bytes} is the size of one element in a message. */
    enum Base {
        BYTE(1, "byte[] or a ByteBuffer"),
        CHAR(2, "char[] or a CharBuffer"),
        SHORT(2, "short[] or a ShortBuffer"),
        BOOLEAN(1, "boolean[]"),
        INT(4, "int[] or an IntBuffer"),
        LONG(8, "long[] or a LongBuffer"),
        FLOAT(4, "float[] or a FloatBuffer"),
        DOUBLE(8, "double[] or a DoubleBuffer");

        final int bytes;
        /** The buffers that hold this base, for error messages. */
        final String buffers;

        Base(int bytes, String buffers) {
            this.bytes = bytes;
            this.buffers = buffers;
        }
    }

    final Base base;
    private final String name;

    Datatype(Base base, String name) {
        this.base = base;
        this.name = name;
    }

    /** Bytes of one item of this type in a message. */
    int byteSize() {
        return base.bytes;
    }

    /** Extent in base units: 1 for every basic type. */
    public int getExtent() throws MPIException {
        return 1;
    }

    /** Size in base units: 1 for every basic type. */
    public int getSize() throws MPIException {
        return 1;
    }

    /** Lower bound in base units: 0 for every basic type. */
    public int getLb() throws MPIException {
        return 0;
    }

    /** True extent in base units: 1 for every basic type. */
    public int getTrueExtent() throws MPIException {
        return 1;
    }

    /** True lower bound in base units: 0 for every basic type. */
    public int getTrueLb() throws MPIException {
        return 0;
    }

    /** The type's name, such as {@code MPI_INT}. */
    public String getName() throws MPIException {
        return name;
    }

    /** Does nothing: basic types are committed from the start. */
    public void commit() throws MPIException {
    }

    /** Does nothing: predefined types cannot be freed. */
    @Override
    public void free() throws MPIException {
    }

    /** False: every datatype that exists here is a real one. */
    public boolean isNull() {
        return false;
    }

    @Override
    public String toString() {
        return name;
    }
}
