package io.bdmpi.protocol;

/**
 * Reduction operators the master applies itself, and {@link #USER} for a program's own function,
 * which the slaves apply. {@link #NONE} marks a collective that does not reduce. Codes are wire
 * values: never renumber.
 */
public enum ReduceOp {
    NONE(0), MAX(1), MIN(2), SUM(3), PROD(4), LAND(5), BAND(6), LOR(7), BOR(8), LXOR(9), BXOR(10),
    MINLOC(11), MAXLOC(12), USER(13);

    private static final ReduceOp[] BY_CODE = new ReduceOp[16];

    static {
        for (ReduceOp o : values()) {
            BY_CODE[o.code] = o;
        }
    }

    /** The byte on the wire. */
    public final byte code;

    ReduceOp(int code) {
        this.code = (byte) code;
    }

    /** The operator with this code, or null. */
    public static ReduceOp ofCode(byte code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
