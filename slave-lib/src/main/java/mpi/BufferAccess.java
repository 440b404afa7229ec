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
 * Copies {@code count} items between a user buffer and the native-order bytes of a message.
 *
 * <p>A user buffer is a primitive array of the datatype's base type, a typed Buffer of that type,
 * or a ByteBuffer, which is raw memory and may carry any type (as a direct ByteBuffer does in Open
 * MPI, where only its address matters). Buffers are used from their start, ignoring position and
 * limit: for a direct Buffer its base address, for a heap Buffer its {@code arrayOffset()}, so
 * {@code MPI.slice(x, k)} starts at element k. Copies are bulk (one {@code put} per call), never
 * per element, except for {@code boolean[]}.
 */
final class BufferAccess {

    private BufferAccess() {
    }

    /**
     * Checks that {@code buf} can hold {@code count} items of {@code type}. A null buffer is
     * accepted for a count of 0.
     *
     * @param receive the buffer will be written, so it must not be read-only
     * @return the byte length of {@code count} items
     * @throws MPIException ERR_COUNT for a negative count or 2 GiB and more, ERR_TYPE for a buffer of
     *                      another element type, ERR_BUFFER for a null, too small, read-only (when
     *                      receiving) or unsupported buffer
     */
    static int byteLength(String call, Object buf, int count, Datatype type, boolean receive) throws MPIException {
        return byteLength(call, buf, 0, count, type, receive);
    }

