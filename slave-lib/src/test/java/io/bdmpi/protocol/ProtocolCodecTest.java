package io.bdmpi.protocol;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProtocolCodecTest {

    private static Payload.Inline inline(int... bytes) {
        ByteBuffer b = ByteBuffer.allocate(bytes.length);
        for (int v : bytes) {
            b.put((byte) v);
        }
        return new Payload.Inline(b.flip());
    }

    private static ByteBuffer frame(SlaveRequest r) throws ProtocolException {
        ByteBuffer b = ByteBuffer.allocate(ProtocolCodec.encodedLength(r));
        ProtocolCodec.encode(r, b);
        assertEquals(b.capacity(), b.position(), "encodedLength is exact for " + r);
        b.flip();
        ByteBuffer f = ProtocolCodec.nextFrame(b);
        assertEquals(0, b.remaining());
        return f;
    }

    private static ByteBuffer frame(MasterReply r) throws ProtocolException {
        ByteBuffer b = ByteBuffer.allocate(ProtocolCodec.encodedLength(r));
        ProtocolCodec.encode(r, b);
        assertEquals(b.capacity(), b.position(), "encodedLength is exact for " + r);
        return ProtocolCodec.nextFrame(b.flip());
    }

    @Test
    void shouldRoundTripEveryRequest() throws Exception {
        List<SlaveRequest> all = List.of(new SlaveRequest.Hello(3, 12345L),
                new SlaveRequest.Send(0, 2, 7, inline(1, 2, 3)),
                new SlaveRequest.Send(1, 0, 0, new Payload.Spilled("r1-5", 1L << 33)),
                new SlaveRequest.Send(0, 3, 4, inline(5), 1L << 40),
                new SlaveRequest.PostRecv(99, 0, Protocol.ANY_SOURCE, Protocol.ANY_TAG),
                new SlaveRequest.Cancel(4), new SlaveRequest.Probe(0, 1, 2, true),
                new SlaveRequest.StartSplit(12, 17, Protocol.UNDEFINED_COLOR, -3), new SlaveRequest.QueryComm(Protocol.COMM_NODE_ID),
                new SlaveRequest.FilePointer(-5L << 40, 1, PointerOp.ADD, 123), new SlaveRequest.FilePointer(9, 0, PointerOp.FREE, 0),
                new SlaveRequest.StartGroupComm(13, new int[] {4, 0, 9}, 1, 77), new SlaveRequest.StartGroupComm(14, new int[] {2}, 0, -18),
                new SlaveRequest.CriticalEnter(), new SlaveRequest.CriticalExit(),
                new SlaveRequest.WinLock(9, 3, true, 1), new SlaveRequest.WinLock(9, 0, false, 0), new SlaveRequest.WinUnlock(9, 3, 1),
                new SlaveRequest.Finalize(1 << 20), new SlaveRequest.Abort(3, "bad thing \u00e9"),
                new SlaveRequest.ReleaseSpill("pool-12"), new SlaveRequest.NameComm(16, "the file /tmp/r\u00e9sultats"));
        for (SlaveRequest r : all) {
            SlaveRequest back = ProtocolCodec.decodeRequest(frame(r));
            if (r instanceof SlaveRequest.Send s) {
                SlaveRequest.Send b = assertInstanceOf(SlaveRequest.Send.class, back);
                assertEquals(List.of(s.commId(), s.dest(), s.tag()), List.of(b.commId(), b.dest(), b.tag()));
                assertEquals(s.syncId(), b.syncId());
                assertEquals(s.payload().length(), b.payload().length());
                if (s.payload() instanceof Payload.Inline in) {
                    assertEquals(in.bytes(), ((Payload.Inline) b.payload()).bytes());
                } else {
                    assertEquals(s.payload(), b.payload());
                }
            } else {
                assertEquals(r, back);
            }
        }
        SlaveRequest.Collect c = (SlaveRequest.Collect) ProtocolCodec.decodeRequest(frame(new SlaveRequest.Collect(new long[] {5, 6, 7}, 2, true)));
        assertArrayEquals(new long[] {5, 6, 7}, c.requestIds());
        assertEquals(2, c.minReady());
        assertTrue(c.block());
    }

    @Test
    void shouldRoundTripCollectiveStarts() throws Exception {
        List<SlaveRequest.StartCollective> all = List.of(
                new SlaveRequest.StartCollective(7, Protocol.COMM_WORLD_ID, CollectiveKind.BARRIER, 0, ReduceOp.NONE,
                        ElementType.NONE, 0, new long[0], inline()),
                new SlaveRequest.StartCollective(8, 16, CollectiveKind.REDUCE_SCATTER, 0, ReduceOp.MAXLOC,
                        ElementType.DOUBLE_INT, 3, new long[] {16, 0, 32}, inline(new int[48])),
                new SlaveRequest.StartCollective(9, Protocol.COMM_CWORLD_ID, CollectiveKind.SCATTER, 2, ReduceOp.NONE,
                        ElementType.NONE, 0, new long[] {1L << 32, 5}, new Payload.Spilled("r0-9", (1L << 32) + 5)));
        for (SlaveRequest.StartCollective r : all) {
            SlaveRequest.StartCollective b = assertInstanceOf(SlaveRequest.StartCollective.class,
                    ProtocolCodec.decodeRequest(frame(r)));
            assertEquals(List.of(r.requestId(), r.commId(), r.root(), r.count()), List.of(b.requestId(), b.commId(), b.root(), b.count()));
            assertEquals(List.of(r.kind(), r.op(), r.type()), List.of(b.kind(), b.op(), b.type()));
            assertArrayEquals(r.blockBytes(), b.blockBytes());
            if (r.data() instanceof Payload.Inline in) {
                assertEquals(in.bytes(), ((Payload.Inline) b.data()).bytes());
            } else {
                assertEquals(r.data(), b.data());
            }
        }
    }

    @Test
    void shouldRoundTripAOneSidedOperationAndItsResult() throws Exception {
        ByteBuffer data = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        RmaRequest op = new RmaRequest(RmaRequest.Kind.GET_ACCUMULATE, 1, "/w/spill/r3/win-ab", 4096, 1 << 20,
                "/w/spill/win-ab.control", 3, true, ReduceOp.SUM.code, ElementType.INT, new int[] {0, 4, 64, 4}, data);
        SlaveRequest.WinRma back = assertInstanceOf(SlaveRequest.WinRma.class,
                ProtocolCodec.decodeRequest(frame(new SlaveRequest.WinRma(op))));
        RmaRequest b = back.op();
        assertEquals(List.of(op.kind(), op.targetNode(), op.segmentFile(), op.segmentOffset(), op.segmentBytes(),
                        op.controlFile(), op.slot(), op.markUpdated(), op.op(), op.element()),
                List.of(b.kind(), b.targetNode(), b.segmentFile(), b.segmentOffset(), b.segmentBytes(), b.controlFile(),
                        b.slot(), b.markUpdated(), b.op(), b.element()));
        assertArrayEquals(op.ranges(), b.ranges());
        assertEquals(data, b.data());
        assertEquals(8, b.rangeBytes());

        MasterReply.RmaResult result = assertInstanceOf(MasterReply.RmaResult.class,
                ProtocolCodec.decodeReply(frame(new MasterReply.RmaResult(RmaRequest.Outcome.APPLIED, "", ByteBuffer.wrap(new byte[] {9, 8})))));
        assertEquals(RmaRequest.Outcome.APPLIED, result.outcome());
        assertEquals("", result.error());
        assertEquals(ByteBuffer.wrap(new byte[] {9, 8}), result.data());
        assertEquals("no such file \u00e9", assertInstanceOf(MasterReply.RmaResult.class, ProtocolCodec.decodeReply(
                frame(new MasterReply.RmaResult(RmaRequest.Outcome.FAILED, "no such file \u00e9", ByteBuffer.allocate(0)))))
                .error());
    }

    @Test
    void shouldRefuseAOneSidedRangeOutsideItsSegment() {
        RmaRequest op = new RmaRequest(RmaRequest.Kind.PUT, 1, "/f", 0, 16, "/c", 0, false, (byte) 0, ElementType.NONE,
                new int[] {12, 8}, ByteBuffer.allocate(8));
        ByteBuffer wire = ByteBuffer.allocate(op.encodedLength());
        op.writeTo(wire);
        assertThrows(IllegalArgumentException.class, () -> RmaRequest.readFrom(wire.flip()));
    }

    @Test
    void shouldRoundTripEveryReply() throws Exception {
        for (MasterReply r : List.of(new MasterReply.Go(), new MasterReply.CancelResult(true),
                new MasterReply.ProbeResult(true, 4, 5, 1L << 40), MasterReply.ProbeResult.NONE,
                new MasterReply.CommInfo(3, 1, 4, 2, 0, 2, 1, 0, -77L, 1L << 50), new MasterReply.PointerValue(-1L << 62))) {
            assertEquals(r, ProtocolCodec.decodeReply(frame(r)));
        }
        MasterReply.Deliveries d = (MasterReply.Deliveries) ProtocolCodec.decodeReply(frame(new MasterReply.Deliveries(List.of(
                new MasterReply.Delivery(1, 2, 3, inline(9, 8)), new MasterReply.Delivery(4, 5, 6, new Payload.Spilled("x", 10))))));
        assertEquals(2, d.deliveries().size());
        assertEquals(inline(9, 8).bytes(), ((Payload.Inline) ((MasterReply.Delivery) d.deliveries().get(0)).payload()).bytes());
        assertEquals(new Payload.Spilled("x", 10), ((MasterReply.Delivery) d.deliveries().get(1)).payload());
    }

    @Test
    void shouldRoundTripCollectiveResultsAmongMessages() throws Exception {
        MasterReply.Deliveries d = (MasterReply.Deliveries) ProtocolCodec.decodeReply(frame(new MasterReply.Deliveries(List.of(
                new MasterReply.CollectiveDone(5, new int[] {16, 2, 3}, List.of()),
                new MasterReply.Delivery(6, 1, 2, inline(4)),
                new MasterReply.CollectiveDone(7, new int[0], List.of(inline(1, 2), new Payload.Slice("r2-1", 8, 4), inline()))))));
        assertEquals(3, d.deliveries().size());
        MasterReply.CollectiveDone split = assertInstanceOf(MasterReply.CollectiveDone.class, d.deliveries().get(0));
        assertEquals(5, split.requestId());
        assertArrayEquals(new int[] {16, 2, 3}, split.values());
        assertTrue(split.pieces().isEmpty());
        assertEquals(6, assertInstanceOf(MasterReply.Delivery.class, d.deliveries().get(1)).requestId());
        MasterReply.CollectiveDone gather = assertInstanceOf(MasterReply.CollectiveDone.class, d.deliveries().get(2));
        assertEquals(0, gather.values().length);
        assertEquals(inline(1, 2).bytes(), ((Payload.Inline) gather.pieces().get(0)).bytes());
        assertEquals(new Payload.Slice("r2-1", 8, 4), gather.pieces().get(1));
        assertEquals(0, gather.pieces().get(2).length());
    }

    @Test
    void shouldRoundTripMatchedSynchronousSendsAmongMessages() throws Exception {
        List<MasterReply.Completion> sent = List.of(new MasterReply.SendMatched(3), new MasterReply.SendMatched(1L << 50),
                new MasterReply.Delivery(6, 1, 2, inline(4)), new MasterReply.SendMatched(8));
        MasterReply.Deliveries d = (MasterReply.Deliveries) ProtocolCodec.decodeReply(frame(new MasterReply.Deliveries(sent)));
        assertEquals(4, d.deliveries().size());
        assertEquals(List.of(sent.get(0), sent.get(1), sent.get(3)), List.of(d.deliveries().get(0), d.deliveries().get(1),
                d.deliveries().get(3)));
        assertEquals(6, assertInstanceOf(MasterReply.Delivery.class, d.deliveries().get(2)).requestId());
    }

    @Test
    void shouldWaitForACompleteFrame() throws Exception {
        ByteBuffer whole = frame(new SlaveRequest.QueryComm(0));
        ByteBuffer partial = ByteBuffer.allocate(4 + whole.remaining() - 1).order(ProtocolCodec.ORDER);
        partial.putInt(whole.remaining()).put(whole.duplicate().limit(whole.limit() - 1)).flip();
        assertNull(ProtocolCodec.nextFrame(partial));
        assertEquals(0, partial.position(), "an incomplete frame is not consumed");
    }

    @Test
    void shouldRejectGarbageWithTheTypeInTheMessage() {
        ByteBuffer badLength = ByteBuffer.allocate(8).order(ProtocolCodec.ORDER).putInt(-5).putInt(0).flip();
        assertThrows(ProtocolException.class, () -> ProtocolCodec.nextFrame(badLength));

        ByteBuffer unknownType = ByteBuffer.allocate(1).put((byte) 77).flip();
        assertTrue(assertThrows(ProtocolException.class, () -> ProtocolCodec.decodeRequest(unknownType))
                .getMessage().contains("unknown message type 77"));

        ByteBuffer truncatedHello = ByteBuffer.allocate(3).order(ProtocolCodec.ORDER).put(MessageType.HELLO.code).put((byte) 1).put((byte) 2).flip();
        assertTrue(assertThrows(ProtocolException.class, () -> ProtocolCodec.decodeRequest(truncatedHello))
                .getMessage().startsWith("HELLO: malformed"));

        ByteBuffer hugeCount = ByteBuffer.allocate(10).order(ProtocolCodec.ORDER).put(MessageType.COLLECT.code)
                .putInt(0).put((byte) 0).putInt(1 << 28).flip();
        assertTrue(assertThrows(ProtocolException.class, () -> ProtocolCodec.decodeRequest(hugeCount))
                .getMessage().contains("does not fit"));

        ByteBuffer replyAsRequest = ByteBuffer.allocate(1).put(MessageType.GO.code).flip();
        assertThrows(ProtocolException.class, () -> ProtocolCodec.decodeRequest(replyAsRequest));
    }
}
