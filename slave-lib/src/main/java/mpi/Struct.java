package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Describes a C-like struct held in a byte buffer, and hands out {@link Data} views onto its
 * items. {@link Int2}, {@link ShortInt}, {@link LongInt}, {@link FloatInt} and {@link DoubleInt}
 * are the predefined ones, for MINLOC and MAXLOC.
 *
 * <p>A subclass declares its fields in its constructor with the {@code add...} methods, each of
 * which returns the field's byte offset, and implements {@link #newData()}. Fields are placed at
 * their C alignment unless {@link #setOffset(int)} says otherwise, and the extent is rounded up to
 * the largest alignment, so the layout is the C compiler's (on LP64).
 */
public abstract class Struct {

    private int extent;
    private int nextOffset;
    private int alignment = 1;
    private boolean sealed;
    private Datatype type;

    /** Creates a struct with no fields; the subclass adds them. */
    protected Struct() {
    }

    /**
     * Bytes from one item to the next.
     *
     * @return the extent in bytes
     * @throws MPIException never here; declared as in Open MPI
     */
    public final int getExtent() throws MPIException {
        seal();
        return extent;
    }

    /**
     * A datatype moving whole items of this struct as bytes. For the pair accessors this is not
     * the predefined pair type (e.g. {@code MPI.DOUBLE_INT}): only the latter works with MINLOC and
     * MAXLOC.
     *
     * @return the datatype
     * @throws MPIException never here; declared as in Open MPI
     */
    public final Datatype getType() throws MPIException {
        seal();
        return type;
    }

    /**
     * A new, unattached view; {@code getData} attaches it to an item of a buffer.
     *
     * @return the view
     */
    protected abstract Data newData();

    /**
     * A view of the first item of {@code buffer}.
     *
     * @param <T> the view's type (the subclass's {@link Data})
     * @param buffer the buffer holding the items
     * @return the view
     * @throws MPIException never here; declared as in Open MPI
     */
    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        return getData(buffer, 0);
    }

    /**
     * A view of item {@code index} of {@code buffer}, at byte {@code index * getExtent()}.
     *
     * @param <T> the view's type (the subclass's {@link Data})
     * @param buffer the buffer holding the items
     * @param index the item's index
     * @return the view
     * @throws MPIException never here; declared as in Open MPI
     */
    @SuppressWarnings("unchecked")
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        seal();
        Data d = newData();
        d.buffer = buffer;
        // Messages carry native order, whatever order the program set on its buffer.
        d.view = buffer.duplicate().order(ByteOrder.nativeOrder());
        d.offset = index * extent;
        return (T) d;
    }

    /**
     * A view of the first item of {@code array}, wrapped in native byte order.
     *
     * @param <T> the view's type (the subclass's {@link Data})
     * @param array the array holding the items
     * @return the view
     * @throws MPIException never here; declared as in Open MPI
     */
    public final <T extends Data> T getData(byte[] array) throws MPIException {
        return getData(array, 0);
    }

    /**
     * A view of item {@code index} of {@code array}, wrapped in native byte order.
     *
     * @param <T> the view's type (the subclass's {@link Data})
     * @param array the array holding the items
     * @param index the item's index
     * @return the view
     * @throws MPIException never here; declared as in Open MPI
     */
    public final <T extends Data> T getData(byte[] array, int index) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    // ---------------------------------------------------------------- declaring fields

    /**
     * Adds a byte; returns its offset.
     *
     * @return the byte offset of the field
     */
    protected final int addByte() {
        return addByte(1);
    }

    /**
     * Adds {@code length} bytes; returns the offset of the first.
     *
     * @param length the number of elements
     * @return the byte offset of the field
     */
    protected final int addByte(int length) {
        return addField(1, 1, length);
    }

    /**
     * Adds a char (2 bytes); returns its offset.
     *
     * @return the byte offset of the field
     */
    protected final int addChar() {
        return addChar(1);
    }

    /**
     * Adds {@code length} chars; returns the offset of the first.
     *
     * @param length the number of elements
     * @return the byte offset of the field
     */
    protected final int addChar(int length) {
        return addField(2, 2, length);
    }

    /**
     * Adds a short; returns its offset.
     *
     * @return the byte offset of the field
     */
    protected final int addShort() {
        return addShort(1);
    }

    /**
     * Adds {@code length} shorts; returns the offset of the first.
     *
     * @param length the number of elements
     * @return the byte offset of the field
     */
    protected final int addShort(int length) {
        return addField(2, 2, length);
    }

    /**
     * Adds a boolean (one byte, 0 or 1); returns its offset.
     *
     * @return the byte offset of the field
     */
    protected final int addBoolean() {
        return addBoolean(1);
    }

    /**
     * Adds {@code length} booleans; returns the offset of the first.
     *
     * @param length the number of elements
     * @return the byte offset of the field
     */
    protected final int addBoolean(int length) {
        return addField(1, 1, length);
    }

    /**
     * Adds an int; returns its offset.
     *
     * @return the byte offset of the field
     */
    protected final int addInt() {
        return addInt(1);
    }

    /**
     * Adds {@code length} ints; returns the offset of the first.
     *
     * @param length the number of elements
     * @return the byte offset of the field
     */
    protected final int addInt(int length) {
        return addField(4, 4, length);
    }

    /**
     * Adds a long; returns its offset.
     *
     * @return the byte offset of the field
     */
    protected final int addLong() {
        return addLong(1);
    }

    /**
     * Adds {@code length} longs; returns the offset of the first.
     *
     * @param length the number of elements
     * @return the byte offset of the field
     */
    protected final int addLong(int length) {
        return addField(8, 8, length);
    }

    /**
     * Adds a float; returns its offset.
     *
     * @return the byte offset of the field
     */
    protected final int addFloat() {
        return addFloat(1);
    }

    /**
     * Adds {@code length} floats; returns the offset of the first.
     *
     * @param length the number of elements
     * @return the byte offset of the field
     */
    protected final int addFloat(int length) {
        return addField(4, 4, length);
    }

    /**
     * Adds a double; returns its offset.
     *
     * @return the byte offset of the field
     */
    protected final int addDouble() {
        return addDouble(1);
    }

    /**
     * Adds {@code length} doubles; returns the offset of the first.
     *
     * @param length the number of elements
     * @return the byte offset of the field
     */
    protected final int addDouble(int length) {
        return addField(8, 8, length);
    }

    /**
     * Adds a nested struct; returns its offset.
     *
     * @param struct the nested struct's description
     * @return the byte offset of the field
     * @throws MPIException never here; declared as in Open MPI
     */
    protected final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    /**
     * Adds {@code length} nested structs; returns the offset of the first.
     *
     * @param struct the nested struct's description
     * @param length the number of elements
     * @return the byte offset of the field
     * @throws MPIException never here; declared as in Open MPI
     */
    protected final int addStruct(Struct struct, int length) throws MPIException {
        return addField(struct.getExtent(), struct.alignment, length);
    }

    /**
     * Adds an item of {@code type}; returns its offset.
     *
     * @param type the datatype
     * @return the byte offset of the field
     * @throws MPIException never here; declared as in Open MPI
     */
    protected final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    /**
     * Adds {@code length} items of {@code type}; returns the offset of the first.
     *
     * @param type the datatype
     * @param length the number of elements
     * @return the byte offset of the field
     * @throws MPIException never here; declared as in Open MPI
     */
    protected final int addData(Datatype type, int length) throws MPIException {
        return addField(type.extentBytes(), Math.min(type.extentBytes(), 8), length);
    }

    /**
     * Places the next field at byte {@code offset} instead of the next aligned one.
     *
     * @param offset the byte offset of the next field
     */
    protected final void setOffset(int offset) {
        requireOpen();
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        nextOffset = offset;
    }

    private int addField(int bytes, int align, int length) {
        requireOpen();
        if (length < 0) {
            throw new IllegalArgumentException("negative field length " + length);
        }
        // C places a field at the next multiple of its alignment.
        int offset = (nextOffset + align - 1) / align * align;
        nextOffset = offset + bytes * length;
        extent = Math.max(extent, nextOffset);
        alignment = Math.max(alignment, align);
        return offset;
    }

    private void requireOpen() {
        if (sealed) {
            throw new IllegalStateException("the struct's fields are fixed once it is used");
        }
    }

    /** Fixes the layout on first use: C pads the struct to a multiple of its largest alignment. */
    private synchronized void seal() {
        if (!sealed) {
            sealed = true;
            extent = (extent + alignment - 1) / alignment * alignment;
            type = Datatype.structBytes(extent, getClass().getSimpleName() + " struct");
        }
    }

    /**
     * A view of one item of a struct in a buffer. Subclasses read and write its fields by the
     * offsets their {@code add...} calls returned.
     */
    public abstract class Data {

        private ByteBuffer buffer;
        private ByteBuffer view;
        private int offset;

        /** Creates an unattached view; {@link Struct#getData} attaches it. */
        protected Data() {
        }

        /**
         * The buffer this item lives in, from the item's first byte.
         *
         * @return the buffer
         */
        public final ByteBuffer getBuffer() {
            // A duplicate: MPI.slice would clear the program's own buffer.
            return offset == 0 ? buffer : MPI.slice(buffer.duplicate(), offset);
        }

        /**
         * Reads the byte at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @return the value
         */
        protected final byte getByte(int field) {
            return getByte(field, 0);
        }

        /**
         * Reads element {@code index} of the byte array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @return the value
         */
        protected final byte getByte(int field, int index) {
            return view.get(offset + field + index);
        }

        /**
         * Writes the byte at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param v the value to write
         */
        protected final void putByte(int field, byte v) {
            putByte(field, 0, v);
        }

        /**
         * Writes element {@code index} of the byte array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @param v the value to write
         */
        protected final void putByte(int field, int index, byte v) {
            view.put(offset + field + index, v);
        }

        /**
         * Reads the boolean at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @return the value (true for any byte but 0)
         */
        protected final boolean getBoolean(int field) {
            return getBoolean(field, 0);
        }

        /**
         * Reads element {@code index} of the boolean array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @return the value (true for any byte but 0)
         */
        protected final boolean getBoolean(int field, int index) {
            return getByte(field, index) != 0;
        }

        /**
         * Writes the boolean at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param v the value to write (stored as 1 or 0)
         */
        protected final void putBoolean(int field, boolean v) {
            putBoolean(field, 0, v);
        }

        /**
         * Writes element {@code index} of the boolean array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @param v the value to write (stored as 1 or 0)
         */
        protected final void putBoolean(int field, int index, boolean v) {
            putByte(field, index, (byte) (v ? 1 : 0));
        }

        /**
         * Reads the char at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @return the value
         */
        protected final char getChar(int field) {
            return getChar(field, 0);
        }

        /**
         * Reads element {@code index} of the char array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @return the value
         */
        protected final char getChar(int field, int index) {
            return view.getChar(offset + field + 2 * index);
        }

        /**
         * Writes the char at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param v the value to write
         */
        protected final void putChar(int field, char v) {
            putChar(field, 0, v);
        }

        /**
         * Writes element {@code index} of the char array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @param v the value to write
         */
        protected final void putChar(int field, int index, char v) {
            view.putChar(offset + field + 2 * index, v);
        }

        /**
         * Reads the short at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @return the value
         */
        protected final short getShort(int field) {
            return getShort(field, 0);
        }

        /**
         * Reads element {@code index} of the short array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @return the value
         */
        protected final short getShort(int field, int index) {
            return view.getShort(offset + field + 2 * index);
        }

        /**
         * Writes the short at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param v the value to write
         */
        protected final void putShort(int field, short v) {
            putShort(field, 0, v);
        }

        /**
         * Writes element {@code index} of the short array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @param v the value to write
         */
        protected final void putShort(int field, int index, short v) {
            view.putShort(offset + field + 2 * index, v);
        }

        /**
         * Reads the int at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @return the value
         */
        protected final int getInt(int field) {
            return getInt(field, 0);
        }

        /**
         * Reads element {@code index} of the int array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @return the value
         */
        protected final int getInt(int field, int index) {
            return view.getInt(offset + field + 4 * index);
        }

        /**
         * Writes the int at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param v the value to write
         */
        protected final void putInt(int field, int v) {
            putInt(field, 0, v);
        }

        /**
         * Writes element {@code index} of the int array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @param v the value to write
         */
        protected final void putInt(int field, int index, int v) {
            view.putInt(offset + field + 4 * index, v);
        }

        /**
         * Reads the long at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @return the value
         */
        protected final long getLong(int field) {
            return getLong(field, 0);
        }

        /**
         * Reads element {@code index} of the long array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @return the value
         */
        protected final long getLong(int field, int index) {
            return view.getLong(offset + field + 8 * index);
        }

        /**
         * Writes the long at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param v the value to write
         */
        protected final void putLong(int field, long v) {
            putLong(field, 0, v);
        }

        /**
         * Writes element {@code index} of the long array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @param v the value to write
         */
        protected final void putLong(int field, int index, long v) {
            view.putLong(offset + field + 8 * index, v);
        }

        /**
         * Reads the float at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @return the value
         */
        protected final float getFloat(int field) {
            return getFloat(field, 0);
        }

        /**
         * Reads element {@code index} of the float array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @return the value
         */
        protected final float getFloat(int field, int index) {
            return view.getFloat(offset + field + 4 * index);
        }

        /**
         * Writes the float at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param v the value to write
         */
        protected final void putFloat(int field, float v) {
            putFloat(field, 0, v);
        }

        /**
         * Writes element {@code index} of the float array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @param v the value to write
         */
        protected final void putFloat(int field, int index, float v) {
            view.putFloat(offset + field + 4 * index, v);
        }

        /**
         * Reads the double at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @return the value
         */
        protected final double getDouble(int field) {
            return getDouble(field, 0);
        }

        /**
         * Reads element {@code index} of the double array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @return the value
         */
        protected final double getDouble(int field, int index) {
            return view.getDouble(offset + field + 8 * index);
        }

        /**
         * Writes the double at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param v the value to write
         */
        protected final void putDouble(int field, double v) {
            putDouble(field, 0, v);
        }

        /**
         * Writes element {@code index} of the double array at {@code field}.
         *
         * @param field the field's byte offset, as its {@code add...} call returned it
         * @param index the element's index in the field
         * @param v the value to write
         */
        protected final void putDouble(int field, int index, double v) {
            view.putDouble(offset + field + 8 * index, v);
        }

        /**
         * A view of the nested struct at {@code field}.
         *
         * @param <T> the view's type (the subclass's {@link Data})
         * @param struct the nested struct's description
         * @param field the field's byte offset
         * @return the view
         * @throws MPIException never here; declared as in Open MPI
         */
        protected final <T extends Data> T getData(Struct struct, int field) throws MPIException {
            return getData(struct, field, 0);
        }

        /**
         * A view of item {@code index} of the nested structs at {@code field}.
         *
         * @param <T> the view's type (the subclass's {@link Data})
         * @param struct the nested struct's description
         * @param field the field's byte offset
         * @param index the item's index
         * @return the view
         * @throws MPIException never here; declared as in Open MPI
         */
        protected final <T extends Data> T getData(Struct struct, int field, int index) throws MPIException {
            return struct.getData(MPI.slice(view.duplicate(), offset + field), index);
        }
    }
}
