package mpi;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Comm.reduceLocal, which computes in this process: the predefined operators' semantics (checked
 * against values worked out by hand), user functions in both forms, and Op itself.
 */
class ReduceLocalTest extends WithMaster {

    @Test
    void shouldCombineIntegersAsJavaDoesWithoutTheMaster() throws Exception {
        int[] sum = {10, 20, 30};
        Comm.reduceLocal(new int[] {1, 2, 3}, sum, 2, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {11, 22, 30}, sum, "count items only");
        byte[] wrapped = {1};
        Comm.reduceLocal(new byte[] {127}, wrapped, 1, MPI.BYTE, MPI.SUM);
        assertArrayEquals(new byte[] {-128}, wrapped);
        byte[] unsigned = {100, -1};
        Comm.reduceLocal(new byte[] {-13, 5}, unsigned, 2, MPI.BYTE, MPI.MAX);
        assertArrayEquals(new byte[] {-13, -1}, unsigned, "bytes are MPI_UINT8_T: 243 > 100, 255 > 5");
        short[] prod = {300};
        Comm.reduceLocal(new short[] {300}, prod, 1, MPI.SHORT, MPI.PROD);
        assertArrayEquals(new short[] {(short) 90000}, prod);
        char[] max = {'a'};
        Comm.reduceLocal(new char[] {'\uffff'}, max, 1, MPI.CHAR, MPI.MAX);
        assertArrayEquals(new char[] {'\uffff'}, max, "chars are unsigned");
        long[] min = {Long.MIN_VALUE + 1};
        Comm.reduceLocal(new long[] {Long.MIN_VALUE}, min, 1, MPI.LONG, MPI.MIN);
        assertArrayEquals(new long[] {Long.MIN_VALUE}, min);
        assertTrue(requests().isEmpty(), "nothing for the master");
    }

    @Test
    void shouldCombineLogicallyAndBitwise() throws Exception {
        boolean[] and = {true, false, false};
        Comm.reduceLocal(new boolean[] {true, true, false}, and, 3, MPI.BOOLEAN, MPI.LAND);
        assertArrayEquals(new boolean[] {true, false, false}, and);
        boolean[] xor = {true, false};
        Comm.reduceLocal(new boolean[] {true, true}, xor, 2, MPI.BOOLEAN, MPI.LXOR);
        assertArrayEquals(new boolean[] {false, true}, xor);
        int[] lor = {0, 0, 7};
        Comm.reduceLocal(new int[] {5, 0, 0}, lor, 3, MPI.INT, MPI.LOR);
        assertArrayEquals(new int[] {1, 0, 1}, lor, "logical results are 1 or 0");
        byte[] bits = {0x0f, 0x0f};
        Comm.reduceLocal(new byte[] {0x3c, 0x3c}, bits, 2, MPI.BYTE, MPI.BXOR);
        assertArrayEquals(new byte[] {0x33, 0x33}, bits);
        long[] band = {0xff00L};
        Comm.reduceLocal(new long[] {0x0ff0L}, band, 1, MPI.LONG, MPI.BAND);
        assertArrayEquals(new long[] {0x0f00L}, band);
    }

