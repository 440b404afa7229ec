package mpi;

import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.SlaveRequest;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Point-to-point calls and barrier against a stand-in master; this slave is rank 1 of 4. */
class CommTest extends WithMaster {

    private static final int SELF = FakeMaster.RANK;

    private SlaveRequest.Send onlySend() throws Exception {
        List<SlaveRequest.Send> sends = requests(SlaveRequest.Send.class);
        assertEquals(1, sends.size(), "sends: " + sends);
        return sends.get(0);
    }

    private static byte[] inline(SlaveRequest.Send s) {
        ByteBuffer b = ((Payload.Inline) s.payload()).bytes().duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private long spillFiles() throws Exception {
        try (Stream<?> files = Files.list(master.spillDir())) {
            return files.count();
        }
    }

    // ---------------------------------------------------------------- sends

    @Test
    void shouldHandTheMasterNativeOrderBytes() throws Exception {
        MPI.COMM_WORLD.send(MPI.slice(new int[] {9, 1, 2, 3}, 1), 3, MPI.INT, 2, 5);
        SlaveRequest.Send s = onlySend();
        assertEquals(Protocol.COMM_WORLD_ID, s.commId());
        assertEquals(2, s.dest());
        assertEquals(5, s.tag());
        assertArrayEquals(bytesOf(1, 2, 3), inline(s));
    }

    @Test
    void shouldSendEveryFlavourTheSameBufferedWay() throws Exception {
        MPI.attachBuffer(new byte[4 + MPI.BSEND_OVERHEAD]);
        MPI.COMM_WORLD.send(new int[] {1}, 1, MPI.INT, 0, 1);
        MPI.COMM_WORLD.bSend(new int[] {2}, 1, MPI.INT, 0, 2);
        MPI.COMM_WORLD.sSend(new int[] {3}, 1, MPI.INT, 0, 3);
        MPI.COMM_WORLD.rSend(new int[] {4}, 1, MPI.INT, 0, 4);
        List<SlaveRequest.Send> sends = requests(SlaveRequest.Send.class);
        assertEquals(4, sends.size());
        for (int i = 0; i < 4; i++) {
            assertArrayEquals(bytesOf(i + 1), inline(sends.get(i)));
            assertEquals(i + 1, sends.get(i).tag());
        }
    }

    @Test
    void shouldSpillLargeMessagesToAFile() throws Exception {
        int[] big = new int[1000];
        for (int i = 0; i < big.length; i++) {
            big[i] = i * 7;
        }
        MPI.COMM_WORLD.send(big, big.length, MPI.INT, 3, 0);
        Payload.Spilled spilled = (Payload.Spilled) onlySend().payload();
        assertEquals(4000, spilled.length());
        assertArrayEquals(bytesOf(big), Files.readAllBytes(master.spillDir().resolve(spilled.fileName())));
    }

    @Test
    void shouldSendNothingToProcNull() throws Exception {
        MPI.COMM_WORLD.send(new int[] {1}, 1, MPI.INT, MPI.PROC_NULL, 0);
        assertTrue(requests().isEmpty(), "nothing to tell the master");
    }

    @Test
    void shouldCompleteNonblockingSendsAtOnce() throws Exception {
        IntBuffer b = MPI.newIntBuffer(2).put(0, 5).put(1, 6);
        Request r = MPI.COMM_WORLD.iSend(b, 2, MPI.INT, 0, 7);
        assertArrayEquals(bytesOf(5, 6), inline(onlySend()), "sent before iSend returns");
        assertTrue(r.test());
        assertTrue(r.isNull());
        MPI.attachBuffer(new byte[4 + MPI.BSEND_OVERHEAD]);
        MPI.COMM_WORLD.ibSend(b, 1, MPI.INT, 0, 7).waitFor();
        MPI.COMM_WORLD.irSend(b, 1, MPI.INT, 0, 7).waitFor();
        assertEquals(3, requests(SlaveRequest.Send.class).size());
        assertTrue(requests(SlaveRequest.Collect.class).isEmpty(), "a send never waits for the master");
    }

    @Test
    void shouldCompleteSynchronousSendsOnlyOnceAReceiveMatchedThem() throws Exception {
        IntBuffer b = MPI.newIntBuffer(1).put(0, 5);
        Request toSelf = MPI.COMM_WORLD.isSend(b, 1, MPI.INT, FakeMaster.RANK, 3);
        assertFalse(toSelf.test(), "nobody received it yet");
        assertNull(toSelf.getStatus());
        toSelf.cancel();
        assertFalse(toSelf.test(), "a synchronous send is not withdrawn");
        IntBuffer in = MPI.newIntBuffer(1);
        MPI.COMM_WORLD.iRecv(in, 1, MPI.INT, FakeMaster.RANK, 3).waitFor();
        assertEquals(5, in.get(0));
        assertTrue(toSelf.test(), "its receive matched it");
        assertTrue(toSelf.isNull());

        MPI.COMM_WORLD.sSend(new int[] {6}, 1, MPI.INT, 0, 4); // rank 0 receives at once
        Request[] both = {MPI.COMM_WORLD.isSend(b, 1, MPI.INT, 0, 5), MPI.COMM_WORLD.isSend(b, 1, MPI.INT, 2, 5)};
        Request.waitAll(both);
        assertTrue(both[0].isNull() && both[1].isNull());
        assertTrue(MPI.COMM_WORLD.isSend(b, 1, MPI.INT, MPI.PROC_NULL, 5).test(), "nothing to wait for");
        List<SlaveRequest.Send> sends = requests(SlaveRequest.Send.class);
        assertEquals(4, sends.size());
        assertTrue(sends.stream().allMatch(s -> s.syncId() != 0), "every send is synchronous");
        assertEquals(4, sends.stream().mapToLong(SlaveRequest.Send::syncId).distinct().count(), "each has its own id");
        assertTrue(master.problems().isEmpty(), master.problems().toString());
    }

    @Test
    void shouldRequireDirectBuffersForNonblockingCalls() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MPI.COMM_WORLD.iSend(IntBuffer.wrap(new int[1]), 1, MPI.INT, 0, 0));
        assertEquals("The buffer must be direct.", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MPI.COMM_WORLD.iRecv(IntBuffer.allocate(1), 1, MPI.INT, 0, 0));
        assertTrue(requests().isEmpty());
    }

    // ---------------------------------------------------------------- receives

    @Test
    void shouldReceiveItsOwnMessageWithTheActualSourceAndTag() throws Exception {
        MPI.COMM_WORLD.send(new double[] {1.5, 2.5}, 2, MPI.DOUBLE, SELF, 42);
        double[] in = new double[4];
        Status s = MPI.COMM_WORLD.recv(in, 4, MPI.DOUBLE, MPI.ANY_SOURCE, MPI.ANY_TAG);
        assertArrayEquals(new double[] {1.5, 2.5, 0, 0}, in);
        assertEquals(SELF, s.getSource());
        assertEquals(42, s.getTag());
        assertEquals(2, s.getCount(MPI.DOUBLE), "the message's size, not the buffer's");
        assertEquals(16, s.getCount(MPI.BYTE));
        SlaveRequest.PostRecv post = requests(SlaveRequest.PostRecv.class).get(0);
        assertEquals(MPI.ANY_SOURCE, post.source());
        assertEquals(MPI.ANY_TAG, post.tag());
    }

    @Test
    void shouldWaitParkedForAMessage() throws Exception {
        Thread sender = whenParked(() -> master.injectInts(3, 8, 30, 31));
        int[] in = new int[2];
        Status s = MPI.COMM_WORLD.recv(in, 2, MPI.INT, 3, 8);
        sender.join();
        assertArrayEquals(new int[] {30, 31}, in);
        assertEquals(3, s.getSource());
        SlaveRequest.Collect c = requests(SlaveRequest.Collect.class).get(0);
        assertTrue(c.block());
        assertEquals(1, c.minReady());
    }

    @Test
    void shouldReceiveSpilledMessagesAndDeleteTheirFiles() throws Exception {
        DoubleBuffer out = MPI.newDoubleBuffer(500);
        for (int i = 0; i < 500; i++) {
            out.put(i, i / 4.0);
        }
        MPI.COMM_WORLD.send(out, 500, MPI.DOUBLE, SELF, 1);
        assertEquals(1, spillFiles());
        DoubleBuffer in = MPI.newDoubleBuffer(600);
        Status s = MPI.COMM_WORLD.recv(MPI.slice(in, 100), 500, MPI.DOUBLE, SELF, 1);
        assertEquals(500, s.getCount(MPI.DOUBLE));
        assertEquals(0.0, in.get(99));
        assertEquals(499 / 4.0, in.get(599));
        assertEquals(0, spillFiles(), "the receiver deletes the file");
    }

    @Test
    void shouldReceiveFromProcNullAtOnce() throws Exception {
        int[] in = {-1};
        Status s = MPI.COMM_WORLD.recv(in, 1, MPI.INT, MPI.PROC_NULL, 3);
        assertEquals(MPI.PROC_NULL, s.getSource());
        assertEquals(MPI.ANY_TAG, s.getTag());
        assertEquals(0, s.getCount(MPI.INT));
        assertEquals(-1, in[0]);
        assertTrue(requests().isEmpty());
    }

    @Test
    void shouldRaiseTruncateAndStillConsumeTheMessage() throws Exception {
        master.injectInts(2, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        MPIException e = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.recv(new int[5], 5, MPI.INT, 2, 1));
        assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
        assertEquals(MPI.ERR_TRUNCATE, e.getErrorCode());
        assertEquals("MPI_Recv: message of 40 bytes from rank 2 (tag 1) truncated: the receive buffer holds 20 bytes",
                e.getMessage());
        master.injectInts(2, 1, 77);
        int[] next = new int[5];
        MPI.COMM_WORLD.recv(next, 5, MPI.INT, 2, 1);
        assertEquals(77, next[0], "the truncated message is gone, not received again");
    }

    @Test
    void shouldDeleteTheFileOfATruncatedSpilledMessage() throws Exception {
        MPI.COMM_WORLD.send(new long[100], 100, MPI.LONG, SELF, 0);
        assertEquals(1, spillFiles());
        assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.recv(new long[10], 10, MPI.LONG, SELF, 0)).getErrorClass());
        assertEquals(0, spillFiles());
    }

    @Test
    void shouldSendThenReceiveInSendRecv() throws Exception {
        master.injectInts(0, 9, 90);
        int[] in = new int[1];
        Status s = MPI.COMM_WORLD.sendRecv(new int[] {11}, 1, MPI.INT, 2, 8, in, 1, MPI.INT, 0, 9);
        assertArrayEquals(bytesOf(11), inline(onlySend()));
        assertEquals(90, in[0]);
        assertEquals(0, s.getSource());
        assertEquals(9, s.getTag());

        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.sendRecv(new int[] {1}, 1, MPI.INT, 2, 8, in, 1, MPI.INT, 9, 9)).getErrorClass());
        assertEquals(1, requests(SlaveRequest.Send.class).size(), "bad receive arguments: nothing sent");
    }

    @Test
    void shouldReplaceTheBufferInSendRecvReplace() throws Exception {
        master.injectInts(2, 9, 20, 21);
        int[] buf = {10, 11};
        Status s = MPI.COMM_WORLD.sendRecvReplace(buf, 2, MPI.INT, 3, 8, 2, 9);
        assertArrayEquals(bytesOf(10, 11), inline(onlySend()), "the old contents go out");
        assertArrayEquals(new int[] {20, 21}, buf, "the new ones come in");
        assertEquals(2, s.getCount(MPI.INT));
    }

    // ---------------------------------------------------------------- probe

    @Test
    void shouldProbeWithoutReceiving() throws Exception {
        assertNull(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG), "nothing pending");
        master.injectInts(2, 4, 1, 2, 3);
        Status s = MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG);
        assertEquals(2, s.getSource());
        assertEquals(4, s.getTag());
        assertEquals(3, s.getCount(MPI.INT));
        assertEquals(3, MPI.COMM_WORLD.probe(2, 4).getCount(MPI.INT));
        int[] in = new int[3];
        MPI.COMM_WORLD.recv(in, 3, MPI.INT, 2, 4);
        assertArrayEquals(new int[] {1, 2, 3}, in, "still there after probing");
        assertEquals(MPI.PROC_NULL, MPI.COMM_WORLD.iProbe(MPI.PROC_NULL, 0).getSource());
    }

    @Test
    void shouldWaitParkedInProbe() throws Exception {
        Thread sender = whenParked(() -> master.injectInts(0, 6, 1));
        Status s = MPI.COMM_WORLD.probe(0, MPI.ANY_TAG);
        sender.join();
        assertEquals(6, s.getTag());
        assertTrue(requests(SlaveRequest.Probe.class).get(0).block());
    }

    // ---------------------------------------------------------------- COMM_SELF and barrier

    @Test
    void shouldTalkToItselfOnCommSelf() throws Exception {
        MPI.COMM_SELF.send(new int[] {5}, 1, MPI.INT, 0, 2);
        assertEquals(Protocol.COMM_SELF_ID, onlySend().commId());
        assertEquals(0, onlySend().dest());
        int[] in = new int[1];
        Status s = MPI.COMM_SELF.recv(in, 1, MPI.INT, 0, 2);
        assertEquals(5, in[0]);
        assertEquals(0, s.getSource());
        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class,
                () -> MPI.COMM_SELF.send(new int[1], 1, MPI.INT, 1, 0)).getErrorClass());
    }

    @Test
    void shouldNameTheCommunicatorOfABarrier() throws Exception {
        MPI.COMM_WORLD.barrier();
        MPI.COMM_SELF.barrier();
        List<SlaveRequest.StartCollective> barriers = requests(SlaveRequest.StartCollective.class);
        assertEquals(Protocol.COMM_WORLD_ID, barriers.get(0).commId());
        assertEquals(Protocol.COMM_SELF_ID, barriers.get(1).commId());
        assertEquals(io.bdmpi.protocol.CollectiveKind.BARRIER, barriers.get(0).kind());
        assertEquals(0, barriers.get(0).data().length());
    }

    // ---------------------------------------------------------------- argument errors

    @Test
    void shouldRejectBadArgumentsWithTheirErrorClass() throws Exception {
        Comm w = MPI.COMM_WORLD;
        int[] one = new int[1];
        assertError(MPI.ERR_RANK, () -> w.send(one, 1, MPI.INT, 4, 0));
        assertError(MPI.ERR_RANK, () -> w.send(one, 1, MPI.INT, -3, 0));
        assertError(MPI.ERR_RANK, () -> w.send(one, 1, MPI.INT, MPI.ANY_SOURCE, 0));
        assertError(MPI.ERR_RANK, () -> w.recv(one, 1, MPI.INT, 4, 0));
        assertError(MPI.ERR_RANK, () -> w.iProbe(-5, 0));
        assertError(MPI.ERR_TAG, () -> w.send(one, 1, MPI.INT, 0, -1));
        assertError(MPI.ERR_TAG, () -> w.send(one, 1, MPI.INT, 0, MPI.ANY_TAG));
        assertError(MPI.ERR_TAG, () -> w.send(one, 1, MPI.INT, 0, 0x40000000));
        assertError(MPI.ERR_TAG, () -> w.recv(one, 1, MPI.INT, 0, -2));
        assertError(MPI.ERR_TAG, () -> w.probe(0, -7));
        assertError(MPI.ERR_COUNT, () -> w.send(one, -1, MPI.INT, 0, 0));
        assertError(MPI.ERR_COUNT, () -> w.recv(one, -1, MPI.INT, 0, 0));
        assertError(MPI.ERR_TYPE, () -> w.send(one, 1, null, 0, 0));
        assertError(MPI.ERR_BUFFER, () -> w.send(one, 1, MPI.DOUBLE, 0, 0));
        assertError(MPI.ERR_BUFFER, () -> w.recv(one, 1, MPI.LONG, 0, 0));
        assertError(MPI.ERR_TYPE, () -> w.recv(new boolean[1], 1, MPI.BYTE, 0, 0));
        assertError(MPI.ERR_BUFFER, () -> w.send(one, 2, MPI.INT, 0, 0));
        assertError(MPI.ERR_BUFFER, () -> w.send(null, 1, MPI.INT, 0, 0));
        assertError(MPI.ERR_BUFFER, () -> w.iRecv(MPI.newIntBuffer(1), 2, MPI.INT, 0, 0));
        assertTrue(requests().isEmpty(), "no bad call reaches the master: " + requests());

        assertEquals("MPI_Send: invalid rank 4 in MPI_COMM_WORLD of size 4",
                assertThrows(MPIException.class, () -> w.send(one, 1, MPI.INT, 4, 0)).getMessage());
        assertEquals("MPI_Send: invalid tag -1 (valid: 0 to 1073741823)",
                assertThrows(MPIException.class, () -> w.send(one, 1, MPI.INT, 0, -1)).getMessage());
    }

    @Test
    void shouldAcceptTheLargestTagAndEmptyMessages() throws Exception {
        MPI.COMM_WORLD.send(null, 0, MPI.INT, SELF, MPI.TAG_UB_VALUE);
        Status s = MPI.COMM_WORLD.recv(null, 0, MPI.INT, SELF, MPI.TAG_UB_VALUE);
        assertEquals(0, s.getCount(MPI.INT));
        assertEquals(MPI.TAG_UB_VALUE, s.getTag());
    }

    @Test
    void shouldCarryBooleansAndCharsAsTheirBaseTypes() throws Exception {
        MPI.COMM_WORLD.send(new boolean[] {true, false, true}, 3, MPI.BOOLEAN, SELF, 1);
        assertEquals(3, inline(onlySend()).length, "one byte per boolean");
        boolean[] flags = new boolean[3];
        MPI.COMM_WORLD.recv(flags, 3, MPI.BOOLEAN, SELF, 1);
        assertArrayEquals(new boolean[] {true, false, true}, flags);

        MPI.COMM_WORLD.send("h\u00e9llo".toCharArray(), 5, MPI.CHAR, SELF, 2);
        char[] text = new char[5];
        MPI.COMM_WORLD.recv(text, 5, MPI.CHAR, SELF, 2);
        assertEquals("h\u00e9llo", new String(text));

        ByteBuffer raw = MPI.newByteBuffer(8).putInt(0, 12).putInt(4, 13);
        MPI.COMM_WORLD.send(raw, 2, MPI.INT, SELF, 3);
        int[] ints = new int[2];
        MPI.COMM_WORLD.recv(ints, 2, MPI.INT, SELF, 3);
        assertArrayEquals(new int[] {12, 13}, ints, "a native-order ByteBuffer carries ints");
        assertEquals(ByteOrder.nativeOrder(), raw.order());
    }
}
