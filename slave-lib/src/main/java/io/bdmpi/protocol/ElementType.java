package io.bdmpi.protocol;

/**
 * The element types the master can reduce, with their packed size. Elements travel in native byte
 * order; a boolean is one byte, 0 or 1. The pair types are the C structs {value; int index} with
 * LP64 alignment, as MINLOC and MAXLOC use them. The complex types are C's {@code float _Complex}
 * and {@code double _Complex}: the real part, then the imaginary one. Codes are wire values: never
 * renumber.
 */
public enum ElementType {
    NONE(0, 0), BYTE(1, 1), CHAR(2, 2), SHORT(3, 2), BOOLEAN(4, 1), INT(5, 4), LONG(6, 8), FLOAT(7, 4),
    DOUBLE(8, 8), INT2(9, 8), SHORT_INT(10, 8), LONG_INT(11, 16), FLOAT_INT(12, 8), DOUBLE_INT(13, 16),
    FLOAT_COMPLEX(14, 8), DOUBLE_COMPLEX(15, 16);

    private static final ElementType[] BY_CODE = new ElementType[16];

    static {
        for (ElementType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    /** The byte on the wire. */
    public final byte code;
    /** Bytes per element. */
    public final int size;

    ElementType(int code, int size) {
        this.code = (byte) code;
        this.size = size;
    }

    /** Whether this is a complex type, which SUM and PROD alone reduce. */
    public boolean isComplex() {
        return this == FLOAT_COMPLEX || this == DOUBLE_COMPLEX;
    }

    /** Whether this is a {value; index} pair type, for MINLOC and MAXLOC. */
    public boolean isPair() {
        return code >= INT2.code && code <= DOUBLE_INT.code;
    }

    /** The type with this code, or null. */
    public static ElementType ofCode(byte code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
