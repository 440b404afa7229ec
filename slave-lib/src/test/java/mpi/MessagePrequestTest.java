package mpi;

import io.bdmpi.protocol.SlaveRequest;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Matched probes, persistent requests and buffered sends against a stand-in master; this slave is rank 1 of 4. */
class MessagePrequestTest extends WithMaster {

    @Test
    void shouldReceiveExactlyTheProbedMessage() throws Exception {
        master.injectInts(2, 7, 20, 21, 22);
        master.injectInts(3, 7, 30);
        Message m = new Message();
        assertTrue(m.isNull());
        Status s = m.mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.COMM_WORLD);
        assertEquals(2, s.getSource());
        assertEquals(3, s.getCount(MPI.INT));
        assertFalse(m.isNull());
        // A receive after the probe cannot take the probed message: it gets the next one.
        int[] other = new int[1];
        assertEquals(3, MPI.COMM_WORLD.recv(other, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG).getSource());
        int[] got = new int[3];
        Status r = m.mRecv(got, 3, MPI.INT);
        assertArrayEquals(new int[] {20, 21, 22}, got);
        assertEquals(2, r.getSource());
        assertEquals(7, r.getTag());
        assertTrue(m.isNull());
        assertError(MPI.ERR_REQUEST, () -> m.mRecv(got, 3, MPI.INT));
    }

    @Test
    void shouldProbeWithoutWaitingAndReceiveIntoARequest() throws Exception {
        Message m = new Message();
        assertNull(m.imProbe(MPI.ANY_SOURCE, 4, MPI.COMM_WORLD));
        assertTrue(m.isNull());
        master.injectInts(0, 4, 5, 6);
        assertEquals(2, m.imProbe(MPI.ANY_SOURCE, 4, MPI.COMM_WORLD).getCount(MPI.INT));
        IntBuffer b = MPI.newIntBuffer(2);
        Request r = m.imRecv(b, 2, MPI.INT);
        assertTrue(m.isNull());
        assertEquals(0, r.waitStatus().getSource());
        assertEquals(6, b.get(1));
        assertThrows(IllegalArgumentException.class, () -> m.imRecv(IntBuffer.allocate(1), 1, MPI.INT));

        master.injectInts(0, 4, 5, 6);
        m.mProbe(0, 4, MPI.COMM_WORLD);
        Request truncated = m.imRecv(MPI.newIntBuffer(1), 1, MPI.INT);
        assertError(MPI.ERR_TRUNCATE, truncated::waitFor);
    }

    @Test
    void shouldProbeProcNullAsTheNoProcessMessage() throws Exception {
        Message m = new Message();
        Status s = m.mProbe(MPI.PROC_NULL, 0, MPI.COMM_WORLD);
        assertEquals(MPI.PROC_NULL, s.getSource());
        assertTrue(m.isNoProc());
        assertEquals(MPI.PROC_NULL, m.mRecv(new int[1], 1, MPI.INT).getSource());
        assertTrue(m.isNull());
    }

    @Test
    void shouldStartAPersistentSendAtEachStart() throws Exception {
        IntBuffer b = MPI.newIntBuffer(1);
        Prequest send = MPI.COMM_WORLD.sendInit(b, 1, MPI.INT, 2, 9);
        assertFalse(send.isNull());
        assertTrue(requests(SlaveRequest.Send.class).isEmpty(), "nothing is sent before a start");
        for (int i = 0; i < 3; i++) {
            b.put(0, 10 + i);
            send.start();
            send.waitFor();
            assertFalse(send.isNull(), "inactive, not null");
        }
        for (SlaveRequest.Send s : requests(SlaveRequest.Send.class)) {
            assertEquals(2, s.dest());
            assertEquals(9, s.tag());
        }
        assertEquals(3, requests(SlaveRequest.Send.class).size());
        send.waitFor(); // inactive: returns at once
        send.free();
        assertTrue(send.isNull());
        assertError(MPI.ERR_REQUEST, send::start);
        assertThrows(IllegalArgumentException.class, () -> MPI.COMM_WORLD.sendInit(IntBuffer.allocate(1), 1, MPI.INT, 2, 9));
        assertError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.sendInit(b, 1, MPI.INT, 4, 9));
    }

    @Test
    void shouldPostAPersistentReceiveAtEachStart() throws Exception {
        IntBuffer b = MPI.newIntBuffer(1);
        Prequest[] recv = {MPI.COMM_WORLD.recvInit(b, 1, MPI.INT, 0, 3)};
        for (int i = 0; i < 2; i++) {
            Prequest.startAll(recv);
            assertError(MPI.ERR_REQUEST, recv[0]::start);
            master.injectInts(0, 3, 100 + i);
            Status[] s = Request.waitAllStatus(recv);
            assertEquals(0, s[0].getSource());
            assertEquals(100 + i, b.get(0));
        }
        assertEquals(MPI.UNDEFINED, Request.waitAny(recv), "an inactive persistent request counts as null");
        assertEquals(2, requests(SlaveRequest.PostRecv.class).size());
    }

    @Test
    void shouldKeepUsingATypeFreedAfterTheInit() throws Exception {
        Datatype everyOther = Datatype.createVector(2, 1, 2, MPI.INT);
        everyOther.commit();
        IntBuffer out = MPI.newIntBuffer(3).put(0, 1).put(1, 2).put(2, 3);
        IntBuffer in = MPI.newIntBuffer(3).put(0, -1).put(1, -1).put(2, -1);
        Prequest send = MPI.COMM_WORLD.sendInit(out, 1, everyOther, 2, 5);
        Prequest recv = MPI.COMM_WORLD.recvInit(in, 1, everyOther, 0, 6);
        everyOther.free(); // MPI: the requests made before keep their type
        send.start();
        send.waitFor();
        SlaveRequest.Send sent = requests(SlaveRequest.Send.class).get(0);
        assertEquals(8, sent.payload().length(), "two ints of the vector");
        recv.start();
        master.injectInts(0, 6, 7, 8);
        recv.waitFor();
        assertEquals(List.of(7, -1, 8), List.of(in.get(0), in.get(1), in.get(2)));
        assertError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.sendInit(out, 1, everyOther, 2, 5));
    }

    @Test
    void shouldNeedAttachedSpaceForBufferedSends() throws Exception {
        int[] data = {1, 2, 3};
        assertError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.bSend(data, 3, MPI.INT, 0, 0));
        MPI.COMM_WORLD.bSend(data, 3, MPI.INT, MPI.PROC_NULL, 0); // sends nothing, needs no space
        MPI.attachBuffer(new byte[12 + MPI.BSEND_OVERHEAD]);
        for (int i = 0; i < 3; i++) {
            MPI.COMM_WORLD.bSend(data, 3, MPI.INT, 0, 0); // the master owns each at once: the space is free again
        }
        assertError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.bSend(new int[4], 4, MPI.INT, 0, 0));
        Prequest p = MPI.COMM_WORLD.bSendInit(MPI.newIntBuffer(4), 4, MPI.INT, 0, 0);
        assertError(MPI.ERR_BUFFER, p::start);
        MPI.detachBuffer();
        assertEquals(3, requests(SlaveRequest.Send.class).size());
    }
}
