package mpi;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BufferAccessTest {

    private static ByteBuffer packed(Object buf, int count, Datatype type) throws MPIException {
        ByteBuffer b = ByteBuffer.allocateDirect(BufferAccess.checkedBytes("test", buf, count, type));
        BufferAccess.pack(buf, count, type, b);
        return b.flip();
    }

    @Test
    void shouldRoundTripEveryArrayType() throws Exception {
        Object[][] cases = {
            {new byte[] {1, -2, 3}, new byte[3], MPI.BYTE},
            {new char[] {'a', '\u00e9', 'z'}, new char[3], MPI.CHAR},
            {new short[] {1, -300, 7}, new short[3], MPI.SHORT},
            {new boolean[] {true, false, true}, new boolean[3], MPI.BOOLEAN},
            {new int[] {1, -5, Integer.MAX_VALUE}, new int[3], MPI.INT},
            {new long[] {1, -5, Long.MIN_VALUE}, new long[3], MPI.LONG},
            {new float[] {1.5f, -0f, Float.NaN}, new float[3], MPI.FLOAT},
            {new double[] {1.5, -2.25, Double.MAX_VALUE}, new double[3], MPI.DOUBLE},
        };
        for (Object[] c : cases) {
            Datatype t = (Datatype) c[2];
            ByteBuffer bytes = packed(c[0], 3, t);
            assertEquals(3 * t.byteSize(), bytes.remaining(), t.toString());
            BufferAccess.unpack(bytes, c[1], t);
            assertTrue(java.util.Objects.deepEquals(c[0], c[1]), "round trip of " + t);
        }
    }

    @Test
    void shouldUseBuffersFromTheirBaseIgnoringPosition() throws Exception {
        IntBuffer direct = MPI.newIntBuffer(4).put(new int[] {9, 8, 7, 6});
        direct.position(3);
        int[] out = new int[2];
        BufferAccess.unpack(packed(direct, 2, MPI.INT), out, MPI.INT);
        assertArrayEquals(new int[] {9, 8}, out, "position is ignored");

        int[] array = {1, 2, 3, 4, 5};
        BufferAccess.unpack(packed(MPI.slice(array, 3), 2, MPI.INT), out, MPI.INT);
        assertArrayEquals(new int[] {4, 5}, out, "a slice starts at its offset");

        DoubleBuffer target = MPI.newDoubleBuffer(6);
        BufferAccess.unpack(packed(new double[] {1, 2}, 2, MPI.DOUBLE), MPI.slice(target, 4), MPI.DOUBLE);
        assertEquals(1.0, target.get(4));
        assertEquals(2.0, target.get(5));
    }

    @Test
    void shouldSliceAsOpenMpiDoes() {
        byte[] a = new byte[10];
        assertEquals(4, MPI.slice(a, 4).arrayOffset());
        ByteBuffer direct = MPI.newByteBuffer(8);
        direct.position(6).limit(7);
        ByteBuffer s = MPI.slice(direct, 2);
        assertEquals(6, s.capacity(), "slice clears first, then runs to capacity");
        assertEquals(java.nio.ByteOrder.nativeOrder(), s.order());
    }

    @Test
    void shouldRejectWrongOrShortBuffers() {
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class,
                () -> BufferAccess.checkedBytes("MPI_Send", new int[4], 2, MPI.DOUBLE)).getErrorClass());
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class,
                () -> BufferAccess.checkedBytes("MPI_Send", new int[1], 2, MPI.INT)).getErrorClass());
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class,
                () -> BufferAccess.checkedBytes("MPI_Send", null, 1, MPI.INT)).getErrorClass());
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class,
                () -> BufferAccess.checkedBytes("MPI_Send", "text", 1, MPI.BYTE)).getErrorClass());
    }

    @Test
    void shouldCountItemsAndReportUndefined() throws Exception {
        Status s = Status.of(1, 2, 12);
        assertEquals(3, s.getCount(MPI.INT));
        assertEquals(12, s.getCount(MPI.BYTE));
        assertEquals(MPI.UNDEFINED, s.getCount(MPI.LONG));
    }

    @Test
    void shouldRefuseCallsBeforeInit() {
        assertEquals("MPI is not initialized.", assertThrows(MPIException.class, () -> MPI.COMM_WORLD.getRank()).getMessage());
        assertEquals("MPI is not initialized.", assertThrows(MPIException.class, MPI::wtime).getMessage());
        assertTrue(assertThrows(MPIException.class, () -> MPI.Init(new String[0])).getMessage().contains("bdmpiexec"));
    }
}
