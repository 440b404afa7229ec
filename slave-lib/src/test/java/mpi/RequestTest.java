package mpi;

import io.bdmpi.protocol.SlaveRequest;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Request bookkeeping against a stand-in master: which collects go up (ids, minReady, block), what
 * lands in the buffers, and which requests become null.
 */
class RequestTest extends WithMaster {

    private static final int SELF = FakeMaster.RANK;

    private IntBuffer[] buffers(int n, int capacity) {
        IntBuffer[] out = new IntBuffer[n];
        for (int i = 0; i < n; i++) {
            out[i] = MPI.newIntBuffer(capacity);
        }
        return out;
    }

    /** Receives from rank 2 with tags 100, 101, ... into the given buffers. */
    private Request[] receives(IntBuffer[] in) throws MPIException {
        Request[] out = new Request[in.length];
        for (int i = 0; i < in.length; i++) {
            out[i] = MPI.COMM_WORLD.iRecv(in[i], in[i].capacity(), MPI.INT, 2, 100 + i);
        }
        return out;
    }

    private long[] postedIds() throws Exception {
        return requests(SlaveRequest.PostRecv.class).stream().mapToLong(SlaveRequest.PostRecv::requestId).toArray();
    }

    private List<SlaveRequest.Collect> collects() throws Exception {
        return requests(SlaveRequest.Collect.class);
    }

    // ---------------------------------------------------------------- waitAll and testAll

    @Test
    void shouldWaitForAllReceivesWithOneCollect() throws Exception {
        IntBuffer[] in = buffers(3, 2);
        Request[] rs = receives(in);
        Request send = MPI.COMM_WORLD.iSend(MPI.newIntBuffer(1), 1, MPI.INT, 0, 0);
        Request[] all = {rs[0], MPI.REQUEST_NULL, rs[1], send, rs[2]};
        master.injectInts(2, 101, 11, 12);
        Thread late = whenParked(() -> {
            master.injectInts(2, 100, 1, 2);
            master.injectInts(2, 102, 21);
        });
        Status[] st = Request.waitAllStatus(all);
        late.join();

        List<SlaveRequest.Collect> c = collects();
        assertEquals(1, c.size(), "one round trip for all receives");
        assertArrayEquals(postedIds(), c.get(0).requestIds());
        assertEquals(3, c.get(0).minReady(), "all of them");
        assertTrue(c.get(0).block());

        assertEquals(5, st.length);
        assertEquals(100, st[0].getTag());
        assertEquals(2, st[0].getSource());
        assertEquals(MPI.ANY_SOURCE, st[1].getSource(), "a null request has the empty status");
        assertEquals(2, st[2].getCount(MPI.INT));
        assertEquals(0, st[3].getCount(MPI.INT), "a send has the empty status");
        assertEquals(1, st[4].getCount(MPI.INT));
        assertEquals(1, in[0].get(0));
        assertEquals(12, in[1].get(1));
        assertEquals(21, in[2].get(0));
        for (Request r : all) {
            assertTrue(r.isNull(), "completed in place");
        }
        assertTrue(MPI.REQUEST_NULL.isNull());

        Request.waitAll(all);
        assertEquals(1, collects().size(), "null requests need no master");
    }

    @Test
    void shouldKeepTheDataOfAPartlyCompleteTestAll() throws Exception {
        IntBuffer[] in = buffers(2, 1);
        Request[] rs = receives(in);
        master.injectInts(2, 100, 7);
        assertFalse(Request.testAll(rs));
        assertEquals(7, in[0].get(0), "the message is in the buffer already");
        assertFalse(rs[0].isNull(), "but its request is not complete until all are");
        assertFalse(rs[1].isNull());
        SlaveRequest.Collect first = collects().get(0);
        assertEquals(0, first.minReady());
        assertFalse(first.block(), "a test never parks");

        master.injectInts(2, 101, 8);
        Status[] st = Request.testAllStatus(rs);
        assertNotNull(st);
        assertEquals(100, st[0].getTag());
        assertEquals(101, st[1].getTag());
        assertEquals(8, in[1].get(0));
        assertTrue(rs[0].isNull() && rs[1].isNull());
        assertArrayEquals(new long[] {postedIds()[1]}, collects().get(1).requestIds(),
                "a message already taken is not asked for again");
    }

