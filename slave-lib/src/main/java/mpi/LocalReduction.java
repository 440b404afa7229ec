package mpi;

import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.ReduceOp;

import java.nio.ByteBuffer;

/**
 * The predefined operators computed in this process, for {@link Comm#reduceLocal}; collectives
 * leave them to the master. The semantics are the master's (its {@code Reduction} is the twin of
 * this class): {@code acc = acc op next} element by element, where {@code acc} holds the lower
 * ranks' (or {@code inBuf}'s) values. Integers wrap; BYTE (MPI_UINT8_T in Open MPI's bindings)
 * and CHAR (MPI_UINT16_T) compare unsigned, SHORT, INT and LONG signed;
 * logical operators give 1 or 0; floating-point MAX/MIN are C's {@code a > b ? a : b}, so a NaN or
 * a signed zero yields the next value; MINLOC/MAXLOC take the strictly better value with its
 * index, keep the smaller index on equal values, and keep the accumulated pair on a NaN.
 *
 * <p>Buffers are in native order and indexed from 0, whatever their position.
 */
final class LocalReduction {

    private LocalReduction() {
    }

    /**
     * Whether {@code op} reduces items of {@code type} (null: a type no predefined operator
     * reduces, such as PACKED).
     *
     * @return null if it does, else a hint for the error message (possibly empty)
     */
    static String unsupported(ReduceOp op, ElementType type) {
        if (type == null || type == ElementType.NONE) {
            return "";
        }
        boolean loc = op == ReduceOp.MINLOC || op == ReduceOp.MAXLOC;
        if (type.isPair() != loc) {
            return loc ? " (MPI_MINLOC and MPI_MAXLOC reduce only {value, index} pair types such as MPI.DOUBLE_INT)"
                       : " (pair types reduce only with MPI_MINLOC or MPI_MAXLOC)";
        }
        boolean supported = switch (op) {
            case MAX, MIN, SUM, PROD -> type != ElementType.BOOLEAN;
            case LAND, LOR, LXOR, BAND, BOR, BXOR -> type != ElementType.FLOAT && type != ElementType.DOUBLE;
            case MINLOC, MAXLOC -> true;
            default -> false;
        };
        return supported ? null : "";
    }

    /** {@code acc[i] = acc[i] op next[i]} for {@code count} elements; the pair must be supported. */
    static void combine(ReduceOp op, ElementType type, ByteBuffer acc, ByteBuffer next, int count) {
        switch (type) {
            case FLOAT -> floats(op, acc, next, count);
            case DOUBLE -> doubles(op, acc, next, count);
            case INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT -> pairs(op == ReduceOp.MAXLOC, type, acc, next, count);
            default -> integers(op, type, acc, next, count);
        }
    }

    // ---------------------------------------------------------------- integers and booleans

    /**
     * Every integer type widened to long (the unsigned ones without sign): narrowing the result
     * back wraps as the type's own arithmetic.
     */
    private static void integers(ReduceOp op, ElementType type, ByteBuffer acc, ByteBuffer next, int count) {
        for (int i = 0; i < count; i++) {
            long x = integer(type, acc, i);
            long y = integer(type, next, i);
            long r = switch (op) {
                case MAX -> Math.max(x, y);
                case MIN -> Math.min(x, y);
                case SUM -> x + y;
                case PROD -> x * y;
                case LAND -> truth(x != 0 && y != 0);
                case LOR -> truth(x != 0 || y != 0);
                case LXOR -> truth((x != 0) != (y != 0));
                case BAND -> x & y;
                case BOR -> x | y;
                case BXOR -> x ^ y;
                default -> throw new AssertionError(op);
            };
            putInteger(type, acc, i, r);
        }
    }

    private static long truth(boolean b) {
        return b ? 1 : 0;
    }

    private static long integer(ElementType type, ByteBuffer b, int i) {
        return switch (type) {
            case BYTE, BOOLEAN -> Byte.toUnsignedLong(b.get(i));
            case CHAR -> b.getChar(2 * i);
            case SHORT -> b.getShort(2 * i);
            case INT -> b.getInt(4 * i);
            case LONG -> b.getLong(8 * i);
            default -> throw new AssertionError(type);
        };
    }