    @Test
    void shouldCompareFloatingPointAsC() throws Exception {
        double[] next = {1.0, Double.NaN, -0.0};
        Comm.reduceLocal(new double[] {Double.NaN, 1.0, 0.0}, next, 3, MPI.DOUBLE, MPI.MAX);
        assertEquals(1.0, next[0], "a NaN on the left loses: NaN > 1 is false");
        assertTrue(Double.isNaN(next[1]), "a NaN on the right wins: 1 > NaN is false");
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(next[2]), "of equal zeros, the right one");
        float[] sum = {0.1f};
        Comm.reduceLocal(new float[] {0.2f}, sum, 1, MPI.FLOAT, MPI.SUM);
        assertEquals(0.2f + 0.1f, sum[0], "float arithmetic, not double");
    }

    @Test
    void shouldTakeTheBetterPairAndTheLowerIndexOnTies() throws Exception {
        byte[] in = new byte[16];
        byte[] inOut = new byte[16];
        put(MPI.int2.getData(in, 0), 5, 3);
        put(MPI.int2.getData(in, 1), 2, 7);
        put(MPI.int2.getData(inOut, 0), 5, 1);
        put(MPI.int2.getData(inOut, 1), 4, 0);
        Comm.reduceLocal(in, inOut, 2, MPI.INT2, MPI.MINLOC);
        Int2.Data first = MPI.int2.getData(inOut, 0);
        Int2.Data second = MPI.int2.getData(inOut, 1);
        assertEquals(List2.of(5, 1), List2.of(first.getValue(), first.getIndex()));
        assertEquals(List2.of(2, 7), List2.of(second.getValue(), second.getIndex()));

        ByteBuffer a = MPI.newByteBuffer(16);
        ByteBuffer b = MPI.newByteBuffer(16);
        MPI.longInt.<LongInt.Data>getData(a).putValue((1L << 60) + 1);
        MPI.longInt.<LongInt.Data>getData(b).putValue(1L << 60);
        MPI.longInt.<LongInt.Data>getData(b).putIndex(1);
        Comm.reduceLocal(a, b, 1, MPI.LONG_INT, MPI.MAXLOC);
        LongInt.Data r = MPI.longInt.getData(b);
        assertEquals((1L << 60) + 1, r.getValue(), "longs compare exactly");
        assertEquals(0, r.getIndex());
    }

    /** A two-int tuple for readable assertions. */
    private record List2(int a, int b) {
        static List2 of(int a, int b) {
            return new List2(a, b);
        }
    }

    private static void put(Int2.Data d, int value, int index) {
        d.putValue(value);
        d.putIndex(index);
    }

    @Test
    void shouldIgnoreThePaddingOfPairs() throws Exception {
        ByteBuffer in = MPI.newByteBuffer(8);
        ByteBuffer inOut = MPI.newByteBuffer(8);
        in.put(2, (byte) 0x7f).put(3, (byte) 0x7f);
        inOut.put(2, (byte) 0x55).put(3, (byte) 0x55);
        ShortInt.Data x = MPI.shortInt.getData(in);
        x.putValue((short) 3);
        x.putIndex(9);
        ShortInt.Data y = MPI.shortInt.getData(inOut);
        y.putValue((short) -2);
        y.putIndex(4);
        Comm.reduceLocal(in, inOut, 1, MPI.SHORT_INT, MPI.MINLOC);
        ShortInt.Data r = MPI.shortInt.getData(inOut);
        assertEquals(-2, r.getValue(), "the short at 0, not the padding after it");
        assertEquals(4, r.getIndex(), "the index at 4");
    }

    @Test
    void shouldApplyAUserFunctionWithInputOnTheLeft() throws Exception {
        UserFunction minus = new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                for (int i = 0; i < count; i++) {
                    ((int[]) inOut)[i] = ((int[]) in)[i] - ((int[]) inOut)[i];
                }
            }
        };
        IntBuffer inOut = MPI.newIntBuffer(2).put(0, 3).put(1, 4);
        Comm.reduceLocal(new int[] {10, 20}, inOut, 2, MPI.INT, new Op(minus, false));
        assertEquals(7, inOut.get(0));
        assertEquals(16, inOut.get(1));
    }

    @Test
    void shouldRejectWhatNoReductionAccepts() throws Exception {
        int[] one = new int[1];
        assertError(MPI.ERR_OP, () -> Comm.reduceLocal(one, new int[1], 1, MPI.INT, MPI.REPLACE));
        assertError(MPI.ERR_OP, () -> Comm.reduceLocal(new float[1], new float[1], 1, MPI.FLOAT, MPI.LAND));
        assertError(MPI.ERR_OP, () -> Comm.reduceLocal(new byte[8], new byte[8], 1, MPI.FLOAT_INT, MPI.MAX));
        assertError(MPI.ERR_OP, () -> Comm.reduceLocal(one, new int[1], 1, MPI.INT, null));
        assertError(MPI.ERR_BUFFER, () -> Comm.reduceLocal(new int[2], new int[1], 2, MPI.INT, MPI.SUM));
        assertError(MPI.ERR_TYPE, () -> Comm.reduceLocal(one, new boolean[4], 1, MPI.INT, MPI.SUM));
        assertError(MPI.ERR_COUNT, () -> Comm.reduceLocal(one, one, -1, MPI.INT, MPI.SUM));
    }

    // ---------------------------------------------------------------- Op and UserFunction

    @Test
    void shouldDescribeOperators() throws Exception {
        assertTrue(MPI.SUM.isCommutative());
        assertTrue(MPI.MINLOC.isCommutative());
        Op mine = new Op(new UserFunction() {
        }, false);
        assertFalse(mine.isCommutative());
        assertTrue(new Op(new UserFunction() {
        }, true).isCommutative());
        assertFalse(mine.isNull());
        mine.free();
        assertTrue(mine.isNull());
        MPI.MAX.free();
        assertFalse(MPI.MAX.isNull(), "predefined operators stay");
    }

    @Test
    void shouldGoThroughTheArrayFormByDefault() throws Exception {
        int[] seen = new int[2];
        UserFunction arrays = new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                seen[0] = ((byte[]) in).length;
                seen[1] = count;
                byte[] b = (byte[]) inOut;
                b[0] = (byte) (b[0] + ((byte[]) in)[0]);
            }
        };
        ByteBuffer in = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder()).put(0, (byte) 5);
        ByteBuffer inOut = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder()).put(0, (byte) 6);
        arrays.call(in, inOut, 2, MPI.DOUBLE_INT);
        assertArrayEquals(new int[] {32, 2}, seen, "count x extent bytes of a pair type");
        assertEquals(11, inOut.get(0));

        assertThrows(UnsupportedOperationException.class, () -> new UserFunction() {
        }.call(new int[1], new int[1], 1, MPI.INT));
        assertThrows(IllegalArgumentException.class, () -> arrays.call(in, inOut, 1, MPI.BOOLEAN));
    }
}
