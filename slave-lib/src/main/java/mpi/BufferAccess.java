package mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Copies {@code count} items of a datatype between a user buffer and the packed, native-order
 * bytes of a message: the one place where a type map meets a buffer, used by point-to-point
 * calls, collectives, reductions and pack/unpack alike.
 *
 * <p>A user buffer is raw memory, as in Open MPI: a primitive array, a direct or heap Buffer of
 * any element type, read and written in native byte order in units of the datatype, whatever the
 * array's element type ({@code int[]} may go as {@code 4*n MPI.BYTE}); only {@code boolean[]} and
 * {@code MPI.BOOLEAN} go together and with nothing else. Buffers are used from their start,
 * ignoring position and limit: a direct Buffer from its base address, a heap Buffer from its
 * {@code arrayOffset()}, so {@code MPI.slice(x, k)} starts at element k.
 *
 * <p>Item k of a call lies {@code k} extents of the type from the start; its segments (the
 * {@link TypeMap}) go to the message back to back, and a receive writes only those bytes, so
 * gaps keep their old values. A type whose items are contiguous is copied in one bulk copy per
 * call; otherwise one bulk copy per segment. Only {@code boolean[]} and the partial elements at
 * the ends of a range that splits an array element are copied element by element.
 */
final class BufferAccess {

    private BufferAccess() {
    }

    /**
     * An array used from element {@code offset} on, as mpiJava's {@code (buf, offset)} arguments
     * are: raw memory that starts at that element. An offset outside the array makes it no buffer
     * ({@code MPI.ERR_BUFFER} in the call that uses it).
     */
    private record FromElement(Object array, int offset) {
    }

    /** {@code buf} from element {@code offset} on (see {@link FromElement}); {@code buf} itself for 0. */
    static Object fromElement(Object buf, int offset) {
        return offset == 0 || buf == null ? buf : new FromElement(buf, offset);
    }

    /**
     * Checks that {@code buf} can hold {@code count} items of {@code type}. A null buffer is
     * accepted for a count of 0.
     *
     * @param receive the buffer will be written, so it must not be read-only
     * @return the byte length of {@code count} items in a message
     * @throws MPIException ERR_TYPE for a null, freed or uncommitted type, or {@code boolean[]} with
     *                      another type than BOOLEAN (or the reverse); ERR_COUNT for a negative
     *                      count or 2 GiB and more; ERR_BUFFER for a null, too small, read-only
     *                      (when receiving) or unsupported buffer
     */
    static int byteLength(String call, Object buf, int count, Datatype type, boolean receive) throws MPIException {
        return byteLength(call, buf, 0, count, type, receive);
    }

