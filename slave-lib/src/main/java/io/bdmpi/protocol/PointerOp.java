package io.bdmpi.protocol;

/**
 * What a {@link SlaveRequest.FilePointer} does to a shared file pointer kept by a master. Each
 * answers with the pointer's value before the operation. Codes are wire values: never renumber.
 */
public enum PointerOp {
    /** Adds the value (fetch-and-add; 0 reads it). A pointer not yet set counts as 0. */
    ADD(1),
    /** Sets it to the value. */
    SET(2),
    /** Forgets it (the file was closed). */
    FREE(3);

    /** The byte on the wire. */
    public final byte code;

    PointerOp(int code) {
        this.code = (byte) code;
    }

    /** The operation with this code, or null. */
    public static PointerOp ofCode(byte code) {
        for (PointerOp op : values()) {
            if (op.code == code) {
                return op;
            }
        }
        return null;
    }
}
