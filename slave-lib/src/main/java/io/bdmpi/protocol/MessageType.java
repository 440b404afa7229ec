package io.bdmpi.protocol;

/** Type codes of every frame on the slave/master socket. Codes are wire values: never renumber. */
public enum MessageType {
    HELLO(1),
    SEND(2),
    POST_RECV(3),
    COLLECT(4),
    CANCEL(5),
    PROBE(6),
    FINALIZE(8),
    ABORT(9),
    START_COLLECTIVE(10),
    START_SPLIT(11),
    QUERY_COMM(12),
    CRITICAL_ENTER(13),
    CRITICAL_EXIT(14),
    START_GROUP_COMM(15),
    FILE_POINTER(30),
    WIN_LOCK(16),
    WIN_UNLOCK(17),
    WIN_RMA(18),
    RELEASE_SPILL(40),
    NAME_COMM(41),

    GO(101),
    DELIVERIES(102),
    CANCEL_RESULT(103),
    PROBE_RESULT(104),
    COMM_INFO(105),
    POINTER_VALUE(120),
    RMA_RESULT(121);

    private static final MessageType[] BY_CODE = new MessageType[128];

    static {
        for (MessageType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    /** The byte on the wire. */
    public final byte code;

    MessageType(int code) {
        this.code = (byte) code;
    }

    /** The type with this code, or null. */
    public static MessageType ofCode(byte code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