    @Test
    void shouldAskOnceForARequestListedTwice() throws Exception {
        IntBuffer[] in = buffers(1, 1);
        Request r = receives(in)[0];
        master.injectInts(2, 100, 3);
        Status[] st = Request.waitAllStatus(new Request[] {r, r});
        assertEquals(1, collects().get(0).requestIds().length);
        assertEquals(1, collects().get(0).minReady());
        assertEquals(100, st[0].getTag());
        assertEquals(MPI.ANY_TAG, st[1].getTag(), "already completed at its first place");
    }

    // ---------------------------------------------------------------- waitAny and testAny

    @Test
    void shouldWaitForAnyWithMinReadyOne() throws Exception {
        IntBuffer[] in = buffers(3, 1);
        Request[] rs = receives(in);
        Thread late = whenParked(() -> master.injectInts(2, 101, 5));
        Status s = Request.waitAnyStatus(rs);
        late.join();
        assertEquals(1, s.getIndex());
        assertEquals(101, s.getTag());
        assertEquals(5, in[1].get(0));
        assertTrue(rs[1].isNull());
        assertFalse(rs[0].isNull());
        SlaveRequest.Collect c = collects().get(0);
        assertEquals(3, c.requestIds().length);
        assertEquals(1, c.minReady());
        assertTrue(c.block());

        master.injectInts(2, 100, 4);
        master.injectInts(2, 102, 6);
        int first = Request.waitAny(rs);
        int second = Request.waitAny(rs);
        assertEquals(List.of(0, 2), List.of(first, second), "both came in one collect; lowest index first");
        assertEquals(2, collects().size(), "the second came with the first");
        assertEquals(MPI.UNDEFINED, Request.waitAny(rs), "all null");
        assertEquals(MPI.UNDEFINED, Request.waitAnyStatus(rs).getIndex());
        assertEquals(2, collects().size());
    }

    @Test
    void shouldCompleteASendWithoutAskingTheMaster() throws Exception {
        Request recv = receives(buffers(1, 1))[0];
        Request send = MPI.COMM_WORLD.iSend(MPI.newIntBuffer(1), 1, MPI.INT, 0, 0);
        assertEquals(1, Request.waitAny(new Request[] {recv, send}));
        assertTrue(collects().isEmpty(), "something was complete already");
        recv.cancel();
        recv.free();
    }

    @Test
    void shouldTestAnyWithoutWaiting() throws Exception {
        IntBuffer[] in = buffers(3, 1);
        Request[] rs = receives(in);
        assertEquals(MPI.UNDEFINED, Request.testAny(rs));
        assertNull(Request.testAnyStatus(rs));
        assertFalse(collects().get(0).block());
        master.injectInts(2, 102, 9);
        Status s = Request.testAnyStatus(rs);
        assertEquals(2, s.getIndex());
        assertEquals(9, in[2].get(0));
        assertTrue(rs[2].isNull());

        Request[] none = {MPI.REQUEST_NULL, MPI.REQUEST_NULL};
        assertEquals(MPI.UNDEFINED, Request.testAny(none));
        assertEquals(MPI.UNDEFINED, Request.testAnyStatus(none).getIndex(), "all null: MPI's flag is true, index UNDEFINED");
        rs[0].cancel();
        rs[1].cancel();
        Request.waitAll(rs);
    }

    // ---------------------------------------------------------------- waitSome and testSome

    @Test
    void shouldWaitAndTestSome() throws Exception {
        IntBuffer[] in = buffers(4, 1);
        Request[] rs = receives(in);
        int[] none = Request.testSome(rs);
        assertNotNull(none);
        assertEquals(0, none.length, "none complete: an empty array");

        master.injectInts(2, 101, 1);
        master.injectInts(2, 103, 3);
        Status[] some = Request.waitSomeStatus(rs);
        assertEquals(2, some.length);
        assertEquals(1, some[0].getIndex());
        assertEquals(3, some[1].getIndex());
        assertEquals(103, some[1].getTag());
        assertTrue(rs[1].isNull() && rs[3].isNull());
        SlaveRequest.Collect c = collects().get(1);
        assertEquals(4, c.requestIds().length);
        assertEquals(1, c.minReady());
        assertTrue(c.block());

        master.injectInts(2, 100, 0);
        master.injectInts(2, 102, 2);
        assertArrayEquals(new int[] {0, 2}, Request.testSome(rs));
        assertNull(Request.waitSome(rs), "all null");
        assertNull(Request.testSome(rs), "all null");
        assertNull(Request.testSomeStatus(rs));
        assertNull(Request.waitSomeStatus(rs));
    }

