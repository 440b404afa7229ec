package io.bdmpi.master.scheduler;

import io.bdmpi.master.checkpoint.Checkpointing;
import io.bdmpi.master.collective.CollectiveOp;
import io.bdmpi.master.collective.Collectives;
import io.bdmpi.master.collective.Communicator;
import io.bdmpi.master.collective.Communicators;
import io.bdmpi.master.collective.SharedSpillFiles;
import io.bdmpi.master.internode.Internode;
import io.bdmpi.master.internode.MasterMessage;
import io.bdmpi.master.internode.Placement;
import io.bdmpi.master.memory.MemorySample;
import io.bdmpi.master.observe.JobSnapshot;
import io.bdmpi.master.observe.JobStats;
import io.bdmpi.master.observe.TimelineRecorder;
import io.bdmpi.master.session.SlaveSession;
import io.bdmpi.master.session.SlaveState;
import io.bdmpi.master.slaveio.ProcessSignals;
import io.bdmpi.master.slaveio.SlaveConnection;
import io.bdmpi.master.store.MessageStore;
import io.bdmpi.master.store.StoredMessage;
import io.bdmpi.protocol.FilePointers;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.SlaveRequest;
import io.bdmpi.slave.SlaveMain;
import io.bdmpi.spill.SpillDirectory;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import static io.bdmpi.master.session.Calls.describeReceive;
import static io.bdmpi.master.session.Calls.rankName;
import static io.bdmpi.master.session.Calls.tagName;

/**
 * The master's core: owns every slave's state, matches messages to receives, runs collectives
 * (through {@link Collectives}) and the node's critical section, and lets at most {@code nrunning}
 * slaves run. Single writer: every method runs on the scheduler
 * thread, fed one {@link MasterEvent} at a time; nothing here is locked.
 *
 * <p>A slave that must wait is parked by not answering it. When its wait is over it becomes
 * RUNNABLE, and at the end of each batch of events free running slots go to runnable slaves
 * (chosen by the {@link ResumePolicy}), which then get their reply: the reply is the go-signal.
 *
 * <p>Progress under oversubscription: a poll (test, iProbe) that finds nothing while other slaves
 * wait for a slot gives the poller's slot up, as a blocking call would; it waits at the back of the
 * queue and is answered afresh when it resumes. A slave that runs past the quantum without an MPI
 * call while others wait is stopped (SIGSTOP) and goes to the back too. Slaves that gave their slot
 * up resume only when no other slave is runnable, in the order they gave it up.
 */
public final class Scheduler {

    /** Where the scheduler sends what is not for its own node: the masters of the other nodes. */
    public interface RemoteNodes extends Collectives.RemoteStarts {
        /** Forwards a message to the node of {@code arrival.destWorldRank()}. */
        void forward(Internode.Arrival arrival);

        /**
         * Tells the master of {@code senderWorldRank}'s node that a receive here matched the message
         * of that rank's synchronous send {@code syncId}.
         */
        void sendMatched(int senderWorldRank, long syncId);

        /** Tells the other masters how this node stands (see {@link NodesQuiescence}). */
        void announceState(NodesQuiescence.State state);

        /** Sends a slave's shared file pointer operation to the master of {@code ownerNode}, which keeps the pointer. */
        void pointerRequest(int ownerNode, MasterMessage.PointerRequest request);

        /** Answers the shared file pointer operation of a slave of {@code node}. */
        void pointerAnswer(int node, MasterMessage.PointerAnswer answer);

        /** Sends one-sided traffic (an operation, a lock, or an answer) to the master of {@code node}. */
        void window(int node, MasterMessage.WindowTraffic message);

        /** Tells node 0 that this node's part of checkpoint {@code sequence} is durable. */
        void checkpointPartWritten(int sequence);

        /** Tells every other node that checkpoint {@code sequence} is committed (node 0). */
        void checkpointCommitted(int sequence);

        /** Sends this node's part of checkpoint {@code sequence} to its buddy node: {@code files} of {@code partDir}, in order. */
        void copyToBuddy(int sequence, Path partDir, List<String> files);

        /** Tells node 0 that this node holds a durable copy of {@code ofNode}'s part of checkpoint {@code sequence}. */
        void buddyCopied(int sequence, int ofNode);

        /** A slave has unmapped the recycled spill file {@code fileName} of a message from another node: it may be reused. */
        void recycle(String fileName);
    }

    /**
     * How long every live slave must have done nothing but poll in vain (or wait blocked) before the
     * job counts as deadlocked. A program may poll while it computes, and a poll loop cannot be told
     * from a spin that waits for nothing, so this is long against a spin and short against a hang.
     */
    static final long POLL_DEADLOCK_NS = 10_000_000_000L;
    /** A slave that goes this long between two vain polls computes: it does not count as spinning. */
    static final long SPIN_GAP_NS = 1_000_000_000L;

    /** Who is told which slave resumes next, so that what it will read can be read in meanwhile. */
    @FunctionalInterface
    public interface NextToResume {
        /**
         * The slave of world rank {@code worldRank} resumes next; {@code spilled} are the spill
         * files (or parts of them) of the messages and collective results it will collect then.
         */
        void offer(int worldRank, List<Payload> spilled);
    }

    /** This node's slaves, in local order. */
    private final SlaveSession[] slaves;
    /** This node's slaves by world rank; null for ranks of other nodes. */
    private final SlaveSession[] byWorldRank;
    private final int node;
    private final Placement placement;
    private final RemoteNodes remote;
    /** The shared file pointers of files whose communicator's rank 0 is on this node (MPI-IO). */
    private final FilePointers filePointers = new FilePointers();

    /** Takes and restores the job's checkpoints. */
    private final Checkpointing checkpointing;
    /** Deadlock detection over the nodes; null on one node. */
    private final NodesQuiescence quiescence;
    /** Most slaves RUNNING at once: -nr, or under -nr auto what the {@link #runningController} allows now. */
    private int nrunning;
    /** Decides nrunning under -nr auto; null for a fixed -nr. */
    private RunningController runningController;
    /** Every change of nrunning under -nr auto. */
    private final List<JobStats.NrunningChange> nrunningChanges = new ArrayList<>();
    /** The largest nrunning so far (the stats' "running"). */
    private int mostAllowed;
    private final ResumePolicy policy;
    private final MessageStore messages;
    private final LongSupplier clockNs;
    private final Consumer<JobOutcome> onEnd;
    private final long startNs;

    private final List<SlaveSession> runnable = new ArrayList<>();
    /** Runnable slaves that gave their slot up while able to go on (see {@link SlaveSession#yielded}), oldest first. */
    private final ArrayDeque<SlaveSession> yieldedQueue = new ArrayDeque<>();
    /** Longest a slave may run without an MPI call while others wait; 0: no limit. */
    private long quantumNs;
    private ProcessSignals signals;
    /** Told the slave that resumes next (see readAheadWith); null: nobody. */
    private NextToResume nextToResume;
    /** The slave last named to nextToResume, until it resumes. */
    private SlaveSession offeredNext;
    private final Communicators comms;
    private final SharedSpillFiles sharedSpillFiles;
    private final Collectives collectives;
    /** The slave inside the node's critical section, and those waiting to enter, in order. */
    private SlaveSession criticalHolder;
    private final ArrayDeque<SlaveSession> criticalWaiters = new ArrayDeque<>();
    /** The one-sided window locks of this node's window members, and their waiters. */
    private final WindowLocks windowLocks = new WindowLocks();
    /** Applies other nodes' one-sided operations on this node's window members (see {@link #windowFilesIn}). */
    private WindowTargets windowTargets = new WindowTargets(null);
    /** Other nodes' one-sided operations waiting for a lock word a slave of this node holds, oldest first. */
    private final ArrayDeque<Pending> lockedOut = new ArrayDeque<>();

