package io.bdmpi.launcher;

import io.bdmpi.master.control.ControlMessage;
import io.bdmpi.master.control.LauncherLink;
import io.bdmpi.master.observe.JobSnapshot;
import org.junit.jupiter.api.Test;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bdmpiexec's side channel with real sockets: a real master's link ({@link LauncherLink}) and a
 * hand-made one that says hello and then nothing, or closes without a goodbye.
 */
class JobWatchTest {

    private static final JobSnapshot SNAPSHOT = new JobSnapshot(2_000_000_000L, 4, 0, 1, 1, 1, 1, 0, 3, 300, 1, 1 << 20, 1,
            false, null, 1);

    @Test
    void aSilentMasterIsLostWithinTheLimitAndTheOthersAreTold() throws Exception {
        BlockingQueue<LostNode> lost = new LinkedBlockingQueue<>();
        BlockingQueue<String> toldNode0 = new LinkedBlockingQueue<>();
        try (JobWatch watch = new JobWatch(2, List.of(), true, null).start(lost::add);
             LauncherLink node0 = LauncherLink.connect(watch.address(), 0, listener(toldNode0), null);
             Socket node1 = new Socket(watch.address().split(":")[0], Integer.parseInt(watch.address().split(":")[1]))) {
            assertTrue(Math.abs(node0.clockOffsetNanos()) < TimeUnit.MILLISECONDS.toNanos(5),
                    "one JVM, one clock: offset " + node0.clockOffsetNanos() + " ns");
            node0.snapshotsFrom(f -> f.complete(SNAPSHOT));
            hello(node1, 1, "far-away", 4242);
            long since = System.nanoTime();

            LostNode l = lost.poll(LauncherLink.SILENCE_LIMIT_MS + 2_000, TimeUnit.MILLISECONDS);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
            assertNotNull(l, "the silent master was not declared lost");
            assertTrue(tookMs >= LauncherLink.SILENCE_LIMIT_MS - 100 && tookMs < 5_000, "declared lost after " + tookMs + " ms");
            assertEquals(new LostNode(1, "far-away", 4242, l.reason()), l);
            assertTrue(l.reason().matches("stopped answering for \\d+\\.\\d s"), l.reason());
            assertEquals("node 1 (host far-away) " + l.reason() + "; ending the job", l.describe());
            assertEquals(l, watch.lost());
            String told = toldNode0.poll(2, TimeUnit.SECONDS);
            assertEquals("1: " + l.describe(), told, "the live master hears which node was lost");
            assertEquals(List.of(SNAPSHOT), watch.snapshots(), "the live master's heartbeats carry its snapshot");
            assertNull(lost.poll(LauncherLink.SILENCE_LIMIT_MS + 500, TimeUnit.MILLISECONDS),
                    "only the first lost node is declared; a live master heartbeating is never lost");
        }
    }

    @Test
    void aConnectionClosedWithoutGoodbyeIsALossButAGoodbyeIsNot() throws Exception {
        BlockingQueue<LostNode> lost = new LinkedBlockingQueue<>();
        BlockingQueue<String> ignored = new LinkedBlockingQueue<>();
        try (JobWatch watch = new JobWatch(3, List.of(), true, null).start(lost::add)) {
            LauncherLink node0 = LauncherLink.connect(watch.address(), 0, listener(ignored), null);
            node0.goodbye(0);
            LauncherLink node2 = LauncherLink.connect(watch.address(), 2, listener(ignored), null);
            assertNull(lost.poll(LauncherLink.SILENCE_LIMIT_MS + 1_000, TimeUnit.MILLISECONDS), "a goodbye is no loss");
            try (Socket node1 = new Socket(watch.address().split(":")[0], Integer.parseInt(watch.address().split(":")[1]))) {
                hello(node1, 1, LauncherLink.hostName(), 77);
                Thread.sleep(300);
            }
            LostNode l = lost.poll(2, TimeUnit.SECONDS);
            assertNotNull(l, "a connection closed without a goodbye is a loss");
            assertEquals(1, l.node());
            assertEquals(77, l.pid());
            assertTrue(l.reason().startsWith("is gone ("), l.reason());
            node2.close();
        }
    }

    /**
     * Two connections end without a goodbye, the casualty's first, as when the MPI library ends a
     * master whose read of the dead one failed, and the dead one's is read only after the grace
     * period: the lost node is the one the library's line names dead, not the first read.
     */
    @Test
    void theMpiLibrarysCasualtyIsNotTheLostNode() throws Exception {
        BlockingQueue<LostNode> lost = new LinkedBlockingQueue<>();
        try (JobWatch watch = new JobWatch(3, List.of(), true, null).start(lost::add);
             Socket node1 = connect(watch);
             Socket node2 = connect(watch)) {
            hello(node1, 1, "vm", 10382);
            hello(node2, 2, "vm", 10385);
            Thread.sleep(200); // both hellos read
            watch.mpiOutput("[vm:10385:0:10462]      cma_ep.c:81   process_vm_readv(pid=10382 {0x7fa423c00000,524288}-->"
                    + "{0x7fcd33a00000,524288}) returned -1: No such process");
            node2.close();
            Thread.sleep(JobWatch.ENDS_GRACE_MS + LauncherLink.HEARTBEAT_MS); // judged once past the grace: the casualty alone is not named
            long since = System.nanoTime();
            node1.close();
            LostNode l = lost.poll(5, TimeUnit.SECONDS);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
            assertNotNull(l);
            assertEquals(1, l.node(), "the node the library named dead: " + l);
            assertEquals(10382, l.pid());
            assertTrue(tookMs < JobWatch.CAUSE_WAIT_MS, "named " + tookMs + " ms after its end");
            assertNull(lost.poll(JobWatch.ENDS_GRACE_MS + LauncherLink.HEARTBEAT_MS, TimeUnit.MILLISECONDS), "one node only");
        }
    }