    // ---------------------------------------------------------------- one request

    @Test
    void shouldTestAndWaitOneRequest() throws Exception {
        IntBuffer[] in = buffers(1, 3);
        Request r = receives(in)[0];
        assertFalse(r.test());
        assertNull(r.testStatus());
        assertNull(r.getStatus());
        master.injectInts(2, 100, 4, 5);
        Status peek = r.getStatus();
        assertEquals(2, peek.getCount(MPI.INT));
        assertFalse(r.isNull(), "getStatus leaves the request active");
        Status s = r.waitStatus();
        assertEquals(100, s.getTag());
        assertTrue(r.isNull());
        assertEquals(5, in[0].get(1));
        assertEquals(MPI.ANY_SOURCE, r.waitStatus().getSource(), "a null request waits for nothing");
        assertTrue(r.test());
        assertEquals(MPI.ANY_TAG, r.getStatus().getTag());
    }

    @Test
    void shouldLeaveTheNullRequestAlone() throws Exception {
        Request n = MPI.REQUEST_NULL;
        assertTrue(n.isNull());
        assertTrue(n.test());
        assertEquals(0, n.waitStatus().getCount(MPI.BYTE));
        assertNotNull(n.testStatus());
        n.free();
        n.cancel();
        Request.waitAll(new Request[] {n, n});
        assertTrue(n.isNull());
        assertTrue(requests().isEmpty());
    }