    /** A one-sided operation of a slave of {@code fromNode} that waits for a lock word here. */
    private record Pending(int fromNode, MasterMessage.RmaOp op) {
    }
    private int running;
    private int maxRunning;
    private int exited;
    private long spillFiles;
    private JobOutcome outcome;
    /** Records state intervals for --trace/--report, or null. */
    private TimelineRecorder timeline;

    /**
     * @param slaves          index = world rank; all STARTING
     * @param deleteSpillFile deletes a spill file (by name) the master owned, off this thread
     * @param checkpointing   takes and restores the job's checkpoints
     * @param onEnd           called once, on this thread, when the job has succeeded or failed
     */
    Scheduler(SlaveSession[] slaves, int nrunning, ResumePolicy policy, LongSupplier clockNs,
              Consumer<String> deleteSpillFile, Checkpointing checkpointing, Consumer<JobOutcome> onEnd) {
        this(Placement.of("block", 1, slaves.length), 0, null, slaves, nrunning, policy, MessageStore.ON_HEAP, clockNs,
                deleteSpillFile, checkpointing, onEnd);
    }

    /**
     * The scheduler of {@code node} in a job of several nodes.
     *
     * @param slaves   this node's slaves, in local order ({@link Placement#ranksOn})
     * @param remote   the other nodes' masters; null when the job has one node
     * @param messages      where buffered inline messages wait for their receivers
     * @param checkpointing takes and restores the job's checkpoints
     */
    public Scheduler(Placement placement, int node, RemoteNodes remote, SlaveSession[] slaves, int nrunning, ResumePolicy policy,
              MessageStore messages, LongSupplier clockNs, Consumer<String> deleteSpillFile, Checkpointing checkpointing,
              Consumer<JobOutcome> onEnd) {
        this.node = node;
        this.placement = placement;
        this.remote = remote;
        this.quiescence = remote == null ? null : new NodesQuiescence(node, placement.nodes(), clockNs.getAsLong());
        this.messages = messages;
        this.slaves = slaves;
        this.byWorldRank = new SlaveSession[placement.worldSize()];
        for (SlaveSession s : slaves) {
            byWorldRank[s.worldRank] = s;
        }
        this.nrunning = nrunning;
        this.mostAllowed = nrunning;
        this.policy = policy;
        this.clockNs = clockNs;
        this.onEnd = onEnd;
        this.startNs = clockNs.getAsLong();
        this.comms = new Communicators(placement, node);
        this.sharedSpillFiles = new SharedSpillFiles(deleteSpillFile);
        this.checkpointing = checkpointing;
        if (remote != null) {
            checkpointing.coordinateWith(node, placement.nodes(), new Checkpointing.Coordinator() {
                @Override
                public void partWritten(int sequence) {
                    quiescence.sent(1);
                    remote.checkpointPartWritten(sequence);
                }

                @Override
                public void committed(int sequence) {
                    quiescence.sent(placement.nodes() - 1);
                    remote.checkpointCommitted(sequence);
                }

                @Override
                public void copyToBuddy(int sequence, Path partDir, List<String> files) {
                    quiescence.sent(files.size());
                    remote.copyToBuddy(sequence, partDir, files);
                }

                @Override
                public void buddyCopied(int sequence, int ofNode) {
                    quiescence.sent(1);
                    remote.buddyCopied(sequence, ofNode);
                }
            });
        }
        this.collectives = new Collectives(comms, sharedSpillFiles, remote, checkpointing, new Collectives.Listener() {
            @Override
            public void completed(SlaveSession member, MasterReply.CollectiveDone done) {
                member.mailbox.complete(done);
                wake(member);
            }

            @Override
            public void shipping(int masters) {
                quiescence.sent(masters);
            }

            @Override
            public void failed(String reason) {
                fail(1, reason);
            }
        });
    }

    // ---------------------------------------------------------------- events

    /** A step of a checkpoint's commit that another master's news triggers. */
    private interface CheckpointStep {
        void run() throws Checkpointing.CheckpointException;
    }

    private void onCheckpointStep(CheckpointStep step) {
        try {
            step.run();
        } catch (Checkpointing.CheckpointException e) {
            fail(1, e.getMessage());
        }
    }

    public void onEvent(MasterEvent event) {
        if (event instanceof MasterEvent.RequestArrived r) {
            if (outcome == null) {
                onRequest(r.connection(), r.request());
            }
        } else if (event instanceof MasterEvent.ProcessExited e) {
            onProcessExited(byWorldRank[e.worldRank()], e.exitCode());
        } else if (event instanceof MasterEvent.RemoteArrived r) {
            quiescence.received();
            onRemoteArrived(r.arrival());
        } else if (event instanceof MasterEvent.RemoteSendMatched m) {
            quiescence.received();
            sendMatched(m.senderWorldRank(), m.syncId());
        } else if (event instanceof MasterEvent.PeerState p) {
            quiescence.peer(p.node(), p.state(), clockNs.getAsLong());
        } else if (event instanceof MasterEvent.RemotePointerRequest r) {
            quiescence.received();
            if (outcome == null) {
                onRemotePointerRequest(r.node(), r.request());
            }
        } else if (event instanceof MasterEvent.RemotePointerAnswer a) {
            quiescence.received();
            if (outcome == null) {
                onRemotePointerAnswer(a.answer());
            }
        } else if (event instanceof MasterEvent.RemoteWindow w) {
            quiescence.received();
            if (outcome == null) {
                onRemoteWindow(w.node(), w.message());
            }
        } else if (event instanceof MasterEvent.RemoteStarted r) {
            quiescence.received();
            if (outcome == null) {
                collectives.arriveRemote(r.start());
            }
        } else if (event instanceof MasterEvent.CheckpointPartWritten w) {
            quiescence.received();
            if (outcome == null) {
                onCheckpointStep(() -> checkpointing.partWritten(w.node(), w.sequence()));
            }
        } else if (event instanceof MasterEvent.CheckpointCommitted c) {
            quiescence.received();
            if (outcome == null) {
                onCheckpointStep(() -> checkpointing.committed(c.sequence()));
            }
        } else if (event instanceof MasterEvent.BuddyFileArrived f) {
            quiescence.received();
            if (outcome == null) {
                onCheckpointStep(() -> checkpointing.buddyFile(f.node(), f.sequence(), f.name(), f.payload()));
            }
        } else if (event instanceof MasterEvent.BuddyCopied c) {
            quiescence.received();
            if (outcome == null) {
                onCheckpointStep(() -> checkpointing.buddyCopied(c.ofNode(), c.sequence()));
            }
        } else if (event instanceof MasterEvent.SpillShipped shipped) {
            sharedSpillFiles.release(shipped.fileName());
        } else if (event instanceof MasterEvent.PeerFailed peer) {
            if (outcome == null) {
                end(new JobOutcome(peer.exitCode(), null, false)); // its master reported why; this one only stops
            }
        } else if (event instanceof MasterEvent.ConnectionLost lost) {
            onConnectionLost(lost.connection());
        } else if (event instanceof MasterEvent.StopRequested stop) {
            fail(stop.exitCode(), stop.reason());
        } else if (event instanceof MasterEvent.Tick) {
            preemptOverdue();
        } else if (event instanceof MasterEvent.MemorySampled m) {
            onMemorySampled(m.sample());
        } else if (event instanceof MasterEvent.SnapshotRequested s) {
            s.result().complete(JobSnapshot.of(slaves, clockNs.getAsLong() - startNs, nrunning, runningController != null,
                    nrunningChanges.isEmpty() ? null : nrunningChanges.get(nrunningChanges.size() - 1)));
        } else if (event instanceof MasterEvent.StatsRequested s) {
            if (timeline != null) {
                timeline.jobEnded(clockNs.getAsLong());
            }
            s.result().complete(stats());
        }
    }

