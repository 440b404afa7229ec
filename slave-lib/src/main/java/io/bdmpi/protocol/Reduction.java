package io.bdmpi.protocol;


import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * The predefined reduction operators, computed by the master for collectives and by a slave for
 * {@code reduceLocal}, with the semantics of the MPI predefined operators in
 * C. The master folds the members' vectors one at a time in rank order, {@code acc = acc op next},
 * so that floating-point results do not depend on the order in which members arrive: a sum over
 * ranks 0, 1, 2 is exactly {@code (v0 + v1) + v2}.
 *
 * <p>Elements are read and written in native byte order whatever the order set on the buffers.
 * Supported combinations:
 * <ul>
 * <li>{@code MAX, MIN, SUM, PROD}: {@code BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE}. Integer
 *     arithmetic wraps as in Java. {@code BYTE} is MPI_UINT8_T, as in Open MPI's Java bindings, so
 *     MAX and MIN compare it unsigned; {@code CHAR} is Java's unsigned 16-bit char and so compares
 *     unsigned and wraps modulo 2<sup>16</sup>.
 *     {@code MAX} and {@code MIN} on floating-point values are C's {@code a > b ? a : b} and
 *     {@code a < b ? a : b} with {@code a} the accumulated value and {@code b} the next rank's, not
 *     {@link Math#max}: when either is NaN the comparison is false and the <em>next</em> rank's
 *     value is taken, so a NaN of the last rank survives while a NaN of an earlier rank is replaced
 *     by whatever follows it; and since {@code 0.0 == -0.0}, of two zeros the next rank's is taken.</li>
 * <li>{@code LAND, LOR, LXOR}: the integer types and {@code BOOLEAN}; zero is false, anything else
 *     true, and the result is 1 or 0.</li>
 * <li>{@code BAND, BOR, BXOR}: the integer types and {@code BOOLEAN}, bitwise (on the byte, for a
 *     boolean: {@code 2 BAND 1} is 0).</li>
 * <li>{@code SUM, PROD}: also the complex types {@code FLOAT_COMPLEX, DOUBLE_COMPLEX} (real part
 *     first), PROD as the complex product {@code (a+bi)(c+di) = (ac-bd) + (ad+bc)i} computed in the
 *     type's precision; no other operator applies to them.</li>
 * <li>{@code MINLOC, MAXLOC}: the {value; int index} pair types only. The strictly smaller (larger)
 *     value wins with its index; on equal values the value is kept and the smaller index wins. As
 *     in C, a NaN on either side is neither better nor equal, so the accumulated pair is kept.
 *     Padding bytes of the pairs are neither read nor written.</li>
 * </ul>
 * {@code NONE} and {@code USER} are never supported here: user functions run in the slaves.
 */
public final class Reduction {

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private Reduction() {
    }

    /** Null if op may reduce elements of type, else the reason, e.g. "MPI_SUM is not defined for MPI_BOOLEAN". */
    public static String unsupported(ReduceOp op, ElementType type) {
        if (op == null || op == ReduceOp.NONE) {
            return "no reduction operator given (MPI_OP_NULL)";
        }
        if (op == ReduceOp.USER) {
            return "a user-defined MPI_Op is applied by the slaves, not by the master";
        }
        if (type == null || type == ElementType.NONE) {
            return name(op) + " is not defined for MPI_DATATYPE_NULL";
        }
        boolean loc = op == ReduceOp.MINLOC || op == ReduceOp.MAXLOC;
        if (type.isPair() != loc) {
            return name(op) + " is not defined for " + name(type) + (loc
                    ? " (MPI_MINLOC and MPI_MAXLOC reduce only {value, index} pair types such as MPI_DOUBLE_INT)"
                    : " (pair types reduce only with MPI_MINLOC or MPI_MAXLOC)");
        }
        boolean supported = switch (op) {
            case SUM, PROD -> type != ElementType.BOOLEAN;
            case MAX, MIN -> type != ElementType.BOOLEAN && !type.isComplex();
            case LAND, LOR, LXOR, BAND, BOR, BXOR -> type != ElementType.FLOAT && type != ElementType.DOUBLE
                    && !type.isComplex();
            default -> true; // MINLOC, MAXLOC on a pair type
        };
        return supported ? null : name(op) + " is not defined for " + name(type);
    }

    /**
     * acc[i] = acc[i] (op) next[i] for i in [0, count): acc holds the combination of the LOWER ranks,
     * next the following rank's vector, so a non-commutative reading would be acc op next.
     * Both buffers: elements from their position (absolute indexing from position; positions/limits are NOT changed).
     * Throws IllegalArgumentException when unsupported or a buffer is too short.
     */
    public static void combine(ReduceOp op, ElementType type, ByteBuffer acc, ByteBuffer next, int count) {
        String unsupported = unsupported(op, type);
        if (unsupported != null) {
            throw new IllegalArgumentException(unsupported);
        }
        if (count < 0) {
            throw new IllegalArgumentException("negative element count " + count);
        }
        long bytes = (long) count * type.size;
        checkLength("accumulator", acc, bytes, count, type);
        checkLength("next vector", next, bytes, count, type);
        if (acc.isReadOnly()) {
            throw new IllegalArgumentException("the accumulator is read-only");
        }
        ByteBuffer a = window(acc, (int) bytes);
        ByteBuffer b = window(next, (int) bytes);
        switch (type) {
            case BYTE, BOOLEAN -> bytes(op, a, b, count);
            case CHAR -> chars(op, a.asCharBuffer(), b.asCharBuffer(), count);
            case SHORT -> shorts(op, a.asShortBuffer(), b.asShortBuffer(), count);
            case INT -> ints(op, a.asIntBuffer(), b.asIntBuffer(), count);
            case LONG -> longs(op, a.asLongBuffer(), b.asLongBuffer(), count);
            case FLOAT -> floats(op, a.asFloatBuffer(), b.asFloatBuffer(), count);
            case DOUBLE -> doubles(op, a.asDoubleBuffer(), b.asDoubleBuffer(), count);
            case FLOAT_COMPLEX -> floatComplex(op, a.asFloatBuffer(), b.asFloatBuffer(), count);
            case DOUBLE_COMPLEX -> doubleComplex(op, a.asDoubleBuffer(), b.asDoubleBuffer(), count);
            case INT2 -> intIntPairs(op == ReduceOp.MAXLOC, a, b, count);
            case SHORT_INT -> shortIntPairs(op == ReduceOp.MAXLOC, a, b, count);
            case LONG_INT -> longIntPairs(op == ReduceOp.MAXLOC, a, b, count);
            case FLOAT_INT -> floatIntPairs(op == ReduceOp.MAXLOC, a, b, count);
            case DOUBLE_INT -> doubleIntPairs(op == ReduceOp.MAXLOC, a, b, count);
            default -> throw new AssertionError(type);
        }
    }

    /** The MPI C name of an operator. */
    static String name(ReduceOp op) {
        return switch (op) {
            case NONE -> "MPI_OP_NULL";
            case USER -> "a user-defined MPI_Op";
            default -> "MPI_" + op.name();
        };
    }

    /** The MPI C name of an element type. */
    static String name(ElementType type) {
        return switch (type) {
            case NONE -> "MPI_DATATYPE_NULL";
            case INT2 -> "MPI_2INT";
            case FLOAT_COMPLEX, DOUBLE_COMPLEX -> "MPI_C_" + type.name();
            default -> "MPI_" + type.name();
        };
    }

    private static void checkLength(String what, ByteBuffer buf, long bytes, int count, ElementType type) {
        if (buf.remaining() < bytes) {
            throw new IllegalArgumentException("the " + what + " holds " + buf.remaining() + " bytes from its position but "
                    + count + " elements of " + name(type) + " need " + bytes);
        }
    }

    /** The bytes [position, position + length) of buf as a native-order buffer indexed from 0; buf is untouched. */
    private static ByteBuffer window(ByteBuffer buf, int length) {
        return buf.slice(buf.position(), length).order(NATIVE);
    }

    private static int truth(boolean b) {
        return b ? 1 : 0;
    }

    // ---------------------------------------------------------------- integer types

    /** BYTE (unsigned) and BOOLEAN: only the operators unsupported() allows for each reach here. */
    private static void bytes(ReduceOp op, ByteBuffer a, ByteBuffer b, int n) {
        switch (op) {
            case MAX -> { for (int i = 0; i < n; i++) { a.put(i, (byte) Math.max(a.get(i) & 0xFF, b.get(i) & 0xFF)); } }
            case MIN -> { for (int i = 0; i < n; i++) { a.put(i, (byte) Math.min(a.get(i) & 0xFF, b.get(i) & 0xFF)); } }
            case SUM -> { for (int i = 0; i < n; i++) { a.put(i, (byte) (a.get(i) + b.get(i))); } }
            case PROD -> { for (int i = 0; i < n; i++) { a.put(i, (byte) (a.get(i) * b.get(i))); } }
            case LAND -> { for (int i = 0; i < n; i++) { a.put(i, (byte) truth(a.get(i) != 0 && b.get(i) != 0)); } }
            case LOR -> { for (int i = 0; i < n; i++) { a.put(i, (byte) truth(a.get(i) != 0 || b.get(i) != 0)); } }
            case LXOR -> { for (int i = 0; i < n; i++) { a.put(i, (byte) truth((a.get(i) != 0) != (b.get(i) != 0))); } }
            case BAND -> { for (int i = 0; i < n; i++) { a.put(i, (byte) (a.get(i) & b.get(i))); } }
            case BOR -> { for (int i = 0; i < n; i++) { a.put(i, (byte) (a.get(i) | b.get(i))); } }
            case BXOR -> { for (int i = 0; i < n; i++) { a.put(i, (byte) (a.get(i) ^ b.get(i))); } }
            default -> throw new AssertionError(op);
        }
    }

    /** CHAR: unsigned 16 bits, so MAX/MIN compare unsigned and arithmetic wraps modulo 2^16. */
    private static void chars(ReduceOp op, CharBuffer a, CharBuffer b, int n) {
        switch (op) {
            case MAX -> { for (int i = 0; i < n; i++) { a.put(i, (char) Math.max(a.get(i), b.get(i))); } }
            case MIN -> { for (int i = 0; i < n; i++) { a.put(i, (char) Math.min(a.get(i), b.get(i))); } }
            case SUM -> { for (int i = 0; i < n; i++) { a.put(i, (char) (a.get(i) + b.get(i))); } }
            case PROD -> { for (int i = 0; i < n; i++) { a.put(i, (char) (a.get(i) * b.get(i))); } }
            case LAND -> { for (int i = 0; i < n; i++) { a.put(i, (char) truth(a.get(i) != 0 && b.get(i) != 0)); } }
            case LOR -> { for (int i = 0; i < n; i++) { a.put(i, (char) truth(a.get(i) != 0 || b.get(i) != 0)); } }
            case LXOR -> { for (int i = 0; i < n; i++) { a.put(i, (char) truth((a.get(i) != 0) != (b.get(i) != 0))); } }
            case BAND -> { for (int i = 0; i < n; i++) { a.put(i, (char) (a.get(i) & b.get(i))); } }
            case BOR -> { for (int i = 0; i < n; i++) { a.put(i, (char) (a.get(i) | b.get(i))); } }
            case BXOR -> { for (int i = 0; i < n; i++) { a.put(i, (char) (a.get(i) ^ b.get(i))); } }
            default -> throw new AssertionError(op);
        }
    }

    private static void shorts(ReduceOp op, ShortBuffer a, ShortBuffer b, int n) {
        switch (op) {
            case MAX -> { for (int i = 0; i < n; i++) { a.put(i, (short) Math.max(a.get(i), b.get(i))); } }
            case MIN -> { for (int i = 0; i < n; i++) { a.put(i, (short) Math.min(a.get(i), b.get(i))); } }
            case SUM -> { for (int i = 0; i < n; i++) { a.put(i, (short) (a.get(i) + b.get(i))); } }
            case PROD -> { for (int i = 0; i < n; i++) { a.put(i, (short) (a.get(i) * b.get(i))); } }
            case LAND -> { for (int i = 0; i < n; i++) { a.put(i, (short) truth(a.get(i) != 0 && b.get(i) != 0)); } }
            case LOR -> { for (int i = 0; i < n; i++) { a.put(i, (short) truth(a.get(i) != 0 || b.get(i) != 0)); } }
            case LXOR -> { for (int i = 0; i < n; i++) { a.put(i, (short) truth((a.get(i) != 0) != (b.get(i) != 0))); } }
            case BAND -> { for (int i = 0; i < n; i++) { a.put(i, (short) (a.get(i) & b.get(i))); } }
            case BOR -> { for (int i = 0; i < n; i++) { a.put(i, (short) (a.get(i) | b.get(i))); } }
            case BXOR -> { for (int i = 0; i < n; i++) { a.put(i, (short) (a.get(i) ^ b.get(i))); } }
            default -> throw new AssertionError(op);
        }
    }

    private static void ints(ReduceOp op, IntBuffer a, IntBuffer b, int n) {
        switch (op) {
            case MAX -> { for (int i = 0; i < n; i++) { a.put(i, Math.max(a.get(i), b.get(i))); } }
            case MIN -> { for (int i = 0; i < n; i++) { a.put(i, Math.min(a.get(i), b.get(i))); } }
            case SUM -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) + b.get(i)); } }
            case PROD -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) * b.get(i)); } }
            case LAND -> { for (int i = 0; i < n; i++) { a.put(i, truth(a.get(i) != 0 && b.get(i) != 0)); } }
            case LOR -> { for (int i = 0; i < n; i++) { a.put(i, truth(a.get(i) != 0 || b.get(i) != 0)); } }
            case LXOR -> { for (int i = 0; i < n; i++) { a.put(i, truth((a.get(i) != 0) != (b.get(i) != 0))); } }
            case BAND -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) & b.get(i)); } }
            case BOR -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) | b.get(i)); } }
            case BXOR -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) ^ b.get(i)); } }
            default -> throw new AssertionError(op);
        }
    }

    private static void longs(ReduceOp op, LongBuffer a, LongBuffer b, int n) {
        switch (op) {
            case MAX -> { for (int i = 0; i < n; i++) { a.put(i, Math.max(a.get(i), b.get(i))); } }
            case MIN -> { for (int i = 0; i < n; i++) { a.put(i, Math.min(a.get(i), b.get(i))); } }
            case SUM -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) + b.get(i)); } }
            case PROD -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) * b.get(i)); } }
            case LAND -> { for (int i = 0; i < n; i++) { a.put(i, truth(a.get(i) != 0 && b.get(i) != 0)); } }
            case LOR -> { for (int i = 0; i < n; i++) { a.put(i, truth(a.get(i) != 0 || b.get(i) != 0)); } }
            case LXOR -> { for (int i = 0; i < n; i++) { a.put(i, truth((a.get(i) != 0) != (b.get(i) != 0))); } }
            case BAND -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) & b.get(i)); } }
            case BOR -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) | b.get(i)); } }
            case BXOR -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) ^ b.get(i)); } }
            default -> throw new AssertionError(op);
        }
    }

    // ---------------------------------------------------------------- floating point

    /** MAX/MIN are C's comparisons, not Math.max/min: see the class comment for NaN and signed zeros. */
    private static void floats(ReduceOp op, FloatBuffer a, FloatBuffer b, int n) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    float x = a.get(i);
                    float y = b.get(i);
                    a.put(i, x > y ? x : y);
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    float x = a.get(i);
                    float y = b.get(i);
                    a.put(i, x < y ? x : y);
                }
            }
            case SUM -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) + b.get(i)); } }
            case PROD -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) * b.get(i)); } }
            default -> throw new AssertionError(op);
        }
    }

    /** MAX/MIN are C's comparisons, not Math.max/min: see the class comment for NaN and signed zeros. */
    private static void doubles(ReduceOp op, DoubleBuffer a, DoubleBuffer b, int n) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    double x = a.get(i);
                    double y = b.get(i);
                    a.put(i, x > y ? x : y);
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    double x = a.get(i);
                    double y = b.get(i);
                    a.put(i, x < y ? x : y);
                }
            }
            case SUM -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) + b.get(i)); } }
            case PROD -> { for (int i = 0; i < n; i++) { a.put(i, a.get(i) * b.get(i)); } }
            default -> throw new AssertionError(op);
        }
    }

    // ---------------------------------------------------------------- complex numbers

    /** SUM adds parts; PROD is the complex product, in float arithmetic. */
    private static void floatComplex(ReduceOp op, FloatBuffer a, FloatBuffer b, int n) {
        if (op == ReduceOp.SUM) {
            floats(op, a, b, 2 * n);
            return;
        }
        for (int i = 0; i < 2 * n; i += 2) {
            float re = a.get(i);
            float im = a.get(i + 1);
            float c = b.get(i);
            float d = b.get(i + 1);
            a.put(i, re * c - im * d);
            a.put(i + 1, re * d + im * c);
        }
    }

    /** SUM adds parts; PROD is the complex product. */
    private static void doubleComplex(ReduceOp op, DoubleBuffer a, DoubleBuffer b, int n) {
        if (op == ReduceOp.SUM) {
            doubles(op, a, b, 2 * n);
            return;
        }
        for (int i = 0; i < 2 * n; i += 2) {
            double re = a.get(i);
            double im = a.get(i + 1);
            double c = b.get(i);
            double d = b.get(i + 1);
            a.put(i, re * c - im * d);
            a.put(i + 1, re * d + im * c);
        }
    }

    // ---------------------------------------------------------------- MINLOC / MAXLOC pairs
    //
    // Each pair is {value at offset 0; int index at INDEX}. The next pair replaces the accumulated
    // one when its value is strictly better; on equal values the smaller index is kept; otherwise
    // (worse, or a NaN on either side) the accumulated pair stays.

    /** MPI_2INT: int@0, int@4. */
    private static void intIntPairs(boolean max, ByteBuffer a, ByteBuffer b, int n) {
        for (int p = 0, end = n * 8; p < end; p += 8) {
            int x = a.getInt(p);
            int y = b.getInt(p);
            if (max ? y > x : y < x) {
                a.putInt(p, y);
                a.putInt(p + 4, b.getInt(p + 4));
            } else if (y == x) {
                a.putInt(p + 4, Math.min(a.getInt(p + 4), b.getInt(p + 4)));
            }
        }
    }

    /** MPI_SHORT_INT: short@0, (2 bytes padding), int@4. */
    private static void shortIntPairs(boolean max, ByteBuffer a, ByteBuffer b, int n) {
        for (int p = 0, end = n * 8; p < end; p += 8) {
            short x = a.getShort(p);
            short y = b.getShort(p);
            if (max ? y > x : y < x) {
                a.putShort(p, y);
                a.putInt(p + 4, b.getInt(p + 4));
            } else if (y == x) {
                a.putInt(p + 4, Math.min(a.getInt(p + 4), b.getInt(p + 4)));
            }
        }
    }

    /** MPI_LONG_INT: long@0, int@8, (4 bytes padding). */
    private static void longIntPairs(boolean max, ByteBuffer a, ByteBuffer b, int n) {
        for (int p = 0, end = n * 16; p < end; p += 16) {
            long x = a.getLong(p);
            long y = b.getLong(p);
            if (max ? y > x : y < x) {
                a.putLong(p, y);
                a.putInt(p + 8, b.getInt(p + 8));
            } else if (y == x) {
                a.putInt(p + 8, Math.min(a.getInt(p + 8), b.getInt(p + 8)));
            }
        }
    }

    /** MPI_FLOAT_INT: float@0, int@4. */
    private static void floatIntPairs(boolean max, ByteBuffer a, ByteBuffer b, int n) {
        for (int p = 0, end = n * 8; p < end; p += 8) {
            float x = a.getFloat(p);
            float y = b.getFloat(p);
            if (max ? y > x : y < x) {
                a.putFloat(p, y);
                a.putInt(p + 4, b.getInt(p + 4));
            } else if (y == x) {
                a.putInt(p + 4, Math.min(a.getInt(p + 4), b.getInt(p + 4)));
            }
        }
    }

    /** MPI_DOUBLE_INT: double@0, int@8, (4 bytes padding). */
    private static void doubleIntPairs(boolean max, ByteBuffer a, ByteBuffer b, int n) {
        for (int p = 0, end = n * 16; p < end; p += 16) {
            double x = a.getDouble(p);
            double y = b.getDouble(p);
            if (max ? y > x : y < x) {
                a.putDouble(p, y);
                a.putInt(p + 8, b.getInt(p + 8));
            } else if (y == x) {
                a.putInt(p + 8, Math.min(a.getInt(p + 8), b.getInt(p + 8)));
            }
        }
    }
}
