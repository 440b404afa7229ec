package mpi;

import org.junit.jupiter.api.Test;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Packing and unpacking of every kind of user buffer. Packed bytes are compared with a reference
 * encoding written element by element, so the bulk copies are checked against independent code.
 */
class BufferAccessTest {

    private static final int N = 6;

    /**
     * One datatype and the ways to hold it: {@code values} (an array of N), a typed view of a
     * ByteBuffer, an array-backed heap buffer, and the two MPI.slice overloads. The Buffer forms
     * are null for BOOLEAN, which only boolean[] holds.
     */
    private record Case(Datatype type, Object values, Function<ByteBuffer, Buffer> view, Function<Object, Buffer> wrap,
                        BiFunction<Object, Integer, Buffer> sliceArray, BiFunction<Buffer, Integer, Buffer> sliceBuffer) {
        boolean hasBuffers() {
            return view != null;
        }

        Object emptyArray() {
            return java.lang.reflect.Array.newInstance(values.getClass().getComponentType(), N);
        }
    }

    private static final List<Case> CASES = List.of(
        new Case(MPI.BYTE, new byte[] {1, -2, 3, 127, -128, 0}, b -> b, a -> ByteBuffer.wrap((byte[]) a),
                (a, k) -> MPI.slice((byte[]) a, k), (b, k) -> MPI.slice((ByteBuffer) b, k)),
        new Case(MPI.PACKED, new byte[] {9, 8, 7, 6, 5, 4}, b -> b, a -> ByteBuffer.wrap((byte[]) a),
                (a, k) -> MPI.slice((byte[]) a, k), (b, k) -> MPI.slice((ByteBuffer) b, k)),
        new Case(MPI.CHAR, new char[] {'a', '\u00e9', 'z', '\uffff', 0, '\u4e2d'}, ByteBuffer::asCharBuffer,
                a -> CharBuffer.wrap((char[]) a), (a, k) -> MPI.slice((char[]) a, k), (b, k) -> MPI.slice((CharBuffer) b, k)),
        new Case(MPI.SHORT, new short[] {1, -300, 7, Short.MAX_VALUE, Short.MIN_VALUE, 0}, ByteBuffer::asShortBuffer,
                a -> ShortBuffer.wrap((short[]) a), (a, k) -> MPI.slice((short[]) a, k), (b, k) -> MPI.slice((ShortBuffer) b, k)),
        new Case(MPI.BOOLEAN, new boolean[] {true, false, true, true, false, true}, null, null, null, null),
        new Case(MPI.INT, new int[] {1, -5, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x01020304, 0}, ByteBuffer::asIntBuffer,
                a -> IntBuffer.wrap((int[]) a), (a, k) -> MPI.slice((int[]) a, k), (b, k) -> MPI.slice((IntBuffer) b, k)),
        new Case(MPI.LONG, new long[] {1, -5, Long.MAX_VALUE, Long.MIN_VALUE, 0x0102030405060708L, 0}, ByteBuffer::asLongBuffer,
                a -> LongBuffer.wrap((long[]) a), (a, k) -> MPI.slice((long[]) a, k), (b, k) -> MPI.slice((LongBuffer) b, k)),
        new Case(MPI.FLOAT, new float[] {1.5f, -0f, Float.NaN, Float.MIN_VALUE, -3e38f, 0}, ByteBuffer::asFloatBuffer,
                a -> FloatBuffer.wrap((float[]) a), (a, k) -> MPI.slice((float[]) a, k), (b, k) -> MPI.slice((FloatBuffer) b, k)),
        new Case(MPI.DOUBLE, new double[] {1.5, -2.25, Double.MAX_VALUE, Double.NaN, -0.0, 1e-300}, ByteBuffer::asDoubleBuffer,
                a -> DoubleBuffer.wrap((double[]) a), (a, k) -> MPI.slice((double[]) a, k), (b, k) -> MPI.slice((DoubleBuffer) b, k)));

    // ---------------------------------------------------------------- reference and helpers