    /** Deferred decisions of a batch: fill free running slots, then look for a deadlock. */
    public void onEndOfBatch() {
        if (outcome != null) {
            return;
        }
        retryLockedOut();
        SlaveSession next;
        while (running < nrunning && (next = nextSlave()) != null) {
            resume(next);
        }
        offerNext();
        detectDeadlock();
    }

    /**
     * From now on, whenever every running slot is taken and slaves wait for one, tell
     * {@code nextToResume} the world rank of the slave the policy would resume next (once per
     * slave and wait) and the spilled data it will collect, so that its data can be read in
     * meanwhile (see {@link io.bdmpi.master.memory.ReadAhead}).
     */
    public void readAheadWith(NextToResume nextToResume) {
        this.nextToResume = nextToResume;
    }

    /**
     * -nr below -ns: a slave that runs for {@code quantumNs} without an MPI call while others wait
     * for a slot is stopped with {@code signals} and resumed later, like a parked one.
     */
    public void preemptAfter(long quantumNs, ProcessSignals signals) {
        this.quantumNs = quantumNs;
        this.signals = signals;
    }

    /**
     * The slave to resume next: a runnable one, as the policy picks; only when there is none, the
     * one that gave its slot up first. The most-resident policy would otherwise resume the poller
     * that has just given its slot up (all its memory is in), and the rank it polls for would never run.
     */
    private SlaveSession nextSlave() {
        return runnable.isEmpty() ? yieldedQueue.peekFirst() : runnable.get(policy.pick(runnable));
    }

    /** Whether more slaves wait for a running slot than are free. */
    private boolean slotWanted() {
        return runnable.size() + yieldedQueue.size() > nrunning - running;
    }

    private void offerNext() {
        if (nextToResume == null || running < nrunning) {
            return;
        }
        SlaveSession next = nextSlave();
        if (next != null && next != offeredNext) {
            offeredNext = next;
            List<Payload> spilled = new ArrayList<>();
            next.mailbox.forEachCompleted(p -> {
                if (!(p instanceof Payload.Inline)) {
                    spilled.add(p);
                }
            });
            nextToResume.offer(next.worldRank, spilled);
        }
    }

    /** The clock reading every time in the statistics and the timeline counts from. */
    public long startNs() {
        return startNs;
    }

    /**
     * -nr auto: from now on {@code controller} decides how many slaves may run at once, from the
     * {@link MasterEvent.MemorySampled} events. A lower count preempts nobody: the end of a batch
     * only resumes slaves while fewer than the count run.
     */
    public void followMemory(RunningController controller) {
        runningController = controller;
        nrunning = controller.allowed();
        mostAllowed = nrunning;
    }

    private void onMemorySampled(MemorySample sample) {
        if (runningController == null || outcome != null) {
            return;
        }
        JobStats.NrunningChange change = runningController.onSample(clockNs.getAsLong(), sample, i -> phase(slaves[i]),
                !runnable.isEmpty() || !yieldedQueue.isEmpty());
        if (change != null) {
            nrunningChanges.add(change);
            nrunning = change.to();
            mostAllowed = Math.max(mostAllowed, nrunning);
        }
    }

    /** Where a slave is, for the {@link RunningController}: has it finished a run, does it run, is it gone. */
    private static RunningController.Phase phase(SlaveSession s) {
        if (s.state == SlaveState.EXITED) {
            return RunningController.Phase.GONE;
        }
        if (s.state == SlaveState.RUNNING) {
            return s.resumes > 1 ? RunningController.Phase.RUNNING : RunningController.Phase.FIRST_RUN;
        }
        return s.resumes > 0 ? RunningController.Phase.AT_REST : RunningController.Phase.NEW;
    }

    /** Records every transition into {@code recorder} from now on. */
    public void recordTimeline(TimelineRecorder recorder) {
        timeline = recorder;
    }

    int maxRunning() {
        return maxRunning;
    }

    // ---------------------------------------------------------------- requests

    private void onRequest(SlaveConnection connection, SlaveRequest request) {
        if (request instanceof SlaveRequest.Hello hello) {
            onHello(connection, hello);
            return;
        }
        SlaveSession s = sessionOf(connection);
        if (s == null) {
            fail(1, "protocol error: " + request + " before hello on a slave connection");
            return;
        }
        if (request instanceof SlaveRequest.Abort abort) {
            // Accepted in any state: another thread of a parked slave may abort the job.
            fail(abort.errorCode(), "rank " + s.worldRank + " (pid " + s.pid + ") aborted the job (error code " + abort.errorCode() + ")"
                    + (abort.reason().isEmpty() ? "" : ": " + abort.reason()));
            return;
        }
        if (request instanceof SlaveRequest.NameComm named) {
            comms.rename(named.commId(), named.name()); // one-way and stateless, as a release
            return;
        }
        if (request instanceof SlaveRequest.ReleaseSpill release) {
            // One-way and stateless, so accepted in any state: the slave has unmapped the file already.
            onReleaseSpill(s, release);
            return;
        }
        if (s.yielded == SlaveSession.Yield.QUANTUM) {
            s.deferred.addLast(request); // sent just before its SIGSTOP: handled when it resumes
            return;
        }
        if (s.state != SlaveState.RUNNING) {
            fail(1, "protocol error: rank " + s.worldRank + " sent " + request + " while " + s.state);
            return;
        }
        handle(s, request);
    }