    private static void putInteger(ElementType type, ByteBuffer b, int i, long v) {
        switch (type) {
            case BYTE, BOOLEAN -> b.put(i, (byte) v);
            case CHAR -> b.putChar(2 * i, (char) v);
            case SHORT -> b.putShort(2 * i, (short) v);
            case INT -> b.putInt(4 * i, (int) v);
            case LONG -> b.putLong(8 * i, v);
            default -> throw new AssertionError(type);
        }
    }

    // ---------------------------------------------------------------- floating point

    private static void floats(ReduceOp op, ByteBuffer acc, ByteBuffer next, int count) {
        for (int p = 0; p < 4 * count; p += 4) {
            float x = acc.getFloat(p);
            float y = next.getFloat(p);
            acc.putFloat(p, switch (op) {
                case MAX -> x > y ? x : y;
                case MIN -> x < y ? x : y;
                case SUM -> x + y;
                case PROD -> x * y;
                default -> throw new AssertionError(op);
            });
        }
    }

    private static void doubles(ReduceOp op, ByteBuffer acc, ByteBuffer next, int count) {
        for (int p = 0; p < 8 * count; p += 8) {
            double x = acc.getDouble(p);
            double y = next.getDouble(p);
            acc.putDouble(p, switch (op) {
                case MAX -> x > y ? x : y;
                case MIN -> x < y ? x : y;
                case SUM -> x + y;
                case PROD -> x * y;
                default -> throw new AssertionError(op);
            });
        }
    }

    // ---------------------------------------------------------------- MINLOC / MAXLOC

    /** Pairs {value at 0; int index at half the pair's size}; padding is neither read nor written. */
    private static void pairs(boolean max, ElementType type, ByteBuffer acc, ByteBuffer next, int count) {
        int indexAt = type.size / 2;
        for (int p = 0; p < type.size * count; p += type.size) {
            int better = nextIsBetter(max, type, acc, next, p);
            if (better > 0) {
                copyValue(type, next, acc, p);
                acc.putInt(p + indexAt, next.getInt(p + indexAt));
            } else if (better == 0) {
                acc.putInt(p + indexAt, Math.min(acc.getInt(p + indexAt), next.getInt(p + indexAt)));
            }
        }
    }

    /** 1 if next's value is strictly better, 0 if equal, -1 if worse or either is NaN. */
    private static int nextIsBetter(boolean max, ElementType type, ByteBuffer acc, ByteBuffer next, int p) {
        switch (type) {
            case FLOAT_INT, DOUBLE_INT -> {
                double x = type == ElementType.FLOAT_INT ? acc.getFloat(p) : acc.getDouble(p);
                double y = type == ElementType.FLOAT_INT ? next.getFloat(p) : next.getDouble(p);
                return (max ? y > x : y < x) ? 1 : y == x ? 0 : -1;
            }
            default -> {
                long x = pairInteger(type, acc, p);
                long y = pairInteger(type, next, p);
                return (max ? y > x : y < x) ? 1 : y == x ? 0 : -1;
            }
        }
    }

    private static long pairInteger(ElementType type, ByteBuffer b, int p) {
        return switch (type) {
            case INT2 -> b.getInt(p);
            case SHORT_INT -> b.getShort(p);
            case LONG_INT -> b.getLong(p);
            default -> throw new AssertionError(type);
        };
    }

    private static void copyValue(ElementType type, ByteBuffer from, ByteBuffer to, int p) {
        switch (type) {
            case INT2 -> to.putInt(p, from.getInt(p));
            case SHORT_INT -> to.putShort(p, from.getShort(p));
            case LONG_INT -> to.putLong(p, from.getLong(p));
            case FLOAT_INT -> to.putFloat(p, from.getFloat(p));
            case DOUBLE_INT -> to.putDouble(p, from.getDouble(p));
            default -> throw new AssertionError(type);
        }
    }
}
