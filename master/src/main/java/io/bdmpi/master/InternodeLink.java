package io.bdmpi.master;

import io.bdmpi.master.internode.Internode;
import io.bdmpi.master.internode.MasterMessage;
import io.bdmpi.master.internode.Placement;
import io.bdmpi.master.scheduler.JobOutcome;
import io.bdmpi.master.scheduler.MasterEvent;
import io.bdmpi.master.scheduler.NodesQuiescence;
import io.bdmpi.master.scheduler.Scheduler;
import io.bdmpi.protocol.Payload;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Joins a node's scheduler to the other nodes' masters: forwards its slaves' messages for other
 * nodes (and the news that a receive here matched a synchronous send there), publishes what
 * arrives from them to the ring, and ends the job together with them.
 *
 * <p>Ending: each master, when its own part has ended, tells all others how (exit code, and
 * whether the failure started here, in which case this master printed the reason). A failure
 * stops every other node at once (they end quietly with the same code). A master then waits for
 * every other master's end before finalizing MPI: forever when its own part succeeded (the others
 * may still work; a master that dies makes mpiexec end the rest), at most {@link #PEER_WAIT_MS}
 * when it failed, after which it aborts the MPI job; not at all once bdmpiexec said a node was
 * lost ({@link #peerLost}): then it ends without MPI_Finalize.
 */
final class InternodeLink implements Scheduler.RemoteNodes, Internode.Sink {

    /** How long a failed node waits for the others to stop before it aborts them all. */
    static final long PEER_WAIT_MS = NodeMaster.KILL_WAIT_MS + 5_000;

    private final Internode internode;
    private final Placement placement;
    private final Path spillDir;
    private final Consumer<MasterEvent> publish;
    private final Consumer<String> deleteSpillFile;
    private final Consumer<String> returnSentFile;
    private final int inlineMaxBytes;
    private final long recycledBytes;
    private final CountDownLatch peersEnded;
    /** First failing exit code another node reported, 0 while none. */
    private final AtomicInteger peerFailure = new AtomicInteger();
    /** The lowest other node whose part failed of its own (not told by another), MAX_VALUE while none. */
    private final AtomicInteger lowestFailedPeer = new AtomicInteger(Integer.MAX_VALUE);
    /** A node bdmpiexec declared lost, -1 while none: it will never say it ended, and MPI cannot finalize with it. */
    private final AtomicInteger lostNode = new AtomicInteger(-1);
    private boolean announced;

    /**
     * @param deleteSpillFile deletes a spill file this master is done with, off the caller's thread
     * @param returnSentFile  gives the file of a slave's message sent to another node back to the
     *                        slave (see {@link ReturnedSpillFiles}), off the caller's thread
     */
    InternodeLink(Internode internode, Placement placement, Path spillDir, int inlineMaxBytes, long recycledBytes,
                  Consumer<MasterEvent> publish, Consumer<String> deleteSpillFile, Consumer<String> returnSentFile) {
        this.internode = internode;
        this.placement = placement;
        this.spillDir = spillDir;
        this.publish = publish;
        this.deleteSpillFile = deleteSpillFile;
        this.returnSentFile = returnSentFile;
        this.inlineMaxBytes = inlineMaxBytes;
        this.recycledBytes = recycledBytes;
        this.peersEnded = new CountDownLatch(internode.nodes() - 1);
    }

    /**
     * Starts taking what the other masters send. Call once the ring's handler runs: the ring
     * skips events published before its handler was added (until then they wait in MPI).
     */
    void startReceiving() {
        internode.receiveInto(spillDir, inlineMaxBytes, recycledBytes, this);
    }

    @Override
    public void forward(Internode.Arrival arrival) {
        Runnable afterSent = arrival.payload() instanceof Payload.Spilled spilled
                ? () -> returnSentFile.accept(spilled.fileName()) : null;
        try {
            internode.forward(placement.nodeOf(arrival.destWorldRank()), arrival, spillDir, afterSent);
        } catch (UncheckedIOException e) {
            publish.accept(new MasterEvent.StopRequested("cannot forward a message of rank " + arrival.senderWorldRank()
                    + " to rank " + arrival.destWorldRank() + ": " + e.getCause().getMessage(), 1));
        }
    }

    @Override
    public void recycle(String fileName) {
        internode.recycle(fileName).forEach(deleteSpillFile);
    }

    @Override
    public void arrived(Internode.Arrival arrival) {
        publish.accept(new MasterEvent.RemoteArrived(arrival));
    }

    @Override
    public void sendMatched(int senderWorldRank, long syncId) {
        internode.sendMatched(placement.nodeOf(senderWorldRank), senderWorldRank, syncId);
    }

    @Override
    public void matchArrived(int senderWorldRank, long syncId) {
        publish.accept(new MasterEvent.RemoteSendMatched(senderWorldRank, syncId));
    }

    @Override
    public void pointerRequest(int ownerNode, MasterMessage.PointerRequest request) {
        internode.pointerRequest(ownerNode, request);
    }

    @Override
    public void pointerAnswer(int node, MasterMessage.PointerAnswer answer) {
        internode.pointerAnswer(node, answer);
    }

    @Override
    public void pointerRequested(int node, MasterMessage.PointerRequest request) {
        publish.accept(new MasterEvent.RemotePointerRequest(node, request));
    }

    @Override
    public void pointerAnswered(MasterMessage.PointerAnswer answer) {
        publish.accept(new MasterEvent.RemotePointerAnswer(answer));
    }

    @Override
    public void window(int node, MasterMessage.WindowTraffic message) {
        internode.window(node, message);
    }

    @Override
    public void windowArrived(int node, MasterMessage.WindowTraffic message) {
        publish.accept(new MasterEvent.RemoteWindow(node, message));
    }

    @Override
    public void shipStart(int[] nodes, Internode.RemoteStart start) {
        Runnable afterSent = start.start() instanceof io.bdmpi.protocol.SlaveRequest.StartCollective c
                && c.data() instanceof Payload.Spilled spilled
                ? () -> publish.accept(new MasterEvent.SpillShipped(spilled.fileName())) : null;
        try {
            internode.shipStart(nodes, start, spillDir, afterSent);
        } catch (UncheckedIOException e) {
            publish.accept(new MasterEvent.StopRequested("cannot send the collective contribution of rank " + start.worldRank()
                    + " to the other nodes: " + e.getCause().getMessage(), 1));
        }
    }

    @Override
    public void startArrived(Internode.RemoteStart start) {
        publish.accept(new MasterEvent.RemoteStarted(start));
    }

    @Override
    public void announceState(NodesQuiescence.State s) {
        internode.announceState(new MasterMessage.NodeState(s.idle(), s.ended(), s.sent(), s.received(), s.pending()));
    }

    @Override
    public void peerState(int node, MasterMessage.NodeState s) {
        publish.accept(new MasterEvent.PeerState(node, new NodesQuiescence.State(s.idle(), s.ended(), s.sent(), s.received(),
                s.pending())));
    }

    @Override
    public void checkpointPartWritten(int sequence) {
        internode.checkpointPartWritten(sequence);
    }

    @Override
    public void checkpointCommitted(int sequence) {
        internode.checkpointCommitted(sequence);
    }

    @Override
    public void partWrittenArrived(int node, int sequence) {
        publish.accept(new MasterEvent.CheckpointPartWritten(node, sequence));
    }

    @Override
    public void commitArrived(int sequence) {
        publish.accept(new MasterEvent.CheckpointCommitted(sequence));
    }

    @Override
    public void copyToBuddy(int sequence, Path partDir, List<String> files) {
        try {
            internode.copyToBuddy((internode.node() + 1) % internode.nodes(), sequence, partDir, files);
        } catch (UncheckedIOException e) {
            publish.accept(new MasterEvent.StopRequested("cannot copy checkpoint " + sequence + " to node "
                    + (internode.node() + 1) % internode.nodes() + ": " + e.getCause().getMessage(), 1));
        }
    }

    @Override
    public void buddyCopied(int sequence, int ofNode) {
        internode.buddyCopied(sequence, ofNode);
    }

    @Override
    public void buddyFileArrived(int node, int sequence, String name, Payload payload) {
        publish.accept(new MasterEvent.BuddyFileArrived(node, sequence, name, payload));
    }

    @Override
    public void buddyCopiedArrived(int node, int sequence, int ofNode) {
        publish.accept(new MasterEvent.BuddyCopied(ofNode, sequence));
    }

    @Override
    public void peerEnded(int node, int exitCode, boolean causedThere) {
        if (exitCode != 0 && causedThere) {
            lowestFailedPeer.accumulateAndGet(node, Math::min);
        }
        if (exitCode != 0 && peerFailure.compareAndSet(0, exitCode)) {
            publish.accept(new MasterEvent.PeerFailed(node, exitCode));
        }
        peersEnded.countDown();
    }

    /**
     * bdmpiexec says {@code node}'s master stopped answering (side channel thread): this node stops
     * its slaves quietly (bdmpiexec printed why) and waits for no other master: bdmpiexec told
     * them all, and MPI, with a master gone, may no longer carry their ends.
     */
    void peerLost(int node) {
        if (lostNode.compareAndSet(-1, node)) {
            if (peerFailure.compareAndSet(0, 1)) {
                publish.accept(new MasterEvent.PeerFailed(node, 1));
            }
            while (peersEnded.getCount() > 0) {
                peersEnded.countDown();
            }
        }
    }

    /** Whether a node was lost: then MPI cannot finalize (it would wait for the lost master) and is aborted instead. */
    boolean peerWasLost() {
        return lostNode.get() >= 0;
    }

    @Override
    public void broken(String reason) {
        publish.accept(new MasterEvent.StopRequested("between masters: " + reason, 1));
    }

    /** Tells the other masters, once, how this node's part ended (at once: they stop their slaves meanwhile). */
    void announce(JobOutcome local) {
        if (!announced) {
            announced = true;
            internode.announceEnd(local.exitCode(), local.failure() != null);
        }
    }

    /**
     * Tells the other masters how this node's part ended (unless {@link #announce}d) and waits for theirs.
     *
     * @return the job's outcome as this master reports it: its own failure, unless a lower node's
     *         part failed of its own too (without a reason then: that node says why, so that
     *         failures at once on several nodes print one line), else the failure another node
     *         reported (without a reason: that node says why), else success
     */
    JobOutcome finish(JobOutcome local) throws InterruptedException {
        announce(local);
        if (local.exitCode() == 0) {
            peersEnded.await();
        } else if (!peersEnded.await(PEER_WAIT_MS, TimeUnit.MILLISECONDS)) {
            System.err.println("bdmpiexec: node " + internode.node() + ": the other masters did not stop within "
                    + PEER_WAIT_MS + " ms; aborting the MPI job");
            internode.abort(local.exitCode());
        }
        if (local.exitCode() != 0) {
            return lowestFailedPeer.get() < internode.node() ? new JobOutcome(local.exitCode(), null, local.rankDied()) : local;
        }
        int failed = peerFailure.get();
        return failed == 0 ? local : new JobOutcome(failed, null, false);
    }
}