    /** A request of a RUNNING slave. */
    private void handle(SlaveSession s, SlaveRequest request) {
        s.lastCallNs = clockNs.getAsLong();
        if (!isPoll(request)) {
            s.pollingOn = null;
        }
        // A slave reads the file ranges of a collective's result before it asks for anything else.
        releaseSlices(s);
        if (!(request instanceof SlaveRequest.Collect)) {
            s.lastRequest = request; // the call itself (recv, barrier, ...), not the wait that completes it
        }
        if (request instanceof SlaveRequest.Send send) {
            onSend(s, send);
        } else if (request instanceof SlaveRequest.PostRecv post) {
            onPostRecv(s, post);
        } else if (request instanceof SlaveRequest.Collect collect) {
            onCollect(s, collect);
        } else if (request instanceof SlaveRequest.Cancel cancel) {
            s.connection.send(new MasterReply.CancelResult(s.mailbox.cancel(cancel.requestId())));
        } else if (request instanceof SlaveRequest.Probe probe) {
            onProbe(s, probe);
        } else if (request instanceof SlaveRequest.StartCollective start) {
            collectives.start(s, start);
        } else if (request instanceof SlaveRequest.StartSplit split) {
            collectives.split(s, split);
        } else if (request instanceof SlaveRequest.StartGroupComm group) {
            collectives.groupComm(s, group);
        } else if (request instanceof SlaveRequest.QueryComm query) {
            onQueryComm(s, query);
        } else if (request instanceof SlaveRequest.FilePointer pointer) {
            onFilePointer(s, pointer);
        } else if (request instanceof SlaveRequest.CriticalEnter) {
            onCriticalEnter(s, request);
        } else if (request instanceof SlaveRequest.CriticalExit) {
            onCriticalExit(s);
        } else if (request instanceof SlaveRequest.WinLock lock) {
            onWinLock(s, lock);
        } else if (request instanceof SlaveRequest.WinUnlock unlock) {
            onWinUnlock(s, unlock);
        } else if (request instanceof SlaveRequest.WinRma rma) {
            onWinRma(s, rma);
        } else if (request instanceof SlaveRequest.Finalize fin) {
            s.peakRssBytes = fin.peakRssBytes();
            transition(s, SlaveState.FINALIZED);
            s.connection.send(new MasterReply.Go());
        }
    }

    /** Only a master that receives from other nodes hands out recycled files; any other name is a slave's error. */
    private void onReleaseSpill(SlaveSession s, SlaveRequest.ReleaseSpill release) {
        if (remote == null || !SpillDirectory.isRecycled(release.fileName()) || release.fileName().contains("/")) {
            fail(1, "protocol error: rank " + s.worldRank + " released spill file '" + release.fileName()
                    + "', which is not a recycled file of this master");
            return;
        }
        remote.recycle(release.fileName());
    }

    private void onHello(SlaveConnection connection, SlaveRequest.Hello hello) {
        int rank = hello.worldRank();
        if (rank < 0 || rank >= byWorldRank.length || byWorldRank[rank] == null || byWorldRank[rank].connection != null) {
            fail(1, "protocol error: hello from rank " + rank + " (pid " + hello.pid() + ") that is unknown or already connected");
            return;
        }
        SlaveSession s = byWorldRank[rank];
        if (s.state != SlaveState.STARTING) {
            fail(1, "protocol error: hello from rank " + rank + " while " + s.state);
            return;
        }
        connection.attach(rank);
        s.connection = connection;
        s.lastRequest = hello;
        s.parkedOn = null;
        makeRunnable(s);
        s.lastCallNs = clockNs.getAsLong();
    }

    /** The slave that said hello on {@code connection}, or null before its hello. */
    private SlaveSession sessionOf(SlaveConnection connection) {
        int rank = connection.worldRank();
        return rank < 0 ? null : byWorldRank[rank];
    }

    private void onSend(SlaveSession s, SlaveRequest.Send send) {
        Communicator comm = communicator(s, send.commId());
        if (comm == null) {
            return;
        }
        // On an intercommunicator the destination is a rank of the other group, the source one of the sender's.
        int senderRank = comm.rankOf(s.worldRank);
        int destRank = comm.destination(senderRank, send.dest());
        if (destRank < 0) {
            fail(1, "rank " + s.worldRank + " sent to rank " + send.dest() + " of " + comm.name() + ", which has "
                    + comm.peers(senderRank) + " ranks");
            return;
        }
        int sourceInComm = comm.sourceRank(senderRank);
        Payload payload = send.payload();
        s.messagesSent++;
        if (payload instanceof Payload.Spilled) {
            s.bytesSentSpilled += payload.length();
            spillFiles++;
        } else {
            s.bytesSentInline += payload.length();
        }
        if (send.syncId() != 0) {
            s.mailbox.awaitMatch(send.syncId(), describe(send));
        }
        SlaveSession dest = byWorldRank[destRank];
        if (dest == null) {
            quiescence.sent(1);
            remote.forward(new Internode.Arrival(destRank, send.commId(), sourceInComm, send.tag(), s.worldRank, send.syncId(),
                    payload));
            return;
        }
        deliver(dest, new StoredMessage(send.commId(), sourceInComm, send.tag(), s.worldRank, send.syncId(), payload));
    }

    /** A message from a slave of another node, forwarded by its master. */
    private void onRemoteArrived(Internode.Arrival a) {
        SlaveSession dest = a.destWorldRank() >= 0 && a.destWorldRank() < byWorldRank.length ? byWorldRank[a.destWorldRank()] : null;
        if (dest == null) {
            fail(1, "internal error: node " + node + " was sent a message for rank " + a.destWorldRank() + ", which is not on it");
            return;
        }
        deliver(dest, new StoredMessage(a.commId(), a.source(), a.tag(), a.senderWorldRank(), a.syncId(), a.payload()));
    }

    private void deliver(SlaveSession dest, StoredMessage m) {
        StoredMessage taken = dest.mailbox.deliver(m, messages);
        wake(dest);
        matched(taken);
    }

    /**
     * A receive took {@code m} (null: none): if a synchronous send sent it, that send is complete,
     * here or, through its master, on the sender's node.
     */
    private void matched(StoredMessage m) {
        if (m == null || m.syncId() == 0) {
            return;
        }
        if (byWorldRank[m.senderWorldRank()] == null) {
            quiescence.sent(1);
            remote.sendMatched(m.senderWorldRank(), m.syncId());
        } else {
            sendMatched(m.senderWorldRank(), m.syncId());
        }
    }

    /** A receive, here or on another node, matched the message of a synchronous send of a slave of this node. */
    private void sendMatched(int senderWorldRank, long syncId) {
        SlaveSession sender = senderWorldRank >= 0 && senderWorldRank < byWorldRank.length ? byWorldRank[senderWorldRank] : null;
        if (sender == null) {
            fail(1, "internal error: node " + node + " was told of a matched send of rank " + senderWorldRank
                    + ", which is not on it");
            return;
        }
        sender.mailbox.complete(new MasterReply.SendMatched(syncId));
        wake(sender);
    }

    /**
     * Something {@code s} may wait for has come: a parked slave that can go on becomes runnable, and
     * a poller that gave its slot up leaves the back of the queue for the runnable ones.
     */
    private void wake(SlaveSession s) {
        if (s.state.isBlocked() && canProceed(s)) {
            makeRunnable(s);
        } else if (s.yielded == SlaveSession.Yield.POLL && pollFinds(s)) {
            yieldedQueue.remove(s);
            s.yielded = null;
            runnable.add(s);
        }
    }

    private void onPostRecv(SlaveSession s, SlaveRequest.PostRecv post) {
        if (communicator(s, post.commId()) != null) {
            matched(s.mailbox.post(post.requestId(), post.commId(), post.source(), post.tag()));
        }
    }

