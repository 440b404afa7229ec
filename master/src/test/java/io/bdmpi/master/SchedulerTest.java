package io.bdmpi.master;

import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.SlaveRequest;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchedulerTest {

    /** A connection that records replies instead of writing them. */
    static final class RecordingConnection extends SlaveConnection {
        final List<MasterReply> replies = new ArrayList<>();

        RecordingConnection() {
            super(null, null);
        }

        @Override
        void send(MasterReply reply) {
            replies.add(reply);
        }

        MasterReply take() {
            assertTrue(!replies.isEmpty(), "expected a reply");
            return replies.remove(0);
        }
    }

    private long now;
    private JobOutcome outcome;
    private SlaveSession[] slaves;
    private RecordingConnection[] conns;
    private Scheduler scheduler;

    private void start(int n, int nrunning) {
        slaves = new SlaveSession[n];
        conns = new RecordingConnection[n];
        for (int i = 0; i < n; i++) {
            slaves[i] = new SlaveSession(i, 1000 + i, 0);
            conns[i] = new RecordingConnection();
        }
        scheduler = new Scheduler(slaves, nrunning, ResumePolicy.FIFO, () -> now, o -> outcome = o);
        for (int i = 0; i < n; i++) {
            request(i, new SlaveRequest.Hello(i, 1000 + i));
        }
        batchEnd();
    }

    private void request(int rank, SlaveRequest r) {
        now += 1000;
        scheduler.onEvent(new MasterEvent.RequestArrived(conns[rank], r));
    }

    private void batchEnd() {
        scheduler.onEndOfBatch();
    }

    private int runningCount() {
        int n = 0;
        for (SlaveSession s : slaves) {
            if (s.state == SlaveState.RUNNING) {
                n++;
            }
        }
        return n;
    }

    private static Payload bytes(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length);
        for (int v : values) {
            b.put((byte) v);
        }
        return new Payload.Inline(b.flip());
    }

    @Test
    void shouldLetOnlyNrunningSlavesRunAfterHello() {
        start(4, 2);
        assertEquals(2, runningCount());
        assertInstanceOf(MasterReply.Go.class, conns[0].take());
        assertInstanceOf(MasterReply.Go.class, conns[1].take());
        assertTrue(conns[2].replies.isEmpty());
        assertEquals(SlaveState.RUNNABLE, slaves[2].state);
    }

    @Test
    void shouldParkReceiverAndResumeItWithTheMessageWhenItArrives() {
        start(2, 1);
        conns[0].take();
        request(0, new SlaveRequest.PostRecv(7, Protocol.COMM_WORLD_ID, 1, 5));
        request(0, new SlaveRequest.Collect(new long[] {7}, 1, true));
        batchEnd();
        assertEquals(SlaveState.RBLOCKED, slaves[0].state);
        assertEquals(SlaveState.RUNNING, slaves[1].state, "the freed slot goes to rank 1");
        conns[1].take();

        request(1, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 5, bytes(42)));
        batchEnd();
        assertEquals(SlaveState.RUNNABLE, slaves[0].state, "woken, but the only slot is taken");
        request(1, new SlaveRequest.Finalize(0));
        batchEnd();
        MasterReply.Deliveries d = assertInstanceOf(MasterReply.Deliveries.class, conns[0].take());
        assertEquals(1, d.deliveries().size());
        assertEquals(7, d.deliveries().get(0).requestId());
        assertEquals(1, d.deliveries().get(0).source());
        assertEquals(5, d.deliveries().get(0).tag());
        assertEquals(1, scheduler.maxRunning());
    }

    @Test
    void shouldNotWakeReceiverForNonMatchingMessage() {
        start(2, 2);
        request(0, new SlaveRequest.PostRecv(1, Protocol.COMM_WORLD_ID, 1, 5));
        request(0, new SlaveRequest.Collect(new long[] {1}, 1, true));
        request(1, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 6, bytes(1)));
        batchEnd();
        assertEquals(SlaveState.RBLOCKED, slaves[0].state);
    }

    @Test
    void shouldKeepOrderPerSourceAndTagWithWildcards() {
        start(3, 3);
        for (int i = 0; i < 3; i++) {
            conns[i].take();
        }
        request(1, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 1, bytes(10)));
        request(2, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 1, bytes(20)));
        request(1, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 2, bytes(11)));
        request(0, new SlaveRequest.PostRecv(1, Protocol.COMM_WORLD_ID, Protocol.ANY_SOURCE, Protocol.ANY_TAG));
        request(0, new SlaveRequest.PostRecv(2, Protocol.COMM_WORLD_ID, 1, Protocol.ANY_TAG));
        request(0, new SlaveRequest.PostRecv(3, Protocol.COMM_WORLD_ID, Protocol.ANY_SOURCE, Protocol.ANY_TAG));
        request(0, new SlaveRequest.Collect(new long[] {1, 2, 3}, 3, true));
        MasterReply.Deliveries d = assertInstanceOf(MasterReply.Deliveries.class, conns[0].take());
        assertEquals(List.of(10, 11, 20), d.deliveries().stream()
                .map(x -> (int) ((Payload.Inline) x.payload()).bytes().get(0)).toList());
    }

    @Test
    void shouldReleaseBarrierOnlyWhenAllArrived() {
        start(3, 1);
        conns[0].take();
        request(0, new SlaveRequest.Barrier(Protocol.COMM_WORLD_ID));
        batchEnd();
        conns[1].take();
        request(1, new SlaveRequest.Barrier(Protocol.COMM_WORLD_ID));
        batchEnd();
        assertEquals(SlaveState.CBLOCKED, slaves[0].state);
        conns[2].take();
        request(2, new SlaveRequest.Barrier(Protocol.COMM_WORLD_ID));
        assertInstanceOf(MasterReply.Go.class, conns[2].take(), "the last to arrive goes on");
        assertEquals(SlaveState.RUNNABLE, slaves[0].state);
        assertEquals(SlaveState.RUNNABLE, slaves[1].state);
    }

    @Test
    void shouldReportDeadlockWithEachPendingCall() {
        start(2, 2);
        request(0, new SlaveRequest.PostRecv(1, Protocol.COMM_WORLD_ID, 1, 3));
        request(0, new SlaveRequest.Collect(new long[] {1}, 1, true));
        request(1, new SlaveRequest.Probe(Protocol.COMM_WORLD_ID, 0, 4, true));
        batchEnd();
        assertNotNull(outcome);
        assertTrue(outcome.failure().contains("deadlock"), outcome.failure());
        assertTrue(outcome.failure().contains("rank 0"), outcome.failure());
        assertTrue(outcome.failure().contains("MPI_Probe(source=0, tag=4"), outcome.failure());
    }

    @Test
    void shouldFailJobWhenSlaveExitsBeforeFinalize() {
        start(2, 2);
        scheduler.onEvent(new MasterEvent.ProcessExited(1, 137));
        assertNotNull(outcome);
        assertTrue(outcome.failure().contains("rank 1 (pid 1001) was killed by signal 9 (SIGKILL)"), outcome.failure());
        assertTrue(outcome.failure().contains("MPI_Init"), outcome.failure());
    }

    @Test
    void shouldSucceedWhenAllFinalizeAndExitZero() {
        start(2, 1);
        request(0, new SlaveRequest.Finalize(0));
        batchEnd();
        request(1, new SlaveRequest.Finalize(0));
        batchEnd();
        scheduler.onEvent(new MasterEvent.ProcessExited(0, 0));
        assertNull(outcome);
        scheduler.onEvent(new MasterEvent.ProcessExited(1, 0));
        assertEquals(JobOutcome.SUCCESS, outcome);
    }

    @Test
    void shouldAnswerNonBlockingProbeAtOnceAndCancelPostedReceive() {
        start(2, 2);
        conns[0].take();
        request(0, new SlaveRequest.Probe(Protocol.COMM_WORLD_ID, Protocol.ANY_SOURCE, Protocol.ANY_TAG, false));
        assertEquals(MasterReply.ProbeResult.NONE, conns[0].take());
        request(0, new SlaveRequest.PostRecv(9, Protocol.COMM_WORLD_ID, 1, 1));
        request(0, new SlaveRequest.Cancel(9));
        assertEquals(new MasterReply.CancelResult(true), conns[0].take());
        request(1, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 1, bytes(1, 2, 3)));
        request(0, new SlaveRequest.Probe(Protocol.COMM_WORLD_ID, 1, 1, true));
        assertEquals(new MasterReply.ProbeResult(true, 1, 1, 3), conns[0].take());
    }
}
