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
 * Copies {@code count} items between a user buffer and the native-order bytes of a message. A user
 * buffer is a primitive array, a direct Buffer (used from its base address) or an array-backed
 * Buffer (used from its array offset); position and limit are ignored, as in Open MPI. Copies are
 * bulk, never per element (except boolean[]).
 */
final class BufferAccess {

    private BufferAccess() {
    }

    /** Checks that {@code buf} can hold {@code count} items of {@code type}; returns the byte length. */
    static int checkedBytes(String call, Object buf, int count, Datatype type) throws MPIException {
        long bytes = (long) count * type.byteSize();
        if (bytes > Integer.MAX_VALUE - 16) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + count + " items of " + type + " exceed 2 GiB");
        }
        if (count == 0) {
            return 0;
        }
        if (buf == null) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": null buffer for " + count + " items");
        }
        long capacity = capacityInItems(call, buf, type);
        if (capacity < count) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": buffer holds " + capacity + " items of " + type
                    + ", fewer than the count " + count);
        }
        return (int) bytes;
    }

    private static long capacityInItems(String call, Object buf, Datatype type) throws MPIException {
        Datatype.Base base = type.base;
        if (buf instanceof ByteBuffer b) {
            return b.capacity() / base.bytes; // Raw bytes may carry any type.
        }
        Datatype.Base actual;
        long length;
        if (buf instanceof byte[] a) {
            actual = Datatype.Base.BYTE;
            length = a.length;
        } else if (buf instanceof char[] a) {
            actual = Datatype.Base.CHAR;
            length = a.length;
        } else if (buf instanceof short[] a) {
            actual = Datatype.Base.SHORT;
            length = a.length;
        } else if (buf instanceof boolean[] a) {
            actual = Datatype.Base.BOOLEAN;
            length = a.length;
        } else if (buf instanceof int[] a) {
            actual = Datatype.Base.INT;
            length = a.length;
        } else if (buf instanceof long[] a) {
            actual = Datatype.Base.LONG;
            length = a.length;
        } else if (buf instanceof float[] a) {
            actual = Datatype.Base.FLOAT;
            length = a.length;
        } else if (buf instanceof double[] a) {
            actual = Datatype.Base.DOUBLE;
            length = a.length;
        } else if (buf instanceof CharBuffer || buf instanceof ShortBuffer || buf instanceof IntBuffer
                || buf instanceof LongBuffer || buf instanceof FloatBuffer || buf instanceof DoubleBuffer) {
            actual = baseOf((Buffer) buf);
            length = ((Buffer) buf).capacity();
        } else {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": unsupported buffer " + buf.getClass().getName());
        }
        if (actual != base) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": a " + buf.getClass().getSimpleName()
                    + " buffer does not hold " + type);
        }
        return length;
    }

    private static Datatype.Base baseOf(Buffer b) {
        if (b instanceof CharBuffer) {
            return Datatype.Base.CHAR;
        }
        if (b instanceof ShortBuffer) {
            return Datatype.Base.SHORT;
        }
        if (b instanceof IntBuffer) {
            return Datatype.Base.INT;
        }
        if (b instanceof LongBuffer) {
            return Datatype.Base.LONG;
        }
        if (b instanceof FloatBuffer) {
            return Datatype.Base.FLOAT;
        }
        return Datatype.Base.DOUBLE;
    }

    /** Appends the first {@code count} items of {@code buf} to {@code dst} (native order). Checked before. */
    static void pack(Object buf, int count, Datatype type, ByteBuffer dst) {
        if (count == 0) {
            return;
        }
        int bytes = count * type.byteSize();
        ByteBuffer out = dst.slice().order(ByteOrder.nativeOrder());
        if (buf instanceof ByteBuffer b) {
            out.put(b.duplicate().clear().limit(bytes));
        } else if (buf instanceof byte[] a) {
            out.put(a, 0, count);
        } else if (buf instanceof boolean[] a) {
            for (int i = 0; i < count; i++) {
                out.put((byte) (a[i] ? 1 : 0));
            }
        } else if (buf instanceof char[] a) {
            out.asCharBuffer().put(a, 0, count);
        } else if (buf instanceof short[] a) {
            out.asShortBuffer().put(a, 0, count);
        } else if (buf instanceof int[] a) {
            out.asIntBuffer().put(a, 0, count);
        } else if (buf instanceof long[] a) {
            out.asLongBuffer().put(a, 0, count);
        } else if (buf instanceof float[] a) {
            out.asFloatBuffer().put(a, 0, count);
        } else if (buf instanceof double[] a) {
            out.asDoubleBuffer().put(a, 0, count);
        } else if (buf instanceof CharBuffer b) {
            out.asCharBuffer().put(b.duplicate().clear().limit(count));
        } else if (buf instanceof ShortBuffer b) {
            out.asShortBuffer().put(b.duplicate().clear().limit(count));
        } else if (buf instanceof IntBuffer b) {
            out.asIntBuffer().put(b.duplicate().clear().limit(count));
        } else if (buf instanceof LongBuffer b) {
            out.asLongBuffer().put(b.duplicate().clear().limit(count));
        } else if (buf instanceof FloatBuffer b) {
            out.asFloatBuffer().put(b.duplicate().clear().limit(count));
        } else if (buf instanceof DoubleBuffer b) {
            out.asDoubleBuffer().put(b.duplicate().clear().limit(count));
        }
        dst.position(dst.position() + bytes);
    }

    /**
     * Copies a received message (position to limit, native order, a whole number of items, at most
     * the buffer's checked capacity) into the start of {@code buf}.
     */
    static void unpack(ByteBuffer src, Object buf, Datatype type) {
        ByteBuffer in = src.slice().order(ByteOrder.nativeOrder());
        int n = in.remaining() / type.byteSize();
        if (n == 0) {
            return;
        }
        if (buf instanceof ByteBuffer b) {
            b.duplicate().clear().put(in);
        } else if (buf instanceof byte[] a) {
            in.get(a, 0, n);
        } else if (buf instanceof boolean[] a) {
            for (int i = 0; i < n; i++) {
                a[i] = in.get(i) != 0;
            }
        } else if (buf instanceof char[] a) {
            in.asCharBuffer().get(a, 0, n);
        } else if (buf instanceof short[] a) {
            in.asShortBuffer().get(a, 0, n);
        } else if (buf instanceof int[] a) {
            in.asIntBuffer().get(a, 0, n);
        } else if (buf instanceof long[] a) {
            in.asLongBuffer().get(a, 0, n);
        } else if (buf instanceof float[] a) {
            in.asFloatBuffer().get(a, 0, n);
        } else if (buf instanceof double[] a) {
            in.asDoubleBuffer().get(a, 0, n);
        } else if (buf instanceof CharBuffer b) {
            b.duplicate().clear().put(in.asCharBuffer());
        } else if (buf instanceof ShortBuffer b) {
            b.duplicate().clear().put(in.asShortBuffer());
        } else if (buf instanceof IntBuffer b) {
            b.duplicate().clear().put(in.asIntBuffer());
        } else if (buf instanceof LongBuffer b) {
            b.duplicate().clear().put(in.asLongBuffer());
        } else if (buf instanceof FloatBuffer b) {
            b.duplicate().clear().put(in.asFloatBuffer());
        } else if (buf instanceof DoubleBuffer b) {
            b.duplicate().clear().put(in.asDoubleBuffer());
        }
    }
}
