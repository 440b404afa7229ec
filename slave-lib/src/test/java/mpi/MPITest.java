package mpi;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Constants and buffer helpers of class MPI: none of them needs Init. */
class MPITest {

    @Test
    void shouldHaveOpenMpiValues() {
        assertEquals(-1, MPI.ANY_SOURCE);
        assertEquals(-1, MPI.ANY_TAG);
        assertEquals(-2, MPI.PROC_NULL);
        assertEquals(-4, MPI.ROOT);
        assertEquals(-32766, MPI.UNDEFINED);
        assertEquals(0, MPI.IDENT);
        assertEquals(1, MPI.CONGRUENT);
        assertEquals(2, MPI.SIMILAR);
        assertEquals(3, MPI.UNEQUAL);
        assertEquals(0, MPI.THREAD_SINGLE);
        assertEquals(1, MPI.THREAD_FUNNELED);
        assertEquals(2, MPI.THREAD_SERIALIZED);
        assertEquals(3, MPI.THREAD_MULTIPLE);
        assertEquals(128, MPI.BSEND_OVERHEAD);
    }

    @Test
    void shouldHaveOpenMpiErrorClasses() {
        int[] first = {MPI.SUCCESS, MPI.ERR_BUFFER, MPI.ERR_COUNT, MPI.ERR_TYPE, MPI.ERR_TAG, MPI.ERR_COMM, MPI.ERR_RANK,
            MPI.ERR_REQUEST, MPI.ERR_ROOT, MPI.ERR_GROUP, MPI.ERR_OP, MPI.ERR_TOPOLOGY, MPI.ERR_DIMS, MPI.ERR_ARG,
            MPI.ERR_UNKNOWN, MPI.ERR_TRUNCATE, MPI.ERR_OTHER, MPI.ERR_INTERN, MPI.ERR_IN_STATUS, MPI.ERR_PENDING,
            MPI.ERR_ACCESS};
        for (int i = 0; i < first.length; i++) {
            assertEquals(i, first[i], "error class number " + i);
        }
        assertEquals(53, MPI.ERR_WIN);
        assertEquals(74, MPI.ERR_PROC_ABORTED);
        assertEquals(-2, MPI.ERR_SYSRESOURCE);
        assertEquals(92, MPI.ERR_LASTCODE);
    }

    @Test
    void shouldNumberTheErrorClassesOfIoAndRmaWithoutGaps() throws Exception {
        Map<Integer, String> byValue = new HashMap<>();
        for (Field f : MPI.class.getFields()) {
            if (f.getName().startsWith("ERR_") && !f.getName().equals("ERR_LASTCODE")) {
                String before = byValue.put(f.getInt(null), f.getName());
                assertEquals(null, before, f.getName() + " and " + before + " share a value");
            }
        }
        for (int v = 1; v <= 53; v++) {
            assertTrue(byValue.containsKey(v), "no error class " + v);
        }
        assertEquals("ERR_ACCESS", byValue.get(20));
        assertEquals("ERR_NO_MEM", byValue.get(39));
        assertEquals("ERR_UNSUPPORTED_OPERATION", byValue.get(52));
    }