    /** Items [from, from + n) of {@code values}, encoded one at a time in native order. */
    private static byte[] reference(Object values, int from, int n) {
        int size = values instanceof byte[] || values instanceof boolean[] ? 1
                : values instanceof char[] || values instanceof short[] ? 2
                : values instanceof int[] || values instanceof float[] ? 4 : 8;
        ByteBuffer b = ByteBuffer.allocate(n * size).order(ByteOrder.nativeOrder());
        for (int i = from; i < from + n; i++) {
            if (values instanceof byte[] a) {
                b.put(a[i]);
            } else if (values instanceof boolean[] a) {
                b.put((byte) (a[i] ? 1 : 0));
            } else if (values instanceof char[] a) {
                b.putChar(a[i]);
            } else if (values instanceof short[] a) {
                b.putShort(a[i]);
            } else if (values instanceof int[] a) {
                b.putInt(a[i]);
            } else if (values instanceof long[] a) {
                b.putLong(a[i]);
            } else if (values instanceof float[] a) {
                b.putFloat(a[i]);
            } else {
                b.putDouble(((double[]) values)[i]);
            }
        }
        return b.array();
    }

    private static byte[] packed(Object buf, int count, Datatype type) throws MPIException {
        ByteBuffer b = ByteBuffer.allocateDirect(BufferAccess.byteLength("test", buf, count, type, false) + 3);
        b.position(3); // Packing writes at the position, wherever that is.
        BufferAccess.pack(buf, count, type, b);
        assertEquals(3 + count * type.byteSize(), b.position(), "pack advances the position by the bytes written");
        byte[] out = new byte[count * type.byteSize()];
        b.flip().position(3);
        b.get(out);
        return out;
    }

    private static void unpack(byte[] message, Object buf, int count, Datatype type) throws MPIException {
        BufferAccess.byteLength("test", buf, count, type, true);
        BufferAccess.unpack(ByteBuffer.wrap(message), buf, type);
    }

    /** A direct native-order ByteBuffer holding {@code bytes}, then {@code extra} zero bytes. */
    private static ByteBuffer direct(byte[] bytes, int extra) {
        return MPI.newByteBuffer(bytes.length + extra).put(bytes).clear();
    }

    // ---------------------------------------------------------------- round trips

    @Test
    void shouldPackAndUnpackEveryArrayType() throws Exception {
        for (Case c : CASES) {
            byte[] ref = reference(c.values(), 0, N);
            assertArrayEquals(ref, packed(c.values(), N, c.type()), "packed " + c.type());
            Object back = c.emptyArray();
            unpack(ref, back, N, c.type());
            assertTrue(Objects.deepEquals(c.values(), back), "round trip of " + c.type());
        }
    }

    @Test
    void shouldPackAndUnpackDirectBuffersOfEveryType() throws Exception {
        for (Case c : CASES) {
            if (!c.hasBuffers()) {
                continue;
            }
            byte[] ref = reference(c.values(), 0, N);
            assertArrayEquals(ref, packed(c.view().apply(direct(ref, 0)), N, c.type()), "packed direct " + c.type());
            Buffer target = c.view().apply(MPI.newByteBuffer(ref.length));
            assertTrue(target.isDirect());
            unpack(ref, target, N, c.type());
            assertArrayEquals(ref, packed(target, N, c.type()), "round trip of direct " + c.type());
        }
    }

    @Test
    void shouldPackAndUnpackHeapBuffersOfEveryType() throws Exception {
        for (Case c : CASES) {
            if (!c.hasBuffers()) {
                continue;
            }
            byte[] ref = reference(c.values(), 0, N);
            Object array = c.emptyArray();
            Buffer backed = c.wrap().apply(array);
            unpack(ref, backed, N, c.type());
            assertTrue(Objects.deepEquals(c.values(), array), "unpack into an array-backed " + c.type() + " buffer");
            assertArrayEquals(ref, packed(backed, N, c.type()), "pack of an array-backed " + c.type() + " buffer");

            // A heap view that has no array of its own (asIntBuffer of a heap ByteBuffer).
            Buffer view = c.view().apply(ByteBuffer.allocate(ref.length).order(ByteOrder.nativeOrder()));
            unpack(ref, view, N, c.type());
            assertArrayEquals(ref, packed(view, N, c.type()), "round trip of a heap view of " + c.type());
        }
    }