    private void onCollect(SlaveSession s, SlaveRequest.Collect collect) {
        List<Long> unknown = s.mailbox.unknown(collect.requestIds());
        unknown.removeIf(s.collectives::containsKey);
        if (!unknown.isEmpty()) {
            fail(1, "protocol error: rank " + s.worldRank + " waits for requests " + unknown + " it never started");
            return;
        }
        parkOrAnswer(s, collect, collect.block(), onlyCollectives(s, collect) ? SlaveState.CBLOCKED : SlaveState.RBLOCKED);
    }

    /** Whether every request a collect waits for is a collective (the slave then parks as CBLOCKED). */
    private static boolean onlyCollectives(SlaveSession s, SlaveRequest.Collect collect) {
        for (long id : collect.requestIds()) {
            if (!s.collectives.containsKey(id) && !s.mailbox.isReady(id)) {
                return false;
            }
        }
        return true;
    }

    private void onProbe(SlaveSession s, SlaveRequest.Probe probe) {
        if (communicator(s, probe.commId()) != null) {
            parkOrAnswer(s, probe, probe.block(), SlaveState.RBLOCKED);
        }
    }

    private void onQueryComm(SlaveSession s, SlaveRequest.QueryComm query) {
        Communicator comm = communicator(s, query.commId());
        if (comm != null) {
            s.connection.send(comm.info(comm.rankOf(s.worldRank)));
        }
    }

    /**
     * A shared file pointer operation: done here when this node keeps the pointer; otherwise sent
     * to the master that does, the slave parked until the answer is back.
     */
    private void onFilePointer(SlaveSession s, SlaveRequest.FilePointer f) {
        if (f.ownerNode() == node) {
            s.connection.send(new MasterReply.PointerValue(filePointers.apply(f.key(), f.op(), f.value())));
            return;
        }
        if (quiescence == null) {
            fail(1, "protocol error: rank " + s.worldRank + " asked node " + f.ownerNode() + " for a file pointer in a job of one node");
            return;
        }
        s.pointerAnswer = null;
        quiescence.sent(1);
        remote.pointerRequest(f.ownerNode(), new MasterMessage.PointerRequest(f.key(), f.op(), f.value(), s.worldRank));
        parkOrAnswer(s, f, true, SlaveState.RBLOCKED);
    }

    private void onRemotePointerRequest(int fromNode, MasterMessage.PointerRequest r) {
        long before = filePointers.apply(r.key(), r.op(), r.value());
        quiescence.sent(1);
        remote.pointerAnswer(fromNode, new MasterMessage.PointerAnswer(r.worldRank(), before));
    }

    private void onRemotePointerAnswer(MasterMessage.PointerAnswer a) {
        SlaveSession s = a.worldRank() >= 0 && a.worldRank() < byWorldRank.length ? byWorldRank[a.worldRank()] : null;
        if (s == null || !(s.parkedOn instanceof SlaveRequest.FilePointer)) {
            fail(1, "internal error: node " + node + " got a file pointer answer for rank " + a.worldRank()
                    + ", which does not wait for one here");
            return;
        }
        s.pointerAnswer = a.value();
        wake(s);
    }

    private void onCriticalEnter(SlaveSession s, SlaveRequest request) {
        if (criticalHolder == s || criticalWaiters.contains(s)) {
            fail(1, "rank " + s.worldRank + " entered the critical section twice");
            return;
        }
        if (criticalHolder == null) {
            criticalHolder = s;
        } else {
            criticalWaiters.addLast(s);
        }
        parkOrAnswer(s, request, true, SlaveState.RBLOCKED);
    }

    private void onCriticalExit(SlaveSession s) {
        if (criticalHolder != s) {
            fail(1, "rank " + s.worldRank + " left the critical section without being in it");
            return;
        }
        passCriticalSection();
    }

    /** The holder left (or died): the next waiter enters. */
    private void passCriticalSection() {
        criticalHolder = criticalWaiters.pollFirst();
        if (criticalHolder != null) {
            wake(criticalHolder);
        }
    }

    /**
     * Where this master keeps the window files its node's slaves make ({@code spillDir}), which it
     * maps to apply the one-sided operations of other nodes' slaves; until called, it applies none.
     */
    public void windowFilesIn(java.nio.file.Path spillDir) {
        windowTargets = new WindowTargets(spillDir);
    }

    /**
     * A window lock: kept here for a target of this node, granted at once or the slave parks
     * (RBLOCKED, seen by the deadlock detection) until it is; for a target of another node, asked
     * of that node's master, the slave parked until it grants it.
     */
    private void onWinLock(SlaveSession s, SlaveRequest.WinLock lock) {
        if (lock.node() != node) {
            if (checkRemote(s, lock.node())) {
                s.remoteLockGranted = false;
                sendWindow(lock.node(), new MasterMessage.LockRequest(lock.winId(), lock.target(), lock.exclusive(),
                        s.worldRank));
                parkOrAnswer(s, lock, true, SlaveState.RBLOCKED);
            }
            return;
        }
        try {
            windowLocks.request(s.worldRank, lock.winId(), lock.target(), lock.exclusive());
        } catch (IllegalStateException e) {
            fail(1, e.getMessage());
            return;
        }
        parkOrAnswer(s, lock, true, SlaveState.RBLOCKED);
    }

    private void onWinUnlock(SlaveSession s, SlaveRequest.WinUnlock unlock) {
        if (unlock.node() != node) {
            if (checkRemote(s, unlock.node())) {
                sendWindow(unlock.node(), new MasterMessage.Unlock(unlock.winId(), unlock.target(), s.worldRank));
            }
            return;
        }
        try {
            windowLocks.release(s.worldRank, unlock.winId(), unlock.target(), this::lockGranted);
        } catch (IllegalStateException e) {
            fail(1, e.getMessage());
        }
    }

    /** A one-sided operation on a window member of another node: sent to its master, the slave parked until it is applied. */
    private void onWinRma(SlaveSession s, SlaveRequest.WinRma rma) {
        int target = rma.op().targetNode();
        if (target == node) {
            fail(1, "protocol error: rank " + s.worldRank + " asked its own master to apply a one-sided operation of"
                    + " its own node");
            return;
        }
        if (checkRemote(s, target)) {
            s.rmaResult = null;
            sendWindow(target, new MasterMessage.RmaOp(s.worldRank, rma.op()));
            parkOrAnswer(s, rma, true, SlaveState.RBLOCKED);
        }
    }

    /** Whether {@code target} is another node of this job; else the job fails. */
    private boolean checkRemote(SlaveSession s, int target) {
        if (quiescence == null || target < 0 || target >= placement.nodes()) {
            fail(1, "protocol error: rank " + s.worldRank + " named node " + target + " for a window in a job of "
                    + placement.nodes() + " node(s)");
            return false;
        }
        return true;
    }

    private void sendWindow(int toNode, MasterMessage.WindowTraffic message) {
        quiescence.sent(1);
        remote.window(toNode, message);
    }

    /** World rank {@code worldRank} now holds the window lock it waited for: woken here, or told through its master. */
    private void lockGranted(int worldRank) {
        SlaveSession s = byWorldRank[worldRank];
        if (s != null) {
            wake(s);
        } else {
            sendWindow(placement.nodeOf(worldRank), new MasterMessage.LockGranted(worldRank));
        }
    }

