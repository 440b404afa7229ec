package mpi;

import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.SlaveRequest;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Predefined and derived datatypes: units, layouts, their use in messages, pack and unpack. */
class DatatypeTest extends WithMaster {

    private static final Comm SELF = MPI.COMM_SELF;

    private static Datatype committed(Datatype t) throws MPIException {
        t.commit();
        return t;
    }

    /** extent, size, lb, true extent, true lb, in base units. */
    private static void assertUnits(Datatype t, int extent, int size, int lb, int trueExtent, int trueLb)
            throws MPIException {
        assertEquals(extent, t.getExtent(), "extent");
        assertEquals(size, t.getSize(), "size");
        assertEquals(lb, t.getLb(), "lb");
        assertEquals(trueExtent, t.getTrueExtent(), "true extent");
        assertEquals(trueLb, t.getTrueLb(), "true lb");
    }

    // ---------------------------------------------------------------- predefined types

    @Test
    void shouldCountPredefinedTypesInBaseUnits() throws Exception {
        Datatype[] all = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE, MPI.PACKED};
        int[] bytes = {1, 2, 2, 1, 4, 8, 4, 8, 1};
        String[] names = {"MPI_BYTE", "MPI_CHAR", "MPI_SHORT", "MPI_BOOLEAN", "MPI_INT", "MPI_LONG", "MPI_FLOAT", "MPI_DOUBLE",
            "MPI_PACKED"};
        for (int i = 0; i < all.length; i++) {
            Datatype t = all[i];
            assertUnits(t, 1, 1, 0, 1, 0);
            assertEquals(bytes[i], t.byteSize(), names[i]);
            assertEquals(names[i], t.getName());
            assertFalse(t.isNull());
            t.commit();
            assertError(MPI.ERR_TYPE, t::free);
            assertFalse(t.isNull(), "a predefined type stays");
        }
        assertEquals(MPI.BYTE.base, MPI.PACKED.base, "PACKED is bytes");
        assertUnits(MPI.FLOAT_COMPLEX, 2, 2, 0, 2, 0);
        assertUnits(MPI.DOUBLE_COMPLEX, 2, 2, 0, 2, 0);
        assertUnits(MPI.DOUBLE_INT, 16, 12, 0, 12, 0);
        assertUnits(MPI.SHORT_INT, 8, 6, 0, 8, 0);
        assertTrue(MPI.DATATYPE_NULL.isNull());
        MPI.DATATYPE_NULL.free();
        assertError(MPI.ERR_TYPE, () -> SELF.send(new int[1], 1, MPI.DATATYPE_NULL, 0, 0));
    }

    // ---------------------------------------------------------------- constructors

    @Test
    void shouldLayOutEveryConstructorAsMpiDoes() throws Exception {
        assertUnits(Datatype.createContiguous(3, MPI.INT), 3, 3, 0, 3, 0);
        // {2 ints, 2 gap} x2 + 2 ints: extent 10, data 6.
        assertUnits(Datatype.createVector(3, 2, 4, MPI.INT), 10, 6, 0, 10, 0);
        assertUnits(Datatype.createHVector(2, 1, 12, MPI.INT), 4, 2, 0, 4, 0);
        assertUnits(Datatype.createIndexed(new int[] {2, 1}, new int[] {1, 4}, MPI.DOUBLE), 4, 3, 1, 4, 1);
        assertUnits(Datatype.createHIndexed(new int[] {1, 1}, new int[] {4, 16}, MPI.INT), 4, 2, 1, 4, 1);
        Datatype struct = Datatype.createStruct(new int[] {1, 2}, new int[] {0, 8}, new Datatype[] {MPI.INT, MPI.DOUBLE});
        assertUnits(struct, 24, 20, 0, 24, 0);
        assertEquals(Datatype.Base.BYTE, struct.base, "a struct is bytes");
        assertEquals(2, Datatype.createResized(MPI.INT, 0, 8).getExtent(), "lb and extent in bytes, getters in ints");
        assertUnits(Datatype.createResized(MPI.DOUBLE, -8, 32), 4, 1, -1, 1, 0);
        assertEquals(ElementType.DOUBLE, Datatype.createVector(2, 1, 3, MPI.DOUBLE).element);
        assertEquals(null, struct.element, "mixed types reduce with no predefined operator");
        // A vector of a resized type strides by the new extent.
        Datatype spaced = Datatype.createResized(MPI.INT, 0, 12);
        assertUnits(Datatype.createContiguous(2, spaced), 6, 2, 0, 4, 0);
    }

    @Test
    void shouldRejectBadConstructorArguments() {
        assertError(MPI.ERR_COUNT, () -> Datatype.createContiguous(-1, MPI.INT));
        assertError(MPI.ERR_TYPE, () -> Datatype.createContiguous(1, null));
        assertError(MPI.ERR_ARG, () -> Datatype.createVector(1, -2, 1, MPI.INT));
        assertError(MPI.ERR_ARG, () -> Datatype.createIndexed(new int[] {1, 1}, new int[] {0}, MPI.INT));
        assertError(MPI.ERR_ARG, () -> Datatype.createStruct(new int[] {1}, new int[] {0}, new Datatype[0]));
        assertError(MPI.ERR_TYPE, () -> Datatype.createStruct(new int[] {1}, new int[] {0}, new Datatype[] {null}));
        assertError(MPI.ERR_ARG, () -> Datatype.createResized(MPI.INT, 0, -4));
        assertError(MPI.ERR_TYPE, () -> Datatype.createContiguous(2, MPI.DATATYPE_NULL));
    }

    @Test
    void shouldRequireCommitAndRefuseFreedTypes() throws Exception {
        Datatype t = Datatype.createContiguous(2, MPI.INT);
        assertError(MPI.ERR_TYPE, () -> SELF.send(new int[2], 1, t, 0, 0));
        assertError(MPI.ERR_TYPE, () -> SELF.packSize(1, t));
        Datatype copy = t.dup();
        t.commit();
        assertError(MPI.ERR_TYPE, () -> SELF.send(new int[2], 1, copy, 0, 0));
        Datatype committedCopy = t.clone();
        assertNotSame(t, committedCopy);
        assertEquals(8, SELF.packSize(1, committedCopy), "dup keeps the committed state");
        t.setName("pair of ints");
        assertEquals("pair of ints", t.getName());
        assertEquals("", committedCopy.getName());
        Datatype derived = committed(Datatype.createContiguous(2, t));
        t.free();
        assertTrue(t.isNull());
        assertError(MPI.ERR_TYPE, () -> SELF.send(new int[2], 1, t, 0, 0));
        assertError(MPI.ERR_TYPE, t::commit);
        assertEquals(16, SELF.packSize(1, derived), "types built on a freed one stay valid");
    }

    // ---------------------------------------------------------------- layouts in messages

    @Test
    void shouldSendOnlyTheTypeMapAndKeepGapsOnReceive() throws Exception {
        Datatype vector = committed(Datatype.createVector(2, 2, 3, MPI.INT));
        SELF.send(new int[] {1, 2, 3, 4, 5, 6, 7}, 1, vector, 0, 1);
        byte[] sent = ((io.bdmpi.protocol.Payload.Inline) requests(SlaveRequest.Send.class).get(0).payload()).bytes().array();
        assertArrayEquals(bytesOf(1, 2, 4, 5), java.util.Arrays.copyOfRange(sent, 0, 16), "packed, gaps left out");
        int[] in = {-1, -1, -1, -1, -1, -1};
        Status s = SELF.recv(in, 1, vector, 0, 1);
        assertArrayEquals(new int[] {1, 2, -1, 4, 5, -1}, in, "the gap keeps its old value");
        assertEquals(1, s.getCount(vector));
        assertEquals(4, s.getElements(vector));
        assertEquals(4, s.getCount(MPI.INT));
    }

    @Test
    void shouldCountPartialItemsAsElements() throws Exception {
        Datatype three = committed(Datatype.createContiguous(3, MPI.INT));
        SELF.send(new int[] {1, 2, 3, 4, 5}, 5, MPI.INT, 0, 0);
        int[] in = new int[6];
        Status s = SELF.recv(in, 2, three, 0, 0);
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 0}, in);
        assertEquals(MPI.UNDEFINED, s.getCount(three));
        assertEquals(5, s.getElements(three));
    }

    @Test
    void shouldPlaceEveryConstructorsItemsInArraysAndDirectBuffers() throws Exception {
        Datatype[] types = {
            Datatype.createContiguous(2, MPI.DOUBLE),
            Datatype.createVector(2, 1, 3, MPI.DOUBLE),
            Datatype.createHVector(2, 1, 16, MPI.DOUBLE),
            Datatype.createIndexed(new int[] {1, 2}, new int[] {3, 0}, MPI.DOUBLE),
            Datatype.createHIndexed(new int[] {1, 1}, new int[] {8, 24}, MPI.DOUBLE),
            Datatype.createResized(MPI.DOUBLE, 0, 16),
        };
        // Two items of each type; the values count up in type-map order, -1 marks the gaps.
        double[][] layouts = {
            {1, 2, 3, 4, -1, -1, -1, -1},
            {1, -1, -1, 2, 3, -1, -1, 4},
            {1, -1, 2, 3, -1, 4, -1, -1},
            {2, 3, -1, 1, 5, 6, -1, 4},
            {-1, 1, -1, 2, 3, -1, 4, -1},
            {1, -1, 2, -1, -1, -1, -1, -1},
        };
        for (int i = 0; i < types.length; i++) {
            Datatype t = committed(types[i]);
            double[] layout = layouts[i];
            int k = (int) java.util.Arrays.stream(layout).filter(v -> v > 0).count();
            SELF.send(layout, 2, t, 0, i);
            double[] packed = new double[k];
            SELF.recv(packed, k, MPI.DOUBLE, 0, i);
            for (int j = 0; j < k; j++) {
                assertEquals(j + 1, packed[j], "type " + i + ": the message holds the type map in order");
            }
            SELF.send(packed, k, MPI.DOUBLE, 0, i);
            double[] in = filled(8);
            SELF.recv(in, 2, t, 0, i);
            assertArrayEquals(layout, in, "type " + i + " into an array");
            SELF.send(layout, 2, t, 0, i);
            DoubleBuffer direct = MPI.newDoubleBuffer(8).put(filled(8));
            SELF.recv(direct, 2, t, 0, i);
            double[] got = new double[8];
            direct.clear().get(got);
            assertArrayEquals(layout, got, "type " + i + " into a direct buffer");
        }
    }

    private static double[] filled(int n) {
        double[] a = new double[n];
        java.util.Arrays.fill(a, -1);
        return a;
    }

    @Test
    void shouldMoveStructsOfMixedTypesInBytes() throws Exception {
        Datatype struct = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE}));
        ByteBuffer out = MPI.newByteBuffer(32);
        out.putInt(0, 7).putInt(4, 99).putDouble(8, 1.5).putInt(16, 8).putDouble(24, 2.5);
        SELF.send(out, 2, struct, 0, 0);
        ByteBuffer in = MPI.newByteBuffer(32);
        in.putInt(4, -1).putInt(20, -1);
        Status s = SELF.recv(in, 2, struct, 0, 0);
        assertEquals(7, in.getInt(0));
        assertEquals(-1, in.getInt(4), "padding is a gap");
        assertEquals(1.5, in.getDouble(8));
        assertEquals(8, in.getInt(16));
        assertEquals(2.5, in.getDouble(24));
        assertEquals(2, s.getCount(struct));
        assertEquals(4, s.getElements(struct));
        assertEquals(24, s.getCount(MPI.BYTE));
        assertError(MPI.ERR_OP, () -> Comm.reduceLocal(out, in, 1, struct, MPI.SUM));
    }

    @Test
    void shouldCountMpiJavaStructsInElementsOfTheBuffer() throws Exception {
        Datatype ints = Datatype.Struct(new int[] {1, 2}, new int[] {0, 3}, new Datatype[] {MPI.INT, MPI.INT});
        assertEquals(List.of(5, 3, 0, 5), List.of(ints.Extent(), ints.Size(), ints.Lb(), ints.Ub()));
        Datatype bounded = Datatype.Struct(new int[] {1, 1, 1}, new int[] {0, 2, 4},
                new Datatype[] {MPI.INT, MPI.INT, MPI.UB});
        assertEquals(List.of(4, 2, 0, 4), List.of(bounded.Extent(), bounded.Size(), bounded.Lb(), bounded.Ub()));
        ints.Commit();
        SELF.Send(new int[] {-9, 1, -1, -1, 2, 3, 4, -1, -1, 5, 6}, 1, 2, ints, 0, 0);
        int[] in = new int[10];
        SELF.Recv(in, 0, 2, ints, 0, 0);
        assertArrayEquals(new int[] {1, 0, 0, 2, 3, 4, 0, 0, 5, 6}, in);

        Datatype flags = Datatype.Struct(new int[] {1, 1}, new int[] {0, 2}, new Datatype[] {MPI.BOOLEAN, MPI.BOOLEAN});
        flags.Commit();
        SELF.Send(new boolean[] {true, false, true}, 0, 1, flags, 0, 1);
        boolean[] got = {false, true, false};
        SELF.Recv(got, 0, 1, flags, 0, 1);
        assertArrayEquals(new boolean[] {true, true, true}, got, "a boolean[] takes a struct of BOOLEAN; its gap stays");
    }

    @Test
    void shouldRefuseLayoutsReachingPastTheBuffer() throws Exception {
        Datatype vector = committed(Datatype.createVector(2, 1, 4, MPI.INT));
        assertEquals(8, BufferAccess.byteLength("MPI_Send", new int[5], 1, vector, false));
        assertError(MPI.ERR_BUFFER, () -> SELF.send(new int[4], 1, vector, 0, 0));
        assertError(MPI.ERR_BUFFER, () -> SELF.recv(new int[8], 2, vector, 0, 0));
        Datatype before = committed(Datatype.createHIndexed(new int[] {1}, new int[] {-4}, MPI.INT));
        assertError(MPI.ERR_BUFFER, () -> SELF.send(new int[4], 1, before, 0, 0));
    }

    // ---------------------------------------------------------------- raw buffers

    @Test
    void shouldCopyAnyArrayAsRawMemory() throws Exception {
        int[] ints = {0x01020304, 0x05060708, -1};
        SELF.send(ints, 12, MPI.BYTE, 0, 0);
        int[] back = new int[3];
        SELF.recv(back, 3, MPI.INT, 0, 0);
        assertArrayEquals(ints, back, "int[] as 4n BYTE, received as INT");
        SELF.send(ints, 6, MPI.CHAR, 0, 0);
        char[] chars = new char[6];
        SELF.recv(chars, 6, MPI.CHAR, 0, 0);
        CharBuffer view = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder()).putInt(ints[0]).putInt(ints[1])
                .putInt(ints[2]).flip().asCharBuffer();
        for (int i = 0; i < 6; i++) {
            assertEquals(view.get(i), chars[i]);
        }
        // An odd byte count splits an int: only the bytes named change.
        SELF.send(new byte[] {9, 9, 9, 9, 9}, 5, MPI.BYTE, 0, 0);
        int[] split = {0, 0};
        SELF.recv(split, 5, MPI.BYTE, 0, 0);
        assertEquals(0x09090909, split[0]);
        ByteBuffer second = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, split[1]);
        assertArrayEquals(new byte[] {9, 0, 0, 0}, second.array());
        IntBuffer heap = IntBuffer.wrap(new int[] {1, 2, 3, 4});
        SELF.send(MPI.slice(heap, 1), 1, MPI.LONG, 0, 0);
        long[] pair = new long[1];
        SELF.recv(pair, 8, MPI.BYTE, 0, 0);
        SELF.send(pair, 2, MPI.INT, 0, 0);
        int[] two = new int[2];
        SELF.recv(two, 2, MPI.INT, 0, 0);
        assertArrayEquals(new int[] {2, 3}, two);
    }

    // ---------------------------------------------------------------- pack and unpack

    @Test
    void shouldPackAndUnpackThroughPacked() throws Exception {
        Datatype vector = committed(Datatype.createVector(2, 1, 2, MPI.INT));
        byte[] packed = new byte[SELF.packSize(1, vector) + SELF.packSize(2, MPI.DOUBLE)];
        assertEquals(24, packed.length);
        int pos = SELF.pack(new int[] {1, 2, 3}, 1, vector, packed, 0);
        assertEquals(8, pos);
        pos = SELF.pack(new double[] {0.5, 1.5}, 2, MPI.DOUBLE, packed, pos);
        assertEquals(24, pos);
        assertEquals(24, SELF.pack(new int[1], 0, MPI.INT, packed, 24), "nothing to pack");
        assertError(MPI.ERR_TRUNCATE, () -> SELF.pack(new int[] {1, 2, 3}, 1, vector, packed, 20));
        SELF.send(packed, pos, MPI.PACKED, 0, 3);
        byte[] got = new byte[24];
        Status s = SELF.recv(got, 24, MPI.PACKED, 0, 3);
        assertEquals(24, s.getCount(MPI.PACKED));
        int[] ints = {-1, -1, -1};
        double[] doubles = new double[2];
        int at = SELF.unpack(got, 0, ints, 1, vector);
        at = SELF.unpack(got, at, doubles, 2, MPI.DOUBLE);
        assertEquals(24, at);
        assertArrayEquals(new int[] {1, -1, 3}, ints);
        assertArrayEquals(new double[] {0.5, 1.5}, doubles);
        assertError(MPI.ERR_TRUNCATE, () -> SELF.unpack(got, 16, doubles, 2, MPI.DOUBLE));
        assertError(MPI.ERR_ARG, () -> SELF.unpack(got, 25, doubles, 0, MPI.DOUBLE));
    }

    // ---------------------------------------------------------------- reductions

    @Test
    void shouldReduceADerivedTypeAsItsElementType() throws Exception {
        Datatype every2nd = committed(Datatype.createVector(2, 1, 2, MPI.DOUBLE));
        double[] inOut = {10, -1, 20, -1};
        Comm.reduceLocal(new double[] {1, 7, 2, 7}, inOut, 1, every2nd, MPI.SUM);
        assertArrayEquals(new double[] {11, -1, 22, -1}, inOut);
        Op max = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object io, int count, Datatype type) {
                double[] a = (double[]) in;
                double[] b = (double[]) io;
                assertEquals(3, a.length, "the layout of one item: extent 3 doubles");
                for (int i = 0; i < a.length; i++) {
                    b[i] = Math.max(a[i], b[i]);
                }
            }
        }, true);
        double[] target = {0, -5, 30, -5};
        Comm.reduceLocal(new double[] {5, 9, 3, 9}, target, 1, every2nd, max);
        assertArrayEquals(new double[] {5, -5, 30, -5}, target);
    }

    @Test
    void shouldReduceComplexNumbers() throws Exception {
        float[] a = {1, 2};
        float[] b = {3, 4};
        Comm.reduceLocal(a, b, 1, MPI.FLOAT_COMPLEX, MPI.PROD);
        assertEquals(-5f, FloatComplex.get(b).getReal());
        assertEquals(10f, FloatComplex.get(b).getImag());
        DoubleBuffer d = MPI.newDoubleBuffer(4);
        DoubleComplex.get(d, 1).putReal(1.5);
        DoubleComplex.get(d, 1).putImag(-2);
        double[] sum = {0, 0, 10, 20};
        Comm.reduceLocal(d, sum, 2, MPI.DOUBLE_COMPLEX, MPI.SUM);
        assertArrayEquals(new double[] {0, 0, 11.5, 18}, sum);
        assertEquals(1.5, DoubleComplex.get(MPI.newByteBuffer(32).putDouble(16, 1.5), 1).getReal());
        assertEquals(18.0, DoubleComplex.get(sum, 1).getBuffer().get(1));
        assertError(MPI.ERR_OP, () -> Comm.reduceLocal(a, b, 1, MPI.FLOAT_COMPLEX, MPI.MAX));
    }
}