    @Test
    void shouldStartArraySlicesAtTheirOffset() throws Exception {
        for (Case c : CASES) {
            if (!c.hasBuffers()) {
                continue;
            }
            assertArrayEquals(reference(c.values(), 2, 4), packed(c.sliceArray().apply(c.values(), 2), 4, c.type()),
                    "pack of a slice from 2 of " + c.type());
            Object array = c.emptyArray();
            unpack(reference(c.values(), 0, 3), c.sliceArray().apply(array, 3), 3, c.type());
            assertArrayEquals(reference(c.emptyArray(), 0, 3), reference(array, 0, 3), "items before the slice untouched");
            assertArrayEquals(reference(c.values(), 0, 3), reference(array, 3, 3), "unpack into a slice from 3 of " + c.type());
        }
    }

    @Test
    void shouldStartDirectSlicesAtTheirOffset() throws Exception {
        for (Case c : CASES) {
            if (!c.hasBuffers()) {
                continue;
            }
            byte[] ref = reference(c.values(), 0, N);
            Buffer whole = c.view().apply(direct(ref, 0));
            Buffer from2 = c.sliceBuffer().apply(whole, 2);
            assertTrue(from2.isDirect());
            assertArrayEquals(reference(c.values(), 2, 4), packed(from2, 4, c.type()), "pack of a direct slice of " + c.type());

            Buffer target = c.view().apply(MPI.newByteBuffer(ref.length));
            unpack(reference(c.values(), 0, 3), c.sliceBuffer().apply(target, 3), 3, c.type());
            byte[] all = packed(target, N, c.type());
            assertArrayEquals(new byte[3 * c.type().byteSize()], Arrays.copyOf(all, 3 * c.type().byteSize()),
                    "items before the slice untouched");
            assertArrayEquals(reference(c.values(), 0, 3), Arrays.copyOfRange(all, 3 * c.type().byteSize(), all.length),
                    "unpack into a direct slice from 3 of " + c.type());
        }
    }

    @Test
    void shouldIgnoreAndKeepPositionAndLimit() throws Exception {
        IntBuffer direct = MPI.newIntBuffer(4).put(new int[] {9, 8, 7, 6});
        direct.position(3).limit(3);
        assertArrayEquals(reference(new int[] {9, 8}, 0, 2), packed(direct, 2, MPI.INT), "sent from the base");
        unpack(reference(new int[] {1, 2, 3}, 0, 3), direct, 3, MPI.INT);
        assertEquals(3, direct.position(), "position kept");
        assertEquals(3, direct.limit(), "limit kept");
        assertEquals(1, direct.get(0));
        assertEquals(3, direct.get(2));
        assertEquals(6, direct.duplicate().clear().get(3), "past the message: untouched");

        ByteBuffer heap = ByteBuffer.wrap(new byte[] {1, 2, 3, 4});
        heap.position(4);
        assertArrayEquals(new byte[] {1, 2, 3}, packed(heap, 3, MPI.BYTE));
        assertEquals(4, heap.position());
    }