    private void onRemoteWindow(int fromNode, MasterMessage.WindowTraffic m) {
        if (m instanceof MasterMessage.RmaOp op) {
            applyRemote(fromNode, op);
        } else if (m instanceof MasterMessage.LockRequest r) {
            try {
                if (windowLocks.request(r.originWorldRank(), r.winId(), r.target(), r.exclusive())) {
                    sendWindow(fromNode, new MasterMessage.LockGranted(r.originWorldRank()));
                }
            } catch (IllegalStateException e) {
                fail(1, e.getMessage());
            }
        } else if (m instanceof MasterMessage.Unlock u) {
            try {
                windowLocks.release(u.originWorldRank(), u.winId(), u.target(), this::lockGranted);
            } catch (IllegalStateException e) {
                fail(1, e.getMessage());
            }
        } else if (m instanceof MasterMessage.RmaDone done) {
            SlaveSession s = waiting(done.originWorldRank(), SlaveRequest.WinRma.class, "one-sided operation result");
            if (s != null) {
                // The data is a view of the buffer the pump received this message into, its own.
                s.rmaResult = new MasterReply.RmaResult(done.outcome(), done.error(), done.data());
                wake(s);
            }
        } else if (m instanceof MasterMessage.LockGranted g) {
            SlaveSession s = waiting(g.originWorldRank(), SlaveRequest.WinLock.class, "window lock");
            if (s != null) {
                s.remoteLockGranted = true;
                wake(s);
            }
        }
    }

    /** The slave of this node that waits, parked on a {@code kind} request, for this answer; null (the job failed) if none. */
    private SlaveSession waiting(int worldRank, Class<? extends SlaveRequest> kind, String what) {
        SlaveSession s = worldRank >= 0 && worldRank < byWorldRank.length ? byWorldRank[worldRank] : null;
        if (s == null || !kind.isInstance(s.parkedOn)) {
            fail(1, "internal error: node " + node + " got a " + what + " for rank " + worldRank
                    + ", which does not wait for one here");
            return null;
        }
        return s;
    }

    /** Applies another node's one-sided operation, or keeps it for later while a slave here holds its lock word. */
    private void applyRemote(int fromNode, MasterMessage.RmaOp op) {
        MasterMessage.RmaDone done = windowTargets.apply(op.originWorldRank(), op.op());
        if (done == null) {
            lockedOut.addLast(new Pending(fromNode, op));
        } else {
            sendWindow(fromNode, done);
        }
    }

    /** Tries the operations that waited for a lock word again, each once, in order. */
    private void retryLockedOut() {
        for (int i = lockedOut.size(); i > 0; i--) {
            Pending p = lockedOut.pollFirst();
            applyRemote(p.fromNode(), p.op());
        }
    }

    /**
     * Answers now if the request can be answered, else parks the slave. A poll ({@code block}
     * false) that finds nothing is answered at once, unless others wait for a slot: then the
     * poller gives its slot up and is answered, afresh, when it resumes.
     */
    private void parkOrAnswer(SlaveSession s, SlaveRequest request, boolean block, SlaveState blockedState) {
        s.parkedOn = request;
        if (block ? canProceed(s) : pollFinds(s)) {
            s.pollingOn = null;
        } else if (block) {
            transition(s, blockedState);
            return;
        } else {
            long now = clockNs.getAsLong();
            if (s.pollingOn == null || now - s.lastPollNs > SPIN_GAP_NS) {
                s.pollingSinceNs = now; // a long gap between two polls: it computes, it does not spin
            }
            s.pollingOn = request;
            s.lastPollNs = now;
            if (slotWanted()) {
                s.pollYields++;
                giveUpSlot(s, SlaveSession.Yield.POLL);
                return;
            }
        }
        s.connection.send(answer(s));
        s.parkedOn = null;
    }

    private static boolean isPoll(SlaveRequest r) {
        return r instanceof SlaveRequest.Collect c && !c.block() || r instanceof SlaveRequest.Probe p && !p.block();
    }

    /** Whether the poll {@code s} is parked on would find something: a request done, a message to probe. */
    private boolean pollFinds(SlaveSession s) {
        SlaveRequest r = s.parkedOn;
        if (r instanceof SlaveRequest.Collect c) {
            return s.mailbox.readyCount(c.requestIds()) > 0;
        }
        return canProceed(s);
    }

    /** Whether the request a slave is parked on can now be answered. */
    private boolean canProceed(SlaveSession s) {
        SlaveRequest r = s.parkedOn;
        if (r instanceof SlaveRequest.Collect c) {
            return s.mailbox.readyCount(c.requestIds()) >= c.minReady();
        }
        if (r instanceof SlaveRequest.Probe p) {
            return s.mailbox.peek(p.commId(), p.source(), p.tag()) != null;
        }
        if (r instanceof SlaveRequest.CriticalEnter) {
            return criticalHolder == s;
        }
        if (r instanceof SlaveRequest.FilePointer) {
            return s.pointerAnswer != null;
        }
        if (r instanceof SlaveRequest.WinLock l) {
            return l.node() == node ? windowLocks.holdsWanted(s.worldRank) : s.remoteLockGranted;
        }
        if (r instanceof SlaveRequest.WinRma) {
            return s.rmaResult != null;
        }
        return true;
    }

    /** The reply to the request a slave was parked on, computed when it is resumed (so it is fresh). */
    private MasterReply answer(SlaveSession s) {
        SlaveRequest r = s.parkedOn;
        if (r instanceof SlaveRequest.Collect c) {
            List<MasterReply.Completion> taken = s.mailbox.take(c.requestIds());
            holdSlices(s, taken);
            return new MasterReply.Deliveries(taken);
        }
        if (r instanceof SlaveRequest.Probe p) {
            StoredMessage m = s.mailbox.peek(p.commId(), p.source(), p.tag());
            return m == null ? MasterReply.ProbeResult.NONE : new MasterReply.ProbeResult(true, m.source(), m.tag(), m.length());
        }
        if (r instanceof SlaveRequest.FilePointer) {
            MasterReply.PointerValue v = new MasterReply.PointerValue(s.pointerAnswer);
            s.pointerAnswer = null;
            return v;
        }
        if (r instanceof SlaveRequest.WinRma) {
            MasterReply.RmaResult result = s.rmaResult;
            s.rmaResult = null;
            return result;
        }
        return new MasterReply.Go();
    }

    // ---------------------------------------------------------------- communicators and shared files

    /** The communicator as {@code s} sees it; null (and the job failed) if it is not a member. */
    private Communicator communicator(SlaveSession s, int commId) {
        Communicator comm = comms.lookup(commId, s.worldRank);
        if (comm == null) {
            fail(1, "rank " + s.worldRank + " used communicator " + comms.name(commId)
                    + ", which does not exist or does not include it (freed?)");
        }
        return comm;
    }

    /** The slave was handed file ranges of collective results: it reads them before its next request. */
    private static void holdSlices(SlaveSession s, List<MasterReply.Completion> taken) {
        for (MasterReply.Completion c : taken) {
            if (c instanceof MasterReply.CollectiveDone done) {
                for (Payload p : done.pieces()) {
                    if (p instanceof Payload.Slice slice) {
                        s.heldSlices.add(slice.fileName());
                    }
                }
            }
        }
    }

