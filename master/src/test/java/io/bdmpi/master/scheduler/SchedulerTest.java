package io.bdmpi.master.scheduler;

import io.bdmpi.master.checkpoint.CheckpointStore;
import io.bdmpi.master.checkpoint.Checkpointing;
import io.bdmpi.master.config.MasterContext;
import io.bdmpi.master.internode.Internode;
import io.bdmpi.master.internode.MasterMessage;
import io.bdmpi.master.internode.Placement;
import io.bdmpi.master.memory.MemorySample;
import io.bdmpi.master.observe.JobSnapshot;
import io.bdmpi.master.observe.JobStats;
import io.bdmpi.master.session.SlaveSession;
import io.bdmpi.master.session.SlaveState;
import io.bdmpi.master.slaveio.SlaveConnection;
import io.bdmpi.master.store.MessageStore;
import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.PointerOp;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.SlaveRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
        public void send(MasterReply reply) {
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
    private final List<String> deletedFiles = new ArrayList<>();

    @TempDir
    Path checkpoints;

    private void start(int n, int nrunning) {
        slaves = new SlaveSession[n];
        conns = new RecordingConnection[n];
        for (int i = 0; i < n; i++) {
            slaves[i] = new SlaveSession(i, 1000 + i, 0);
            conns[i] = new RecordingConnection();
        }
        boolean auto = nrunning == MasterContext.RUNNING_AUTO;
        scheduler = new Scheduler(slaves, auto ? RunningController.START : nrunning, ResumePolicy.FIFO, () -> now,
                deletedFiles::add, checkpointing(), o -> outcome = o);
        if (auto) {
            scheduler.followMemory(new RunningController(n, now));
        }
        for (int i = 0; i < n; i++) {
            request(i, new SlaveRequest.Hello(i, 1000 + i));
        }
        batchEnd();
    }

    private Checkpointing checkpointing() {
        try {
            return new Checkpointing(new CheckpointStore(checkpoints, checkpoints, CheckpointStore.Sharing.JOB), null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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

    /** A non-reducing collective start followed by a blocking collect of it. */
    private void collective(int rank, long id, int commId, CollectiveKind kind, int root, Payload data) {
        start(rank, id, commId, kind, root, ReduceOp.NONE, ElementType.NONE,
                kind == CollectiveKind.BCAST ? (int) data.length() : 0, new long[0], data);
        request(rank, new SlaveRequest.Collect(new long[] {id}, 1, true));
    }

    private void start(int rank, long id, int commId, CollectiveKind kind, int root, ReduceOp op, ElementType type,
                       int count, long[] blocks, Payload data) {
        request(rank, new SlaveRequest.StartCollective(id, commId, kind, root, op, type, count, blocks, data));
    }

    private static MasterReply.CollectiveDone onlyCollective(MasterReply reply) {
        List<MasterReply.Completion> list = assertInstanceOf(MasterReply.Deliveries.class, reply).deliveries();
        assertEquals(1, list.size());
        return assertInstanceOf(MasterReply.CollectiveDone.class, list.get(0));
    }

    private static Payload empty() {
        return bytes();
    }

    private static Payload doubles(double v) {
        return new Payload.Inline(ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putDouble(0, v));
    }

    private static Payload bytes(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length);
        for (int v : values) {
            b.put((byte) v);
        }
        return new Payload.Inline(b.flip());
    }

    /**
     * Node 1 of two, one rank each. Rank 0's master completed the split first, and rank 0's barrier
     * on the new communicator reaches node 1 before rank 0's split start does: it must wait for the
     * split to complete here, not fail the job.
     */
    @Test
    void aRemoteStartOnACommunicatorNotYetMadeHereWaitsForTheSplit() {
        List<Internode.RemoteStart> shipped = new ArrayList<>();
        Scheduler.RemoteNodes remote = new NoRemoteTraffic() {
            @Override
            public void shipStart(int[] nodes, Internode.RemoteStart start) {
                shipped.add(start);
            }
        };
        startOneOfTwoNodes(1, remote);

        int newComm = Protocol.FIRST_DERIVED_COMM_ID; // node 0's first id: it is the split's lowest node
        scheduler.onEvent(new MasterEvent.RemoteStarted(new Internode.RemoteStart(newComm, 0, -1,
                new SlaveRequest.StartCollective(7, newComm, CollectiveKind.BARRIER, 0, ReduceOp.NONE, ElementType.NONE, 0,
                        new long[0], empty()))));
        assertNull(outcome, "the early barrier start failed the job");

        request(0, new SlaveRequest.StartSplit(1, Protocol.COMM_WORLD_ID, 0, 0));
        request(0, new SlaveRequest.Collect(new long[] {1}, 1, true));
        batchEnd();
        assertEquals(1, shipped.size(), "the split start goes to node 0");
        scheduler.onEvent(new MasterEvent.RemoteStarted(new Internode.RemoteStart(Protocol.COMM_WORLD_ID, 0, newComm,
                new SlaveRequest.StartSplit(1, Protocol.COMM_WORLD_ID, 0, 0))));
        batchEnd();
        assertEquals(newComm, onlyCollective(conns[0].take()).values()[0], "the split made node 0's communicator");

        collective(0, 2, newComm, CollectiveKind.BARRIER, 0, empty());
        batchEnd();
        onlyCollective(conns[0].take());
        assertNull(outcome);
    }

    /**
     * Node 1 of two: its part of a checkpoint is written once both ranks are in the call, node 0
     * hears of it, and its rank leaves the call only when node 0 says the checkpoint is committed.
     */
    @Test
    void aRankLeavesACheckpointOfSeveralNodesOnlyOnceNode0HasCommittedIt() throws IOException {
        List<Integer> partsWritten = new ArrayList<>();
        List<Internode.RemoteStart> shipped = new ArrayList<>();
        startOneOfTwoNodes(1, new NoRemoteTraffic() {
            @Override
            public void shipStart(int[] nodes, Internode.RemoteStart start) {
                shipped.add(start);
            }

            @Override
            public void checkpointPartWritten(int sequence) {
                partsWritten.add(sequence);
            }
        });

        collective(0, 1, Protocol.COMM_WORLD_ID, CollectiveKind.CHECKPOINT, 0, new Payload.Inline(ByteBuffer.allocate(300)));
        batchEnd();
        assertEquals(0, ((SlaveRequest.StartCollective) shipped.get(0).start()).data().length(),
                "the saved state stays on its node");
        scheduler.onEvent(new MasterEvent.RemoteStarted(new Internode.RemoteStart(Protocol.COMM_WORLD_ID, 0, -1,
                new SlaveRequest.StartCollective(1, Protocol.COMM_WORLD_ID, CollectiveKind.CHECKPOINT, 0, ReduceOp.NONE,
                        ElementType.NONE, 0, new long[0], empty()))));
        batchEnd();
        assertEquals(List.of(1), partsWritten, "node 0 hears that the part is written");
        assertEquals(300, Files.size(checkpoints.resolve(".incoming-1/part-1/rank-1.state")));
        assertTrue(conns[0].replies.isEmpty(), "the rank waits for the commit");

        scheduler.onEvent(new MasterEvent.CheckpointCommitted(1));
        batchEnd();
        assertEquals(1, onlyCollective(conns[0].take()).values()[0], "the call returns the checkpoint's number");
        assertTrue(Files.isRegularFile(checkpoints.resolve("checkpoint-1/part-1/manifest.json")));
        assertNull(outcome);
    }

    /** The scheduler of {@code node} of two, one rank each (world rank = node), its slave running. */
    private void startOneOfTwoNodes(int node, Scheduler.RemoteNodes remote) {
        slaves = new SlaveSession[] {new SlaveSession(node, 0, 1000 + node, 0)};
        conns = new RecordingConnection[] {new RecordingConnection()};
        scheduler = new Scheduler(Placement.of("block", 2, 1), node, remote, slaves, 1, ResumePolicy.FIFO, MessageStore.ON_HEAP,
                () -> now, deletedFiles::add, checkpointing(), o -> outcome = o);
        request(0, new SlaveRequest.Hello(node, 1000 + node));
        batchEnd();
        assertInstanceOf(MasterReply.Go.class, conns[0].take());
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
        MasterReply.Delivery delivery = assertInstanceOf(MasterReply.Delivery.class, d.deliveries().get(0));
        assertEquals(7, delivery.requestId());
        assertEquals(1, delivery.source());
        assertEquals(5, delivery.tag());
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
                .map(x -> (int) ((Payload.Inline) ((MasterReply.Delivery) x).payload()).bytes().get(0)).toList());
    }

    @Test
    void shouldNameTheSlaveThatResumesNextOnceWhileEverySlotIsTaken() {
        start(3, 1);
        List<Integer> named = new ArrayList<>();
        scheduler.readAheadWith((rank, spilled) -> named.add(rank));
        batchEnd();
        batchEnd();
        assertEquals(List.of(1), named, "rank 0 runs, rank 1 is next; named once");
        conns[0].take();
        collective(0, 10, Protocol.COMM_WORLD_ID, CollectiveKind.BARRIER, 0, empty());
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[1].state);
        assertEquals(List.of(1, 2), named);
        conns[1].take();
        collective(1, 10, Protocol.COMM_WORLD_ID, CollectiveKind.BARRIER, 0, empty());
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[2].state);
        assertEquals(List.of(1, 2), named, "nobody waits for the slot: nobody named");
    }

    @Test
    void shouldNameTheSpilledMessagesTheNextSlaveWillCollect() {
        start(3, 1);
        List<String> named = new ArrayList<>();
        scheduler.readAheadWith((rank, spilled) -> named.add(rank + " " + spilled));
        batchEnd();
        conns[0].take();
        request(0, new SlaveRequest.PostRecv(1, Protocol.COMM_WORLD_ID, 2, 1));
        request(0, new SlaveRequest.Collect(new long[] {1}, 1, true));
        batchEnd();
        conns[1].take();
        request(1, new SlaveRequest.PostRecv(1, Protocol.COMM_WORLD_ID, 2, 1));
        request(1, new SlaveRequest.Collect(new long[] {1}, 1, true));
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[2].state);
        conns[2].take();
        request(2, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 1, bytes(5)));
        request(2, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 1, 1, new Payload.Spilled("f1", 1000)));
        batchEnd();
        assertEquals(List.of("1 []", "2 []", "0 []"), named, "rank 0 resumes next (FIFO); its message is in memory");
        request(2, new SlaveRequest.PostRecv(1, Protocol.COMM_WORLD_ID, 0, 1));
        request(2, new SlaveRequest.Collect(new long[] {1}, 1, true));
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[0].state);
        assertEquals("1 [" + new Payload.Spilled("f1", 1000) + "]", named.get(named.size() - 1),
                "rank 1 resumes next and collects the spill file");
    }

    @Test
    void shouldReleaseBarrierOnlyWhenAllArrived() {
        start(3, 1);
        conns[0].take();
        collective(0, 10, Protocol.COMM_WORLD_ID, CollectiveKind.BARRIER, 0, empty());
        batchEnd();
        conns[1].take();
        collective(1, 10, Protocol.COMM_WORLD_ID, CollectiveKind.BARRIER, 0, empty());
        batchEnd();
        assertEquals(SlaveState.CBLOCKED, slaves[0].state);
        conns[2].take();
        collective(2, 10, Protocol.COMM_WORLD_ID, CollectiveKind.BARRIER, 0, empty());
        assertInstanceOf(MasterReply.Deliveries.class, conns[2].take(), "the last to arrive goes on");
        assertEquals(SlaveState.RUNNABLE, slaves[0].state);
        assertEquals(SlaveState.RUNNABLE, slaves[1].state);
    }

    @Test
    void shouldSumInRankOrderWhateverTheArrivalOrder() {
        start(3, 3);
        double[] values = {1e16, 1.0, -1e16};
        int[] arrivalOrder = {2, 0, 1};
        for (int rank : arrivalOrder) {
            conns[rank].take();
            start(rank, 7, Protocol.COMM_WORLD_ID, CollectiveKind.ALLREDUCE, 0, ReduceOp.SUM, ElementType.DOUBLE, 1,
                    new long[0], doubles(values[rank]));
            request(rank, new SlaveRequest.Collect(new long[] {7}, 1, true));
        }
        batchEnd();
        double inRankOrder = (1e16 + 1.0) + -1e16;
        for (int rank = 0; rank < 3; rank++) {
            if (rank != 1) {
                assertEquals(SlaveState.RUNNING, slaves[rank].state, "woken and resumed: rank " + rank);
            }
            MasterReply.CollectiveDone done = onlyCollective(conns[rank].take());
            assertEquals(inRankOrder, ((Payload.Inline) done.pieces().get(0)).bytes().order(ByteOrder.nativeOrder()).getDouble(0));
        }
    }

    @Test
    void shouldNotWakeASlaveInACollectiveForAMessage() {
        start(3, 2);
        conns[0].take();
        conns[1].take();
        request(0, new SlaveRequest.PostRecv(6, Protocol.COMM_WORLD_ID, 1, 0));
        collective(0, 5, Protocol.COMM_WORLD_ID, CollectiveKind.BARRIER, 0, empty());
        request(1, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 0, bytes(1)));
        batchEnd();
        assertEquals(SlaveState.CBLOCKED, slaves[0].state);
    }

    @Test
    void shouldEndTheJobOnMismatchedCollectives() {
        start(2, 2);
        collective(0, 5, Protocol.COMM_WORLD_ID, CollectiveKind.BCAST, 0, bytes(1, 2));
        collective(1, 5, Protocol.COMM_WORLD_ID, CollectiveKind.BCAST, 1, bytes(1, 2));
        assertNotNull(outcome);
        assertTrue(outcome.failure().contains("do not match") && outcome.failure().contains("root=1"), outcome.failure());
    }

    @Test
    void shouldGiveEachMemberItsBlocksFromSpillFilesAndDeleteThemAfterwards() {
        start(2, 2);
        // Rank 0 sends 1 byte to rank 0 and 3 to rank 1, through a spill file; rank 1 inline.
        start(0, 5, Protocol.COMM_WORLD_ID, CollectiveKind.ALLTOALL, 0, ReduceOp.NONE, ElementType.NONE, 0,
                new long[] {1, 3}, new Payload.Spilled("f0", 4));
        start(1, 5, Protocol.COMM_WORLD_ID, CollectiveKind.ALLTOALL, 0, ReduceOp.NONE, ElementType.NONE, 0,
                new long[] {2, 0}, bytes(7, 8));
        conns[0].take();
        conns[1].take();
        request(1, new SlaveRequest.Collect(new long[] {5}, 1, true));
        List<Payload> toRank1 = onlyCollective(conns[1].take()).pieces();
        assertEquals(new Payload.Slice("f0", 1, 3), toRank1.get(0));
        assertEquals(0, toRank1.get(1).length());
        request(0, new SlaveRequest.Collect(new long[] {5}, 1, true));
        assertEquals(new Payload.Slice("f0", 0, 1), onlyCollective(conns[0].take()).pieces().get(0));
        request(0, new SlaveRequest.Cancel(99));
        assertEquals(List.of(), deletedFiles, "rank 1 has not moved on yet");
        request(1, new SlaveRequest.Cancel(99));
        assertEquals(List.of("f0"), deletedFiles);
    }

    @Test
    void shouldSplitIntoCommunicatorsWithTranslatedRanks() {
        start(3, 3);
        for (int rank = 0; rank < 3; rank++) {
            conns[rank].take();
            // Colours: {0, 2} and {1}; key reverses the order of 0 and 2.
            request(rank, new SlaveRequest.StartSplit(5, Protocol.COMM_WORLD_ID, rank % 2, -rank));
            request(rank, new SlaveRequest.Collect(new long[] {5}, 1, true));
        }
        batchEnd();
        int[][] values = new int[3][];
        for (int rank = 0; rank < 3; rank++) {
            values[rank] = onlyCollective(conns[rank].take()).values();
        }
        assertEquals(values[0][0], values[2][0], "same colour, same communicator");
        assertEquals(1, values[0][1], "rank 0 has the larger key");
        assertEquals(0, values[2][1]);
        assertEquals(1, values[1][2]);
        int comm = values[0][0];
        request(0, new SlaveRequest.Send(comm, 0, 9, bytes(42)));
        request(2, new SlaveRequest.PostRecv(6, comm, Protocol.ANY_SOURCE, 9));
        request(2, new SlaveRequest.Collect(new long[] {6}, 1, true));
        MasterReply.Delivery d = (MasterReply.Delivery) ((MasterReply.Deliveries) conns[2].take()).deliveries().get(0);
        assertEquals(1, d.source(), "the sender's rank in the new communicator");
    }

    @Test
    void shouldMakeAGroupCommunicatorOnlyWhenEveryMemberHasCalled() {
        start(4, 4);
        for (int rank = 0; rank < 4; rank++) {
            conns[rank].take();
        }
        int[] members = {3, 1};
        request(3, new SlaveRequest.StartGroupComm(5, members, 0, 7));
        request(3, new SlaveRequest.Collect(new long[] {5}, 1, true));
        // A non-member's own business goes on meanwhile: nothing waits for ranks 0 and 2.
        request(0, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 2, 1, bytes(9)));
        request(2, new SlaveRequest.PostRecv(6, Protocol.COMM_WORLD_ID, 0, 1));
        request(2, new SlaveRequest.Collect(new long[] {6}, 1, true));
        batchEnd();
        assertInstanceOf(MasterReply.Deliveries.class, conns[2].take());
        assertEquals(SlaveState.CBLOCKED, slaves[3].state, "rank 1 has not called yet");
        request(1, new SlaveRequest.StartGroupComm(8, members, 0, 7));
        request(1, new SlaveRequest.Collect(new long[] {8}, 1, true));
        batchEnd();
        int[] at3 = onlyCollective(conns[3].take()).values();
        int[] at1 = onlyCollective(conns[1].take()).values();
        assertEquals(at3[0], at1[0], "one communicator");
        assertEquals(List.of(0, 2), List.of(at3[1], at3[2]), "world rank 3 comes first, as the members are listed");
        assertEquals(List.of(1, 2), List.of(at1[1], at1[2]));
        assertNull(outcome);

        // The next call of the same group and tag is a new one: a new communicator.
        request(1, new SlaveRequest.StartGroupComm(9, members, 0, 7));
        request(3, new SlaveRequest.StartGroupComm(9, members, 0, 7));
        request(1, new SlaveRequest.Collect(new long[] {9}, 1, true));
        request(3, new SlaveRequest.Collect(new long[] {9}, 1, true));
        batchEnd();
        int again = onlyCollective(conns[1].take()).values()[0];
        assertNotEquals(at1[0], again);
        assertEquals(again, onlyCollective(conns[3].take()).values()[0]);
    }

    @Test
    void shouldSendAcrossAnIntercommunicatorToTheOtherGroupsRank() {
        start(4, 4);
        for (int rank = 0; rank < 4; rank++) {
            conns[rank].take();
        }
        int[] union = {0, 2, 1, 3}; // low group: world 0 and 2; high group: world 1 and 3
        for (int rank = 0; rank < 4; rank++) {
            request(rank, new SlaveRequest.StartGroupComm(5, union, 2, 0));
            request(rank, new SlaveRequest.Collect(new long[] {5}, 1, true));
        }
        batchEnd();
        int inter = onlyCollective(conns[0].take()).values()[0];
        for (int rank = 1; rank < 4; rank++) {
            conns[rank].take();
        }
        request(2, new SlaveRequest.Send(inter, 1, 4, bytes(42))); // low rank 1 to high rank 1: world 3
        request(3, new SlaveRequest.PostRecv(6, inter, Protocol.ANY_SOURCE, 4));
        request(3, new SlaveRequest.Collect(new long[] {6}, 1, true));
        MasterReply.Delivery d = (MasterReply.Delivery) ((MasterReply.Deliveries) conns[3].take()).deliveries().get(0);
        assertEquals(1, d.source(), "the sender's rank in its own group");
        request(1, new SlaveRequest.Send(inter, 0, 4, bytes(43))); // high rank 0 to low rank 0: world 0
        request(0, new SlaveRequest.PostRecv(7, inter, 0, 4));
        request(0, new SlaveRequest.Collect(new long[] {7}, 1, true));
        assertEquals(0, ((MasterReply.Delivery) ((MasterReply.Deliveries) conns[0].take()).deliveries().get(0)).source());
        request(1, new SlaveRequest.Send(inter, 2, 4, bytes(44)));
        assertNotNull(outcome, "the other group has two ranks");
    }

    @Test
    void shouldLetOneSlaveAtATimeIntoTheCriticalSection() {
        start(2, 2);
        conns[0].take();
        conns[1].take();
        request(0, new SlaveRequest.CriticalEnter());
        assertInstanceOf(MasterReply.Go.class, conns[0].take());
        request(1, new SlaveRequest.CriticalEnter());
        batchEnd();
        assertEquals(SlaveState.RBLOCKED, slaves[1].state);
        request(0, new SlaveRequest.CriticalExit());
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[1].state);
        assertInstanceOf(MasterReply.Go.class, conns[1].take());
    }

    @Test
    void shouldNameTheRanksMissingFromACollectiveInADeadlock() {
        start(3, 3);
        collective(0, 5, Protocol.COMM_WORLD_ID, CollectiveKind.BARRIER, 0, empty());
        collective(1, 5, Protocol.COMM_WORLD_ID, CollectiveKind.BARRIER, 0, empty());
        request(2, new SlaveRequest.PostRecv(1, Protocol.COMM_WORLD_ID, 0, 0));
        request(2, new SlaveRequest.Collect(new long[] {1}, 1, true));
        batchEnd();
        assertNotNull(outcome);
        assertTrue(outcome.failure().contains("MPI_Barrier") && outcome.failure().contains("[2]"), outcome.failure());
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

    private JobSnapshot snapshot() {
        java.util.concurrent.CompletableFuture<JobSnapshot> f = new java.util.concurrent.CompletableFuture<>();
        scheduler.onEvent(new MasterEvent.SnapshotRequested(f));
        return f.getNow(null);
    }

    @Test
    void snapshotCountsStatesAndTheDataHeldForReceivers() {
        start(3, 1);
        JobSnapshot s = snapshot();
        assertEquals(1, s.running());
        assertEquals(2, s.runnable());
        assertEquals(0, s.messagesInMemory() + s.messagesOnDisk());

        int running = slaves[0].state == SlaveState.RUNNING ? 0 : slaves[1].state == SlaveState.RUNNING ? 1 : 2;
        int a = (running + 1) % 3;
        int b = (running + 2) % 3;
        request(running, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, a, 1, bytes(1, 2, 3, 4, 5)));
        request(running, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, b, 1, new Payload.Spilled("f1", 1000)));
        request(running, new SlaveRequest.PostRecv(9, Protocol.COMM_WORLD_ID, a, 2));
        request(running, new SlaveRequest.Collect(new long[] {9}, 1, true));
        batchEnd();
        s = snapshot();
        assertEquals(1, s.messagesInMemory());
        assertEquals(5, s.bytesInMemory());
        assertEquals(1, s.messagesOnDisk());
        assertEquals(1000, s.bytesOnDisk());
        assertEquals(1, s.blockedInReceive(), "the sender now waits in its receive");
        assertEquals(1, s.running());
        assertEquals(1, s.runnable());
        assertEquals(0, s.blockedInCollective() + s.finished() + s.starting());
        assertEquals(3, s.slaves());
        assertEquals(now, s.elapsedNanos());
    }

    /** A memory reading: a budget, a master of 50 MiB, and every slave with the same heap and arrays in RAM. */
    private void memory(long budgetMiB, long anonMiB, long dataMiB) {
        long[] anon = new long[slaves.length];
        long[] data = new long[slaves.length];
        java.util.Arrays.fill(anon, anonMiB << 20);
        java.util.Arrays.fill(data, dataMiB << 20);
        now += 1_000_000;
        scheduler.onEvent(new MasterEvent.MemorySampled(new MemorySample(budgetMiB << 20, true, 50L << 20, anon, data)));
    }

    /** {@code rank} posts a receive from {@code source} (tag 1) and waits for it. */
    private void receive(int rank, long id, int source) {
        request(rank, new SlaveRequest.PostRecv(id, Protocol.COMM_WORLD_ID, source, 1));
        request(rank, new SlaveRequest.Collect(new long[] {id}, 1, true));
        batchEnd();
    }

    @Test
    void shouldFollowMemoryUnderAutoAndLowerWithoutPreempting() {
        start(3, MasterContext.RUNNING_AUTO);
        assertEquals(1, runningCount(), "auto starts with one slave running");
        assertEquals(SlaveState.RUNNING, slaves[0].state);
        receive(0, 9, 1);
        assertEquals(SlaveState.RUNNING, slaves[1].state);
        memory(1000, 10, 10);
        batchEnd();
        assertEquals(2, runningCount(), "rank 0 has run: small slaves, all may run");
        assertEquals(3, snapshot().nrunning());
        request(1, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 1, bytes(7)));
        batchEnd();
        assertEquals(3, runningCount());

        memory(1000, 10, 500);
        batchEnd();
        assertEquals(3, runningCount(), "a lower count preempts nobody");
        assertEquals(1, snapshot().nrunning());
        assertEquals(3, snapshot().lastNrunningChange().from());

        receive(0, 10, 2);
        request(2, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 1, bytes(8)));
        batchEnd();
        assertEquals(SlaveState.RUNNABLE, slaves[0].state, "two still run, one is allowed: rank 0 waits");
        request(1, new SlaveRequest.Finalize(0));
        request(2, new SlaveRequest.Finalize(0));
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[0].state, "none runs: rank 0 may");

        java.util.concurrent.CompletableFuture<JobStats> f = new java.util.concurrent.CompletableFuture<>();
        scheduler.onEvent(new MasterEvent.StatsRequested(f));
        JobStats.Node node = f.getNow(null).nodes().get(0);
        assertTrue(node.runningAuto());
        assertEquals(3, node.running(), "the most allowed");
        assertEquals(3, node.maxRunning());
        assertEquals(List.of(1, 3), node.nrunningChanges().stream().map(JobStats.NrunningChange::from).toList());
        assertEquals(List.of(3, 1), node.nrunningChanges().stream().map(JobStats.NrunningChange::to).toList());
        assertTrue(node.nrunningChanges().get(1).reason().startsWith("lowered from 3 to 1: 3 running would need 1580 MiB"),
                node.nrunningChanges().get(1).reason());
    }

    @Test
    void aFixedNrunningRecordsNoChangesAndIgnoresMemory() {
        start(2, 1);
        memory(1000, 10, 10);
        batchEnd();
        assertEquals(1, runningCount());
        java.util.concurrent.CompletableFuture<JobStats> f = new java.util.concurrent.CompletableFuture<>();
        scheduler.onEvent(new MasterEvent.StatsRequested(f));
        JobStats.Node node = f.getNow(null).nodes().get(0);
        assertEquals(false, node.runningAuto());
        assertEquals(List.of(), node.nrunningChanges());
        assertEquals(1, node.running());
    }

    // ---------------------------------------------------------------- polls and the quantum

    private static SlaveRequest.Collect poll(long... ids) {
        return new SlaveRequest.Collect(ids, 0, false);
    }

    private static List<MasterReply.Completion> deliveries(MasterReply reply) {
        return assertInstanceOf(MasterReply.Deliveries.class, reply).deliveries();
    }

    private JobStats stats() {
        java.util.concurrent.CompletableFuture<JobStats> f = new java.util.concurrent.CompletableFuture<>();
        scheduler.onEvent(new MasterEvent.StatsRequested(f));
        return f.getNow(null);
    }

    @Test
    void aPollThatFindsNothingGivesTheSlotToTheSlaveThatWaitsAndIsAnsweredAfreshWhenItResumes() {
        start(2, 1);
        conns[0].take();
        request(0, new SlaveRequest.PostRecv(7, Protocol.COMM_WORLD_ID, 1, 5));
        request(0, poll(7));
        batchEnd();
        assertTrue(conns[0].replies.isEmpty(), "the poller is not answered while it waits for a slot");
        assertEquals(SlaveState.RUNNABLE, slaves[0].state);
        assertEquals(SlaveState.RUNNING, slaves[1].state, "rank 1 gets the slot");
        conns[1].take();

        request(1, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 5, bytes(42)));
        request(1, new SlaveRequest.Finalize(0));
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[0].state);
        List<MasterReply.Completion> got = deliveries(conns[0].take());
        assertEquals(1, got.size(), "the reply says what is there when the poller resumes: the message");
        assertEquals(7, assertInstanceOf(MasterReply.Delivery.class, got.get(0)).requestId());
        assertEquals(1, stats().slaves().get(0).pollYields());
    }

    @Test
    void aPollIsAnsweredAtOnceWhenNobodyWaitsForASlot() {
        start(2, 2);
        conns[0].take();
        request(0, new SlaveRequest.PostRecv(7, Protocol.COMM_WORLD_ID, 1, 5));
        request(0, poll(7));
        assertEquals(List.of(), deliveries(conns[0].take()));
        request(0, new SlaveRequest.Probe(Protocol.COMM_WORLD_ID, 1, 5, false));
        assertEquals(MasterReply.ProbeResult.NONE, conns[0].take());
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[0].state);
        assertEquals(0, stats().slaves().get(0).pollYields());
    }

    @Test
    void slavesThatGaveTheirSlotUpResumeOnlyAfterTheRunnableOnes() {
        start(3, 1);
        conns[0].take();
        request(0, new SlaveRequest.Probe(Protocol.COMM_WORLD_ID, 2, 1, false));
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[1].state);
        conns[1].take();
        collective(1, 10, Protocol.COMM_WORLD_ID, CollectiveKind.BARRIER, 0, empty());
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[2].state, "rank 2, runnable since hello, goes before the poller");
        assertEquals(SlaveState.RUNNABLE, slaves[0].state);
        conns[2].take();
        request(2, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 0, 1, bytes(3)));
        request(2, new SlaveRequest.Probe(Protocol.COMM_WORLD_ID, 1, 1, false));
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[0].state, "its message came: the poller is runnable again, and first");
        MasterReply.ProbeResult probe = assertInstanceOf(MasterReply.ProbeResult.class, conns[0].take());
        assertTrue(probe.found());
        assertEquals(2, probe.source());
    }

    @Test
    void everyRankPollingInVainForLongIsADeadlockButNotSooner() {
        start(2, 1);
        conns[0].take();
        for (int i = 0; outcome == null && i < 200; i++) {
            int rank = i % 2;
            request(rank, new SlaveRequest.Probe(Protocol.COMM_WORLD_ID, 1 - rank, 9, false));
            batchEnd();
            conns[1 - rank].replies.clear();
            if (i == 10) {
                assertNull(outcome, "a few polls are no deadlock");
            }
            now += 100_000_000L;
        }
        assertNotNull(outcome, "every rank polls for a message nobody sends");
        assertTrue(outcome.failure().contains("deadlock") && outcome.failure().contains("polling MPI_Iprobe(source=1, tag=9"),
                outcome.failure());
        assertTrue(now >= Scheduler.POLL_DEADLOCK_NS, "reported after " + now + " ns");
    }

    @Test
    void aRankThatComputesBetweenPollsIsNoDeadlock() {
        start(2, 2);
        conns[0].take();
        conns[1].take();
        request(1, new SlaveRequest.PostRecv(1, Protocol.COMM_WORLD_ID, 0, 1));
        request(1, new SlaveRequest.Collect(new long[] {1}, 1, true));
        for (int i = 0; i < 30; i++) {
            request(0, new SlaveRequest.Probe(Protocol.COMM_WORLD_ID, 1, 9, false));
            batchEnd();
            now += 2 * Scheduler.SPIN_GAP_NS; // it computes between polls
        }
        request(0, new SlaveRequest.Probe(Protocol.COMM_WORLD_ID, 1, 9, false));
        now += 2 * Scheduler.SPIN_GAP_NS;
        batchEnd();
        assertNull(outcome);
    }

    /** Signals as the scheduler sends them. */
    private final List<String> signalsSent = new ArrayList<>();
    private final io.bdmpi.master.slaveio.ProcessSignals recordingSignals = new io.bdmpi.master.slaveio.ProcessSignals() {
        @Override
        public void stop(long pid) {
            signalsSent.add("STOP " + pid);
        }

        @Override
        public void resume(long pid) {
            signalsSent.add("CONT " + pid);
        }
    };

    @Test
    void aSlaveThatRunsPastTheQuantumWhileOthersWaitIsStoppedAndContinuedLater() {
        start(2, 1);
        scheduler.preemptAfter(5_000_000_000L, recordingSignals);
        conns[0].take();
        now += 4_000_000_000L;
        scheduler.onEvent(new MasterEvent.Tick());
        batchEnd();
        assertEquals(List.of(), signalsSent, "within its quantum");
        now += 2_000_000_000L;
        scheduler.onEvent(new MasterEvent.Tick());
        // Sent just before the stop landed: kept until rank 0 runs again.
        request(0, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 1, 3, bytes(8)));
        batchEnd();
        assertEquals(List.of("STOP 1000"), signalsSent);
        assertEquals(SlaveState.RUNNABLE, slaves[0].state);
        assertEquals(SlaveState.RUNNING, slaves[1].state);
        conns[1].take();

        request(1, new SlaveRequest.PostRecv(4, Protocol.COMM_WORLD_ID, 0, 3));
        request(1, new SlaveRequest.Collect(new long[] {4}, 1, true));
        batchEnd();
        assertEquals(List.of("STOP 1000", "CONT 1000"), signalsSent);
        assertEquals(SlaveState.RUNNING, slaves[0].state);
        assertTrue(conns[0].replies.isEmpty(), "a continued slave gets no reply: it asked for nothing");
        assertEquals(SlaveState.RUNNABLE, slaves[1].state, "the send kept during the stop reached rank 1");

        now += 6_000_000_000L;
        scheduler.onEvent(new MasterEvent.Tick());
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[1].state, "rank 0 ran past its quantum again while rank 1 waited");
        assertEquals(2, stats().slaves().get(0).preemptions());
        assertEquals(2, stats().nodes().get(0).preemptions());
    }

    @Test
    void noSlaveIsStoppedWhenNobodyWaitsForASlot() {
        start(2, 2);
        scheduler.preemptAfter(1_000_000_000L, recordingSignals);
        now += 10_000_000_000L;
        scheduler.onEvent(new MasterEvent.Tick());
        batchEnd();
        assertEquals(List.of(), signalsSent);
        assertEquals(2, runningCount());
    }

    @Test
    void slavesThatExitZeroWithoutEverCallingInitAreASuccessfulJob() {
        slaves = new SlaveSession[] {new SlaveSession(0, 1000, 0), new SlaveSession(1, 1001, 0)};
        conns = new RecordingConnection[] {new RecordingConnection(), new RecordingConnection()};
        scheduler = new Scheduler(slaves, 1, ResumePolicy.FIFO, () -> now, deletedFiles::add, checkpointing(), o -> outcome = o);
        scheduler.onEvent(new MasterEvent.ProcessExited(0, 0));
        batchEnd();
        assertNull(outcome);
        scheduler.onEvent(new MasterEvent.ProcessExited(1, 0));
        assertNotNull(outcome);
        assertEquals(0, outcome.exitCode(), String.valueOf(outcome.failure()));
    }

    // ---------------------------------------------------------------- synchronous sends

    private static SlaveRequest.Send syncSend(int dest, int tag, long syncId) {
        return new SlaveRequest.Send(Protocol.COMM_WORLD_ID, dest, tag, bytes(tag), syncId);
    }

    /** Two running slaves, their go-signals taken. */
    private void startRunningPair() {
        start(2, 2);
        conns[0].take();
        conns[1].take();
    }

    /** MPI_Ssend of rank 0: the send, then a blocking collect of it. */
    private void sSend(int dest, int tag, long syncId) {
        request(0, syncSend(dest, tag, syncId));
        request(0, new SlaveRequest.Collect(new long[] {syncId}, 1, true));
    }

    private static MasterReply.SendMatched onlyMatch(MasterReply reply) {
        List<MasterReply.Completion> got = deliveries(reply);
        assertEquals(1, got.size());
        return assertInstanceOf(MasterReply.SendMatched.class, got.get(0));
    }

    @Test
    void aSynchronousSendParksTheSenderUntilTheReceiverPostsTheMatchingReceive() {
        startRunningPair();
        sSend(1, 1, 5);
        batchEnd();
        assertEquals(SlaveState.RBLOCKED, slaves[0].state, "the message is buffered, but nobody received it");
        assertTrue(conns[0].replies.isEmpty());

        request(1, new SlaveRequest.PostRecv(8, Protocol.COMM_WORLD_ID, 0, 2));
        request(1, new SlaveRequest.Probe(Protocol.COMM_WORLD_ID, 0, 1, false));
        assertTrue(assertInstanceOf(MasterReply.ProbeResult.class, conns[1].take()).found());
        batchEnd();
        assertEquals(SlaveState.RBLOCKED, slaves[0].state, "neither a receive for another tag nor a probe matches it");

        request(1, new SlaveRequest.PostRecv(9, Protocol.COMM_WORLD_ID, 0, 1));
        batchEnd();
        assertEquals(SlaveState.RUNNING, slaves[0].state);
        assertEquals(5, onlyMatch(conns[0].take()).requestId());
        request(1, new SlaveRequest.Collect(new long[] {9}, 1, true));
        assertEquals(9, assertInstanceOf(MasterReply.Delivery.class, deliveries(conns[1].take()).get(0)).requestId());
    }

    @Test
    void aReceivePostedFirstCompletesASynchronousSendAtOnce() {
        startRunningPair();
        request(1, new SlaveRequest.PostRecv(3, Protocol.COMM_WORLD_ID, Protocol.ANY_SOURCE, Protocol.ANY_TAG));
        sSend(1, 4, 5);
        assertEquals(5, onlyMatch(conns[0].take()).requestId());
        assertEquals(SlaveState.RUNNING, slaves[0].state);
    }

    @Test
    void aPolledNonblockingSynchronousSendCompletesOnlyAfterTheMatch() {
        startRunningPair();
        request(0, syncSend(1, 1, 5));
        request(0, new SlaveRequest.Send(Protocol.COMM_WORLD_ID, 1, 2, bytes(2)));
        request(0, poll(5));
        assertEquals(List.of(), deliveries(conns[0].take()));
        request(1, new SlaveRequest.PostRecv(7, Protocol.COMM_WORLD_ID, 0, 2));
        request(0, poll(5));
        assertEquals(List.of(), deliveries(conns[0].take()), "the buffered send after it was received, not it");
        request(1, new SlaveRequest.PostRecv(8, Protocol.COMM_WORLD_ID, 0, 1));
        request(0, poll(5));
        assertEquals(5, onlyMatch(conns[0].take()).requestId());
        request(0, new SlaveRequest.Cancel(5));
        assertEquals(new MasterReply.CancelResult(false), conns[0].take(), "a completed send is not cancelled");
        assertNull(outcome);
    }

    @Test
    void aSynchronousSendNobodyReceivesIsADeadlockThatNamesIt() {
        start(2, 2);
        sSend(1, 1, 5);
        request(1, new SlaveRequest.PostRecv(3, Protocol.COMM_WORLD_ID, 0, 2));
        request(1, new SlaveRequest.Collect(new long[] {3}, 1, true));
        batchEnd();
        assertNotNull(outcome);
        assertTrue(outcome.failure().contains("rank 0: waiting for MPI_Ssend(dest=1, tag=1, comm=COMM_WORLD) to be matched"),
                outcome.failure());
    }

    /** Node 0 of two, one rank each: matches of synchronous sends travel between the masters, counted as traffic. */
    @Test
    void aMatchOfASynchronousSendFromAnotherNodeIsReportedToItsMaster() {
        List<Internode.Arrival> forwarded = new ArrayList<>();
        List<long[]> matches = new ArrayList<>();
        List<NodesQuiescence.State> states = new ArrayList<>();
        Scheduler.RemoteNodes remote = new NoRemoteTraffic() {
            @Override
            public void forward(Internode.Arrival arrival) {
                forwarded.add(arrival);
            }

            @Override
            public void sendMatched(int senderWorldRank, long syncId) {
                matches.add(new long[] {senderWorldRank, syncId});
            }

            @Override
            public void shipStart(int[] nodes, Internode.RemoteStart start) {
            }

            @Override
            public void announceState(NodesQuiescence.State state) {
                states.add(state);
            }
        };
        startOneOfTwoNodes(0, remote);

        scheduler.onEvent(new MasterEvent.RemoteArrived(new Internode.Arrival(0, Protocol.COMM_WORLD_ID, 1, 3, 1, 42, bytes(1))));
        assertEquals(List.of(), matches);
        request(0, new SlaveRequest.PostRecv(1, Protocol.COMM_WORLD_ID, 1, 3));
        assertEquals(1, matches.size());
        assertArrayEquals(new long[] {1, 42}, matches.get(0), "rank 1's master hears of its send 42");

        sSend(1, 6, 2);
        batchEnd();
        assertEquals(2, forwarded.get(0).syncId());
        assertEquals(SlaveState.RBLOCKED, slaves[0].state);
        scheduler.onEvent(new MasterEvent.RemoteSendMatched(0, 2));
        batchEnd();
        assertEquals(2, onlyMatch(conns[0].take()).requestId());
        NodesQuiescence.State last = states.get(states.size() - 1);
        assertEquals(List.of(2L, 2L), List.of(last.sent(), last.received()),
                "a forward and a match each way count as traffic for the deadlock detection");
        assertNull(outcome);
    }

    /**
     * Two nodes, one rank each: a rank whose file's pointer another node keeps waits parked for that
     * master's answer; the keeping master does every node's operations on one number, in order.
     */
    @Test
    void aSharedFilePointerIsKeptByItsOwnerNodeAndMovedByEveryNode() {
        List<Object[]> requests = new ArrayList<>();
        List<Object[]> answers = new ArrayList<>();
        List<NodesQuiescence.State> states = new ArrayList<>();
        Scheduler.RemoteNodes remote = new NoRemoteTraffic() {
            @Override
            public void shipStart(int[] nodes, Internode.RemoteStart start) {
            }

            @Override
            public void announceState(NodesQuiescence.State state) {
                states.add(state);
            }

            @Override
            public void pointerRequest(int ownerNode, MasterMessage.PointerRequest request) {
                requests.add(new Object[] {ownerNode, request});
            }

            @Override
            public void pointerAnswer(int node, MasterMessage.PointerAnswer answer) {
                answers.add(new Object[] {node, answer});
            }
        };
        startOneOfTwoNodes(1, remote);

        request(0, new SlaveRequest.FilePointer(77, 1, PointerOp.ADD, 5));
        assertEquals(0, assertInstanceOf(MasterReply.PointerValue.class, conns[0].take()).value(), "kept here: answered at once");
        scheduler.onEvent(new MasterEvent.RemotePointerRequest(0, new MasterMessage.PointerRequest(77, PointerOp.ADD, 3, 0)));
        assertEquals(1, answers.size());
        assertEquals(0, answers.get(0)[0], "the answer goes back to the asking node");
        assertEquals(new MasterMessage.PointerAnswer(0, 5), answers.get(0)[1]);
        request(0, new SlaveRequest.FilePointer(77, 1, PointerOp.FREE, 0));
        assertEquals(8, assertInstanceOf(MasterReply.PointerValue.class, conns[0].take()).value(),
                "both nodes' additions landed on one pointer");

        request(0, new SlaveRequest.FilePointer(99, 0, PointerOp.ADD, 4));
        batchEnd();
        assertEquals(1, requests.size());
        assertEquals(0, requests.get(0)[0], "node 0 keeps pointer 99");
        assertEquals(new MasterMessage.PointerRequest(99, PointerOp.ADD, 4, 1), requests.get(0)[1]);
        assertEquals(SlaveState.RBLOCKED, slaves[0].state, "the rank waits parked for the answer");
        assertTrue(conns[0].replies.isEmpty());
        scheduler.onEvent(new MasterEvent.RemotePointerAnswer(new MasterMessage.PointerAnswer(1, 40)));
        batchEnd();
        assertEquals(40, assertInstanceOf(MasterReply.PointerValue.class, conns[0].take()).value());
        NodesQuiescence.State last = states.get(states.size() - 1);
        assertEquals(List.of(2L, 2L), List.of(last.sent(), last.received()),
                "requests and answers each way count as traffic for the deadlock detection");
        assertNull(outcome);
    }

    /** Remote nodes that fail the test on any traffic; a test overrides what it expects. */
    private abstract static class NoRemoteTraffic implements Scheduler.RemoteNodes {

        @Override
        public void forward(Internode.Arrival arrival) {
            throw new AssertionError("no point-to-point traffic in this test");
        }

        @Override
        public void sendMatched(int senderWorldRank, long syncId) {
            throw new AssertionError("no point-to-point traffic in this test");
        }

        @Override
        public void shipStart(int[] nodes, Internode.RemoteStart start) {
            throw new AssertionError("no collective across nodes in this test");
        }

        @Override
        public void announceState(NodesQuiescence.State state) {
        }

        @Override
        public void pointerRequest(int ownerNode, MasterMessage.PointerRequest request) {
            throw new AssertionError("no file pointer in this test");
        }

        @Override
        public void pointerAnswer(int node, MasterMessage.PointerAnswer answer) {
            throw new AssertionError("no file pointer in this test");
        }

        @Override
        public void window(int node, MasterMessage.WindowTraffic message) {
            throw new AssertionError("no one-sided traffic in this test");
        }

        @Override
        public void checkpointPartWritten(int sequence) {
            throw new AssertionError("no checkpoint in this test");
        }

        @Override
        public void checkpointCommitted(int sequence) {
            throw new AssertionError("no checkpoint in this test");
        }

        @Override
        public void copyToBuddy(int sequence, java.nio.file.Path partDir, List<String> files) {
            throw new AssertionError("no checkpoint in this test");
        }

        @Override
        public void recycle(String fileName) {
            throw new AssertionError("no message from another node in this test");
        }

        @Override
        public void buddyCopied(int sequence, int ofNode) {
            throw new AssertionError("no checkpoint in this test");
        }
    }
}
