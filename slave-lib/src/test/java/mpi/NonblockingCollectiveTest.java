package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.SlaveRequest;
import mpi.FakeMaster.Contribution;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nonblocking collectives against a stand-in master (this slave is rank 1 of 4): started at once,
 * completed through the same requests as receives.
 */
class NonblockingCollectiveTest extends WithMaster {

    private static final Comm WORLD = MPI.COMM_WORLD;

    private static int[] ints(IntBuffer b) {
        int[] out = new int[b.capacity()];
        b.get(0, out);
        return out;
    }

    @Test
    void shouldHandItsDataOverAtStartAndPlaceTheResultAtCompletion() throws Exception {
        master.holdCollectives();
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank, 1)));
        IntBuffer send = MPI.newIntBuffer(2).put(0, 5).put(1, 1);
        IntBuffer sum = MPI.newIntBuffer(2);
        Request r = WORLD.iAllReduce(send, sum, 2, MPI.INT, MPI.SUM);
        assertArrayEquals(bytesOf(5, 1), dataOf(onlyStart()), "started before the call returns");
        assertTrue(requests(SlaveRequest.Collect.class).isEmpty(), "and without waiting");
        send.put(0, 1000);
        assertFalse(r.test(), "the other ranks are late");
        assertArrayEquals(new int[] {0, 0}, ints(sum));
        assertFalse(r.isNull());

        master.releaseCollectives();
        Status s = r.waitStatus();
        assertArrayEquals(new int[] {5 + 0 + 2 + 3, 4}, ints(sum), "the data of the start, not of the buffer now");
        assertTrue(r.isNull());
        assertEquals(MPI.ANY_SOURCE, s.getSource(), "a collective completes with the empty status");
    }

    @Test
    void shouldWaitForReceivesAndCollectivesInOneCollect() throws Exception {
        master.holdCollectives();
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank * 10)));
        IntBuffer message = MPI.newIntBuffer(1);
        IntBuffer gathered = MPI.newIntBuffer(4);
        Request[] all = {
            WORLD.iRecv(message, 1, MPI.INT, 2, 7),
            WORLD.iGather(MPI.newIntBuffer(1).put(0, 11), 1, MPI.INT, gathered, 1, MPI.INT, FakeMaster.RANK),
            WORLD.iBarrier(),
            MPI.REQUEST_NULL
        };
        Thread others = whenParked(() -> {
            master.injectInts(2, 7, 42);
            master.releaseCollectives();
        });
        Request.waitAll(all);
        others.join();
        assertEquals(42, message.get(0));
        assertArrayEquals(new int[] {0, 11, 20, 30}, ints(gathered));
        List<SlaveRequest.Collect> collects = requests(SlaveRequest.Collect.class);
        assertEquals(1, collects.size());
        assertEquals(3, collects.get(0).requestIds().length);
        assertEquals(3, collects.get(0).minReady());
        for (Request r : all) {
            assertTrue(r.isNull());
        }
    }

    @Test
    void shouldCompleteAnyOfMixedRequests() throws Exception {
        Request recv = WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 3, 1);
        Request barrier = WORLD.iBarrier();
        Request[] rs = {recv, barrier};
        assertEquals(1, Request.waitAny(rs), "the barrier is done, the message is not");
        assertNull(Request.testAnyStatus(rs));
        recv.cancel();
        recv.waitFor();
    }

    @Test
    void shouldStartEveryFormWithItsKind() throws Exception {
        ByteBuffer bytes = MPI.newByteBuffer(64);
        IntBuffer four = MPI.newIntBuffer(4);
        int[] ones = {1, 1, 1, 1};
        int[] steps = {0, 1, 2, 3};
        Intracomm w = MPI.COMM_WORLD;
        List<Request> rs = List.of(
            w.iBcast(bytes, 4, MPI.BYTE, 0),
            w.iGather(four, 1, MPI.INT, FakeMaster.RANK),
            w.iGatherv(four, ones, steps, MPI.INT, FakeMaster.RANK),
            w.iGatherv(four, 1, MPI.INT, 0),
            w.iScatter(four, 1, MPI.INT, MPI.newIntBuffer(1), 1, MPI.INT, FakeMaster.RANK),
            w.iScatter(four, 1, MPI.INT, FakeMaster.RANK),
            w.iScatterv(four, ones, steps, MPI.INT, MPI.newIntBuffer(1), 1, MPI.INT, FakeMaster.RANK),
            w.iScatterv(four, ones, steps, MPI.INT, FakeMaster.RANK),
            w.iAllGather(MPI.newIntBuffer(1), 1, MPI.INT, four, 1, MPI.INT),
            w.iAllGather(four, 1, MPI.INT),
            w.iAllGatherv(MPI.newIntBuffer(1), 1, MPI.INT, four, ones, steps, MPI.INT),
            w.iAllGatherv(four, ones, steps, MPI.INT),
            w.iAllToAll(four, 1, MPI.INT, MPI.newIntBuffer(4), 1, MPI.INT),
            w.iAllToAllv(four, ones, steps, MPI.INT, MPI.newIntBuffer(4), ones, steps, MPI.INT),
            w.iReduce(four, MPI.newIntBuffer(4), 4, MPI.INT, MPI.MAX, FakeMaster.RANK),
            w.iReduce(four, 4, MPI.INT, MPI.MAX, 0),
            w.iAllReduce(four, 4, MPI.INT, MPI.MIN),
            w.iReduceScatter(four, MPI.newIntBuffer(1), ones, MPI.INT, MPI.BOR),
            w.iReduceScatter(four, ones, MPI.INT, MPI.BAND),
            w.iReduceScatterBlock(four, MPI.newIntBuffer(1), 1, MPI.INT, MPI.LOR),
            w.iReduceScatterBlock(four, 1, MPI.INT, MPI.LAND),
            w.iScan(four, MPI.newIntBuffer(4), 4, MPI.INT, MPI.SUM),
            w.iScan(four, 4, MPI.INT, MPI.PROD),
            w.iExScan(four, MPI.newIntBuffer(4), 4, MPI.INT, MPI.SUM),
            w.iExScan(four, 4, MPI.INT, MPI.BXOR));
        Request.waitAll(rs.toArray(new Request[0]));
        CollectiveKind[] kinds = requests(SlaveRequest.StartCollective.class).stream()
                .map(SlaveRequest.StartCollective::kind).toArray(CollectiveKind[]::new);
        assertArrayEquals(new CollectiveKind[] {CollectiveKind.BCAST, CollectiveKind.GATHER, CollectiveKind.GATHER,
            CollectiveKind.GATHER, CollectiveKind.SCATTER, CollectiveKind.SCATTER, CollectiveKind.SCATTER,
            CollectiveKind.SCATTER, CollectiveKind.ALLGATHER, CollectiveKind.ALLGATHER, CollectiveKind.ALLGATHER,
            CollectiveKind.ALLGATHER, CollectiveKind.ALLTOALL, CollectiveKind.ALLTOALL, CollectiveKind.REDUCE,
            CollectiveKind.REDUCE, CollectiveKind.ALLREDUCE, CollectiveKind.REDUCE_SCATTER, CollectiveKind.REDUCE_SCATTER,
            CollectiveKind.REDUCE_SCATTER, CollectiveKind.REDUCE_SCATTER, CollectiveKind.SCAN, CollectiveKind.SCAN,
            CollectiveKind.EXSCAN, CollectiveKind.EXSCAN}, kinds);
    }

    @Test
    void shouldRequireDirectBuffers() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WORLD.iAllReduce(IntBuffer.allocate(1), MPI.newIntBuffer(1), 1, MPI.INT, MPI.SUM));
        assertEquals("The buffer must be direct.", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WORLD.iGather(MPI.newIntBuffer(1), 1, MPI.INT,
                IntBuffer.wrap(new int[4]), 1, MPI.INT, FakeMaster.RANK));
        assertThrows(IllegalArgumentException.class, () -> MPI.COMM_WORLD.iScan(LongBuffer.allocate(1), 1, MPI.LONG, MPI.SUM));
        assertTrue(requests().isEmpty());
    }

    @Test
    void shouldRaiseATruncationWhenTheRequestCompletes() throws Exception {
        master.contribute((rank, mine) -> new Contribution(bytesOf(1, 2)));
        IntBuffer in = MPI.newIntBuffer(4);
        Request r = WORLD.iAllGather(MPI.newIntBuffer(1).put(0, 9), 1, MPI.INT, in, 1, MPI.INT);
        Request[] rs = {r};
        MPIException e = assertThrows(MPIException.class, () -> Request.waitAllStatus(rs));
        assertEquals(MPI.ERR_IN_STATUS, e.getErrorClass());
        assertEquals(MPI.ERR_TRUNCATE, ((MPIException) e.getCause()).getErrorClass());
        assertTrue(e.getMessage().startsWith("MPI_Waitall: 1 of the requests failed; request 0: MPI_Iallgather: the data"
                + " from rank 0 has 8 bytes"), e.getMessage());
        assertTrue(r.isNull(), "completed, with its error");
    }

    @Test
    void shouldRefuseToCancelACollectiveButFreeItAfterItsResult() throws Exception {
        master.holdCollectives();
        master.contribute((rank, mine) -> new Contribution(bytesOf(rank)));
        IntBuffer out = MPI.newIntBuffer(1);
        Request r = WORLD.iAllReduce(MPI.newIntBuffer(1), out, 1, MPI.INT, MPI.SUM);
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, r::cancel).getErrorClass());
        assertTrue(requests(SlaveRequest.Cancel.class).isEmpty());
        Thread others = whenParked(master::releaseCollectives);
        r.free();
        others.join();
        assertTrue(r.isNull());
        assertEquals(5, out.get(0), "the result landed before the request went");
    }
}
