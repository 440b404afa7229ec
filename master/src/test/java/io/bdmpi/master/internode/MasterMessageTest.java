package io.bdmpi.master.internode;

import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.RmaRequest;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MasterMessageTest {

    @Test
    void shouldRoundTripAForwardWithItsSyncIdAndInlineBytes() {
        ByteBuffer bytes = ByteBuffer.wrap(new byte[] {1, 2, 3});
        MasterMessage.Forward f = assertInstanceOf(MasterMessage.Forward.class, MasterMessage.decode(
                new MasterMessage.Forward(5, 0, 1, 7, 2, 1L << 40, 3, true, bytes).encode()));
        assertEquals(new MasterMessage.Forward(5, 0, 1, 7, 2, 1L << 40, 3, true, f.inlineBytes()), f);
        assertEquals(bytes, f.inlineBytes());
        MasterMessage.Forward spilled = new MasterMessage.Forward(5, 0, 1, 7, 2, 0, 1L << 33, false, null);
        assertEquals(spilled, MasterMessage.decode(spilled.encode()));
    }

    @Test
    void shouldRoundTripAMatchedSynchronousSend() {
        MasterMessage.SendMatched m = new MasterMessage.SendMatched(9, 1L << 35);
        assertEquals(m, MasterMessage.decode(m.encode()));
    }

    @Test
    void shouldRoundTripASharedFilePointerRequestAndItsAnswer() {
        MasterMessage.PointerRequest r = new MasterMessage.PointerRequest(-1L << 60, io.bdmpi.protocol.PointerOp.SET, 1L << 41, 6);
        assertEquals(r, MasterMessage.decode(r.encode()));
        MasterMessage.PointerAnswer a = new MasterMessage.PointerAnswer(6, 1L << 42);
        assertEquals(a, MasterMessage.decode(a.encode()));
    }

    @Test
    void shouldRoundTripTheStepsOfACheckpointsCommit() {
        MasterMessage.CheckpointPartWritten w = new MasterMessage.CheckpointPartWritten(7);
        assertEquals(w, MasterMessage.decode(w.encode()));
        MasterMessage.CheckpointCommitted c = new MasterMessage.CheckpointCommitted(8);
        assertEquals(c, MasterMessage.decode(c.encode()));
    }

    @Test
    void shouldRoundTripTheStagingOfARestart() {
        MasterMessage.RestartHoldings h = new MasterMessage.RestartHoldings(List.of(
                new MasterMessage.HeldPart(4, true, 2, 3, 6, List.of(4, 5)),
                new MasterMessage.HeldPart(5, false, 0, 3, 6, List.of())));
        assertEquals(h, MasterMessage.decode(h.encode()));
        MasterMessage.RestartPlan plan = new MasterMessage.RestartPlan(4, "", List.of(new MasterMessage.Transfer(2, 0, 3)));
        assertEquals(plan, MasterMessage.decode(plan.encode()));
        MasterMessage.RestartPlan refused = new MasterMessage.RestartPlan(4, "part 1 of checkpoint 4 is in no directory", List.of());
        assertEquals(refused, MasterMessage.decode(refused.encode()));
        MasterMessage.StagedFile f = assertInstanceOf(MasterMessage.StagedFile.class, MasterMessage.decode(
                new MasterMessage.StagedFile(4, 2, "rank-5.state", 2, true, ByteBuffer.wrap(new byte[] {7, 8})).encode()));
        assertEquals(new MasterMessage.StagedFile(4, 2, "rank-5.state", 2, true, ByteBuffer.wrap(new byte[] {7, 8})), f);
        MasterMessage.StagedFile streamed = new MasterMessage.StagedFile(4, 2, "message-0", 1L << 33, false, null);
        assertEquals(streamed, MasterMessage.decode(streamed.encode()));
        ByteBuffer cut = h.encode();
        cut.limit(cut.limit() - 4);
        assertThrows(IllegalArgumentException.class, () -> MasterMessage.decode(cut));
    }

    @Test
    void shouldRoundTripOneSidedTraffic() {
        RmaRequest op = new RmaRequest(RmaRequest.Kind.COMPARE_AND_SWAP,
                1, "/w/spill/r4/a", 0, 64, "/w/spill/win.control", 4, false, (byte) 0, ElementType.LONG,
                new int[] {8, 8}, ByteBuffer.wrap(new byte[16]));
        MasterMessage.RmaOp back = assertInstanceOf(MasterMessage.RmaOp.class,
                MasterMessage.decode(new MasterMessage.RmaOp(3, op).encode()));
        assertEquals(3, back.originWorldRank());
        assertEquals(op.segmentFile(), back.op().segmentFile());
        assertEquals(op.data(), back.op().data());
        MasterMessage.RmaDone done = assertInstanceOf(MasterMessage.RmaDone.class, MasterMessage.decode(
                new MasterMessage.RmaDone(3, RmaRequest.Outcome.APPLIED, "", ByteBuffer.wrap(new byte[] {5, 6}))
                        .encode()));
        assertEquals(new MasterMessage.RmaDone(3, RmaRequest.Outcome.APPLIED, "",
                ByteBuffer.wrap(new byte[] {5, 6})), done);
        for (MasterMessage m : new MasterMessage[] {new MasterMessage.LockRequest(9, 2, true, 5),
                new MasterMessage.LockGranted(5), new MasterMessage.Unlock(9, 2, 5)}) {
            assertEquals(m, MasterMessage.decode(m.encode()));
        }
    }

    @Test
    void shouldRoundTripABuddyCopysFilesAndItsAcknowledgement() {
        ByteBuffer manifest = ByteBuffer.wrap("{\"sequence\":3}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        MasterMessage.BuddyFile small = assertInstanceOf(MasterMessage.BuddyFile.class, MasterMessage.decode(
                new MasterMessage.BuddyFile(3, "manifest.json", manifest.remaining(), true, manifest).encode()));
        assertEquals(new MasterMessage.BuddyFile(3, "manifest.json", manifest.remaining(), true, small.inlineBytes()), small);
        assertEquals(manifest, small.inlineBytes());
        MasterMessage.BuddyFile large = new MasterMessage.BuddyFile(4, "rank-12.state", 1L << 33, false, null);
        assertEquals(large, MasterMessage.decode(large.encode()));
        MasterMessage.BuddyCopied copied = new MasterMessage.BuddyCopied(4, 2);
        assertEquals(copied, MasterMessage.decode(copied.encode()));
    }
}
