package mpi;

import io.bdmpi.protocol.ElementType;
import io.bdmpi.slave.SlaveRuntime;

/**
 * An MPI datatype. Each has a Java element type, its "base" (int for {@code MPI.INT}), that a
 * buffer for it must have, and an extent in base units: sizes, extents and bounds are counted in
 * base units, not bytes, as in Open MPI's bindings. The basic types have an extent of one; the
 * MINLOC/MAXLOC pair types ({@code MPI.INT2}, {@code MPI.DOUBLE_INT}, ...) are byte-based C structs
 * whose extent is their size in bytes, padding included; {@link Struct#getType()} makes byte-based
 * types of a struct's extent.
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
    /** Base units from one item to the next. */
    final int extent;
    /** Base units of data in one item (less than the extent when the item has padding). */
    private final int size;
    /** Base units from the first to the last byte of data of one item. */
    private final int trueExtent;
    /** How the master reduces items of this type; null when no predefined operator applies (PACKED, structs). */
    final ElementType element;
    private final String name;

    private Datatype(Base base, int extent, int size, int trueExtent, ElementType element, String name) {
        this.base = base;
        this.extent = extent;
        this.size = size;
        this.trueExtent = trueExtent;
        this.element = element;
        this.name = name;
    }

    /** A basic type: one element of {@code base} per item. */
    static Datatype basic(Base base, ElementType element, String name) {
        return new Datatype(base, 1, 1, 1, element, name);
    }

    /**
     * A {value; int index} pair as C lays it out: the value at byte 0, the index at
     * {@code indexOffset}, the whole padded to {@code element.size} bytes.
     */
    static Datatype pair(ElementType element, int valueBytes, int indexOffset, String name) {
        return new Datatype(Base.BYTE, element.size, valueBytes + 4, indexOffset + 4, element, name);
    }

    /** Opaque bytes of a struct: moved as they are, never reduced by a predefined operator. */
    static Datatype structBytes(int extent, String name) {
        return new Datatype(Base.BYTE, extent, extent, extent, null, name);
    }

    /** Bytes of one item of this type in a message. */
    int byteSize() {
        return base.bytes * extent;
    }

    /**
     * Extent in base units: 1 for the basic types, bytes for the pair types.
     *
     * @return the extent in base units
     * @throws MPIException never here; declared as in Open MPI
     */
    public int getExtent() throws MPIException {
        return extent;
    }

    /**
     * Size in base units, padding excluded: 1 for the basic types, bytes for the pair types.
     *
     * @return the size in base units
     * @throws MPIException never here; declared as in Open MPI
     */
    public int getSize() throws MPIException {
        return size;
    }

    /**
     * Lower bound in base units: 0 for every type here.
     *
     * @return 0
     * @throws MPIException never here; declared as in Open MPI
     */
    public int getLb() throws MPIException {
        return 0;
    }

    /**
     * True extent in base units: from the first to the last byte of data of an item.
     *
     * @return the true extent in base units
     * @throws MPIException never here; declared as in Open MPI
     */
    public int getTrueExtent() throws MPIException {
        return trueExtent;
    }

    /**
     * True lower bound in base units: 0 for every type here.
     *
     * @return 0
     * @throws MPIException never here; declared as in Open MPI
     */
    public int getTrueLb() throws MPIException {
        return 0;
    }

    /**
     * The type's name, such as {@code MPI_INT}.
     *
     * @return the name
     * @throws MPIException never here; declared as in Open MPI
     */
    public String getName() throws MPIException {
        return name;
    }

    /**
     * Does nothing: every type here is committed from the start.
     *
     * @throws MPIException never here; declared as in Open MPI
     */
    public void commit() throws MPIException {
    }

    /** Does nothing: predefined types cannot be freed. */
    @Override
    public void free() throws MPIException {
    }

    /**
     * False: every datatype that exists here is a real one.
     *
     * @return false
     */
    public boolean isNull() {
        return false;
    }

    // ---------------------------------------------------------------- attributes (see Attributes)

    /** Cached attributes; errors of the calls on them go to COMM_WORLD's handler. */
    private final Attributes attributes = Attributes.forType();

    /**
     * A new keyval for datatype attributes (invalid on communicators).
     *
     * @return the keyval
     * @throws MPIException if MPI is not running
     */
    public static int createKeyval() throws MPIException {
        return Attributes.createKeyval(Attributes.Kind.TYPE, "MPI_Type_create_keyval");
    }

    /**
     * Frees a keyval made by {@link #createKeyval()}; attributes cached with it stay until deleted.
     *
     * @param keyval the keyval
     * @throws MPIException if MPI is not running; ERR_KEYVAL for an invalid keyval under
     *                      {@code MPI.ERRORS_RETURN} on {@code MPI.COMM_WORLD}
     */
    public static void freeKeyval(int keyval) throws MPIException {
        Attributes.freeKeyval(Attributes.Kind.TYPE, keyval, "MPI_Type_free_keyval");
    }

    /**
     * Caches a copy of {@code value} (serialized now) on the type under {@code keyval}.
     *
     * @param keyval a keyval from {@link #createKeyval()}
     * @param value a Serializable value
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} on {@code MPI.COMM_WORLD},
     *                      ERR_KEYVAL for an invalid keyval, ERR_ARG for a value that cannot be serialized
     */
    public void setAttr(int keyval, Object value) throws MPIException {
        String call = "MPI_Type_set_attr";
        Session.enter(call);
        try {
            attributes.set(call, keyval, value);
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.handle(e);
        }
    }

    /**
     * A fresh copy of the value cached under {@code keyval}.
     *
     * @param keyval a keyval from {@link #createKeyval()}
     * @return the value, or null when none is cached
     * @throws MPIException if MPI is not running; ERR_KEYVAL for an invalid keyval under
     *                      {@code MPI.ERRORS_RETURN} on {@code MPI.COMM_WORLD}
     */
    public Object getAttr(int keyval) throws MPIException {
        String call = "MPI_Type_get_attr";
        SlaveRuntime rt = Session.enter(call);
        try {
            return attributes.get(call, rt, keyval);
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.handle(e);
        }
    }

    /**
     * Removes the value cached under {@code keyval}.
     *
     * @param keyval a keyval from {@link #createKeyval()}
     * @throws MPIException if MPI is not running; ERR_KEYVAL for an invalid keyval under
     *                      {@code MPI.ERRORS_RETURN} on {@code MPI.COMM_WORLD}
     */
    public void deleteAttr(int keyval) throws MPIException {
        String call = "MPI_Type_delete_attr";
        Session.enter(call);
        try {
            attributes.delete(call, keyval);
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.handle(e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