    /** Without a word from the library, two ends are judged together and the first read is named; its casualty line excludes a node too. */
    @Test
    void withoutTheLibrarysWordTheFirstEndReadIsNamedAndACasualtyIsPassedOver() throws Exception {
        for (boolean casualtyLine : new boolean[] {false, true}) {
            BlockingQueue<LostNode> lost = new LinkedBlockingQueue<>();
            try (JobWatch watch = new JobWatch(3, List.of(), true, null).start(lost::add);
                 Socket node0 = connect(watch);
                 Socket node2 = connect(watch)) {
                hello(node0, 0, "vm", 500);
                hello(node2, 2, "vm", 502);
                Thread.sleep(200);
                if (casualtyLine) {
                    watch.mpiOutput("Abort(15) on node 2 (rank 2 in comm 0): Fatal error in internal_Recv: Other MPI error");
                }
                node2.close();
                Thread.sleep(100);
                node0.close();
                LostNode l = lost.poll(5, TimeUnit.SECONDS);
                assertNotNull(l);
                assertEquals(casualtyLine ? 0 : 2, l.node(), (casualtyLine ? "with" : "without") + " the line: " + l);
            }
        }
    }

    /**
     * Masters started again with node-local directories tell what theirs hold; once both have, the
     * planner sees both holdings in node order and each master gets its answer, over the wire.
     */
    @Test
    void theMastersHoldingsArePlannedOnceAllAreInAndEveryoneHearsThePlan() throws Exception {
        BlockingQueue<List<List<ControlMessage.HeldPart>>> asked = new LinkedBlockingQueue<>();
        ControlMessage.Placed placed = new ControlMessage.Placed(7, List.of(1, 0, 1));
        ControlMessage.HeldPart mine = new ControlMessage.HeldPart(7, true, 0, 2, 3, List.of(0, 1));
        ControlMessage.HeldPart waiting = new ControlMessage.HeldPart(7, false, 1, 2, 3, List.of(2));
        BlockingQueue<String> ignored = new LinkedBlockingQueue<>();
        try (JobWatch watch = new JobWatch(2, List.of(), true, held -> {
                asked.add(held);
                return placed;
            }).start(l -> { });
             LauncherLink node1 = LauncherLink.connect(watch.address(), 1, listener(ignored),
                     new ControlMessage.Holdings(List.of(waiting, mine)))) {
            assertNull(asked.poll(300, TimeUnit.MILLISECONDS), "no plan before every master has told its holdings");
            assertNull(watch.placement());
            try (LauncherLink node0 = LauncherLink.connect(watch.address(), 0, listener(ignored),
                    new ControlMessage.Holdings(List.of()))) {
                assertEquals(placed, node0.placement(5_000));
                assertEquals(placed, node1.placement(5_000));
                assertEquals(List.of(List.of(), List.of(waiting, mine)), asked.poll(1, TimeUnit.SECONDS));
                assertEquals(placed, watch.placement());
            }
        }
    }

    /** A placement the planner refuses reaches the master as an error with the planner's reason. */
    @Test
    void aRefusedPlacementIsTheMastersErrorWithItsReason() throws Exception {
        BlockingQueue<String> ignored = new LinkedBlockingQueue<>();
        try (JobWatch watch = new JobWatch(1, List.of(), true, held -> new ControlMessage.NotPlaced("node 1's part is lost")).start(l -> { });
             LauncherLink node0 = LauncherLink.connect(watch.address(), 0, listener(ignored), new ControlMessage.Holdings(List.of()))) {
            IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> node0.placement(5_000));
            assertEquals("node 1's part is lost", e.getMessage());
            assertEquals(new ControlMessage.NotPlaced("node 1's part is lost"), watch.placement());
        }
    }

    /** A master whose placement never comes (another master never tells its holdings) gives up after its wait, saying so. */
    @Test
    void aPlacementThatNeverComesEndsTheMastersWait() throws Exception {
        BlockingQueue<String> ignored = new LinkedBlockingQueue<>();
        try (JobWatch watch = new JobWatch(2, List.of(), true, held -> new ControlMessage.NotPlaced("never asked")).start(l -> { });
             LauncherLink node1 = LauncherLink.connect(watch.address(), 1, listener(ignored), new ControlMessage.Holdings(List.of()))) {
            long start = System.nanoTime();
            IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> node1.placement(400));
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(waitedMs >= 400 && waitedMs < 5_000, waitedMs + " ms");
            assertEquals("bdmpiexec placed no rank within 0.4 s of this master telling what its checkpoint directory holds;"
                    + " giving up", e.getMessage());
            assertNull(watch.placement(), "bdmpiexec planned nothing without node 0's holdings");
        }
    }

    private static Socket connect(JobWatch watch) throws IOException {
        String[] address = watch.address().split(":");
        return new Socket(address[0], Integer.parseInt(address[1]));
    }

    private static void hello(Socket s, int node, String host, long pid) throws IOException {
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        new ControlMessage.Hello(node, host, pid).writeTo(out);
        out.flush();
    }

    private static LauncherLink.Listener listener(BlockingQueue<String> told) {
        return new LauncherLink.Listener() {
            @Override
            public void nodeLost(int node, String reason) {
                told.add(node + ": " + reason);
            }

            @Override
            public void launcherLost(String reason) {
                told.add("launcher: " + reason);
            }
        };
    }
}
