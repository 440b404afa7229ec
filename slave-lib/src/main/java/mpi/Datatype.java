package mpi;

import io.bdmpi.protocol.ElementType;
import io.bdmpi.slave.SlaveRuntime;

import java.util.Arrays;

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
    /** The layout of one item, in bytes. */
    final TypeMap map;
    /** How the master reduces items of this type; null when no predefined operator applies (PACKED, mixed structs). */
    final ElementType element;
    /** Predefined types are committed from the start and cannot be freed. */
    final boolean predefined;
    /** For a pair type, the bytes of its value and index (padding excluded), and the end of its index; else null. */
    private final int[] pairData;
    private volatile String name;
    private volatile boolean committed;
    private volatile boolean freed;

    private Datatype(Base base, TypeMap map, boolean predefined, boolean committed, String name) {
        this(base, map, predefined, committed, name, null);
    }

    private Datatype(Base base, TypeMap map, boolean predefined, boolean committed, String name, int[] pairData) {
        this.pairData = pairData;
        this.base = base;
        this.map = map;
        this.element = map.element;
        this.predefined = predefined;
        this.committed = committed;
        this.name = name;
    }

    /** A basic type: one element of {@code base} per item. */
    static Datatype basic(Base base, ElementType element, String name) {
        return new Datatype(base, TypeMap.basic(base.bytes, element), true, true, name);
    }

    /**
     * A predefined type of {@code elements} elements of {@code base} moved as one element of
     * {@code element} (the complex types: two floats or doubles, reduced as one complex number).
     */
    static Datatype composite(Base base, int elements, ElementType element, String name) {
        return new Datatype(base, TypeMap.basic(base.bytes * elements, element), true, true, name);
    }

    /**
     * A {value; int index} pair as C lays it out: the value at byte 0, the index at
     * {@code indexOffset}, the whole padded to {@code element.size} bytes, moved whole (padding
     * included) and reduced by MINLOC and MAXLOC.
     */
    static Datatype pair(ElementType element, int valueBytes, int indexOffset, String name) {
        return new Datatype(Base.BYTE, TypeMap.basic(element.size, element), true, true, name,
                new int[] {valueBytes + 4, indexOffset + 4});
    }

    /** Opaque bytes of a struct: moved as they are, never reduced by a predefined operator. */
    static Datatype structBytes(int extent, String name) {
        return new Datatype(Base.BYTE, TypeMap.basic(extent, null), true, true, name);
    }

    /** {@code MPI.DATATYPE_NULL}: no layout; using it is an ERR_TYPE error. */
    static Datatype nullType() {
        Datatype t = new Datatype(Base.BYTE, TypeMap.empty(), true, true, "MPI_DATATYPE_NULL");
        t.freed = true;
        return t;
    }

    /** Bytes of one item of this type in a message: its data, gaps excluded. */
    int byteSize() {
        return map.size;
    }

    /** The predefined type of one element of the base: {@code MPI.INT} for an int-based type. */
    Datatype baseType() {
        return switch (base) {
            case BYTE -> MPI.BYTE;
            case CHAR -> MPI.CHAR;
            case SHORT -> MPI.SHORT;
            case BOOLEAN -> MPI.BOOLEAN;
            case INT -> MPI.INT;
            case LONG -> MPI.LONG;
            case FLOAT -> MPI.FLOAT;
            case DOUBLE -> MPI.DOUBLE;
        };
    }

    /** Bytes from one item to the next. */
    int extentBytes() {
        return map.extent;
    }

    /**
     * Checks that the type may be used in communication.
     *
     * @throws MPIException ERR_TYPE for a null, freed or uncommitted type
     */
    static void checkUsable(String call, Datatype type) throws MPIException {
        if (type == null) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": null datatype");
        }
        if (type.freed) {
            // A freed predefined type is MPI.DATATYPE_NULL, which its name says.
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + (type.predefined ? type.name
                    : (type.name.isEmpty() ? "the datatype" : type.name) + " has been freed"));
        }
        if (!type.committed) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + type + " is not committed (call commit() first)");
        }
    }

    // ---------------------------------------------------------------- derived datatypes

    /**
     * {@code count} items of {@code oldType} back to back.
     *
     * @param count the number of items
     * @param oldType the type of the items
     * @return the new type, with {@code oldType}'s base; commit it before use
     * @throws MPIException ERR_COUNT for a negative count, ERR_TYPE for a null or freed
     *                      {@code oldType}, through {@code MPI.COMM_WORLD}'s error handler
     */
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        return DerivedTypes.contiguous(count, oldType);
    }

    /**
     * {@code count} blocks of {@code blockLength} items of {@code oldType}, the blocks
     * {@code stride} extents of {@code oldType} apart.
     *
     * @param count the number of blocks
     * @param blockLength the items in each block
     * @param stride the distance between the starts of blocks, in extents of {@code oldType}
     * @param oldType the type of the items
     * @return the new type, with {@code oldType}'s base; commit it before use
     * @throws MPIException ERR_COUNT or ERR_ARG for a negative count or block length, ERR_TYPE for a
     *                      null or freed {@code oldType}, through {@code MPI.COMM_WORLD}'s error handler
     */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        return DerivedTypes.vector("MPI_Type_vector", count, blockLength, stride, false, oldType);
    }

    /**
     * As {@link #createVector} with {@code stride} in bytes.
     *
     * @param count the number of blocks
     * @param blockLength the items in each block
     * @param stride the distance between the starts of blocks, in bytes
     * @param oldType the type of the items
     * @return the new type, with {@code oldType}'s base; commit it before use
     * @throws MPIException as {@link #createVector}
     */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        return DerivedTypes.vector("MPI_Type_create_hvector", count, blockLength, stride, true, oldType);
    }

    /**
     * Blocks of items of {@code oldType}: block i has {@code blockLengths[i]} items, starting
     * {@code displacements[i]} extents of {@code oldType} from the item's start.
     *
     * @param blockLengths the items in each block
     * @param displacements where each block starts, in extents of {@code oldType}
     * @param oldType the type of the items
     * @return the new type, with {@code oldType}'s base; commit it before use
     * @throws MPIException ERR_ARG for null arrays, fewer displacements than blocks or a negative
     *                      block length, ERR_TYPE for a null or freed {@code oldType}, through
     *                      {@code MPI.COMM_WORLD}'s error handler
     */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        return DerivedTypes.indexed("MPI_Type_indexed", blockLengths, displacements, false, oldType);
    }

    /**
     * As {@link #createIndexed} with displacements in bytes.
     *
     * @param blockLengths the items in each block
     * @param displacements where each block starts, in bytes
     * @param oldType the type of the items
     * @return the new type, with {@code oldType}'s base; commit it before use
     * @throws MPIException as {@link #createIndexed}
     */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        return DerivedTypes.indexed("MPI_Type_create_hindexed", blockLengths, displacements, true, oldType);
    }

    /**
     * Blocks of items of different types: block i has {@code blockLengths[i]} items of
     * {@code types[i]} at byte {@code displacements[i]}. The result's base is BYTE whatever its
     * members are, so it goes with a {@code byte[]} or a ByteBuffer and its getters report bytes.
     *
     * @param blockLengths the items in each block
     * @param displacements where each block starts, in bytes
     * @param types the type of each block's items
     * @return the new type; commit it before use
     * @throws MPIException ERR_ARG for null or short arrays or a negative block length, ERR_TYPE for
     *                      a null or freed member type, through {@code MPI.COMM_WORLD}'s error handler
     */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types)
            throws MPIException {
        return DerivedTypes.struct(blockLengths, displacements, types);
    }

    /**
     * The layout of {@code oldType} with a new lower bound and extent, both in bytes (as in Open
     * MPI, although the getters report base units).
     *
     * @param oldType the type to resize
     * @param lb the new lower bound, in bytes
     * @param extent the new extent, in bytes
     * @return the new type, with {@code oldType}'s base; commit it before use
     * @throws MPIException ERR_TYPE for a null or freed {@code oldType}, ERR_ARG for a negative
     *                      extent, through {@code MPI.COMM_WORLD}'s error handler
     */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        return DerivedTypes.resized(oldType, lb, extent);
    }

    /**
     * This type's items {@code bytes} further into the buffer: the same extent, base type and
     * committed state, every displacement moved by {@code bytes}.
     */
    Datatype shifted(String call, int bytes) throws MPIException {
        Datatype t = derived(base, TypeMap.struct(call, new int[]{1}, new long[]{bytes}, new TypeMap[]{map}));
        t.committed = committed;
        return t;
    }

    /** A new, uncommitted derived type of {@code base} and layout {@code map}. */
    static Datatype derived(Base base, TypeMap map) {
        return new Datatype(base, map, false, false, "");
    }

    /**
     * A new handle with the same layout, base type and committed state.
     *
     * @return the copy
     * @throws MPIException ERR_TYPE for a freed type, through {@code MPI.COMM_WORLD}'s error handler
     */
    public Datatype dup() throws MPIException {
        String call = "MPI_Type_dup";
        Session.enter(call);
        if (freed) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_TYPE, call + ": " + this + " is null or freed"));
        }
        Datatype copy = new Datatype(base, map, false, true, "", pairData);
        copy.committed = committed;
        copy.attributes = attributes.copyForDup();
        return copy;
    }

    /**
     * What a persistent request keeps of {@code type} at its {@code *Init}: the type itself if
     * predefined (or null), else a copy that the program cannot free, as MPI binds a request to
     * its arguments when it is made (a freed type stays usable by the requests made before).
     */
    static Datatype keptByRequest(Datatype type) {
        if (type == null || type.predefined || type.freed) {
            return type;
        }
        Datatype copy = new Datatype(type.base, type.map, false, true, type.name, type.pairData);
        copy.committed = type.committed;
        return copy;
    }

    /**
     * As {@link #dup()}, with an error as a RuntimeException.
     *
     * @return the copy
     */
    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    // ---------------------------------------------------------------- queries

    /**
     * Extent in base units: bytes from one item to the next, divided by the base type's size
     * (1 for the basic types, bytes for the pair types and structs, 2 for the complex types).
     *
     * @return the extent in base units
     * @throws MPIException never here; declared as in Open MPI
     */
    public int getExtent() throws MPIException {
        return map.extent / base.bytes;
    }

    /**
     * Size in base units: bytes of data in one item (gaps excluded) divided by the base type's size.
     *
     * @return the size in base units
     * @throws MPIException never here; declared as in Open MPI
     */
    public int getSize() throws MPIException {
        return dataBytes() / base.bytes;
    }

    /** Bytes of data in one item; for a pair type, its value and index only (not the padding). */
    private int dataBytes() {
        return pairData != null ? pairData[0] : map.size;
    }

    /**
     * Lower bound in base units: 0 unless a derived type says otherwise.
     *
     * @return the lower bound in base units
     * @throws MPIException never here; declared as in Open MPI
     */
    public int getLb() throws MPIException {
        return map.lb / base.bytes;
    }

    /**
     * True extent in base units: from the first to the last byte of data of an item, ignoring
     * resizing.
     *
     * @return the true extent in base units
     * @throws MPIException never here; declared as in Open MPI
     */
    public int getTrueExtent() throws MPIException {
        if (pairData != null) {
            return pairData[1];
        }
        return (map.trueUb - map.trueLb) / base.bytes;
    }

    /**
     * True lower bound in base units: where an item's data starts, ignoring resizing.
     *
     * @return the true lower bound in base units
     * @throws MPIException never here; declared as in Open MPI
     */
    public int getTrueLb() throws MPIException {
        return map.trueLb / base.bytes;
    }

    /**
     * The type's name: {@code MPI_INT} for a predefined type, empty for a new derived one unless
     * {@link #setName} gave it one.
     *
     * @return the name
     * @throws MPIException never here; declared as in Open MPI
     */
    public String getName() throws MPIException {
        return name;
    }

    /**
     * Names the type; names are cut to {@value #MAX_NAME} characters, as MPI's are to
     * {@code MPI_MAX_OBJECT_NAME - 1}.
     *
     * @param name the new name
     * @throws MPIException ERR_ARG for a null name, through {@code MPI.COMM_WORLD}'s error handler
     */
    public void setName(String name) throws MPIException {
        String call = "MPI_Type_set_name";
        Session.enter(call);
        if (name == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_ARG, call + ": null name"));
        }
        this.name = name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name;
    }

    /** Characters a name keeps: Open MPI's MPI_MAX_OBJECT_NAME (64) less the C string's terminator. */
    private static final int MAX_NAME = 63;

    // ---------------------------------------------------------------- life cycle

    /**
     * Makes a derived type usable in communication; harmless on a predefined or committed one.
     *
     * @throws MPIException ERR_TYPE for a freed type, through {@code MPI.COMM_WORLD}'s error handler
     */
    public void commit() throws MPIException {
        String call = "MPI_Type_commit";
        Session.enter(call);
        if (freed) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_TYPE, call + ": " + this + " is null or freed"));
        }
        committed = true;
    }

    /**
     * Frees a derived type: it becomes null ({@link #isNull()}). Types derived from it stay valid.
     * Freeing {@code MPI.DATATYPE_NULL} does nothing.
     *
     * @throws MPIException ERR_TYPE for a predefined type, through {@code MPI.COMM_WORLD}'s error handler
     */
    @Override
    public void free() throws MPIException {
        String call = "MPI_Type_free";
        Session.enter(call);
        if (predefined && !freed) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_TYPE, call + ": " + this
                    + " is predefined and cannot be freed"));
        }
        freed = true;
    }

    /**
     * Whether this is {@code MPI.DATATYPE_NULL} or a freed type.
     *
     * @return whether the handle is null
     */
    public boolean isNull() {
        return freed;
    }

    // ---------------------------------------------------------------- attributes (see Attributes)

    /** Cached attributes; errors of the calls on them go to COMM_WORLD's handler. */
    private Attributes attributes = Attributes.forType();

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
     * Frees a keyval made by {@link #createKeyval()}. As in MPI, values cached with it stay: they can
     * still be read and deleted (and are copied by a dup), but no value can be set with it any more.
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
        return name.isEmpty() ? (freed ? "a freed datatype" : "a derived datatype") : name;
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters
    // mpiJava counts displacements, extents and sizes in elements of the buffer's array, not bytes.

    /** mpiJava's {@code MPI.OBJECT}, {@code MPI.LB}, {@code MPI.UB}: types the mpiJava calls recognise by identity. */
    static Datatype marker(String name) {
        return structBytes(0, name);
    }

    /** mpiJava's {@code SHORT2} ... {@code DOUBLE2}: {@code Contiguous(2, type)}, predefined. */
    static Datatype two(Datatype type, String name) {
        try {
            return new Datatype(type.base, TypeMap.blocks(name, new int[] {2}, new long[] {0}, type.map), true, true, name);
        } catch (MPIException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Bytes of one element of the array an mpiJava program uses with this type: the base type's
     * size, but 4 for {@code MPI.INT2}, which mpiJava uses with an {@code int[]} (value, index).
     */
    int elementBytes() {
        return this == MPI.INT2 ? 4 : base.bytes;
    }

    /**
     * mpiJava 1.2: as {@link #createContiguous}.
     *
     * @param count the number of items of {@code oldtype}
     * @param oldtype the item type
     * @return the new type; commit it before use
     * @throws MPIException as {@link #createContiguous}
     */
    public static Datatype Contiguous(int count, Datatype oldtype) throws MPIException {
        return createContiguous(count, oldtype);
    }

    /**
     * mpiJava 1.2: as {@link #createVector} (stride in extents of {@code oldtype}).
     *
     * @param count the number of blocks
     * @param blocklength the items of {@code oldtype} per block
     * @param stride the distance between block starts, in extents of {@code oldtype}
     * @param oldtype the item type
     * @return the new type; commit it before use
     * @throws MPIException as {@link #createVector}
     */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) throws MPIException {
        return createVector(count, blocklength, stride, oldtype);
    }

    /**
     * mpiJava 1.2: as {@link #createHVector}, with the stride in elements of the buffer.
     *
     * @param count the number of blocks
     * @param blocklength the items of {@code oldtype} per block
     * @param stride the distance between block starts, in buffer elements
     * @param oldtype the item type
     * @return the new type; commit it before use
     * @throws MPIException as {@link #createHVector}
     */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) throws MPIException {
        return createHVector(count, blocklength, stride * unitOf(oldtype), oldtype);
    }

    /**
     * mpiJava 1.2: as {@link #createIndexed} (displacements in extents of {@code oldtype}).
     *
     * @param blocklengths the items of {@code oldtype} per block
     * @param displacements each block's start, in extents of {@code oldtype}
     * @param oldtype the item type
     * @return the new type; commit it before use
     * @throws MPIException as {@link #createIndexed}
     */
    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) throws MPIException {
        return createIndexed(blocklengths, displacements, oldtype);
    }

    /**
     * mpiJava 1.2: as {@link #createHIndexed}, with displacements in elements of the buffer.
     *
     * @param blocklengths the items of {@code oldtype} per block
     * @param displacements each block's start, in buffer elements
     * @param oldtype the item type
     * @return the new type; commit it before use
     * @throws MPIException as {@link #createHIndexed}
     */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) throws MPIException {
        return createHIndexed(blocklengths, scaled(displacements, unitOf(oldtype)), oldtype);
    }

    /**
     * mpiJava 1.2: as {@link #createStruct}, with displacements in elements of the buffer (every
     * type has the same base, as mpiJava requires; the new type has it too, so that its getters
     * count in elements of the buffer). {@code MPI.LB} and {@code MPI.UB} entries set the lower and
     * upper bound, as {@link #createResized} does.
     *
     * @param blocklengths the items per block
     * @param displacements each block's start, in buffer elements
     * @param types each block's item type, or {@code MPI.LB} / {@code MPI.UB}
     * @return the new type; commit it before use
     * @throws MPIException as {@link #createStruct}
     */
    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) throws MPIException {
        if (blocklengths == null || displacements == null || types == null) {
            return createStruct(blocklengths, displacements, types);
        }
        int n = Math.min(types.length, Math.min(blocklengths.length, displacements.length));
        int unit = 1;
        Base common = null;
        boolean oneBase = true;
        for (int i = n - 1; i >= 0; i--) {
            if (types[i] != MPI.LB && types[i] != MPI.UB && types[i] != null) {
                unit = unitOf(types[i]);
                oneBase &= common == null || common == types[i].base;
                common = types[i].base;
            }
        }
        int[] lengths = new int[n];
        int[] bytes = new int[n];
        Datatype[] kept = new Datatype[n];
        Integer lb = null;
        Integer ub = null;
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (types[i] == MPI.LB) {
                lb = displacements[i] * unit;
            } else if (types[i] == MPI.UB) {
                ub = displacements[i] * unit;
            } else {
                lengths[k] = blocklengths[i];
                bytes[k] = displacements[i] * unit;
                kept[k++] = types[i];
            }
        }
        Datatype t = createStruct(Arrays.copyOf(lengths, k), Arrays.copyOf(bytes, k), Arrays.copyOf(kept, k));
        if (oneBase && common != null) {
            t = derived(common, t.map);
        }
        if (lb == null && ub == null) {
            return t;
        }
        int low = lb != null ? lb : t.map.lb;
        int high = ub != null ? ub : t.map.lb + t.map.extent;
        return createResized(t, low, high - low);
    }

    private static int unitOf(Datatype type) {
        return type == null ? 1 : type.elementBytes();
    }

    private static int[] scaled(int[] displacements, int unit) {
        return displacements == null ? null : Arrays.stream(displacements).map(d -> d * unit).toArray();
    }

    /**
     * mpiJava 1.2: the extent in buffer elements.
     *
     * @return the extent in buffer elements
     * @throws MPIException never here; declared as in mpiJava
     */
    public int Extent() throws MPIException {
        return map.extent / elementBytes();
    }

    /**
     * mpiJava 1.2: the size (data only) in buffer elements.
     *
     * @return the size in buffer elements
     * @throws MPIException never here; declared as in mpiJava
     */
    public int Size() throws MPIException {
        return dataBytes() / elementBytes();
    }

    /**
     * mpiJava 1.2: the lower bound in buffer elements.
     *
     * @return the lower bound in buffer elements
     * @throws MPIException never here; declared as in mpiJava
     */
    public int Lb() throws MPIException {
        return map.lb / elementBytes();
    }

    /**
     * mpiJava 1.2: the upper bound (lower bound plus extent) in buffer elements.
     *
     * @return the upper bound in buffer elements
     * @throws MPIException never here; declared as in mpiJava
     */
    public int Ub() throws MPIException {
        return (map.lb + map.extent) / elementBytes();
    }

    /**
     * mpiJava 1.2: as {@link #commit}.
     *
     * @throws MPIException as {@link #commit}
     */
    public void Commit() throws MPIException {
        commit();
    }

    /**
     * mpiJava 1.2: as {@link #free}.
     *
     * @throws MPIException as {@link #free}
     */
    public void Free() throws MPIException {
        free();
    }
}