    /** As in Open MPI, so that no program can come to depend on them being switch labels. */
    @Test
    void shouldNotMakeConstantsCompileTimeConstants() throws Exception {
        for (Field f : MPI.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && Modifier.isPublic(f.getModifiers())) {
                assertTrue(Modifier.isFinal(f.getModifiers()), f.getName() + " is final");
            }
        }
        // javac inlines compile-time constants; a field set in a static block it cannot. The class
        // file tells which: only compile-time constants carry a ConstantValue attribute.
        byte[] classFile = MPI.class.getResourceAsStream("MPI.class").readAllBytes();
        assertFalse(new String(classFile, java.nio.charset.StandardCharsets.ISO_8859_1).contains("ConstantValue"),
                "some field of MPI is a compile-time constant");
    }

    @Test
    void shouldProvideThePredefinedObjects() throws Exception {
        assertSame(Intracomm.class, MPI.COMM_WORLD.getClass());
        assertSame(Intracomm.class, MPI.COMM_SELF.getClass());
        assertEquals(0, MPI.COMM_WORLD.commId);
        assertEquals(1, MPI.COMM_SELF.commId);
        assertTrue(MPI.REQUEST_NULL.isNull());
        assertEquals("MPI_ERRORS_ARE_FATAL", MPI.ERRORS_ARE_FATAL.toString());
        assertTrue(MPI.ERRORS_ARE_FATAL.isFatal());
        assertTrue(MPI.ERRORS_ABORT.isFatal());
        assertFalse(MPI.ERRORS_RETURN.isFatal());
        assertEquals(3, MPI.getVersion().getVersion());
        assertEquals(1, MPI.getVersion().getSubVersion());
        assertTrue(MPI.getLibVersion().startsWith("bdmpi-java"));
    }

    @Test
    void shouldMakeDirectNativeOrderBuffersSizedInElements() {
        ByteBuffer bytes = MPI.newByteBuffer(5);
        assertTrue(bytes.isDirect());
        assertEquals(ByteOrder.nativeOrder(), bytes.order());
        assertEquals(5, bytes.capacity());
        Buffer[] typed = {MPI.newCharBuffer(5), MPI.newShortBuffer(5), MPI.newIntBuffer(5), MPI.newLongBuffer(5),
            MPI.newFloatBuffer(5), MPI.newDoubleBuffer(5)};
        for (Buffer b : typed) {
            assertTrue(b.isDirect(), b.getClass().getName());
            assertEquals(5, b.capacity(), "capacity counts elements: " + b.getClass().getName());
        }
        assertEquals(ByteOrder.nativeOrder(), MPI.newCharBuffer(1).order());
        assertEquals(ByteOrder.nativeOrder(), MPI.newShortBuffer(1).order());
        assertEquals(ByteOrder.nativeOrder(), MPI.newIntBuffer(1).order());
        assertEquals(ByteOrder.nativeOrder(), MPI.newLongBuffer(1).order());
        assertEquals(ByteOrder.nativeOrder(), MPI.newFloatBuffer(1).order());
        assertEquals(ByteOrder.nativeOrder(), MPI.newDoubleBuffer(1).order());
    }

    @Test
    void shouldClearABufferBeforeSlicingIt() {
        ByteBuffer bytes = ByteBuffer.allocateDirect(8).order(ByteOrder.BIG_ENDIAN);
        bytes.position(6).limit(7);
        ByteBuffer s = MPI.slice(bytes, 2);
        assertEquals(8, bytes.limit(), "the original is cleared first (limit to capacity)...");
        assertEquals(2, bytes.position(), "...then positioned at the offset, as in Open MPI");
        assertEquals(6, s.capacity(), "from the offset to the capacity");
        assertEquals(ByteOrder.nativeOrder(), s.order(), "a byte slice is in native order");
        assertTrue(s.isDirect());
        s.put(0, (byte) 42);
        assertEquals(42, bytes.get(2), "a view, not a copy");

        IntBuffer ints = MPI.newIntBuffer(10);
        ints.position(9).limit(9);
        IntBuffer is = MPI.slice(ints, 4);
        assertEquals(6, is.capacity());
        assertEquals(10, ints.limit());
        is.put(0, 7);
        assertEquals(7, ints.get(4));

        assertEquals(3, MPI.slice(MPI.newCharBuffer(5), 2).capacity());
        assertEquals(3, MPI.slice(MPI.newShortBuffer(5), 2).capacity());
        assertEquals(3, MPI.slice(MPI.newLongBuffer(5), 2).capacity());
        assertEquals(3, MPI.slice(MPI.newFloatBuffer(5), 2).capacity());
        assertEquals(3, MPI.slice(MPI.newDoubleBuffer(5), 2).capacity());
    }

    @Test
    void shouldSliceArraysIntoHeapBuffersAtTheirOffset() {
        byte[] b = new byte[10];
        ByteBuffer bs = MPI.slice(b, 4);
        assertFalse(bs.isDirect());
        assertSame(b, bs.array());
        assertEquals(4, bs.arrayOffset());
        assertEquals(6, bs.capacity());
        assertEquals(ByteOrder.nativeOrder(), bs.order());

        CharBuffer c = MPI.slice(new char[10], 3);
        ShortBuffer s = MPI.slice(new short[10], 3);
        int[] intArray = new int[10];
        IntBuffer i = MPI.slice(intArray, 3);
        LongBuffer l = MPI.slice(new long[10], 3);
        FloatBuffer f = MPI.slice(new float[10], 3);
        DoubleBuffer d = MPI.slice(new double[10], 3);
        for (Buffer x : new Buffer[] {c, s, i, l, f, d}) {
            assertEquals(3, x.arrayOffset(), x.getClass().getName());
            assertEquals(7, x.capacity(), x.getClass().getName());
            assertEquals(0, x.position(), x.getClass().getName());
        }
        i.put(0, 99);
        assertEquals(99, intArray[3]);
        assertNotNull(MPI.slice(new int[3], 3), "an empty slice at the end is fine");
    }
}