    /**
     * As {@link #byteLength(String, Object, int, Datatype, boolean)} for the items {@code offset}
     * to {@code offset + count - 1} of the buffer, counted in extents of {@code type} from its start.
     *
     * @throws MPIException also ERR_BUFFER when the items lie outside the buffer
     */
    static int byteLength(String call, Object buf, int offset, int count, Datatype type, boolean receive)
            throws MPIException {
        int bytes = messageBytes(call, count, type);
        if (bytes == 0) {
            return 0;
        }
        if (buf == null) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": null buffer for " + count + " items of " + type);
        }
        if (offset < 0) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": negative displacement " + offset);
        }
        Memory memory = memory(call, buf, type);
        TypeMap map = type.map;
        long first = (long) offset * map.extent + map.trueLb;
        long end = (long) (offset + (long) count - 1) * map.extent + map.trueUb;
        if (first < 0) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + type + " reaches " + -first
                    + " bytes before the start of the buffer");
        }
        if (end > memory.capacity) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": the buffer (a " + describe(buf) + ") holds "
                    + memory.capacity + " bytes, but " + (offset == 0 ? "" : "from displacement " + offset + " ")
                    + count + " items of " + type + " reach byte " + end);
        }
        if (receive && buf instanceof Buffer b && b.isReadOnly()) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": the receive buffer is read-only");
        }
        return bytes;
    }

    /**
     * The byte length of {@code count} items of {@code type} in a message (packed).
     *
     * @throws MPIException ERR_TYPE for a null, freed or uncommitted type; ERR_COUNT for a negative
     *                      count or 2 GiB and more
     */
    static int messageBytes(String call, int count, Datatype type) throws MPIException {
        Datatype.checkUsable(call, type);
        if (count < 0) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": negative count " + count);
        }
        long bytes = (long) count * type.byteSize();
        if (bytes > Integer.MAX_VALUE - 64) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + count + " items of " + type + " are 2 GiB or more");
        }
        return (int) bytes;
    }

    /** A view of a checked buffer as raw memory. */
    private static Memory memory(String call, Object buf, Datatype type) throws MPIException {
        Memory m = Memory.of(buf);
        if (m == null) {
            if (buf instanceof FromElement f && Memory.of(f.array) != null) {
                throw MPIException.of(MPI.ERR_BUFFER, call + ": offset " + f.offset + " lies outside the "
                        + describe(f.array) + " (an mpiJava offset counts elements of the array)");
            }
            Object given = buf instanceof FromElement f ? f.array : buf;
            throw MPIException.of(MPI.ERR_BUFFER, call + ": a " + given.getClass().getName()
                    + " is not a buffer: use a primitive array or a java.nio Buffer");
        }
        if ((m.kind == Datatype.Base.BOOLEAN) != (type.base == Datatype.Base.BOOLEAN)) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": a " + describe(buf) + " buffer cannot hold " + type
                    + (type.base == Datatype.Base.BOOLEAN ? ", which needs a boolean[]"
                                                          : ": a boolean[] holds MPI.BOOLEAN items only"));
        }
        return m;
    }

    private static String describe(Object buf) {
        if (buf instanceof FromElement f) {
            return describe(f.array) + " from element " + f.offset;
        }
        if (buf.getClass().isArray()) {
            return buf.getClass().getComponentType().getName() + "[" + java.lang.reflect.Array.getLength(buf) + "]";
        }
        for (Class<?> c : new Class<?>[] {ByteBuffer.class, CharBuffer.class, ShortBuffer.class, IntBuffer.class,
            LongBuffer.class, FloatBuffer.class, DoubleBuffer.class}) {
            if (c.isInstance(buf)) {
                return c.getSimpleName();
            }
        }
        return buf.getClass().getSimpleName();
    }

    /**
     * Writes the first {@code count} items of {@code buf} at {@code dst}'s position in native order
     * and advances the position. The arguments must have passed {@link #byteLength}; {@code buf}'s
     * position and limit are left alone.
     */
    static void pack(Object buf, int count, Datatype type, ByteBuffer dst) {
        pack(buf, 0, count, type, dst);
    }

    /** As {@link #pack(Object, int, Datatype, ByteBuffer)} from item {@code offset} of {@code buf}. */
    static void pack(Object buf, int offset, int count, Datatype type, ByteBuffer dst) {
        int bytes = count * type.byteSize();
        if (bytes == 0) {
            return;
        }
        Memory memory = Memory.of(buf);
        ByteBuffer out = dst.slice().order(ByteOrder.nativeOrder());
        TypeMap map = type.map;
        if (map.dense()) {
            memory.read((long) offset * map.extent, bytes, out);
        } else {
            for (int k = 0; k < count; k++) {
                long start = (long) (offset + k) * map.extent;
                for (int s = 0; s < map.segments(); s++) {
                    memory.read(start + map.offset(s), map.length(s), out);
                }
            }
        }
        dst.position(dst.position() + bytes);
    }

    /**
     * Copies a received message ({@code src} from position to limit, packed items in native order)
     * into the layout of {@code type} from the start of {@code buf}; bytes outside the type map, and
     * items past the message, are left as they were. The message must fit the capacity checked by
     * {@link #byteLength}. {@code src}'s position is left alone.
     */
    static void unpack(ByteBuffer src, Object buf, Datatype type) {
        unpack(src, buf, 0, type);
    }

    /** As {@link #unpack(ByteBuffer, Object, Datatype)} to item {@code offset} of {@code buf} onwards. */
    static void unpack(ByteBuffer src, Object buf, int offset, Datatype type) {
        ByteBuffer in = src.slice().order(ByteOrder.nativeOrder());
        if (!in.hasRemaining()) {
            return;
        }
        Memory memory = Memory.of(buf);
        TypeMap map = type.map;
        if (map.dense()) {
            memory.write(in, (long) offset * map.extent, in.remaining());
            return;
        }
        for (long start = (long) offset * map.extent; in.hasRemaining(); start += map.extent) {
            for (int s = 0; s < map.segments() && in.hasRemaining(); s++) {
                memory.write(in, start + map.offset(s), Math.min(map.length(s), in.remaining()));
            }
        }
    }

    /**
     * A user buffer as raw native-order memory: elements of {@code unit} bytes, copied in bulk;
     * a byte range that splits an element goes through that element alone.
     */
    private static final class Memory {

        /**
         * Up to this many whole elements are copied one at a time with absolute gets and puts: a
         * bulk copy makes two buffer views per call (a duplicate and an {@code asXBuffer}), which for
         * the one or two items of a small reduction or message cost more than the copy.
         */
        private static final int FEW_ELEMENTS = 16;

        final Datatype.Base kind;
        final long capacity;
        private final int unit;
        /** The buffer as a Buffer positioned at 0 (arrays wrapped), or a boolean[]. */
        private final Object buffer;
        /** The element of {@code buffer} that is element 0 here. */
        private final int base;

        private Memory(Datatype.Base kind, Object buffer, long elements) {
            this(kind, buffer, elements, 0);
        }

        private Memory(Datatype.Base kind, Object buffer, long elements, int base) {
            this.kind = kind;
            this.unit = kind.bytes;
            this.buffer = buffer;
            this.capacity = elements * unit;
            this.base = base;
        }

        /** Null for an object that is not a buffer. */
        static Memory of(Object buf) {
            if (buf instanceof FromElement f) {
                Memory whole = of(f.array);
                if (whole == null || f.offset < 0 || f.offset > whole.capacity / whole.unit) {
                    return null;
                }
                return new Memory(whole.kind, whole.buffer, whole.capacity / whole.unit - f.offset, whole.base + f.offset);
            }
            if (buf instanceof Buffer b) {
                Datatype.Base kind = buf instanceof ByteBuffer ? Datatype.Base.BYTE
                        : buf instanceof CharBuffer ? Datatype.Base.CHAR
                        : buf instanceof ShortBuffer ? Datatype.Base.SHORT
                        : buf instanceof IntBuffer ? Datatype.Base.INT
                        : buf instanceof LongBuffer ? Datatype.Base.LONG
                        : buf instanceof FloatBuffer ? Datatype.Base.FLOAT
                        : buf instanceof DoubleBuffer ? Datatype.Base.DOUBLE : null;
                return kind == null ? null : new Memory(kind, b.duplicate().clear(), b.capacity());
            } else if (buf instanceof byte[] a) {
                return new Memory(Datatype.Base.BYTE, ByteBuffer.wrap(a), a.length);
            } else if (buf instanceof char[] a) {
                return new Memory(Datatype.Base.CHAR, CharBuffer.wrap(a), a.length);
            } else if (buf instanceof short[] a) {
                return new Memory(Datatype.Base.SHORT, ShortBuffer.wrap(a), a.length);
            } else if (buf instanceof int[] a) {
                return new Memory(Datatype.Base.INT, IntBuffer.wrap(a), a.length);
            } else if (buf instanceof long[] a) {
                return new Memory(Datatype.Base.LONG, LongBuffer.wrap(a), a.length);
            } else if (buf instanceof float[] a) {
                return new Memory(Datatype.Base.FLOAT, FloatBuffer.wrap(a), a.length);
            } else if (buf instanceof double[] a) {
                return new Memory(Datatype.Base.DOUBLE, DoubleBuffer.wrap(a), a.length);
            } else if (buf instanceof boolean[] a) {
                return new Memory(Datatype.Base.BOOLEAN, a, a.length);
            }
            return null;
        }

        /** Copies bytes {@code [at, at + length)} to {@code out}'s position (native order), advancing it. */
        void read(long at, int length, ByteBuffer out) {
            int head = (int) (at % unit);
            if (head != 0) {
                int n = Math.min(length, unit - head);
                ByteBuffer one = element((int) (at / unit));
                out.put(one.position(head).limit(head + n));
                at += n;
                length -= n;
            }
            int whole = length / unit;
            if (whole > 0) {
                get((int) (at / unit), whole, out);
                at += (long) whole * unit;
                length -= whole * unit;
            }
            if (length > 0) {
                out.put(element((int) (at / unit)).limit(length));
            }
        }

        /** Copies {@code length} bytes from {@code in}'s position (native order) to bytes from {@code at}, advancing {@code in}. */
        void write(ByteBuffer in, long at, int length) {
            int head = (int) (at % unit);
            if (head != 0) {
                int n = Math.min(length, unit - head);
                int e = (int) (at / unit);
                ByteBuffer one = element(e);
                one.position(head).put(in.slice().limit(n));
                in.position(in.position() + n);
                put(one.clear(), e, 1);
                at += n;
                length -= n;
            }
            int whole = length / unit;
            if (whole > 0) {
                put(in, (int) (at / unit), whole);
                at += (long) whole * unit;
                length -= whole * unit;
            }
            if (length > 0) {
                int e = (int) (at / unit);
                ByteBuffer one = element(e);
                one.put(in.slice().limit(length));
                in.position(in.position() + length);
                put(one.clear(), e, 1);
            }
        }

        /** Element {@code e} alone, as native-order bytes from position 0. */
        private ByteBuffer element(int e) {
            ByteBuffer one = ByteBuffer.allocate(unit).order(ByteOrder.nativeOrder());
            get(e, 1, one);
            return one.clear();
        }

        /** Elements {@code [element, element + n)} to {@code out}'s position, advancing it. */
        private void get(int element, int n, ByteBuffer out) {
            int first = base + element;
            int at = out.position();
            if (n <= FEW_ELEMENTS && kind != Datatype.Base.BYTE && kind != Datatype.Base.BOOLEAN
                    && out.order() == ByteOrder.nativeOrder()) {
                for (int i = 0; i < n; i++) {
                    getOne(first + i, out, at + i * unit);
                }
                out.position(at + n * unit);
                return;
            }
            switch (kind) {
                case BYTE -> out.put(((ByteBuffer) buffer).duplicate().position(first).limit(first + n));
                case BOOLEAN -> {
                    boolean[] a = (boolean[]) buffer;
                    for (int i = 0; i < n; i++) {
                        out.put(at + i, (byte) (a[first + i] ? 1 : 0));
                    }
                }
                case CHAR -> out.asCharBuffer().put(((CharBuffer) buffer).duplicate().position(first).limit(first + n));
                case SHORT -> out.asShortBuffer().put(((ShortBuffer) buffer).duplicate().position(first).limit(first + n));
                case INT -> out.asIntBuffer().put(((IntBuffer) buffer).duplicate().position(first).limit(first + n));
                case LONG -> out.asLongBuffer().put(((LongBuffer) buffer).duplicate().position(first).limit(first + n));
                case FLOAT -> out.asFloatBuffer().put(((FloatBuffer) buffer).duplicate().position(first).limit(first + n));
                case DOUBLE -> out.asDoubleBuffer().put(((DoubleBuffer) buffer).duplicate().position(first).limit(first + n));
                default -> throw new AssertionError(kind);
            }
            out.position(at + n * unit);
        }

        /** {@code n} elements from {@code in}'s position to elements from {@code element}, advancing {@code in}. */
        private void put(ByteBuffer in, int element, int n) {
            int first = base + element;
            int at = in.position();
            if (n <= FEW_ELEMENTS && kind != Datatype.Base.BYTE && kind != Datatype.Base.BOOLEAN
                    && in.order() == ByteOrder.nativeOrder()) {
                for (int i = 0; i < n; i++) {
                    putOne(in, at + i * unit, first + i);
                }
                in.position(at + n * unit);
                return;
            }
            ByteBuffer src = in.slice().limit(n * unit).order(ByteOrder.nativeOrder());
            switch (kind) {
                case BYTE -> ((ByteBuffer) buffer).duplicate().position(first).put(src);
                case BOOLEAN -> {
                    boolean[] a = (boolean[]) buffer;
                    for (int i = 0; i < n; i++) {
                        a[first + i] = src.get(i) != 0;
                    }
                }
                case CHAR -> ((CharBuffer) buffer).duplicate().position(first).put(src.asCharBuffer());
                case SHORT -> ((ShortBuffer) buffer).duplicate().position(first).put(src.asShortBuffer());
                case INT -> ((IntBuffer) buffer).duplicate().position(first).put(src.asIntBuffer());
                case LONG -> ((LongBuffer) buffer).duplicate().position(first).put(src.asLongBuffer());
                case FLOAT -> ((FloatBuffer) buffer).duplicate().position(first).put(src.asFloatBuffer());
                case DOUBLE -> ((DoubleBuffer) buffer).duplicate().position(first).put(src.asDoubleBuffer());
                default -> throw new AssertionError(kind);
            }
            in.position(at + n * unit);
        }

        /** Element {@code e} of a buffer of CHAR to DOUBLE at byte {@code at} of {@code out} (native order), copied alone. */
        private void getOne(int e, ByteBuffer out, int at) {
            switch (kind) {
                case CHAR -> out.putChar(at, ((CharBuffer) buffer).get(e));
                case SHORT -> out.putShort(at, ((ShortBuffer) buffer).get(e));
                case INT -> out.putInt(at, ((IntBuffer) buffer).get(e));
                case LONG -> out.putLong(at, ((LongBuffer) buffer).get(e));
                case FLOAT -> out.putFloat(at, ((FloatBuffer) buffer).get(e));
                case DOUBLE -> out.putDouble(at, ((DoubleBuffer) buffer).get(e));
                default -> throw new AssertionError(kind);
            }
        }

        /** The bytes at {@code at} of {@code in} (native order) to element {@code e} of a buffer of CHAR to DOUBLE. */
        private void putOne(ByteBuffer in, int at, int e) {
            switch (kind) {
                case CHAR -> ((CharBuffer) buffer).put(e, in.getChar(at));
                case SHORT -> ((ShortBuffer) buffer).put(e, in.getShort(at));
                case INT -> ((IntBuffer) buffer).put(e, in.getInt(at));
                case LONG -> ((LongBuffer) buffer).put(e, in.getLong(at));
                case FLOAT -> ((FloatBuffer) buffer).put(e, in.getFloat(at));
                case DOUBLE -> ((DoubleBuffer) buffer).put(e, in.getDouble(at));
                default -> throw new AssertionError(kind);
            }
        }
    }
}