    @Test
    void shouldCompleteReceivesFromProcNullAtOnce() throws Exception {
        Request r = MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, MPI.PROC_NULL, 5);
        assertFalse(r.isNull(), "complete, but active until a wait or test");
        Status s = r.waitStatus();
        assertEquals(MPI.PROC_NULL, s.getSource());
        assertEquals(MPI.ANY_TAG, s.getTag());
        assertEquals(0, s.getCount(MPI.INT));
        assertTrue(r.isNull());
        assertTrue(requests().isEmpty(), "nothing posted");
    }

    @Test
    void shouldReceiveSpilledMessagesThroughRequests() throws Exception {
        IntBuffer in = MPI.newIntBuffer(1000);
        Request r = MPI.COMM_WORLD.iRecv(in, 1000, MPI.INT, SELF, 0);
        int[] out = new int[1000];
        for (int i = 0; i < out.length; i++) {
            out[i] = -i;
        }
        MPI.COMM_WORLD.send(out, 1000, MPI.INT, SELF, 0);
        r.waitFor();
        assertEquals(-999, in.get(999));
        try (Stream<?> files = Files.list(master.spillDir())) {
            assertEquals(0, files.count());
        }
    }

    // ---------------------------------------------------------------- cancel and free

    @Test
    void shouldCancelAReceiveNothingMatched() throws Exception {
        Request r = receives(buffers(1, 1))[0];
        r.cancel();
        assertEquals(postedIds()[0], requests(SlaveRequest.Cancel.class).get(0).requestId());
        Status s = r.waitStatus();
        assertTrue(s.isCancelled());
        assertTrue(r.isNull());
        assertTrue(collects().isEmpty(), "a cancelled receive is never collected");
    }

    @Test
    void shouldReceiveAnywayWhenCancelComesTooLate() throws Exception {
        IntBuffer[] in = buffers(1, 1);
        Request r = receives(in)[0];
        master.injectInts(2, 100, 42);
        r.cancel();
        Status s = r.waitStatus();
        assertFalse(s.isCancelled());
        assertEquals(42, in[0].get(0));
    }

    @Test
    void shouldKeepAFreedReceivePostedAndLandItsMessageAtALaterCall() throws Exception {
        IntBuffer[] in = buffers(1, 1);
        Request waiting = MPI.COMM_WORLD.iRecv(in[0], 1, MPI.INT, 2, 7);
        waiting.free();
        assertTrue(waiting.isNull());
        assertTrue(requests(SlaveRequest.Cancel.class).isEmpty(), "MPI: a freed receive still takes its message");
        master.injectInts(2, 7, 70);
        master.injectInts(2, 7, 71);
        int[] next = new int[1];
        MPI.COMM_WORLD.recv(next, 1, MPI.INT, 2, 7);
        assertEquals(71, next[0], "the receive after the freed one gets the second message");
        assertEquals(70, in[0].get(0), "the freed receive's message lands in its buffer");

        IntBuffer matched = MPI.newIntBuffer(1);
        Request early = MPI.COMM_WORLD.iRecv(matched, 1, MPI.INT, 2, 8);
        master.injectInts(2, 8, 80);
        early.free();
        MPI.COMM_WORLD.barrier();
        assertEquals(80, matched.get(0), "a message matched before the free lands at the next call");
    }

    @Test
    void shouldReturnAtOnceFromTheFreeOfASynchronousSend() throws Exception {
        Request unmatched = MPI.COMM_WORLD.isSend(MPI.newIntBuffer(1), 1, MPI.INT, 2, 5); // rank 2 never receives it
        unmatched.free();
        assertTrue(unmatched.isNull());
        assertTrue(collects().isEmpty(), "MPI: the free returns at once; the match is asked for at later calls");
        MPI.COMM_WORLD.barrier();
        assertEquals(1, collects().size(), "the barrier's collect");
        long sendId = requests(SlaveRequest.Send.class).get(0).syncId();
        assertTrue(Arrays.stream(collects().get(0).requestIds()).anyMatch(id -> id == sendId),
                "the barrier asks for the freed send's match too");
    }

    // ---------------------------------------------------------------- errors

    @Test
    void shouldRaiseTruncateWhenTheRequestCompletes() throws Exception {
        IntBuffer small = MPI.newIntBuffer(2);
        Request r = MPI.COMM_WORLD.iRecv(small, 2, MPI.INT, 2, 4);
        master.injectInts(2, 4, 1, 2, 3);
        assertEquals(MPI.ERR_TRUNCATE, r.getStatus().getError(), "the status tells before completion");
        MPIException e = assertThrows(MPIException.class, r::waitFor);
        assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
        assertTrue(e.getMessage().contains("message of 12 bytes from rank 2 (tag 4) truncated"), e.getMessage());
        assertTrue(r.isNull(), "completed, though in error");
    }

    @Test
    void shouldCompleteEveryRequestBeforeRaisingErrInStatus() throws Exception {
        IntBuffer ok = MPI.newIntBuffer(1);
        Request[] rs = {MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 2, 1),
            MPI.COMM_WORLD.iRecv(ok, 1, MPI.INT, 2, 2)};
        master.injectInts(2, 1, 1, 1);
        master.injectInts(2, 2, 5);
        MPIException e = assertThrows(MPIException.class, () -> Request.waitAll(rs));
        assertEquals(MPI.ERR_IN_STATUS, e.getErrorClass());
        assertEquals(MPI.ERR_TRUNCATE, ((MPIException) e.getCause()).getErrorClass());
        assertTrue(e.getMessage().startsWith("MPI_Waitall: 1 of the requests failed; request 0: MPI_Waitall: message of 8 bytes"),
                e.getMessage());
        assertTrue(rs[0].isNull() && rs[1].isNull());
        assertEquals(5, ok.get(0));
    }

    @Test
    void shouldRejectJavaNullInRequestArrays() {
        MPIException e = assertThrows(MPIException.class, () -> Request.waitAll(new Request[] {MPI.REQUEST_NULL, null}));
        assertEquals(MPI.ERR_REQUEST, e.getErrorClass());
        assertEquals("MPI_Waitall: element 1 of the request array is null; use MPI.REQUEST_NULL", e.getMessage());
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, () -> Request.testSome(null)).getErrorClass());
    }

    @Test
    void shouldKeepTheSameObjectsInTheArray() throws Exception {
        Request r = receives(buffers(1, 1))[0];
        Request[] rs = {r};
        master.injectInts(2, 100, 1);
        Request.waitAll(rs);
        assertSame(r, rs[0], "completed in place: the element is the same object, now null");
        assertTrue(r.isNull());
    }
}