    private void releaseSlices(SlaveSession s) {
        for (String file : s.heldSlices) {
            sharedSpillFiles.release(file);
        }
        s.heldSlices.clear();
    }

    // ---------------------------------------------------------------- states

    private void makeRunnable(SlaveSession s) {
        transition(s, SlaveState.RUNNABLE);
        runnable.add(s);
    }

    /** A RUNNING slave that could go on gives its slot up and waits at the back of the queue. */
    private void giveUpSlot(SlaveSession s, SlaveSession.Yield why) {
        s.yielded = why;
        transition(s, SlaveState.RUNNABLE);
        yieldedQueue.addLast(s);
    }

    private void resume(SlaveSession s) {
        if (s == offeredNext) {
            offeredNext = null;
        }
        SlaveSession.Yield yielded = s.yielded;
        transition(s, SlaveState.RUNNING);
        s.yielded = null;
        s.resumes++;
        s.lastCallNs = clockNs.getAsLong();
        if (yielded != SlaveSession.Yield.QUANTUM) {
            s.connection.send(answer(s));
            s.parkedOn = null;
            return;
        }
        signals.resume(s.pid);
        while (s.state == SlaveState.RUNNING && !s.deferred.isEmpty() && outcome == null) {
            handle(s, s.deferred.pollFirst());
        }
    }

    /** Stops the slaves that have run past the quantum without an MPI call, as many as wait for a slot. */
    private void preemptOverdue() {
        if (quantumNs <= 0 || outcome != null) {
            return;
        }
        long now = clockNs.getAsLong();
        int waiting = runnable.size() + yieldedQueue.size();
        for (int i = 0; i < slaves.length && waiting > 0; i++) {
            SlaveSession s = slaves[i];
            if (s.state == SlaveState.RUNNING && now - s.lastCallNs >= quantumNs) {
                signals.stop(s.pid);
                s.preemptions++;
                waiting--;
                giveUpSlot(s, SlaveSession.Yield.QUANTUM);
            }
        }
    }

    /** The one place where slave states change; keeps the running count and the time accounts. */
    void transition(SlaveSession s, SlaveState to) {
        if (!s.state.canMoveTo(to)) {
            throw new IllegalStateException("rank " + s.worldRank + ": illegal transition " + s.state + " -> " + to);
        }
        long now = clockNs.getAsLong();
        s.accountUntil(now);
        if (timeline != null) {
            timeline.transition(s.localIndex, to, now, () -> to == SlaveState.RUNNABLE && s.yielded == null ? null : pendingCall(s));
        }
        if (s.state == SlaveState.RUNNING) {
            running--;
        }
        if (s.state == SlaveState.RUNNABLE && !runnable.remove(s)) {
            yieldedQueue.remove(s);
        }
        s.state = to;
        if (to == SlaveState.RUNNING) {
            running++;
            if (running > nrunning) {
                throw new IllegalStateException(running + " slaves running, limit " + nrunning);
            }
            maxRunning = Math.max(maxRunning, running);
        }
    }

    // ---------------------------------------------------------------- failures and the end

    private void onProcessExited(SlaveSession s, int exitCode) {
        if (s.state == SlaveState.EXITED) {
            return;
        }
        SlaveState before = s.state;
        // A parked slave's last call is what it waits for (a receive, a collective), said as a deadlock would.
        String lastCall = s.state.isBlocked() && s.parkedOn instanceof SlaveRequest.Collect c
                ? describeWait(s, c) : describe(s.lastRequest);
        s.exitCode = exitCode;
        releaseSlices(s);
        criticalWaiters.remove(s);
        if (criticalHolder == s) {
            passCriticalSection();
        }
        windowLocks.forget(s.worldRank, this::lockGranted);
        transition(s, SlaveState.EXITED);
        exited++;
        boolean neverUsedMpi = before == SlaveState.STARTING && s.connection == null && exitCode == 0;
        if (before != SlaveState.FINALIZED && !neverUsedMpi) {
            if (outcome == null) {
                end(JobOutcome.rankDied("rank " + s.worldRank + " (pid " + s.pid + ") " + describeExit(exitCode)
                        + " before MPI_Finalize; last MPI call: " + lastCall));
            }
        } else if (exitCode != 0) {
            fail(exitCode, "rank " + s.worldRank + " (pid " + s.pid + ") " + describeExit(exitCode) + " after MPI_Finalize");
        } else if (exited == slaves.length && outcome == null) {
            end(JobOutcome.SUCCESS);
        }
    }

    private void onConnectionLost(SlaveConnection connection) {
        // The process exit that follows says why, with its status; nothing to decide here.
        SlaveSession s = sessionOf(connection);
        if (s != null && s.connection == connection) {
            s.connection = SlaveConnection.CLOSED;
        }
    }

    private void detectDeadlock() {
        List<String> pending = idlePending();
        if (quiescence == null) {
            if (pending != null && !pending.isEmpty()) {
                reportDeadlock(String.join("; ", pending));
            }
            return;
        }
        // Several nodes: a blocked node may be waiting for another; the masters decide together.
        NodesQuiescence.State changed = quiescence.local(pending, false, clockNs.getAsLong());
        if (changed != null) {
            remote.announceState(changed);
        }
        String deadlock = quiescence.deadlock(clockNs.getAsLong());
        if (deadlock != null) {
            reportDeadlock(deadlock);
        }
    }

    private void reportDeadlock(String pending) {
        fail(1, "deadlock: every live rank is blocked (or polls in vain) and no message is in flight; " + pending);
    }

    /**
     * The pending calls of this node's slaves when each of them is blocked, or has done nothing but
     * poll in vain for {@link #POLL_DEADLOCK_NS} and polls still; else (a slave starts, runs or may
     * run) null.
     */
    private List<String> idlePending() {
        // Called at the end of every batch: say "not idle" without a pass over the slaves when a
        // slave waits for a slot (it is neither blocked nor polling in vain), and without
        // describing anyone's call until every slave is known to be idle (one description per
        // blocked slave at every switch made a collective's cost per member grow with S).
        if (!runnable.isEmpty()) {
            return null;
        }
        long now = clockNs.getAsLong();
        for (SlaveSession s : slaves) {
            if (runsOrMayRun(s) && !pollsInVain(s, now)) {
                return null;
            }
        }
        List<String> pending = new ArrayList<>();
        for (SlaveSession s : slaves) {
            if (s.state.isBlocked()) {
                pending.add("rank " + s.worldRank + ": " + pendingCall(s));
            } else if (runsOrMayRun(s)) {
                pending.add("rank " + s.worldRank + ": " + describePoll(s));
            }
        }
        return pending;
    }

    /** Whether a slave is started, running or waits for a slot (not blocked, finalized or gone). */
    private static boolean runsOrMayRun(SlaveSession s) {
        return s.state == SlaveState.STARTING || s.state == SlaveState.RUNNING || s.state == SlaveState.RUNNABLE;
    }

    private boolean pollsInVain(SlaveSession s, long now) {
        return s.pollingOn != null && now - s.pollingSinceNs >= POLL_DEADLOCK_NS
                && (s.yielded == SlaveSession.Yield.POLL || s.state == SlaveState.RUNNING && now - s.lastPollNs <= SPIN_GAP_NS);
    }

