package io.bdmpi.protocol;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes and decodes the frames of the slave/master socket.
 *
 * <pre>
 *   0        4      5
 *   +--------+------+--------------------------+
 *   | length | type | fields of the type       |
 *   +--------+------+--------------------------+
 *   length: int, bytes after the length field (type + fields)
 * </pre>
 *
 * All numbers are in {@link #ORDER}. Field layouts, per type:
 * <pre>
 *   HELLO         worldRank:int pid:long
 *   SEND          commId:int dest:int tag:int syncId:long payload
 *   POST_RECV     requestId:long commId:int source:int tag:int
 *   COLLECT       minReady:int block:byte n:int requestId:long * n
 *   CANCEL        requestId:long
 *   PROBE         commId:int source:int tag:int block:byte
 *   FINALIZE      peakRssBytes:long
 *   ABORT         errorCode:int reason:string
 *   RELEASE_SPILL fileName:string
 *   START_COLLECTIVE requestId:long commId:int kind:byte root:int op:byte type:byte count:int
 *                 n:int blockBytes:long * n payload
 *   START_SPLIT   requestId:long commId:int color:int key:int
 *   START_GROUP_COMM requestId:long lowGroupSize:int tag:int n:int members:int * n
 *   QUERY_COMM    commId:int
 *   FILE_POINTER  key:long ownerNode:int op:byte value:long
 *   CRITICAL_ENTER, CRITICAL_EXIT (none)
 *   WIN_LOCK      winId:int target:int exclusive:byte node:int
 *   WIN_UNLOCK    winId:int target:int node:int
 *   WIN_RMA       op (see RmaRequest)
 *   GO            (none)
 *   DELIVERIES    n:int completion * n
 *   CANCEL_RESULT cancelled:byte
 *   PROBE_RESULT  found:byte source:int tag:int length:long
 *   POINTER_VALUE value:long
 *   RMA_RESULT    outcome:byte error:string n:int bytes[n]
 *   COMM_INFO     commId:int rank:int size:int nodes:int nodeRank:int localSize:int localRank:int
 *                 lowestLocalRank:int groupHash:long groupSetHash:long
 *
 *   completion  kind:byte, then kind 0 (message): requestId:long source:int tag:int payload;
 *               kind 1 (collective): requestId:long n:int values:int * n m:int payload * m;
 *               kind 2 (synchronous send matched): requestId:long
 *   payload  kind:byte, then kind 0 (inline): n:int bytes[n]; kind 1 (spilled): length:long name:string;
 *            kind 2 (slice): offset:long length:long name:string
 *   string   n:int UTF-8 bytes[n]
 * </pre>
 * Decoders check every length before reading and name the type in their errors.
 */
public final class ProtocolCodec {

    /** Byte order of every number on the wire: both ends are on one machine. */
    public static final ByteOrder ORDER = ByteOrder.nativeOrder();

    /** Bytes of the length prefix plus the type byte. */
    public static final int HEADER_LENGTH = 5;

    private static final byte INLINE = 0;
    private static final byte SPILLED = 1;
    private static final byte SLICE = 2;
    private static final byte MESSAGE = 0;
    private static final byte COLLECTIVE = 1;
    private static final byte SEND_MATCHED = 2;
    /** Bytes of the smallest completion (a matched synchronous send). */
    private static final int MIN_COMPLETION_BYTES = 1 + 8;

    private ProtocolCodec() {
    }

    // ---------------------------------------------------------------- encoding

    /** Exact number of bytes {@link #encode(SlaveRequest, ByteBuffer)} writes. */
    public static int encodedLength(SlaveRequest r) {
        int body;
        if (r instanceof SlaveRequest.Hello) {
            body = 4 + 8;
        } else if (r instanceof SlaveRequest.Send s) {
            body = 12 + 8 + payloadLength(s.payload());
        } else if (r instanceof SlaveRequest.PostRecv) {
            body = 8 + 12;
        } else if (r instanceof SlaveRequest.Collect c) {
            body = 4 + 1 + 4 + 8 * c.requestIds().length;
        } else if (r instanceof SlaveRequest.Cancel) {
            body = 8;
        } else if (r instanceof SlaveRequest.Probe) {
            body = 12 + 1;
        } else if (r instanceof SlaveRequest.StartCollective c) {
            body = 8 + 4 + 1 + 4 + 1 + 1 + 4 + 4 + 8 * c.blockBytes().length + payloadLength(c.data());
        } else if (r instanceof SlaveRequest.StartSplit) {
            body = 8 + 12;
        } else if (r instanceof SlaveRequest.StartGroupComm g) {
            body = 8 + 12 + 4 * g.members().length;
        } else if (r instanceof SlaveRequest.QueryComm) {
            body = 4;
        } else if (r instanceof SlaveRequest.FilePointer) {
            body = 8 + 4 + 1 + 8;
        } else if (r instanceof SlaveRequest.CriticalEnter || r instanceof SlaveRequest.CriticalExit) {
            body = 0;
        } else if (r instanceof SlaveRequest.WinLock) {
            body = 8 + 1 + 4;
        } else if (r instanceof SlaveRequest.WinUnlock) {
            body = 8 + 4;
        } else if (r instanceof SlaveRequest.WinRma w) {
            body = w.op().encodedLength();
        } else if (r instanceof SlaveRequest.Finalize) {
            body = 8;
        } else if (r instanceof SlaveRequest.Abort a) {
            body = 4 + stringLength(a.reason());
        } else if (r instanceof SlaveRequest.ReleaseSpill rs) {
            body = stringLength(rs.fileName());
        } else if (r instanceof SlaveRequest.NameComm n) {
            body = 4 + stringLength(n.name());
        } else {
            throw new IllegalArgumentException("unknown request " + r);
        }
        return HEADER_LENGTH + body;
    }

    /** Exact number of bytes {@link #encode(MasterReply, ByteBuffer)} writes. */
    public static int encodedLength(MasterReply r) {
        int body;
        if (r instanceof MasterReply.Go) {
            body = 0;
        } else if (r instanceof MasterReply.Deliveries d) {
            body = 4;
            for (MasterReply.Completion c : d.deliveries()) {
                body += completionLength(c);
            }
        } else if (r instanceof MasterReply.CancelResult) {
            body = 1;
        } else if (r instanceof MasterReply.ProbeResult) {
            body = 1 + 4 + 4 + 8;
        } else if (r instanceof MasterReply.CommInfo) {
            body = 8 * 4 + 2 * 8;
        } else if (r instanceof MasterReply.PointerValue) {
            body = 8;
        } else if (r instanceof MasterReply.RmaResult res) {
            body = 1 + stringLength(res.error()) + 4 + res.data().remaining();
        } else {
            throw new IllegalArgumentException("unknown reply " + r);
        }
        return HEADER_LENGTH + body;
    }

    /** Writes one framed request at the buffer's position, which must have room for it. */
    public static void encode(SlaveRequest r, ByteBuffer out) {
        ByteBuffer b = out.order(ORDER);
        int start = b.position();
        b.putInt(0);
        if (r instanceof SlaveRequest.Hello h) {
            b.put(MessageType.HELLO.code).putInt(h.worldRank()).putLong(h.pid());
        } else if (r instanceof SlaveRequest.Send s) {
            b.put(MessageType.SEND.code).putInt(s.commId()).putInt(s.dest()).putInt(s.tag()).putLong(s.syncId());
            putPayload(b, s.payload());
        } else if (r instanceof SlaveRequest.PostRecv p) {
            b.put(MessageType.POST_RECV.code).putLong(p.requestId()).putInt(p.commId()).putInt(p.source()).putInt(p.tag());
        } else if (r instanceof SlaveRequest.Collect c) {
            b.put(MessageType.COLLECT.code).putInt(c.minReady()).put(bool(c.block())).putInt(c.requestIds().length);
            for (long id : c.requestIds()) {
                b.putLong(id);
            }
        } else if (r instanceof SlaveRequest.Cancel c) {
            b.put(MessageType.CANCEL.code).putLong(c.requestId());
        } else if (r instanceof SlaveRequest.Probe p) {
            b.put(MessageType.PROBE.code).putInt(p.commId()).putInt(p.source()).putInt(p.tag()).put(bool(p.block()));
        } else if (r instanceof SlaveRequest.StartCollective c) {
            b.put(MessageType.START_COLLECTIVE.code).putLong(c.requestId()).putInt(c.commId()).put(c.kind().code)
                    .putInt(c.root()).put(c.op().code).put(c.type().code).putInt(c.count()).putInt(c.blockBytes().length);
            for (long n : c.blockBytes()) {
                b.putLong(n);
            }
            putPayload(b, c.data());
        } else if (r instanceof SlaveRequest.StartSplit sp) {
            b.put(MessageType.START_SPLIT.code).putLong(sp.requestId()).putInt(sp.commId()).putInt(sp.color()).putInt(sp.key());
        } else if (r instanceof SlaveRequest.StartGroupComm g) {
            b.put(MessageType.START_GROUP_COMM.code).putLong(g.requestId()).putInt(g.lowGroupSize()).putInt(g.tag())
                    .putInt(g.members().length);
            for (int m : g.members()) {
                b.putInt(m);
            }
        } else if (r instanceof SlaveRequest.QueryComm q) {
            b.put(MessageType.QUERY_COMM.code).putInt(q.commId());
        } else if (r instanceof SlaveRequest.FilePointer f) {
            b.put(MessageType.FILE_POINTER.code).putLong(f.key()).putInt(f.ownerNode()).put(f.op().code).putLong(f.value());
        } else if (r instanceof SlaveRequest.CriticalEnter) {
            b.put(MessageType.CRITICAL_ENTER.code);
        } else if (r instanceof SlaveRequest.CriticalExit) {
            b.put(MessageType.CRITICAL_EXIT.code);
        } else if (r instanceof SlaveRequest.WinLock l) {
            b.put(MessageType.WIN_LOCK.code).putInt(l.winId()).putInt(l.target()).put(bool(l.exclusive())).putInt(l.node());
        } else if (r instanceof SlaveRequest.WinUnlock u) {
            b.put(MessageType.WIN_UNLOCK.code).putInt(u.winId()).putInt(u.target()).putInt(u.node());
        } else if (r instanceof SlaveRequest.WinRma w) {
            b.put(MessageType.WIN_RMA.code);
            w.op().writeTo(b);
        } else if (r instanceof SlaveRequest.Finalize f) {
            b.put(MessageType.FINALIZE.code).putLong(f.peakRssBytes());
        } else if (r instanceof SlaveRequest.Abort a) {
            b.put(MessageType.ABORT.code).putInt(a.errorCode());
            putString(b, a.reason());
        } else if (r instanceof SlaveRequest.ReleaseSpill rs) {
            b.put(MessageType.RELEASE_SPILL.code);
            putString(b, rs.fileName());
        } else if (r instanceof SlaveRequest.NameComm n) {
            b.put(MessageType.NAME_COMM.code).putInt(n.commId());
            putString(b, n.name());
        } else {
            throw new IllegalArgumentException("unknown request " + r);
        }
        b.putInt(start, b.position() - start - 4);
    }

    /** Writes one framed reply at the buffer's position, which must have room for it. */
    public static void encode(MasterReply r, ByteBuffer out) {
        ByteBuffer b = out.order(ORDER);
        int start = b.position();
        b.putInt(0);
        if (r instanceof MasterReply.Go) {
            b.put(MessageType.GO.code);
        } else if (r instanceof MasterReply.Deliveries d) {
            b.put(MessageType.DELIVERIES.code).putInt(d.deliveries().size());
            for (MasterReply.Completion c : d.deliveries()) {
                putCompletion(b, c);
            }
        } else if (r instanceof MasterReply.CancelResult c) {
            b.put(MessageType.CANCEL_RESULT.code).put(bool(c.cancelled()));
        } else if (r instanceof MasterReply.ProbeResult p) {
            b.put(MessageType.PROBE_RESULT.code).put(bool(p.found())).putInt(p.source()).putInt(p.tag()).putLong(p.length());
        } else if (r instanceof MasterReply.CommInfo c) {
            b.put(MessageType.COMM_INFO.code).putInt(c.commId()).putInt(c.rank()).putInt(c.size()).putInt(c.nodes())
                    .putInt(c.nodeRank()).putInt(c.localSize()).putInt(c.localRank()).putInt(c.lowestLocalRank())
                    .putLong(c.groupHash()).putLong(c.groupSetHash());
        } else if (r instanceof MasterReply.PointerValue v) {
            b.put(MessageType.POINTER_VALUE.code).putLong(v.value());
        } else if (r instanceof MasterReply.RmaResult res) {
            b.put(MessageType.RMA_RESULT.code).put(res.outcome().code);
            putString(b, res.error());
            b.putInt(res.data().remaining()).put(res.data().duplicate());
        } else {
            throw new IllegalArgumentException("unknown reply " + r);
        }
        b.putInt(start, b.position() - start - 4);
    }

    // ---------------------------------------------------------------- framing

    /**
     * Takes the next complete frame out of {@code in} (between position and limit).
     *
     * @return a view of the frame's type byte and fields, or null when the frame is not complete yet
     *         (the position is then unchanged)
     * @throws ProtocolException if the length prefix is impossible
     */
    public static ByteBuffer nextFrame(ByteBuffer in) throws ProtocolException {
        if (in.remaining() < 4) {
            return null;
        }
        int length = in.order(ORDER).getInt(in.position());
        if (length < 1 || length > Protocol.MAX_FRAME_LENGTH) {
            throw new ProtocolException("bad frame length " + length);
        }
        if (in.remaining() < 4 + length) {
            return null;
        }
        int start = in.position() + 4;
        ByteBuffer frame = in.duplicate().position(start).limit(start + length).slice().order(ORDER);
        in.position(start + length);
        return frame;
    }

    // ---------------------------------------------------------------- decoding

    /**
     * Decodes a request frame as returned by {@link #nextFrame}. Inline payloads are copied, so the
     * result does not depend on the frame's buffer.
     */
    public static SlaveRequest decodeRequest(ByteBuffer frame) throws ProtocolException {
        MessageType type = typeOf(frame);
        try {
            SlaveRequest r;
            switch (type) {
                case HELLO:
                    r = new SlaveRequest.Hello(frame.getInt(), frame.getLong());
                    break;
                case SEND: {
                    int commId = frame.getInt();
                    int dest = frame.getInt();
                    int tag = frame.getInt();
                    long syncId = frame.getLong();
                    r = new SlaveRequest.Send(commId, dest, tag, getPayload(frame, type), syncId);
                    break;
                }
                case POST_RECV:
                    r = new SlaveRequest.PostRecv(frame.getLong(), frame.getInt(), frame.getInt(), frame.getInt());
                    break;
                case COLLECT: {
                    int minReady = frame.getInt();
                    boolean block = frame.get() != 0;
                    long[] ids = new long[checkCount(frame.getInt(), 8, frame, type)];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = frame.getLong();
                    }
                    r = new SlaveRequest.Collect(ids, minReady, block);
                    break;
                }
                case CANCEL:
                    r = new SlaveRequest.Cancel(frame.getLong());
                    break;
                case PROBE:
                    r = new SlaveRequest.Probe(frame.getInt(), frame.getInt(), frame.getInt(), frame.get() != 0);
                    break;
                case START_COLLECTIVE: {
                    long requestId = frame.getLong();
                    int commId = frame.getInt();
                    CollectiveKind kind = code(CollectiveKind.ofCode(frame.get()), "collective kind", type);
                    int root = frame.getInt();
                    ReduceOp op = code(ReduceOp.ofCode(frame.get()), "reduction", type);
                    ElementType elementType = code(ElementType.ofCode(frame.get()), "element type", type);
                    int count = frame.getInt();
                    long[] blocks = new long[checkCount(frame.getInt(), 8, frame, type)];
                    for (int i = 0; i < blocks.length; i++) {
                        blocks[i] = frame.getLong();
                    }
                    r = new SlaveRequest.StartCollective(requestId, commId, kind, root, op, elementType, count, blocks,
                            getPayload(frame, type));
                    break;
                }
                case START_SPLIT:
                    r = new SlaveRequest.StartSplit(frame.getLong(), frame.getInt(), frame.getInt(), frame.getInt());
                    break;
                case START_GROUP_COMM: {
                    long requestId = frame.getLong();
                    int lowGroupSize = frame.getInt();
                    int tag = frame.getInt();
                    int[] members = new int[checkCount(frame.getInt(), 4, frame, type)];
                    for (int i = 0; i < members.length; i++) {
                        members[i] = frame.getInt();
                    }
                    r = new SlaveRequest.StartGroupComm(requestId, members, lowGroupSize, tag);
                    break;
                }
                case QUERY_COMM:
                    r = new SlaveRequest.QueryComm(frame.getInt());
                    break;
                case FILE_POINTER:
                    r = new SlaveRequest.FilePointer(frame.getLong(), frame.getInt(),
                            code(PointerOp.ofCode(frame.get()), "pointer operation", type), frame.getLong());
                    break;
                case CRITICAL_ENTER:
                    r = new SlaveRequest.CriticalEnter();
                    break;
                case CRITICAL_EXIT:
                    r = new SlaveRequest.CriticalExit();
                    break;
                case WIN_LOCK:
                    r = new SlaveRequest.WinLock(frame.getInt(), frame.getInt(), frame.get() != 0, frame.getInt());
                    break;
                case WIN_UNLOCK:
                    r = new SlaveRequest.WinUnlock(frame.getInt(), frame.getInt(), frame.getInt());
                    break;
                case WIN_RMA:
                    r = new SlaveRequest.WinRma(RmaRequest.readFrom(frame));
                    break;
                case FINALIZE:
                    r = new SlaveRequest.Finalize(frame.getLong());
                    break;
                case ABORT:
                    r = new SlaveRequest.Abort(frame.getInt(), getString(frame, type));
                    break;
                case RELEASE_SPILL:
                    r = new SlaveRequest.ReleaseSpill(getString(frame, type));
                    break;
                case NAME_COMM:
                    r = new SlaveRequest.NameComm(frame.getInt(), getString(frame, type));
                    break;
                default:
                    throw new ProtocolException("not a request: " + type);
            }
            return finish(frame, type, r);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw malformed(type, frame, e);
        }
    }

    /** Decodes a reply frame as returned by {@link #nextFrame}; inline payloads are copied. */
    public static MasterReply decodeReply(ByteBuffer frame) throws ProtocolException {
        MessageType type = typeOf(frame);
        try {
            MasterReply r;
            switch (type) {
                case GO:
                    r = new MasterReply.Go();
                    break;
                case DELIVERIES: {
                    int n = checkCount(frame.getInt(), MIN_COMPLETION_BYTES, frame, type);
                    List<MasterReply.Completion> list = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        list.add(getCompletion(frame, type));
                    }
                    r = new MasterReply.Deliveries(list);
                    break;
                }
                case CANCEL_RESULT:
                    r = new MasterReply.CancelResult(frame.get() != 0);
                    break;
                case PROBE_RESULT:
                    r = new MasterReply.ProbeResult(frame.get() != 0, frame.getInt(), frame.getInt(), frame.getLong());
                    break;
                case COMM_INFO:
                    r = new MasterReply.CommInfo(frame.getInt(), frame.getInt(), frame.getInt(), frame.getInt(),
                            frame.getInt(), frame.getInt(), frame.getInt(), frame.getInt(), frame.getLong(), frame.getLong());
                    break;
                case POINTER_VALUE:
                    r = new MasterReply.PointerValue(frame.getLong());
                    break;
                case RMA_RESULT: {
                    RmaRequest.Outcome outcome = code(RmaRequest.Outcome.ofCode(frame.get()), "outcome", type);
                    String error = getString(frame, type);
                    int n = checkCount(frame.getInt(), 1, frame, type);
                    ByteBuffer data = ByteBuffer.allocateDirect(n).order(ORDER);
                    data.put(frame.duplicate().limit(frame.position() + n)).flip();
                    frame.position(frame.position() + n);
                    r = new MasterReply.RmaResult(outcome, error, data);
                    break;
                }
                default:
                    throw new ProtocolException("not a reply: " + type);
            }
            return finish(frame, type, r);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw malformed(type, frame, e);
        }
    }

    // ---------------------------------------------------------------- helpers

    private static MessageType typeOf(ByteBuffer frame) throws ProtocolException {
        frame.order(ORDER);
        if (!frame.hasRemaining()) {
            throw new ProtocolException("empty frame");
        }
        byte code = frame.get();
        MessageType type = MessageType.ofCode(code);
        if (type == null) {
            throw new ProtocolException("unknown message type " + code + " (frame of " + frame.limit() + " bytes)");
        }
        return type;
    }

    private static <T> T finish(ByteBuffer frame, MessageType type, T decoded) throws ProtocolException {
        if (frame.hasRemaining()) {
            throw new ProtocolException(type + ": " + frame.remaining() + " trailing bytes in a frame of " + frame.limit());
        }
        return decoded;
    }

    private static ProtocolException malformed(MessageType type, ByteBuffer frame, RuntimeException cause) {
        ProtocolException e = new ProtocolException(type + ": malformed frame of " + frame.limit() + " bytes"
                + (cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")"));
        e.initCause(cause);
        return e;
    }

    private static int checkCount(int n, int minBytesEach, ByteBuffer frame, MessageType type) throws ProtocolException {
        if (n < 0 || (long) n * minBytesEach > frame.remaining()) {
            throw new ProtocolException(type + ": count " + n + " does not fit a frame of " + frame.limit() + " bytes");
        }
        return n;
    }

    private static <T> T code(T decoded, String what, MessageType type) throws ProtocolException {
        if (decoded == null) {
            throw new ProtocolException(type + ": unknown " + what);
        }
        return decoded;
    }

    private static int completionLength(MasterReply.Completion c) {
        if (c instanceof MasterReply.Delivery d) {
            return 1 + 8 + 4 + 4 + payloadLength(d.payload());
        }
        if (c instanceof MasterReply.SendMatched) {
            return MIN_COMPLETION_BYTES;
        }
        MasterReply.CollectiveDone done = (MasterReply.CollectiveDone) c;
        int n = 1 + 8 + 4 + 4 * done.values().length + 4;
        for (Payload p : done.pieces()) {
            n += payloadLength(p);
        }
        return n;
    }

    private static void putCompletion(ByteBuffer b, MasterReply.Completion c) {
        if (c instanceof MasterReply.Delivery d) {
            b.put(MESSAGE).putLong(d.requestId()).putInt(d.source()).putInt(d.tag());
            putPayload(b, d.payload());
            return;
        }
        if (c instanceof MasterReply.SendMatched m) {
            b.put(SEND_MATCHED).putLong(m.requestId());
            return;
        }
        MasterReply.CollectiveDone done = (MasterReply.CollectiveDone) c;
        b.put(COLLECTIVE).putLong(done.requestId()).putInt(done.values().length);
        for (int v : done.values()) {
            b.putInt(v);
        }
        b.putInt(done.pieces().size());
        for (Payload p : done.pieces()) {
            putPayload(b, p);
        }
    }

    private static MasterReply.Completion getCompletion(ByteBuffer b, MessageType type) throws ProtocolException {
        byte kind = b.get();
        if (kind == MESSAGE) {
            return new MasterReply.Delivery(b.getLong(), b.getInt(), b.getInt(), getPayload(b, type));
        }
        if (kind == SEND_MATCHED) {
            return new MasterReply.SendMatched(b.getLong());
        }
        if (kind != COLLECTIVE) {
            throw new ProtocolException(type + ": unknown completion kind " + kind);
        }
        long requestId = b.getLong();
        int[] values = new int[checkCount(b.getInt(), 4, b, type)];
        for (int i = 0; i < values.length; i++) {
            values[i] = b.getInt();
        }
        int n = checkCount(b.getInt(), 5, b, type);
        List<Payload> pieces = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            pieces.add(getPayload(b, type));
        }
        return new MasterReply.CollectiveDone(requestId, values, pieces);
    }

    private static int payloadLength(Payload p) {
        if (p instanceof Payload.Inline in) {
            return 1 + 4 + in.bytes().remaining();
        }
        if (p instanceof Payload.Slice s) {
            return 1 + 8 + 8 + stringLength(s.fileName());
        }
        return 1 + 8 + stringLength(((Payload.Spilled) p).fileName());
    }

    private static void putPayload(ByteBuffer b, Payload p) {
        if (p instanceof Payload.Inline in) {
            ByteBuffer bytes = in.bytes();
            b.put(INLINE).putInt(bytes.remaining()).put(bytes.duplicate());
        } else if (p instanceof Payload.Slice s) {
            b.put(SLICE).putLong(s.offset()).putLong(s.length());
            putString(b, s.fileName());
        } else {
            Payload.Spilled s = (Payload.Spilled) p;
            b.put(SPILLED).putLong(s.length());
            putString(b, s.fileName());
        }
    }

    private static Payload getPayload(ByteBuffer b, MessageType type) throws ProtocolException {
        byte kind = b.get();
        if (kind == INLINE) {
            int n = checkCount(b.getInt(), 1, b, type);
            ByteBuffer copy = ByteBuffer.allocate(n).order(ORDER);
            copy.put(b.duplicate().limit(b.position() + n)).flip();
            b.position(b.position() + n);
            return new Payload.Inline(copy);
        }
        if (kind == SPILLED) {
            long length = b.getLong();
            return new Payload.Spilled(getString(b, type), length);
        }
        if (kind == SLICE) {
            long offset = b.getLong();
            long length = b.getLong();
            return new Payload.Slice(getString(b, type), offset, length);
        }
        throw new ProtocolException(type + ": unknown payload kind " + kind);
    }

    private static int stringLength(String s) {
        return 4 + s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static void putString(ByteBuffer b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.putInt(bytes.length).put(bytes);
    }

    private static String getString(ByteBuffer b, MessageType type) throws ProtocolException {
        byte[] bytes = new byte[checkCount(b.getInt(), 1, b, type)];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte bool(boolean v) {
        return (byte) (v ? 1 : 0);
    }
}