    @Test
    void shouldTakeByteBuffersAsRawMemoryForAnyType() throws Exception {
        double[] values = {1.25, -7, 3e100};
        byte[] ref = reference(values, 0, 3);
        assertArrayEquals(ref, packed(direct(ref, 5), 3, MPI.DOUBLE), "a ByteBuffer carries any type");
        ByteBuffer target = MPI.newByteBuffer(24);
        unpack(ref, target, 3, MPI.DOUBLE);
        assertEquals(-7.0, target.getDouble(8));
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class,
                () -> BufferAccess.byteLength("MPI_Send", MPI.newByteBuffer(23), 3, MPI.DOUBLE, false)).getErrorClass(),
                "capacity counts whole items");
    }

    @Test
    void shouldLeaveItemsPastAShortMessageUntouched() throws Exception {
        long[] target = {-1, -1, -1, -1};
        unpack(reference(new long[] {5, 6}, 0, 2), target, 4, MPI.LONG);
        assertArrayEquals(new long[] {5, 6, -1, -1}, target);

        ByteBuffer bytes = MPI.newByteBuffer(8);
        unpack(new byte[] {1, 2, 3, 4, 5}, bytes, 2, MPI.INT);
        assertEquals(5, bytes.get(4), "a trailing part of an item still lands in a ByteBuffer");
    }

    @Test
    void shouldPackNothingForCountZero() throws Exception {
        assertEquals(0, BufferAccess.byteLength("MPI_Send", null, 0, MPI.INT, false), "null is fine for no items");
        assertEquals(0, BufferAccess.byteLength("MPI_Send", new double[0], 0, MPI.INT, false), "unchecked for no items");
        assertEquals(0, packed(null, 0, MPI.INT).length);
        BufferAccess.unpack(ByteBuffer.allocate(0), null, MPI.INT);
    }

    // ---------------------------------------------------------------- errors

    private static int errorClass(Object buf, int count, Datatype type, boolean receive) {
        return assertThrows(MPIException.class, () -> BufferAccess.byteLength("MPI_Send", buf, count, type, receive))
                .getErrorClass();
    }

    @Test
    void shouldRejectBooleansWithAnythingButBooleanWithErrType() {
        assertEquals(MPI.ERR_TYPE, errorClass(new boolean[4], 2, MPI.BYTE, false));
        assertEquals(MPI.ERR_TYPE, errorClass(new byte[4], 2, MPI.BOOLEAN, false));
        assertEquals(MPI.ERR_TYPE, errorClass(MPI.newByteBuffer(4), 2, MPI.BOOLEAN, true));
        MPIException e = assertThrows(MPIException.class, () -> BufferAccess.byteLength("MPI_Recv", new boolean[4], 2, MPI.INT, true));
        assertEquals("MPI_Recv: a boolean[4] buffer cannot hold MPI_INT: a boolean[] holds MPI.BOOLEAN items only", e.getMessage());
        assertEquals(MPI.ERR_TYPE, e.getErrorCode(), "code equals class");
    }

    @Test
    void shouldCheckOtherTypesAgainstTheBuffersBytes() throws Exception {
        assertEquals(16, BufferAccess.byteLength("MPI_Send", new int[4], 2, MPI.DOUBLE, false));
        assertEquals(16, BufferAccess.byteLength("MPI_Send", MPI.newIntBuffer(4), 16, MPI.BYTE, false));
        assertEquals(8, BufferAccess.byteLength("MPI_Send", IntBuffer.wrap(new int[4]), 2, MPI.FLOAT, false));
        assertEquals(8, BufferAccess.byteLength("MPI_Send", new char[4], 4, MPI.SHORT, true));
        assertEquals(MPI.ERR_BUFFER, errorClass(new int[4], 3, MPI.DOUBLE, false));
        assertEquals(MPI.ERR_BUFFER, errorClass(new char[3], 7, MPI.BYTE, true));
        MPIException e = assertThrows(MPIException.class, () -> BufferAccess.byteLength("MPI_Recv", new int[4], 3, MPI.DOUBLE, true));
        assertEquals("MPI_Recv: the buffer (a int[4]) holds 16 bytes, but 3 items of MPI_DOUBLE reach byte 24", e.getMessage());
    }

    @Test
    void shouldRejectMissingSmallOrOddBuffersWithErrBuffer() {
        assertEquals(MPI.ERR_BUFFER, errorClass(null, 1, MPI.INT, false));
        assertEquals(MPI.ERR_BUFFER, errorClass(new int[1], 2, MPI.INT, false));
        assertEquals(MPI.ERR_BUFFER, errorClass(MPI.slice(new int[5], 4), 2, MPI.INT, true), "a slice holds only the rest");
        assertEquals(MPI.ERR_BUFFER, errorClass(MPI.slice(MPI.newIntBuffer(5), 4), 2, MPI.INT, false));
        assertEquals(MPI.ERR_BUFFER, errorClass("text", 1, MPI.BYTE, false));
        assertEquals(MPI.ERR_BUFFER, errorClass(new Object[2], 1, MPI.BYTE, false));
        assertEquals(MPI.ERR_BUFFER, errorClass(MPI.newIntBuffer(2).asReadOnlyBuffer(), 2, MPI.INT, true),
                "a receive cannot write a read-only buffer");
    }

    @Test
    void shouldSendFromReadOnlyBuffers() throws Exception {
        IntBuffer ro = IntBuffer.wrap(new int[] {4, 5}).asReadOnlyBuffer();
        assertArrayEquals(reference(new int[] {4, 5}, 0, 2), packed(ro, 2, MPI.INT));
    }

    @Test
    void shouldRejectBadCountsWithErrCount() {
        assertEquals(MPI.ERR_COUNT, errorClass(new int[4], -1, MPI.INT, false));
        assertEquals(MPI.ERR_COUNT, errorClass(null, Integer.MAX_VALUE / 4, MPI.DOUBLE, false), "2 GiB and more");
    }
}