    /**
     * The call a parked slave waits in: its receives and collectives, or its probe or critical
     * section; for a slave that gave its slot up, why.
     */
    private String pendingCall(SlaveSession s) {
        if (s.yielded == SlaveSession.Yield.QUANTUM) {
            return "stopped: ran " + quantumNs / 1_000_000_000.0 + " s without an MPI call while others waited";
        }
        if (s.yielded == SlaveSession.Yield.POLL) {
            return describePoll(s);
        }
        if (s.parkedOn instanceof SlaveRequest.WinLock l) {
            // Who holds a lock another node keeps is known there only.
            return "waiting for " + (l.node() == node ? windowLocks.describeWait(s.worldRank)
                    : "MPI_Win_lock(rank " + l.target() + " of window " + l.winId() + ", " + (l.exclusive() ? "exclusive" : "shared")
                    + ", kept by node " + l.node() + ")");
        }
        return s.parkedOn instanceof SlaveRequest.Collect c ? describeWait(s, c) : describe(s.parkedOn);
    }

    /** The poll a slave repeats in vain: its test on receives and collectives, or its iProbe. */
    private String describePoll(SlaveSession s) {
        SlaveRequest r = s.pollingOn;
        if (r instanceof SlaveRequest.Collect c) {
            return "polling (MPI_Test*) " + describeWait(s, c);
        }
        return "polling " + describe(r).replace("MPI_Probe", "MPI_Iprobe");
    }

    /** The receives and collectives a parked slave waits for. */
    private String describeWait(SlaveSession s, SlaveRequest.Collect c) {
        List<String> waits = s.mailbox.describePosted(c.requestIds(), comms::name);
        for (long id : c.requestIds()) {
            SlaveSession.OpenCollective op = s.collectives.get(id);
            if (op != null) {
                waits.add(op.describeWait());
            }
        }
        return "waiting for " + String.join(" and ", waits);
    }

    private void fail(int exitCode, String reason) {
        if (outcome == null) {
            end(JobOutcome.failed(exitCode, reason));
        }
    }

    private void end(JobOutcome o) {
        outcome = o;
        if (quiescence != null && o.exitCode() == 0) {
            // Its slaves are gone: the other nodes may still deadlock among themselves.
            NodesQuiescence.State last = quiescence.local(List.of(), true, clockNs.getAsLong());
            if (last != null) {
                remote.announceState(last);
            }
        }
        onEnd.accept(o);
    }

    static String describeExit(int exitCode) {
        if (exitCode == SlaveMain.EXIT_OUT_OF_MEMORY) {
            return "ran out of memory (OutOfMemoryError; exit status " + exitCode + ")";
        }
        if (exitCode > 128 && exitCode < 128 + 65) {
            return "was killed by signal " + (exitCode - 128) + Signals.name(exitCode - 128);
        }
        return "exited with status " + exitCode;
    }

    private String describe(SlaveRequest r) {
        if (r == null) {
            return "none (before MPI_Init)";
        }
        if (r instanceof SlaveRequest.Hello) {
            return "MPI_Init";
        }
        if (r instanceof SlaveRequest.Send s) {
            return (s.syncId() == 0 ? "MPI_Send" : "MPI_Ssend") + "(dest=" + s.dest() + ", tag=" + s.tag()
                    + ", comm=" + comms.name(s.commId()) + ")";
        }
        if (r instanceof SlaveRequest.PostRecv p) {
            return describeReceive(comms.name(p.commId()), p.source(), p.tag());
        }
        if (r instanceof SlaveRequest.Collect c) {
            return "MPI_Recv/MPI_Wait on " + c.requestIds().length + " request(s)";
        }
        if (r instanceof SlaveRequest.StartCollective c) {
            return CollectiveOp.describe(r) + " on " + comms.name(c.commId());
        }
        if (r instanceof SlaveRequest.StartSplit split) {
            return CollectiveOp.describe(r) + " on " + comms.name(split.commId());
        }
        if (r instanceof SlaveRequest.StartGroupComm) {
            return CollectiveOp.describe(r);
        }
        if (r instanceof SlaveRequest.CriticalEnter) {
            return "BDMPI critical section enter";
        }
        if (r instanceof SlaveRequest.FilePointer f) {
            return "MPI-IO shared file pointer (kept by node " + f.ownerNode() + ")";
        }
        if (r instanceof SlaveRequest.WinLock l) {
            return "MPI_Win_lock(" + (l.exclusive() ? "exclusive" : "shared") + ", rank " + l.target() + ", window "
                    + l.winId() + ", kept by node " + l.node() + ")";
        }
        if (r instanceof SlaveRequest.WinRma w) {
            return "MPI one-sided " + w.op().kind() + " on a window member of node " + w.op().targetNode();
        }
        if (r instanceof SlaveRequest.WinUnlock u) {
            return "MPI_Win_unlock(rank " + u.target() + ", window " + u.winId() + ")";
        }
        if (r instanceof SlaveRequest.Probe p) {
            return "MPI_Probe(source=" + rankName(p.source()) + ", tag=" + tagName(p.tag()) + ", comm=" + comms.name(p.commId()) + ")";
        }
        if (r instanceof SlaveRequest.Cancel) {
            return "MPI_Cancel";
        }
        if (r instanceof SlaveRequest.Finalize) {
            return "MPI_Finalize";
        }
        return r.getClass().getSimpleName();
    }

    // ---------------------------------------------------------------- statistics

    private JobStats stats() {
        long now = clockNs.getAsLong();
        List<JobStats.Slave> list = new ArrayList<>();
        long messages = 0;
        long inline = 0;
        long spilled = 0;
        long runNs = 0;
        long blockedNs = 0;
        long runnableNs = 0;
        long resumes = 0;
        long pollYields = 0;
        long preemptions = 0;
        long peakRss = 0;
        for (SlaveSession s : slaves) {
            s.accountUntil(now);
            messages += s.messagesSent;
            inline += s.bytesSentInline;
            spilled += s.bytesSentSpilled;
            runNs += s.runNs;
            blockedNs += s.blockedNs;
            runnableNs += s.runnableNs;
            resumes += s.resumes;
            pollYields += s.pollYields;
            preemptions += s.preemptions;
            peakRss += s.peakRssBytes;
            list.add(new JobStats.Slave(s.worldRank, node, s.pid, s.exitCode, seconds(s.runNs), seconds(s.blockedNs),
                    seconds(s.runnableNs), s.resumes, s.pollYields, s.preemptions, s.messagesSent, s.bytesSentInline,
                    s.bytesSentSpilled, s.peakRssBytes));
        }
        JobStats.Node thisNode = new JobStats.Node(node, slaves.length, mostAllowed, maxRunning, messages, inline, spilled,
                spillFiles, seconds(runNs), seconds(blockedNs), seconds(runnableNs), resumes, pollYields, preemptions,
                peakRss, runningController != null, List.copyOf(nrunningChanges));
        JobOutcome o = outcome == null ? JobOutcome.failed(1, "job did not end") : outcome;
        return new JobStats(seconds(now - startNs), o.exitCode(), o.failure(), List.of(thisNode), list, List.of());
    }

    private static double seconds(long ns) {
        return ns / 1e9;
    }
}