    /**
     * As {@link #byteLength(String, Object, int, Datatype, boolean)} for the items {@code offset}
     * to {@code offset + count - 1} of the buffer, counted in items of {@code type} from its start.
     *
     * @throws MPIException also ERR_BUFFER when the items lie outside the buffer
     */
    static int byteLength(String call, Object buf, int offset, int count, Datatype type, boolean receive)
            throws MPIException {
        if (count < 0) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": negative count " + count);
        }
        long bytes = (long) count * type.byteSize();
        if (bytes > Integer.MAX_VALUE - 64) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + count + " items of " + type + " are 2 GiB or more");
        }
        if (count == 0) {
            return 0;
        }
        if (buf == null) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": null buffer for " + count + " items of " + type);
        }
        if (offset < 0) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": negative displacement " + offset);
        }
        long capacity = capacityInItems(call, buf, type);
        if (capacity < (long) offset + count) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": the buffer holds " + capacity + " items of " + type
                    + (offset == 0 ? ", fewer than the count " + count
                                   : ", fewer than displacement " + offset + " plus count " + count));
        }
        if (receive && buf instanceof Buffer b && b.isReadOnly()) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": the receive buffer is read-only");
        }
        return (int) bytes;
    }

    private static long capacityInItems(String call, Object buf, Datatype type) throws MPIException {
        if (buf instanceof ByteBuffer b) {
            return b.capacity() / type.byteSize();
        }
        Datatype.Base actual = baseOf(buf);
        if (actual == null) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": a " + buf.getClass().getName()
                    + " is not a buffer: use a primitive array or a java.nio Buffer");
        }
        if (actual != type.base) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": a " + describe(buf) + " buffer cannot hold " + type
                    + ", which needs " + type.base.buffers);
        }
        return (buf instanceof Buffer b ? b.capacity() : java.lang.reflect.Array.getLength(buf)) / type.extent;
    }

    /** The element type of an array or typed Buffer; null for anything else (ByteBuffer included). */
    private static Datatype.Base baseOf(Object buf) {
        if (buf instanceof byte[]) {
            return Datatype.Base.BYTE;
        } else if (buf instanceof char[] || buf instanceof CharBuffer) {
            return Datatype.Base.CHAR;
        } else if (buf instanceof short[] || buf instanceof ShortBuffer) {
            return Datatype.Base.SHORT;
        } else if (buf instanceof boolean[]) {
            return Datatype.Base.BOOLEAN;
        } else if (buf instanceof int[] || buf instanceof IntBuffer) {
            return Datatype.Base.INT;
        } else if (buf instanceof long[] || buf instanceof LongBuffer) {
            return Datatype.Base.LONG;
        } else if (buf instanceof float[] || buf instanceof FloatBuffer) {
            return Datatype.Base.FLOAT;
        } else if (buf instanceof double[] || buf instanceof DoubleBuffer) {
            return Datatype.Base.DOUBLE;
        }
        return null;
    }

    private static String describe(Object buf) {
        if (buf.getClass().isArray()) {
            return buf.getClass().getComponentType().getName() + "[]";
        }
        for (Class<?> c : new Class<?>[] {CharBuffer.class, ShortBuffer.class, IntBuffer.class, LongBuffer.class,
            FloatBuffer.class, DoubleBuffer.class}) {
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
        if (count == 0) {
            return;
        }
        int bytes = count * type.byteSize();
        int first = offset * type.extent;
        int n = count * type.extent;
        ByteBuffer out = dst.slice().order(ByteOrder.nativeOrder());
        if (buf instanceof ByteBuffer b) {
            int from = offset * type.byteSize();
            out.put(b.duplicate().clear().position(from).limit(from + bytes));
        } else if (buf instanceof byte[] a) {
            out.put(a, first, n);
        } else if (buf instanceof boolean[] a) {
            for (int i = 0; i < n; i++) {
                out.put(i, (byte) (a[first + i] ? 1 : 0));
            }
        } else if (buf instanceof char[] a) {
            out.asCharBuffer().put(a, first, n);
        } else if (buf instanceof short[] a) {
            out.asShortBuffer().put(a, first, n);
        } else if (buf instanceof int[] a) {
            out.asIntBuffer().put(a, first, n);
        } else if (buf instanceof long[] a) {
            out.asLongBuffer().put(a, first, n);
        } else if (buf instanceof float[] a) {
            out.asFloatBuffer().put(a, first, n);
        } else if (buf instanceof double[] a) {
            out.asDoubleBuffer().put(a, first, n);
        } else if (buf instanceof CharBuffer b) {
            out.asCharBuffer().put(b.duplicate().clear().position(first).limit(first + n));
        } else if (buf instanceof ShortBuffer b) {
            out.asShortBuffer().put(b.duplicate().clear().position(first).limit(first + n));
        } else if (buf instanceof IntBuffer b) {
            out.asIntBuffer().put(b.duplicate().clear().position(first).limit(first + n));
        } else if (buf instanceof LongBuffer b) {
            out.asLongBuffer().put(b.duplicate().clear().position(first).limit(first + n));
        } else if (buf instanceof FloatBuffer b) {
            out.asFloatBuffer().put(b.duplicate().clear().position(first).limit(first + n));
        } else if (buf instanceof DoubleBuffer b) {
            out.asDoubleBuffer().put(b.duplicate().clear().position(first).limit(first + n));
        } else {
            throw new IllegalArgumentException("unchecked buffer " + buf.getClass().getName());
        }
        dst.position(dst.position() + bytes);
    }

    /**
     * Copies a received message ({@code src} from position to limit, native order) to the start of
     * {@code buf}; items past the message are left as they were. The message must fit the
     * capacity checked by {@link #byteLength}. A trailing part of an item is copied only into a
     * ByteBuffer. {@code src}'s position is left alone.
     */
    static void unpack(ByteBuffer src, Object buf, Datatype type) {
        unpack(src, buf, 0, type);
    }

    /** As {@link #unpack(ByteBuffer, Object, Datatype)} to item {@code offset} of {@code buf} onwards. */
    static void unpack(ByteBuffer src, Object buf, int offset, Datatype type) {
        ByteBuffer in = src.slice().order(ByteOrder.nativeOrder());
        int first = offset * type.extent;
        int n = in.remaining() / type.byteSize() * type.extent;
        if (buf instanceof ByteBuffer b) {
            b.duplicate().clear().position(offset * type.byteSize()).put(in);
        } else if (n == 0) {
            return;
        } else if (buf instanceof byte[] a) {
            in.get(a, first, n);
        } else if (buf instanceof boolean[] a) {
            for (int i = 0; i < n; i++) {
                a[first + i] = in.get(i) != 0;
            }
        } else if (buf instanceof char[] a) {
            in.asCharBuffer().get(a, first, n);
        } else if (buf instanceof short[] a) {
            in.asShortBuffer().get(a, first, n);
        } else if (buf instanceof int[] a) {
            in.asIntBuffer().get(a, first, n);
        } else if (buf instanceof long[] a) {
            in.asLongBuffer().get(a, first, n);
        } else if (buf instanceof float[] a) {
            in.asFloatBuffer().get(a, first, n);
        } else if (buf instanceof double[] a) {
            in.asDoubleBuffer().get(a, first, n);
        } else if (buf instanceof CharBuffer b) {
            b.duplicate().clear().position(first).put(in.asCharBuffer().limit(n));
        } else if (buf instanceof ShortBuffer b) {
            b.duplicate().clear().position(first).put(in.asShortBuffer().limit(n));
        } else if (buf instanceof IntBuffer b) {
            b.duplicate().clear().position(first).put(in.asIntBuffer().limit(n));
        } else if (buf instanceof LongBuffer b) {
            b.duplicate().clear().position(first).put(in.asLongBuffer().limit(n));
        } else if (buf instanceof FloatBuffer b) {
            b.duplicate().clear().position(first).put(in.asFloatBuffer().limit(n));
        } else if (buf instanceof DoubleBuffer b) {
            b.duplicate().clear().position(first).put(in.asDoubleBuffer().limit(n));
        } else {
            throw new IllegalArgumentException("unchecked buffer " + buf.getClass().getName());
        }
    }
}
