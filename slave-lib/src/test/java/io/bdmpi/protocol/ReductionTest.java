package io.bdmpi.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static io.bdmpi.protocol.ElementType.BOOLEAN;
import static io.bdmpi.protocol.ElementType.BYTE;
import static io.bdmpi.protocol.ElementType.CHAR;
import static io.bdmpi.protocol.ElementType.DOUBLE;
import static io.bdmpi.protocol.ElementType.DOUBLE_COMPLEX;
import static io.bdmpi.protocol.ElementType.DOUBLE_INT;
import static io.bdmpi.protocol.ElementType.FLOAT_COMPLEX;
import static io.bdmpi.protocol.ElementType.FLOAT;
import static io.bdmpi.protocol.ElementType.FLOAT_INT;
import static io.bdmpi.protocol.ElementType.INT;
import static io.bdmpi.protocol.ElementType.INT2;
import static io.bdmpi.protocol.ElementType.LONG;
import static io.bdmpi.protocol.ElementType.LONG_INT;
import static io.bdmpi.protocol.ElementType.SHORT;
import static io.bdmpi.protocol.ElementType.SHORT_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReductionTest {

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    /** Set on the test buffers to show that combine reads native order whatever the buffer says. */
    private static final ByteOrder FOREIGN = NATIVE == ByteOrder.LITTLE_ENDIAN ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    /** Odd positions, so that elements are unaligned and absolute indexing from the position matters. */
    private static final int ACC_POSITION = 3;
    private static final int NEXT_POSITION = 5;
    private static final int TAIL = 9;
    private static final byte GUARD = (byte) 0xA5;

    private static final Set<ElementType> INTEGERS = EnumSet.of(BYTE, CHAR, SHORT, INT, LONG);
    private static final Set<ElementType> ARITHMETIC = EnumSet.of(BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE);
    private static final Set<ElementType> LOGICAL = EnumSet.of(BYTE, CHAR, SHORT, INT, LONG, BOOLEAN);
    private static final Set<ElementType> COMPLEX = EnumSet.of(FLOAT_COMPLEX, DOUBLE_COMPLEX);
    private static final Set<ElementType> PAIRS = EnumSet.of(INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT);
    private static final List<ReduceOp> INTEGER_OPS = List.of(ReduceOp.MAX, ReduceOp.MIN, ReduceOp.SUM, ReduceOp.PROD,
            ReduceOp.LAND, ReduceOp.LOR, ReduceOp.LXOR, ReduceOp.BAND, ReduceOp.BOR, ReduceOp.BXOR);
    private static final List<ReduceOp> BOOLEAN_OPS = List.of(ReduceOp.LAND, ReduceOp.LOR, ReduceOp.LXOR,
            ReduceOp.BAND, ReduceOp.BOR, ReduceOp.BXOR);
    private static final List<ReduceOp> FLOAT_OPS = List.of(ReduceOp.MAX, ReduceOp.MIN, ReduceOp.SUM, ReduceOp.PROD);

    // ================================================================ harness

    /**
     * Places acc and next at odd positions of heap or direct buffers (foreign byte order, guard bytes
     * around), runs combine, checks that positions, limits, next and everything outside acc's window are
     * untouched, and returns acc's window.
     */
    private static byte[] run(ReduceOp op, ElementType type, byte[] accBytes, byte[] nextBytes, int count, boolean direct) {
        ByteBuffer acc = place(accBytes, ACC_POSITION, direct);
        ByteBuffer next = place(nextBytes, NEXT_POSITION, direct);
        Reduction.combine(op, type, acc, next, count);
        assertEquals(ACC_POSITION, acc.position(), "acc position");
        assertEquals(acc.capacity(), acc.limit(), "acc limit");
        assertEquals(NEXT_POSITION, next.position(), "next position");
        assertEquals(next.capacity(), next.limit(), "next limit");
        assertEquals(FOREIGN, acc.order(), "acc order");
        assertArrayEquals(nextBytes, window(next, NEXT_POSITION, nextBytes.length), "next must not change");
        assertGuards(next, NEXT_POSITION, nextBytes.length);
        int touched = count * type.size;
        assertGuards(acc, ACC_POSITION, accBytes.length);
        byte[] out = window(acc, ACC_POSITION, accBytes.length);
        for (int i = touched; i < accBytes.length; i++) {
            assertEquals(accBytes[i], out[i], "acc byte " + i + " is beyond count elements");
        }
        return out;
    }

    private static ByteBuffer place(byte[] content, int position, boolean direct) {
        int capacity = position + content.length + TAIL;
        ByteBuffer buf = direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        for (int i = 0; i < capacity; i++) {
            buf.put(i, GUARD);
        }
        buf.put(position, content);
        buf.position(position);
        buf.order(FOREIGN);
        return buf;
    }

    private static byte[] window(ByteBuffer buf, int from, int length) {
        byte[] out = new byte[length];
        buf.duplicate().clear().get(from, out); // regardless of the limit
        return out;
    }

    private static void assertGuards(ByteBuffer buf, int position, int length) {
        for (int i = 0; i < position; i++) {
            assertEquals(GUARD, buf.get(i), "byte " + i + " before the position");
        }
        for (int i = position + length; i < buf.capacity(); i++) {
            assertEquals(GUARD, buf.get(i), "byte " + i + " after the elements");
        }
    }

    private static ByteBuffer nativeBuffer(int bytes) {
        return ByteBuffer.allocate(bytes).order(NATIVE);
    }

    // ---------------------------------------------------------------- integer encodings

    /** Native bytes of integer-typed (or BOOLEAN) elements. */
    private static byte[] encode(ElementType type, long... values) {
        ByteBuffer b = nativeBuffer(values.length * type.size);
        for (int i = 0; i < values.length; i++) {
            long v = values[i];
            switch (type) {
                case BYTE, BOOLEAN -> b.put(i, (byte) v);
                case CHAR -> b.putChar(i * 2, (char) v);
                case SHORT -> b.putShort(i * 2, (short) v);
                case INT -> b.putInt(i * 4, (int) v);
                case LONG -> b.putLong(i * 8, v);
                default -> throw new IllegalArgumentException(type.toString());
            }
        }
        return b.array();
    }

    /** Elements back from native bytes; BYTE and CHAR come back unsigned. */
    private static long[] decode(ElementType type, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(NATIVE);
        long[] out = new long[bytes.length / type.size];
        for (int i = 0; i < out.length; i++) {
            out[i] = switch (type) {
                case BYTE -> b.get(i) & 0xFF;
                case BOOLEAN -> b.get(i);
                case CHAR -> b.getChar(i * 2);
                case SHORT -> b.getShort(i * 2);
                case INT -> b.getInt(i * 4);
                case LONG -> b.getLong(i * 8);
                default -> throw new IllegalArgumentException(type.toString());
            };
        }
        return out;
    }

    /** The value as an element of type holds it: signed, except BYTE and CHAR, which are unsigned. */
    private static long narrow(ElementType type, long v) {
        return switch (type) {
            case BYTE -> v & 0xFF;
            case BOOLEAN -> (byte) v;
            case CHAR -> v & 0xFFFF;
            case SHORT -> (short) v;
            case INT -> (int) v;
            case LONG -> v;
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** x op y by the book: exact arithmetic then truncation to the element's width. */
    private static long reference(ReduceOp op, ElementType type, long x, long y) {
        BigInteger bx = BigInteger.valueOf(x);
        BigInteger by = BigInteger.valueOf(y);
        return switch (op) {
            case MAX -> x >= y ? x : y;
            case MIN -> x <= y ? x : y;
            case SUM -> narrow(type, bx.add(by).longValue());
            case PROD -> narrow(type, bx.multiply(by).longValue());
            case LAND -> x != 0 && y != 0 ? 1 : 0;
            case LOR -> x != 0 || y != 0 ? 1 : 0;
            case LXOR -> (x != 0) != (y != 0) ? 1 : 0;
            case BAND -> narrow(type, bx.and(by).longValue());
            case BOR -> narrow(type, bx.or(by).longValue());
            case BXOR -> narrow(type, bx.xor(by).longValue());
            default -> throw new IllegalArgumentException(op.toString());
        };
    }

    /** Interesting values of the type, as the type holds them. */
    private static long[] edges(ElementType type) {
        return switch (type) {
            case BYTE -> range(0, 255);
            case BOOLEAN -> range(-128, 127);
            case CHAR -> new long[] {0, 1, 2, 3, 0x7F, 0xFF, 0x100, 0x1234, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0xFFFF};
            case SHORT -> new long[] {Short.MIN_VALUE, Short.MIN_VALUE + 1, -256, -3, -2, -1, 0, 1, 2, 3, 0xFF, 0x100,
                0x1234, Short.MAX_VALUE - 1, Short.MAX_VALUE};
            case INT -> new long[] {Integer.MIN_VALUE, Integer.MIN_VALUE + 1, -65536, -3, -1, 0, 1, 2, 3, 0xFFFF,
                0x10000, 0x12345678, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
            case LONG -> new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, -(1L << 32), -3, -1, 0, 1, 2, 3, 0xFFFFFFFFL,
                1L << 32, 0x123456789ABCDEFL, Long.MAX_VALUE - 1, Long.MAX_VALUE};
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    private static long[] range(int from, int to) {
        long[] out = new long[to - from + 1];
        for (int i = 0; i < out.length; i++) {
            out[i] = from + i;
        }
        return out;
    }

    // ================================================================ integer types

    static Stream<Arguments> integerCases() {
        List<Arguments> cases = new ArrayList<>();
        for (boolean direct : new boolean[] {false, true}) {
            for (ElementType type : INTEGERS) {
                for (ReduceOp op : INTEGER_OPS) {
                    cases.add(Arguments.of(op, type, direct));
                }
            }
            for (ReduceOp op : BOOLEAN_OPS) {
                cases.add(Arguments.of(op, BOOLEAN, direct));
            }
        }
        return cases.stream();
    }

    /** Every pair of edge values (all 65536 for the byte types) plus random ones, element by element. */
    @ParameterizedTest(name = "{0} on {1}, direct={2}")
    @MethodSource("integerCases")
    void integerOperatorsMatchReference(ReduceOp op, ElementType type, boolean direct) {
        long[] e = edges(type);
        Random random = new Random(op.ordinal() * 31L + type.ordinal());
        int randoms = 500;
        long[] x = new long[e.length * e.length + randoms];
        long[] y = new long[x.length];
        int k = 0;
        for (long a : e) {
            for (long b : e) {
                x[k] = a;
                y[k++] = b;
            }
        }
        for (; k < x.length; k++) {
            x[k] = narrow(type, random.nextLong());
            y[k] = narrow(type, random.nextLong());
        }
        // Combine all but the last element, which must stay as it was.
        int count = x.length - 1;
        long[] got = decode(type, run(op, type, encode(type, x), encode(type, y), count, direct));
        for (int i = 0; i < count; i++) {
            long want = reference(op, type, x[i], y[i]);
            if (want != got[i]) {
                assertEquals(want, got[i], op + "(" + x[i] + ", " + y[i] + ") at " + i);
            }
        }
        assertEquals(x[count], got[count], "element past count");
    }

    @ParameterizedTest(name = "direct={0}")
    @ValueSource(booleans = {false, true})
    void integerSumAndProductWrapAround(boolean direct) {
        assertArrayEquals(new long[] {Integer.MIN_VALUE, -2, 0},
                decode(INT, run(ReduceOp.SUM, INT, encode(INT, Integer.MAX_VALUE, Integer.MAX_VALUE, -1),
                        encode(INT, 1, Integer.MAX_VALUE, 1), 3, direct)));
        assertArrayEquals(new long[] {Long.MIN_VALUE, 0},
                decode(LONG, run(ReduceOp.SUM, LONG, encode(LONG, Long.MAX_VALUE, Long.MIN_VALUE),
                        encode(LONG, 1, Long.MIN_VALUE), 2, direct)));
        assertArrayEquals(new long[] {0x80, 0},
                decode(BYTE, run(ReduceOp.SUM, BYTE, encode(BYTE, 127, 0x80), encode(BYTE, 1, 0x80), 2, direct)));
        assertArrayEquals(new long[] {Short.MIN_VALUE, 0},
                decode(SHORT, run(ReduceOp.PROD, SHORT, encode(SHORT, 0x4000, 0x100), encode(SHORT, 2, 0x100), 2, direct)));
        // 2^16 * 2^16 wraps to 0 in an int, 2^16 * 2^15 to Integer.MIN_VALUE.
        assertArrayEquals(new long[] {0, Integer.MIN_VALUE},
                decode(INT, run(ReduceOp.PROD, INT, encode(INT, 0x10000, 0x10000), encode(INT, 0x10000, 0x8000), 2, direct)));
        // 2^63 * 2 wraps to 0 in a long; 2^31 * 2^31 = 2^62 fits.
        assertArrayEquals(new long[] {0, 1L << 62},
                decode(LONG, run(ReduceOp.PROD, LONG, encode(LONG, 1L << 63, 1L << 31), encode(LONG, 2, 1L << 31), 2, direct)));
    }

    @ParameterizedTest(name = "direct={0}")
    @ValueSource(booleans = {false, true})
    void charIsUnsignedAndWrapsModulo65536(boolean direct) {
        byte[] acc = encode(CHAR, 0xFFFF, 0x8000, 0x7FFF, 1);
        byte[] next = encode(CHAR, 1, 0x7FFF, 0x8000, 0xFFFF);
        // Signed 16-bit comparisons would say 0x7FFF > 0x8000 and 1 > 0xFFFF.
        assertArrayEquals(new long[] {0xFFFF, 0x8000, 0x8000, 0xFFFF}, decode(CHAR, run(ReduceOp.MAX, CHAR, acc, next, 4, direct)));
        assertArrayEquals(new long[] {1, 0x7FFF, 0x7FFF, 1}, decode(CHAR, run(ReduceOp.MIN, CHAR, acc, next, 4, direct)));
        assertArrayEquals(new long[] {0, 0xFFFF, 0xFFFF, 0}, decode(CHAR, run(ReduceOp.SUM, CHAR, acc, next, 4, direct)));
        // 0xFFFF * 0xFFFF = 0xFFFE0001, 0x8000 * 0x7FFF = 0x3FFF8000
        assertArrayEquals(new long[] {0xFFFF, 0x8000, 0x8000, 0xFFFF}, decode(CHAR, run(ReduceOp.PROD, CHAR, acc, next, 4, direct)));
        assertArrayEquals(new long[] {0x0001},
                decode(CHAR, run(ReduceOp.PROD, CHAR, encode(CHAR, 0xFFFF), encode(CHAR, 0xFFFF), 1, direct)));
        assertArrayEquals(new long[] {1},
                decode(CHAR, run(ReduceOp.SUM, CHAR, encode(CHAR, 0xFFFF), encode(CHAR, 2), 1, direct)));
    }

    @ParameterizedTest(name = "direct={0}")
    @ValueSource(booleans = {false, true})
    void logicalResultsAreZeroOrOne(boolean direct) {
        long[] x = {0, 0, 5, -7, Long.MIN_VALUE, 4};
        long[] y = {0, 3, 0, 9, Long.MIN_VALUE, 4};
        assertArrayEquals(new long[] {0, 0, 0, 1, 1, 1}, decode(LONG, run(ReduceOp.LAND, LONG, encode(LONG, x), encode(LONG, y), 6, direct)));
        assertArrayEquals(new long[] {0, 1, 1, 1, 1, 1}, decode(LONG, run(ReduceOp.LOR, LONG, encode(LONG, x), encode(LONG, y), 6, direct)));
        assertArrayEquals(new long[] {0, 1, 1, 0, 0, 0}, decode(LONG, run(ReduceOp.LXOR, LONG, encode(LONG, x), encode(LONG, y), 6, direct)));
        // Bitwise, for contrast: 5 & 0 = 0 but 4 & 4 = 4, and -7 ^ 9 = -16.
        assertArrayEquals(new long[] {0, 0, 0, -7 & 9, Long.MIN_VALUE, 4},
                decode(LONG, run(ReduceOp.BAND, LONG, encode(LONG, x), encode(LONG, y), 6, direct)));
        assertArrayEquals(new long[] {0, 3, 5, -16, 0, 0},
                decode(LONG, run(ReduceOp.BXOR, LONG, encode(LONG, x), encode(LONG, y), 6, direct)));
    }

    @ParameterizedTest(name = "direct={0}")
    @ValueSource(booleans = {false, true})
    void booleanTreatsEveryNonZeroByteAsTrue(boolean direct) {
        byte[] acc = {2, 0, (byte) 0x80, 7, 0, (byte) 0xFF, 1};
        byte[] next = {4, 0, 0, 7, 0x40, 1, 1};
        assertArrayEquals(new byte[] {1, 0, 0, 1, 0, 1, 1}, run(ReduceOp.LAND, BOOLEAN, acc, next, 7, direct));
        assertArrayEquals(new byte[] {1, 0, 1, 1, 1, 1, 1}, run(ReduceOp.LOR, BOOLEAN, acc, next, 7, direct));
        assertArrayEquals(new byte[] {0, 0, 1, 0, 1, 0, 0}, run(ReduceOp.LXOR, BOOLEAN, acc, next, 7, direct));
        // Bitwise on the byte: two "true"s 2 and 4 BAND to 0.
        assertArrayEquals(new byte[] {0, 0, 0, 7, 0, 1, 1}, run(ReduceOp.BAND, BOOLEAN, acc, next, 7, direct));
        assertArrayEquals(new byte[] {6, 0, (byte) 0x80, 7, 0x40, (byte) 0xFF, 1}, run(ReduceOp.BOR, BOOLEAN, acc, next, 7, direct));
        assertArrayEquals(new byte[] {6, 0, (byte) 0x80, 0, 0x40, (byte) 0xFE, 0}, run(ReduceOp.BXOR, BOOLEAN, acc, next, 7, direct));
    }

    // ================================================================ floating point

    private static byte[] encodeFloating(ElementType type, double... values) {
        ByteBuffer b = nativeBuffer(values.length * type.size);
        for (int i = 0; i < values.length; i++) {
            if (type == FLOAT) {
                b.putFloat(i * 4, (float) values[i]);
            } else {
                b.putDouble(i * 8, values[i]);
            }
        }
        return b.array();
    }

    private static double[] decodeFloating(ElementType type, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(NATIVE);
        double[] out = new double[bytes.length / type.size];
        for (int i = 0; i < out.length; i++) {
            out[i] = type == FLOAT ? b.getFloat(i * 4) : b.getDouble(i * 8);
        }
        return out;
    }

    static Stream<Arguments> floatingCases() {
        List<Arguments> cases = new ArrayList<>();
        for (boolean direct : new boolean[] {false, true}) {
            for (ElementType type : List.of(FLOAT, DOUBLE)) {
                for (ReduceOp op : FLOAT_OPS) {
                    cases.add(Arguments.of(op, type, direct));
                }
            }
        }
        return cases.stream();
    }

    /** Finite, infinite and overflowing values (no NaN, no pair of opposite zeros: tested on their own). */
    @ParameterizedTest(name = "{0} on {1}, direct={2}")
    @MethodSource("floatingCases")
    void floatingOperatorsMatchReference(ReduceOp op, ElementType type, boolean direct) {
        boolean f = type == FLOAT;
        double[] edges = {0.0, -1.5, 1.0 / 3, 2.5, -1e30, 1e-30, f ? Float.MAX_VALUE : Double.MAX_VALUE,
            f ? Float.MIN_VALUE : Double.MIN_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        Random random = new Random(17 + op.ordinal());
        int randoms = 300;
        double[] x = new double[edges.length * edges.length + randoms];
        double[] y = new double[x.length];
        int k = 0;
        for (double a : edges) {
            for (double b : edges) {
                x[k] = a;
                y[k++] = b;
            }
        }
        for (; k < x.length; k++) {
            x[k] = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20) - 10);
            y[k] = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20) - 10);
        }
        if (f) { // what a float holds
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) x[i];
                y[i] = (float) y[i];
            }
        }
        double[] got = decodeFloating(type, run(op, type, encodeFloating(type, x), encodeFloating(type, y), x.length, direct));
        for (int i = 0; i < x.length; i++) {
            double want = switch (op) {
                case MAX -> Math.max(x[i], y[i]);
                case MIN -> Math.min(x[i], y[i]);
                // A double holds a float sum or product exactly, so one rounding to float is the float result.
                case SUM -> f ? (float) (x[i] + y[i]) : x[i] + y[i];
                case PROD -> f ? (float) (x[i] * y[i]) : x[i] * y[i];
                default -> throw new IllegalArgumentException(op.toString());
            };
            assertEquals(want, got[i], op + "(" + x[i] + ", " + y[i] + ") at " + i);
        }
        if (op == ReduceOp.SUM) {
            assertEquals(Double.POSITIVE_INFINITY, f ? (double) (Float.MAX_VALUE + Float.MAX_VALUE)
                    : Double.MAX_VALUE + Double.MAX_VALUE); // the edges include an overflow to infinity
        }
    }

    /**
     * C's {@code a > b ? a : b} (a accumulated, b next): a NaN on either side makes the comparison false
     * and takes next, and of two zeros next's is taken.
     */
    @ParameterizedTest(name = "direct={0}")
    @ValueSource(booleans = {false, true})
    void floatingMaxAndMinFollowCComparisonsForNaNAndZeros(boolean direct) {
        double nan = Double.NaN;
        for (ElementType type : List.of(FLOAT, DOUBLE)) {
            byte[] acc = encodeFloating(type, nan, 1.0, 0.0, -0.0, nan, 3.0);
            byte[] next = encodeFloating(type, 1.0, nan, -0.0, 0.0, nan, 2.0);
            double[] expectMax = {1.0, nan, -0.0, 0.0, nan, 3.0};
            double[] expectMin = {1.0, nan, -0.0, 0.0, nan, 2.0};
            assertArrayEquals(expectMax, decodeFloating(type, run(ReduceOp.MAX, type, acc, next, 6, direct)), type + " MAX");
            assertArrayEquals(expectMin, decodeFloating(type, run(ReduceOp.MIN, type, acc, next, 6, direct)), type + " MIN");
        }
        // Over ranks: an early NaN is lost, a last-rank NaN survives.
        assertEquals(2.0, foldDoubles(ReduceOp.MAX, nan, 1.0, 2.0));
        assertEquals(nan, foldDoubles(ReduceOp.MAX, 1.0, 2.0, nan));
        assertEquals(1.0, foldDoubles(ReduceOp.MIN, 3.0, nan, 1.0));
    }

    /** Folds one double per rank in the given order, as the master does. */
    private static double foldDoubles(ReduceOp op, double... ranks) {
        ByteBuffer acc = nativeBuffer(8).putDouble(0, ranks[0]);
        for (int r = 1; r < ranks.length; r++) {
            Reduction.combine(op, DOUBLE, acc, nativeBuffer(8).putDouble(0, ranks[r]), 1);
        }
        return acc.getDouble(0);
    }

    private static float foldFloats(ReduceOp op, float... ranks) {
        ByteBuffer acc = ByteBuffer.allocateDirect(4).order(NATIVE).putFloat(0, ranks[0]);
        for (int r = 1; r < ranks.length; r++) {
            Reduction.combine(op, FLOAT, acc, ByteBuffer.allocateDirect(4).order(NATIVE).putFloat(0, ranks[r]), 1);
        }
        return acc.getFloat(0);
    }

    @Test
    void floatingSumIsLeftToRightInRankOrder() {
        // Ranks 0, 1, 2 contribute a vector of two doubles each.
        double[][] ranks = {{0.1, 1e16}, {0.2, 1.0}, {0.3, 1.0}};
        ByteBuffer acc = nativeBuffer(16).putDouble(0, ranks[0][0]).putDouble(8, ranks[0][1]);
        for (int r = 1; r < ranks.length; r++) {
            ByteBuffer next = ByteBuffer.allocateDirect(16).order(NATIVE).putDouble(0, ranks[r][0]).putDouble(8, ranks[r][1]);
            Reduction.combine(ReduceOp.SUM, DOUBLE, acc, next, 2);
        }
        for (int i = 0; i < 2; i++) {
            double inRankOrder = (ranks[0][i] + ranks[1][i]) + ranks[2][i];
            double otherGrouping = ranks[0][i] + (ranks[1][i] + ranks[2][i]);
            assertEquals(inRankOrder, acc.getDouble(i * 8));
            assertNotEquals(otherGrouping, acc.getDouble(i * 8), "element " + i + " is order-sensitive");
        }
        assertEquals(0.6000000000000001, acc.getDouble(0));
        assertEquals(1e16, acc.getDouble(8)); // each +1 is lost in rounding to even
        // Folding the same ranks in reverse order gives another answer: the order is what makes it reproducible.
        assertEquals(0.6, foldDoubles(ReduceOp.SUM, 0.3, 0.2, 0.1));
        assertEquals(1e16 + 2, foldDoubles(ReduceOp.SUM, 1.0, 1.0, 1e16));
        assertEquals(1e16, foldDoubles(ReduceOp.SUM, 1e16, 1.0, 1.0));
        // Same with floats: 1e8f + 4 rounds back to 1e8f, but 4 + 4 + 1e8f = 100000008.
        assertEquals(1e8f, foldFloats(ReduceOp.SUM, 1e8f, 4f, 4f));
        assertEquals(100000008f, foldFloats(ReduceOp.SUM, 4f, 4f, 1e8f));
    }

    // ================================================================ MINLOC / MAXLOC

    private static int indexOffset(ElementType pair) {
        return pair == LONG_INT || pair == DOUBLE_INT ? 8 : 4;
    }

    /** Pairs {value@0; int index} with padding filled with junk; value is a long for integer pairs, else a double. */
    private static byte[] encodePairs(ElementType type, double[] fv, long[] lv, int[] index) {
        ByteBuffer b = nativeBuffer(index.length * type.size);
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) 0xEE);
        }
        for (int i = 0; i < index.length; i++) {
            int p = i * type.size;
            switch (type) {
                case INT2 -> b.putInt(p, (int) lv[i]);
                case SHORT_INT -> b.putShort(p, (short) lv[i]);
                case LONG_INT -> b.putLong(p, lv[i]);
                case FLOAT_INT -> b.putFloat(p, (float) fv[i]);
                case DOUBLE_INT -> b.putDouble(p, fv[i]);
                default -> throw new IllegalArgumentException(type.toString());
            }
            b.putInt(p + indexOffset(type), index[i]);
        }
        return b.array();
    }

    private static long pairLong(ElementType type, byte[] bytes, int i) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(NATIVE);
        int p = i * type.size;
        return switch (type) {
            case INT2 -> b.getInt(p);
            case SHORT_INT -> b.getShort(p);
            case LONG_INT -> b.getLong(p);
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    private static double pairDouble(ElementType type, byte[] bytes, int i) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(NATIVE);
        return type == FLOAT_INT ? b.getFloat(i * type.size) : b.getDouble(i * type.size);
    }

    private static int pairIndex(ElementType type, byte[] bytes, int i) {
        return ByteBuffer.wrap(bytes).order(NATIVE).getInt(i * type.size + indexOffset(type));
    }

    static Stream<Arguments> pairCases() {
        List<Arguments> cases = new ArrayList<>();
        for (boolean direct : new boolean[] {false, true}) {
            for (ElementType type : PAIRS) {
                for (ReduceOp op : List.of(ReduceOp.MINLOC, ReduceOp.MAXLOC)) {
                    cases.add(Arguments.of(op, type, direct));
                }
            }
        }
        return cases.stream();
    }

    /**
     * Seven ranks fold their vectors in rank order; every element must end as the global minimum
     * (maximum) with the smallest index among the pairs holding it, found by scanning the arrays.
     * Values come from a small set, so ties are frequent; indexes are arbitrary ints, not ranks.
     */
    @ParameterizedTest(name = "{0} on {1}, direct={2}")
    @MethodSource("pairCases")
    void locOperatorsFindExtremumAndSmallestIndexOverRanks(ReduceOp op, ElementType type, boolean direct) {
        boolean floating = type == FLOAT_INT || type == DOUBLE_INT;
        long typeMin = switch (type) {
            case SHORT_INT -> Short.MIN_VALUE;
            case INT2 -> Integer.MIN_VALUE;
            default -> Long.MIN_VALUE;
        };
        long typeMax = switch (type) {
            case SHORT_INT -> Short.MAX_VALUE;
            case INT2 -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
        };
        long[] longChoices = {typeMin, -2, -1, 0, 1, 2, typeMax};
        double[] doubleChoices = {Double.NEGATIVE_INFINITY, -2.5, -1, 0, 0.5, 2.5, Double.POSITIVE_INFINITY};
        int ranks = 7;
        int n = 400;
        Random random = new Random(type.ordinal() * 7L + op.ordinal());
        long[][] lv = new long[ranks][n];
        double[][] fv = new double[ranks][n];
        int[][] index = new int[ranks][n];
        for (int r = 0; r < ranks; r++) {
            for (int i = 0; i < n; i++) {
                int c = random.nextInt(longChoices.length);
                lv[r][i] = longChoices[c];
                fv[r][i] = doubleChoices[c];
                index[r][i] = random.nextInt(30) - 10;
            }
        }
        byte[] acc = encodePairs(type, fv[0], lv[0], index[0]);
        for (int r = 1; r < ranks; r++) {
            acc = run(op, type, acc, encodePairs(type, fv[r], lv[r], index[r]), n, direct);
        }
        boolean max = op == ReduceOp.MAXLOC;
        for (int i = 0; i < n; i++) {
            // The extremum's choice position (values ascend with it), then the smallest index holding it.
            int best = -1;
            int bestIndex = 0;
            for (int r = 0; r < ranks; r++) {
                int c = floating ? Arrays.binarySearch(doubleChoices, fv[r][i]) : Arrays.binarySearch(longChoices, lv[r][i]);
                boolean better = best < 0 || (max ? c > best : c < best);
                if (better || c == best && index[r][i] < bestIndex) {
                    best = c;
                    bestIndex = index[r][i];
                }
            }
            if (floating) {
                assertEquals(doubleChoices[best], pairDouble(type, acc, i), "value of " + i);
            } else {
                assertEquals(longChoices[best], pairLong(type, acc, i), "value of " + i);
            }
            assertEquals(bestIndex, pairIndex(type, acc, i), "index of " + i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairTypes")
    void locTiesKeepTheSmallerIndexAndABetterValueBringsItsOwn(ElementType type) {
        // acc:  (5, 3) (5, 1) (5, 0) (5, 9) (5, -4)
        // next: (5, 1) (5, 3) (4, 9) (6, 0) (5, -2)
        double[] fa = {5, 5, 5, 5, 5};
        long[] la = {5, 5, 5, 5, 5};
        int[] ia = {3, 1, 0, 9, -4};
        double[] fb = {5, 5, 4, 6, 5};
        long[] lb = {5, 5, 4, 6, 5};
        int[] ib = {1, 3, 9, 0, -2};
        byte[] acc = encodePairs(type, fa, la, ia);
        byte[] next = encodePairs(type, fb, lb, ib);
        byte[] min = run(ReduceOp.MINLOC, type, acc, next, 5, type.ordinal() % 2 == 0);
        byte[] max = run(ReduceOp.MAXLOC, type, acc, next, 5, type.ordinal() % 2 == 1);
        double[] minValues = {5, 5, 4, 5, 5};
        int[] minIndexes = {1, 1, 9, 9, -4};
        double[] maxValues = {5, 5, 5, 6, 5};
        int[] maxIndexes = {1, 1, 0, 0, -4};
        for (int i = 0; i < 5; i++) {
            double minValue = type == FLOAT_INT || type == DOUBLE_INT ? pairDouble(type, min, i) : pairLong(type, min, i);
            double maxValue = type == FLOAT_INT || type == DOUBLE_INT ? pairDouble(type, max, i) : pairLong(type, max, i);
            assertEquals(minValues[i], minValue, "MINLOC value " + i);
            assertEquals(minIndexes[i], pairIndex(type, min, i), "MINLOC index " + i);
            assertEquals(maxValues[i], maxValue, "MAXLOC value " + i);
            assertEquals(maxIndexes[i], pairIndex(type, max, i), "MAXLOC index " + i);
        }
    }

    static Stream<ElementType> pairTypes() {
        return PAIRS.stream();
    }

    /** A NaN is neither better nor equal: the accumulated pair stays. Opposite zeros are equal: smaller index. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("floatingPairTypes")
    void locWithNaNKeepsTheAccumulatedPair(ElementType type) {
        double nan = Double.NaN;
        double[] fa = {nan, 1, nan, -0.0, 0.0};
        int[] ia = {3, 3, 3, 5, 5};
        double[] fb = {1, nan, nan, 0.0, -0.0};
        int[] ib = {0, 0, 0, 2, 2};
        for (ReduceOp op : List.of(ReduceOp.MINLOC, ReduceOp.MAXLOC)) {
            byte[] out = run(op, type, encodePairs(type, fa, null, ia), encodePairs(type, fb, null, ib), 5, op == ReduceOp.MAXLOC);
            double[] values = {nan, 1, nan, -0.0, 0.0};
            int[] indexes = {3, 3, 3, 2, 2};
            for (int i = 0; i < 5; i++) {
                assertEquals(values[i], pairDouble(type, out, i), op + " value " + i);
                assertEquals(indexes[i], pairIndex(type, out, i), op + " index " + i);
            }
        }
    }

    static Stream<ElementType> floatingPairTypes() {
        return Stream.of(FLOAT_INT, DOUBLE_INT);
    }

    @Test
    void pairLayoutsAreLp64Structs() {
        // MPI_SHORT_INT: short@0, int@4. A reader taking the index at offset 2 would see the padding.
        ByteBuffer acc = nativeBuffer(8).putShort(0, (short) 7).putShort(2, (short) -1).putInt(4, 40);
        ByteBuffer next = nativeBuffer(8).putShort(0, (short) 3).putShort(2, (short) -1).putInt(4, 41);
        Reduction.combine(ReduceOp.MINLOC, SHORT_INT, acc, next, 1);
        assertEquals(3, acc.getShort(0));
        assertEquals(41, acc.getInt(4));
        // MPI_LONG_INT: long@0, int@8, 16 bytes; the second pair starts at 16.
        ByteBuffer accL = nativeBuffer(32).putLong(0, 1L << 40).putInt(8, 1).putLong(16, -5).putInt(24, 2);
        ByteBuffer nextL = nativeBuffer(32).putLong(0, 1L << 41).putInt(8, 8).putLong(16, -5).putInt(24, 0);
        Reduction.combine(ReduceOp.MAXLOC, LONG_INT, accL, nextL, 2);
        assertEquals(1L << 41, accL.getLong(0));
        assertEquals(8, accL.getInt(8));
        assertEquals(-5, accL.getLong(16));
        assertEquals(0, accL.getInt(24));
    }

    // ================================================================ what is refused

    private static boolean shouldSupport(ReduceOp op, ElementType type) {
        return switch (op) {
            case MAX, MIN -> ARITHMETIC.contains(type);
            case SUM, PROD -> ARITHMETIC.contains(type) || COMPLEX.contains(type);
            case LAND, LOR, LXOR, BAND, BOR, BXOR -> LOGICAL.contains(type);
            case MINLOC, MAXLOC -> PAIRS.contains(type);
            case NONE, USER -> false;
        };
    }

    @Test
    void supportMatrixFollowsMpi() {
        int supported = 0;
        for (ReduceOp op : ReduceOp.values()) {
            for (ElementType type : ElementType.values()) {
                String reason = Reduction.unsupported(op, type);
                if (shouldSupport(op, type)) {
                    assertNull(reason, op + " on " + type);
                    supported++;
                } else {
                    assertTrue(reason != null && !reason.isBlank(), op + " on " + type + " must be refused");
                    byte[] before = new byte[Math.max(type.size, 1) * 2];
                    Arrays.fill(before, (byte) 3);
                    ByteBuffer acc = ByteBuffer.wrap(before.clone());
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> Reduction.combine(op, type, acc, ByteBuffer.wrap(before.clone()), 2));
                    assertEquals(reason, e.getMessage());
                    assertArrayEquals(before, acc.array(), "refused combine must not write");
                }
            }
        }
        // 4 ops x 7 types + 6 ops x 6 types + 2 ops x 5 pair types
        assertEquals(28 + 36 + 10 + 4, supported);
    }

    @Test
    void refusalsNameTheMpiOperatorAndType() {
        assertEquals("MPI_SUM is not defined for MPI_BOOLEAN", Reduction.unsupported(ReduceOp.SUM, BOOLEAN));
        assertEquals("MPI_MAX is not defined for MPI_C_FLOAT_COMPLEX", Reduction.unsupported(ReduceOp.MAX, FLOAT_COMPLEX));
        assertEquals("MPI_MAX is not defined for MPI_BOOLEAN", Reduction.unsupported(ReduceOp.MAX, BOOLEAN));
        assertEquals("MPI_BAND is not defined for MPI_DOUBLE", Reduction.unsupported(ReduceOp.BAND, DOUBLE));
        assertEquals("MPI_LXOR is not defined for MPI_FLOAT", Reduction.unsupported(ReduceOp.LXOR, FLOAT));
        assertTrue(Reduction.unsupported(ReduceOp.MINLOC, INT).startsWith("MPI_MINLOC is not defined for MPI_INT"));
        assertTrue(Reduction.unsupported(ReduceOp.MAXLOC, CHAR).startsWith("MPI_MAXLOC is not defined for MPI_CHAR"));
        assertTrue(Reduction.unsupported(ReduceOp.SUM, INT2).startsWith("MPI_SUM is not defined for MPI_2INT"));
        assertTrue(Reduction.unsupported(ReduceOp.MAX, SHORT_INT).startsWith("MPI_MAX is not defined for MPI_SHORT_INT"));
        assertTrue(Reduction.unsupported(ReduceOp.BOR, LONG_INT).startsWith("MPI_BOR is not defined for MPI_LONG_INT"));
        assertTrue(Reduction.unsupported(ReduceOp.MIN, FLOAT_INT).startsWith("MPI_MIN is not defined for MPI_FLOAT_INT"));
        assertTrue(Reduction.unsupported(ReduceOp.PROD, DOUBLE_INT).startsWith("MPI_PROD is not defined for MPI_DOUBLE_INT"));
        assertTrue(Reduction.unsupported(ReduceOp.USER, DOUBLE).contains("user-defined"));
        assertTrue(Reduction.unsupported(ReduceOp.NONE, INT).contains("MPI_OP_NULL"));
        assertTrue(Reduction.unsupported(ReduceOp.SUM, ElementType.NONE).contains("MPI_DATATYPE_NULL"));
        assertTrue(Reduction.unsupported(null, INT) != null);
        assertTrue(Reduction.unsupported(ReduceOp.SUM, null) != null);
    }

    @ParameterizedTest(name = "direct={0}")
    @ValueSource(booleans = {false, true})
    void shortBuffersAreRefusedBeforeAnythingIsWritten(boolean direct) {
        byte[] three = encode(INT, 1, 2, 3);
        // 12 bytes of acc at position 3, but the limit leaves only 11.
        ByteBuffer acc = place(three, ACC_POSITION, direct);
        acc.limit(ACC_POSITION + 11);
        ByteBuffer next = place(three, NEXT_POSITION, direct);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Reduction.combine(ReduceOp.SUM, INT, acc, next, 3));
        assertTrue(e.getMessage().contains("accumulator") && e.getMessage().contains("11"), e.getMessage());
        // Next too short, counted from its position: capacity 5 + 12 + 9 but position moved to 20.
        ByteBuffer acc2 = place(three, ACC_POSITION, direct);
        ByteBuffer next2 = place(three, NEXT_POSITION, direct);
        next2.position(20);
        e = assertThrows(IllegalArgumentException.class, () -> Reduction.combine(ReduceOp.SUM, INT, acc2, next2, 3));
        assertTrue(e.getMessage().contains("next"), e.getMessage());
        assertArrayEquals(three, window(acc2, ACC_POSITION, 12), "acc untouched");
        assertArrayEquals(three, window(acc, ACC_POSITION, 12), "acc untouched");
        assertThrows(IllegalArgumentException.class, () -> Reduction.combine(ReduceOp.SUM, INT, acc2, next, -1));
        assertThrows(IllegalArgumentException.class,
                () -> Reduction.combine(ReduceOp.SUM, INT, acc2.asReadOnlyBuffer(), next, 1));
    }

    @Test
    void exactLengthsAndZeroCountAreFine() {
        ByteBuffer acc = nativeBuffer(8).putInt(0, 5).putInt(4, 6);
        ByteBuffer next = nativeBuffer(8).putInt(0, 10).putInt(4, 20);
        Reduction.combine(ReduceOp.SUM, INT, acc, next, 0);
        assertEquals(5, acc.getInt(0));
        acc.position(4);
        next.position(4);
        Reduction.combine(ReduceOp.SUM, INT, acc, next, 1); // exactly one element left in each
        assertEquals(5, acc.getInt(0));
        assertEquals(26, acc.getInt(4));
        assertEquals(4, acc.position());
        assertEquals(8, acc.limit());
    }

    // ---------------------------------------------------------------- complex numbers

    private static ByteBuffer doubles(double... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 8).order(ByteOrder.nativeOrder());
        for (double x : v) {
            b.putDouble(x);
        }
        return b.clear();
    }

    private static ByteBuffer floats(float... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.nativeOrder());
        for (float x : v) {
            b.putFloat(x);
        }
        return b.clear();
    }

    @Test
    void complexSumAddsBothParts() {
        ByteBuffer acc = doubles(1, 2, -3, 0.5);
        Reduction.combine(ReduceOp.SUM, DOUBLE_COMPLEX, acc, doubles(10, 20, 3, -0.5), 2);
        assertEquals(doubles(11, 22, 0, 0), acc);
        ByteBuffer f = floats(1, 2);
        Reduction.combine(ReduceOp.SUM, FLOAT_COMPLEX, f, floats(0.5f, -4), 1);
        assertEquals(floats(1.5f, -2), f);
    }

    @Test
    void complexProdMultipliesAsComplexNumbers() {
        // (1+2i)(3+4i) = 3 + 4i + 6i + 8i^2 = -5 + 10i; i * i = -1.
        ByteBuffer acc = doubles(1, 2, 0, 1);
        Reduction.combine(ReduceOp.PROD, DOUBLE_COMPLEX, acc, doubles(3, 4, 0, 1), 2);
        assertEquals(doubles(-5, 10, -1, 0), acc);
        ByteBuffer f = floats(1, 2, 2, 0);
        Reduction.combine(ReduceOp.PROD, FLOAT_COMPLEX, f, floats(3, 4, 0, -1), 2);
        assertEquals(floats(-5, 10, 0, -2), f);
    }
}
