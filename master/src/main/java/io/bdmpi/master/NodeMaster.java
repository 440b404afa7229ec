package io.bdmpi.master;

import io.bdmpi.master.checkpoint.CheckpointStore;
import io.bdmpi.master.checkpoint.Checkpointing;
import io.bdmpi.master.config.MasterContext;
import io.bdmpi.master.config.ResumePolicyKind;
import io.bdmpi.master.control.ControlMessage;
import io.bdmpi.master.control.LauncherLink;
import io.bdmpi.master.internode.Internode;
import io.bdmpi.master.internode.MasterMessage;
import io.bdmpi.master.internode.Placement;
import io.bdmpi.master.memory.MemoryCgroup;
import io.bdmpi.master.memory.MemorySampler;
import io.bdmpi.master.memory.ProcMemory;
import io.bdmpi.master.memory.ReadAhead;
import io.bdmpi.master.memory.ResidencySampler;
import io.bdmpi.master.memory.SlaveMemory;
import io.bdmpi.master.observe.JobStats;
import io.bdmpi.master.observe.ProgressReporter;
import io.bdmpi.master.observe.TimelineOutputs;
import io.bdmpi.master.observe.TimelineRecorder;
import io.bdmpi.master.scheduler.JobOutcome;
import io.bdmpi.master.scheduler.MasterEvent;
import io.bdmpi.master.scheduler.MostResidentPolicy;
import io.bdmpi.master.scheduler.ResumePolicy;
import io.bdmpi.master.scheduler.RunningController;
import io.bdmpi.master.scheduler.Scheduler;
import io.bdmpi.master.scheduler.SchedulerThread;
import io.bdmpi.master.session.SlaveSession;
import io.bdmpi.master.slaveio.ProcessSignals;
import io.bdmpi.master.slaveio.SlaveIo;
import io.bdmpi.master.slaveio.SlaveLauncher;
import io.bdmpi.master.slaveio.WorkDirectory;
import io.bdmpi.master.store.BoundedMessageStore;
import io.bdmpi.master.store.ChronicleMessageStore;
import io.bdmpi.master.store.MessageStore;
import io.bdmpi.ooc.Libc;
import io.bdmpi.slave.SlaveEnvironment;
import io.bdmpi.spill.SpillDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Runs one node's part of a job: spawns the slaves, schedules them, buffers their messages, and
 * cleans up after them whatever happens.
 *
 * <pre>
 *   slave JVMs ==socket (polled by the scheduler thread)==========&gt; bdmpi-scheduler (owns all state)
 *   process reaper (exit of a slave) ---+                                ^   |
 *   shutdown hook (SIGINT/SIGTERM) -----+--&gt; ring (Disruptor) ---------+   |
 *   slave JVMs &lt;==socket== replies (the go-signal) ----------------------+
 * </pre>
 */
public final class NodeMaster {

    /** How long to wait for killed slaves to disappear before giving up on them. */
    static final long KILL_WAIT_MS = 10_000;
    /** Period of the timer events of a master of several nodes (deadlock confirmation). */
    static final long TICK_MS = 250;
    /** Exit code when the launcher itself was told to stop and no signal says otherwise (a SIGINT's is 130, see {@link StopSignal}). */
    public static final int EXIT_STOPPED = 143;
    /** Why the job ended then. */
    public static final String STOPPED_REASON = "bdmpiexec was stopped by a signal";
    /** Names of the spill files the master writes buffered messages into beyond its bound start with this; no slave's do. */
    private static final String HELD_MESSAGES_PREFIX = "held-";

    private final MasterContext context;
    /** This master's node: 0 until MPI said otherwise. */
    private int node;

    /**
     * @param context the job's settings, already {@linkplain MasterContext#conclude() concluded}
     * @throws IllegalStateException if the context was not concluded
     */
    public NodeMaster(MasterContext context) {
        if (!context.isConcluded()) {
            throw new IllegalStateException("conclude() the MasterContext first");
        }
        this.context = context;
    }

    /** The event that stops the job when this JVM is told to stop, with the exit code the JVM then ends with. */
    private static MasterEvent stoppedBySignal() {
        return new MasterEvent.StopRequested(STOPPED_REASON, StopSignal.exitCode());
    }

    /**
     * Runs the job to its end and cleans up after it (no slave left running, work directory
     * removed), whatever happens. Prints a one-line reason to stderr when the job fails. With
     * {@code --recover N}, a job whose rank died starts again from its last checkpoint, at most N
     * times.
     *
     * @return the exit code for bdmpiexec: 0 only if every rank finalized and exited 0
     */
    public int run() {
        StopSignal.watch();
        CountDownLatch cleanedUp = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopRequested = true;
            Attempt attempt = current;
            if (attempt != null && !attempt.outcome.isDone()) {
                attempt.publish(stoppedBySignal());
                awaitQuietly(cleanedUp);
            }
        }, "bdmpi-shutdown");
        WorkDirectory workDir = null;
        MemoryCgroup cgroup = null;
        ExecutorService fileDeleter = Executors.newSingleThreadExecutor(r -> daemon(r, "bdmpi-spill-deleter"));
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "bdmpi-ticker"));
        Internode internode = null;
        Attempt attempt = null;
        JobStats stats = null;
        JobOutcome result = null;
        boolean handedOver = false; // a rank's death told to bdmpiexec, which recovers
        int placedSequence = -1;
        // The checkpoints --restart goes on from, whose parts staged from other nodes go with the job (null: none).
        CheckpointStore restartFrom = null;
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            if (context.nodes() > 1) {
                internode = Internode.start(System.getenv());
                node = internode.node();
                if (internode.nodes() != context.nodes()) {
                    throw new IllegalStateException("-nn=" + context.nodes() + " but the MPI job has " + internode.nodes() + " masters");
                }
                if (context.launcherAddress() != null) {
                    try {
                        launcher = LauncherLink.connect(context.launcherAddress(), node, new LauncherEvents(),
                                context.heldPlacement() ? holdings(context.dirOn(context.restartDir(), node)) : null);
                    } catch (IOException e) {
                        orphaned("it cannot reach bdmpiexec: " + e.getMessage());
                        throw e;
                    }
                }
                if (context.heldPlacement()) {
                    // bdmpiexec places the ranks where the directories hold their parts (a spare's: none, fetched below).
                    ControlMessage.Placed placed = launcher.placement(context.placementWaitMs());
                    context.placedBy(placed.nodeOf());
                    placedSequence = placed.sequence();
                }
            }
            Placement placement = Placement.of(context.placement(), context.slavesPerNode());
            RestartStaging staging = null;
            MasterMessage.RestartPlan plan = null;
            if (internode != null && MasterContext.nodeLocal(context.restartDir())) {
                // The ranks may be on other nodes than the parts that hold them: the masters fetch what they lack.
                staging = new RestartStaging(internode, context.dirOn(context.restartDir(), node), context.restartDir().toString(),
                        context.placementWaitMs());
                List<Integer> nodeOf = new ArrayList<>();
                for (int rank = 0; rank < placement.worldSize(); rank++) {
                    nodeOf.add(placement.nodeOf(rank));
                }
                plan = staging.agree(nodeOf);
                if (placedSequence >= 0 && plan.sequence() != placedSequence) {
                    throw new IOException("bdmpiexec placed the ranks for checkpoint " + placedSequence + " but the masters"
                            + " found checkpoint " + plan.sequence() + " the newest in " + context.restartDir());
                }
            }
            SlaveMemory slaveMemory = context.slaveMemoryOn(node);
            slaveMemory.warnings().forEach(System.err::println);
            SlaveLauncher slaveLauncher = new SlaveLauncher(context, slaveMemory);
            // The master binds libc too (residency sampling, read-ahead): its jffi loads the stub its
            // slaves share, not a temporary copy of its own that an interrupted first use could leave half-written.
            slaveLauncher.nativeStubDir().ifPresent(Libc::loadNativeStubFrom);
            if (context.memoryLimitBytesOn(node) > 0) {
                cgroup = MemoryCgroup.create(context.memoryLimitBytesOn(node));
            }
            // The janitor starts outside the cgroup, so that it can remove it should the master die.
            workDir = WorkDirectory.create(context.workDirParentOn(node))
                    .guardAgainstMasterDeath(removeSharedMemory(internode != null) + (cgroup == null ? "" : cgroup.janitorScript()));
            if (cgroup != null) {
                cgroup.join();
            }
            CheckpointStore store = checkpointStore(workDir);
            restartFrom = restartStore(store, workDir);
            if (plan != null) {
                staging.transfer(plan, restartFrom);
            }
            CheckpointStore restoreFrom = checkedRestart(restartFrom, placement.worldSize());
            List<JobStats.Recovery> recoveries = new ArrayList<>();
            long failedAtNs = 0;
            while (true) {
                if (attempt != null) {
                    attempt.closeTimeline();
                }
                attempt = new Attempt(recoveries.size(), new Checkpointing(store, restoreFrom));
                try {
                    result = attempt.run(slaveLauncher, workDir, placement, cgroup, internode, fileDeleter, ticker);
                    stats = attempt.stats;
                } finally {
                    attempt.close();
                }
                if (!recoveries.isEmpty()) {
                    recoveries.set(recoveries.size() - 1, recoveries.get(recoveries.size() - 1)
                            .restoredAfter(attempt.checkpointing.restoredNs() - failedAtNs));
                }
                // On several nodes bdmpiexec recovers: it starts the masters again (see MultiNodeLaunch).
                boolean recover = result.rankDied() && recoveries.size() < context.recoveries() && context.nodes() == 1
                        && store.latest() != null && !stopRequested;
                if (result.rankDied() && context.nodes() > 1 && context.recoveries() > 0 && !stopRequested && launcher != null) {
                    launcher.rankDied(result.failure()); // bdmpiexec starts the job again, or says why it cannot
                    handedOver = true;
                }
                if (!recover) {
                    stats = stats == null ? null : stats.withRecoveries(recoveries);
                    break;
                }
                failedAtNs = System.nanoTime();
                long checkpointNs = attempt.checkpointing.lastCheckpointNs();
                recoveries.add(new JobStats.Recovery(recoveries.size() + 1, result.failure(), store.latest().sequence(),
                        (failedAtNs - (checkpointNs > 0 ? checkpointNs : attempt.startNs)) / 1e9, -1));
                System.err.println("bdmpiexec: " + result.failure() + "; rolling back to checkpoint "
                        + store.latest().sequence() + " (recovery " + recoveries.size() + " of " + context.recoveries() + ")");
                store.removeIncomplete();
                workDir.clearSpill();
                restoreFrom = store;
            }
        } catch (RestartStaging.Refused e) {
            result = e.quiet ? new JobOutcome(1, null, false) : JobOutcome.failed(1, "cannot start the job: " + e.getMessage());
        } catch (IOException | IllegalStateException | IllegalArgumentException e) {
            result = JobOutcome.failed(1, "cannot start the job: " + e.getMessage());
        } catch (InterruptedException | ExecutionException e) {
            result = JobOutcome.failed(1, "master interrupted: " + e);
        } finally {
            if (attempt != null) {
                attempt.close();
            }
            fileDeleter.shutdownNow();
            ticker.shutdownNow();
            removeStaged(restartFrom);
            closeQuietly(cgroup);
            boolean written = writeStats(stats);
            if (attempt != null) {
                written &= TimelineOutputs.write(context, attempt.timeline, stats, node,
                        launcher == null ? null : LauncherLink.hostName(), launcher == null ? 0 : launcher.clockOffsetNanos());
                attempt.closeTimeline();
            }
            closeQuietly(workDir);
            result = endTogether(result, internode, attempt == null ? null : attempt.link, launcher, orphaned.get(), handedOver);
            if (!written && result.exitCode() == 0) {
                // The user asked for them: a run without them has not done all it was asked.
                System.err.println("bdmpiexec: exit status 1: the job completed, but an output it was asked for is missing (above)");
                result = new JobOutcome(1, null, false);
            }
            cleanedUp.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running and waits for this cleanup, which is done.
            }
        }
        return result.exitCode();
    }

    /**
     * What the node-local checkpoint directory {@code dir}, this master's own, holds: for bdmpiexec
     * to place the ranks. One it cannot read is said (on stderr) to hold nothing, so that bdmpiexec
     * answers every master at once rather than wait for this one.
     */
    private static ControlMessage.Holdings holdings(Path dir) {
        List<ControlMessage.HeldPart> parts = new ArrayList<>();
        for (CheckpointStore.Held h : CheckpointStore.heldInOrNothing(dir)) {
            CheckpointStore.Part p = h.part();
            parts.add(new ControlMessage.HeldPart(p.sequence(), h.committed(), p.node(), p.nodes(), p.worldSize(), p.ranks()));
        }
        return new ControlMessage.Holdings(parts);
    }

    /**
     * Where this job's checkpoints go: --checkpoint-dir, else --restart's directory, else the work
     * directory. A directory the user names is one every node of the job sees, unless it is
     * node-local (it holds {@link MasterContext#NODE_MARK}).
     */
    private CheckpointStore checkpointStore(WorkDirectory workDir) throws IOException {
        Path named = context.checkpointDir() != null ? context.checkpointDir() : context.restartDir();
        CheckpointStore store = named == null
                ? new CheckpointStore(workDir.root().resolve("checkpoints"), workDir.spill(), CheckpointStore.Sharing.JOB)
                : new CheckpointStore(context.dirOn(named, node), workDir.spill(), sharing(named));
        if (!store.shared() || node == 0) {
            store.removeIncomplete(); // a shared directory: once, by node 0, before any checkpoint can start
        }
        return store;
    }

    private static CheckpointStore.Sharing sharing(Path named) {
        return MasterContext.nodeLocal(named) ? CheckpointStore.Sharing.NODE_LOCAL : CheckpointStore.Sharing.SHARED;
    }

    /** The side channel to bdmpiexec (several nodes), or null. */
    private LauncherLink launcher;
    /** A node bdmpiexec declared lost, -1 while none (side channel thread). */
    private volatile int lostNode = -1;
    /** Set once bdmpiexec is lost or was never reached: this master then ends by itself (see {@link #orphaned}). */
    private final AtomicBoolean orphaned = new AtomicBoolean();

    /**
     * This master lost bdmpiexec (or never reached it): it stops its node as it would when told
     * to, and ends without waiting for the other masters nor finalizing MPI (see
     * {@link #endTogether}); should it still run {@link LauncherLink#ORPHAN_LIMIT_MS} from now
     * (its MPI blocked, say), it ends itself here, and its janitor cleans its node as after any
     * death of a master. Under MPICH nothing else ends it: it runs in a session of its own, out of
     * reach of hydra's cleanup.
     */
    private void orphaned(String why) {
        if (!orphaned.compareAndSet(false, true)) {
            return;
        }
        Thread end = daemon(() -> {
            try {
                Thread.sleep(LauncherLink.ORPHAN_LIMIT_MS);
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("bdmpiexec: node " + node + ": " + why + "; its master did not end within "
                    + LauncherLink.seconds(LauncherLink.ORPHAN_LIMIT_MS) + " and ends now");
            Runtime.getRuntime().halt(1);
        }, "bdmpi-orphan-end");
        end.start();
    }

    /** What bdmpiexec says on the side channel, handed to the attempt running now. */
    private final class LauncherEvents implements LauncherLink.Listener {
        @Override
        public void nodeLost(int lost, String reason) {
            lostNode = lost;
            Attempt attempt = current;
            if (attempt != null && attempt.link != null) {
                attempt.link.peerLost(lost);
            }
        }

        @Override
        public void launcherLost(String reason) {
            orphaned(reason);
            Attempt attempt = current;
            if (attempt != null && attempt.started) {
                attempt.publish(new MasterEvent.StopRequested(reason, 1));
            } else {
                System.err.println("bdmpiexec: " + reason);
                stopRequested = true;
            }
        }
    }

    /** The checkpoints --restart goes on from, or null without --restart. */
    private CheckpointStore restartStore(CheckpointStore store, WorkDirectory workDir) throws IOException {
        if (context.restartDir() == null) {
            return null;
        }
        Path dir = context.dirOn(context.restartDir(), node);
        // One directory, one store: the parts staged into it and the checkpoints this job writes number on from one latest.
        return dir.equals(store.directory()) ? store : new CheckpointStore(dir, workDir.spill(), sharing(context.restartDir()));
    }

    /** {@code from}, the checkpoints --restart goes on from (or null), once checked against this job. */
    private CheckpointStore checkedRestart(CheckpointStore from, int worldSize) throws IOException {
        if (from == null) {
            return null;
        }
        CheckpointStore.Checkpoint latest = from.latest();
        if (latest == null) {
            throw new IOException("no checkpoint to restart from in " + from.directory());
        }
        if (latest.worldSize() != worldSize) {
            throw new IOException("checkpoint " + latest.sequence() + " in " + context.restartDir() + " has "
                    + latest.worldSize() + " ranks but this job has " + (context.nodes() == 1 ? "-ns " + worldSize
                    : worldSize));
        }
        return from;
    }

    /**
     * A command for the janitor ($0: this master's pid) that removes MPI's shared-memory files of
     * this master (see {@link Internode#sharedMemoryFiles}) if the master is dead: a live one's MPI
     * still uses them and removes them itself.
     */
    private static String removeSharedMemory(boolean mpi) {
        if (!mpi) {
            return "";
        }
        StringBuilder rm = new StringBuilder();
        for (Path f : Internode.sharedMemoryFiles()) {
            rm.append(rm.length() == 0 ? "kill -0 \"$0\" 2>/dev/null || rm -f --" : "")
                    .append(" '").append(f.toString().replace("'", "'\\''")).append('\'');
        }
        return rm.length() == 0 ? "" : rm.append("; ").toString();
    }

    /** Removes the parts staged for a restart that are still there (the ranks never restored, or the job failed first). */
    private static void removeStaged(CheckpointStore from) {
        if (from == null) {
            return;
        }
        try {
            from.removeStaged();
        } catch (IOException e) {
            System.err.println("bdmpiexec: cannot remove the staged parts in " + from.directory() + ": " + e.getMessage());
        }
    }

    /** Set by the shutdown hook: no new attempt starts after a signal. */
    private volatile boolean stopRequested;
    /** The attempt running now, for the shutdown hook. */
    private volatile Attempt current;

    /** One run of the slaves, from spawning them to the job's outcome: the whole job unless it recovers. */
    private final class Attempt implements AutoCloseable {
        final CompletableFuture<JobOutcome> outcome = new CompletableFuture<>();
        final List<Process> processes = new ArrayList<>();
        final SchedulerThread schedulerThread = new SchedulerThread(outcome);
        final int number;
        final Checkpointing checkpointing;
        final long startNs = System.nanoTime();
        MessageStore messages = MessageStore.ON_HEAP;
        SlaveIo io;
        ResidencySampler sampler;
        ReadAhead readAhead;
        MemorySampler memory;
        ProgressReporter progress;
        TimelineRecorder timeline;
        InternodeLink link;
        boolean started;
        JobStats stats;

        Attempt(int number, Checkpointing checkpointing) {
            this.number = number;
            this.checkpointing = checkpointing;
        }

        JobOutcome run(SlaveLauncher slaveLauncher, WorkDirectory workDir, Placement placement, MemoryCgroup cgroup, Internode internode,
                       ExecutorService fileDeleter, ScheduledExecutorService ticker)
                throws IOException, InterruptedException, ExecutionException {
            current = this;
            io = new SlaveIo(workDir.socket(), schedulerThread);
            SlaveSession[] sessions = spawn(slaveLauncher, workDir, processes, placement, node);
            long[] pids = processes.stream().mapToLong(Process::pid).toArray();
            workDir.slavesStarted(pids);
            ResumePolicy policy = ResumePolicy.FIFO;
            if (context.resumePolicy() == ResumePolicyKind.RESIDENT) {
                sampler = new ResidencySampler(pids,
                        Arrays.stream(sessions).mapToInt(s -> s.worldRank).toArray(), workDir.spill()).start();
                policy = new MostResidentPolicy(sampler);
            }
            Path spillDir = workDir.spill();
            Consumer<String> deleteSpillFile = name -> offThread(fileDeleter, () -> deleteQuietly(spillDir.resolve(name)));
            if (internode != null) {
                ReturnedSpillFiles returned = new ReturnedSpillFiles(spillDir, context.recycledSpillBytesOn(node));
                link = new InternodeLink(internode, placement, spillDir, context.inlineMaxBytes(),
                        context.recycledSpillBytesOn(node), this::publish, deleteSpillFile,
                        name -> offThread(fileDeleter, () -> returned.returned(name)));
                if (lostNode >= 0) {
                    link.peerLost(lostNode);
                }
            }
            messages = new BoundedMessageStore(context.offHeapMessages()
                    ? ChronicleMessageStore.create(workDir.root().resolve("messages-" + number + ".cm3")) : MessageStore.ON_HEAP,
                    context.heldMessageBytesOn(node), new SpillDirectory(spillDir, HELD_MESSAGES_PREFIX));
            boolean runningAuto = context.runningOn(node) == MasterContext.RUNNING_AUTO;
            Scheduler scheduler = new Scheduler(placement, node, link, sessions, runningAuto ? RunningController.START
                    : context.runningOn(node), policy, messages, System::nanoTime, deleteSpillFile, checkpointing, outcome::complete);
            if (internode != null) {
                scheduler.windowFilesIn(spillDir);
            }
            if (runningAuto) {
                scheduler.followMemory(new RunningController(sessions.length, scheduler.startNs()));
            }
            if (context.quantumSeconds() > 0) {
                scheduler.preemptAfter((long) (context.quantumSeconds() * 1e9), ProcessSignals.libc());
            }
            if (context.readAhead()) {
                readAhead = new ReadAhead(spillDir, freeMemory(cgroup)).start();
                scheduler.readAheadWith(readAhead::offer);
            }
            if (context.traceFile() != null || context.reportFile() != null) {
                timeline = new TimelineRecorder(workDir.root().resolve("timeline-" + number + ".bin"), node,
                        Arrays.stream(sessions).mapToInt(s -> s.worldRank).toArray(), scheduler.startNs());
                scheduler.recordTimeline(timeline);
            }
            schedulerThread.start(io, scheduler);
            started = true;
            if (stopRequested) {
                publish(stoppedBySignal());
            }
            if (link != null) {
                link.startReceiving();
                schedulerThread.alsoPoll(new SchedulerThread.RemoteArrivals() {
                    @Override
                    public boolean poll() {
                        return internode.pollArrivals();
                    }

                    @Override
                    public boolean conversing() {
                        return internode.conversing();
                    }
                });
            }
            if (launcher != null) {
                // Never blocks the heartbeat: a full ring fails the request, and the heartbeat goes without a snapshot.
                launcher.snapshotsFrom(f -> {
                    if (!schedulerThread.tryPublish(new MasterEvent.SnapshotRequested(f))) {
                        f.completeExceptionally(new IllegalStateException("the ring is full"));
                    }
                });
            }
            if (link != null || context.quantumSeconds() > 0) {
                ticker.scheduleAtFixedRate(() -> publish(new MasterEvent.Tick()), TICK_MS, TICK_MS,
                        TimeUnit.MILLISECONDS);
            }
            if (runningAuto) {
                memory = new MemorySampler(pids, placement.ranksOn(node), spillDir, cgroup == null ? 0 : cgroup.limitBytes(),
                        sample -> publish(new MasterEvent.MemorySampled(sample))).start();
            }
            progress = ProgressReporter.start(context, snapshot -> publish(new MasterEvent.SnapshotRequested(snapshot)));
            if (progress != null) {
                processes.forEach(progress::forwardOutputOf);
            }
            for (int i = 0; i < processes.size(); i++) {
                int r = sessions[i].worldRank;
                MemoryCgroup limit = cgroup;
                processes.get(i).onExit().thenAccept(p -> {
                    if (limit != null) {
                        reportOomKill(limit, r, p, this::publish);
                    }
                    publish(new MasterEvent.ProcessExited(r, p.exitValue()));
                });
            }
            JobOutcome result = outcome.get();
            if (link != null) {
                link.announce(result);
            }
            killAll(processes);
            stats = requestStats(schedulerThread);
            return result;
        }

        void publish(MasterEvent event) {
            schedulerThread.publish(event);
        }

        /** Ends the slaves and the threads of this attempt (once; again does nothing); the timeline stays for the outputs. */
        @Override
        public void close() {
            if (launcher != null) {
                launcher.snapshotsFrom(null);
            }
            killAll(processes);
            if (started) {
                schedulerThread.close();
                started = false;
            }
            closeQuietly(progress);
            closeQuietly(io);
            closeQuietly(sampler);
            closeQuietly(readAhead);
            closeQuietly(memory);
            closeQuietly(messages);
            progress = null;
            io = null;
            sampler = null;
            readAhead = null;
            memory = null;
            messages = MessageStore.ON_HEAP;
        }

        void closeTimeline() {
            closeQuietly(timeline);
        }
    }

    /**
     * Reports this node's outcome (unless bdmpiexec was told of a rank's death: it says whether the
     * job goes on); on several nodes first ends together with the other masters (see
     * {@link InternodeLink#finish}: of failures at once on several nodes, the lowest node's is
     * reported), then says goodbye to bdmpiexec and finalizes MPI; unless a
     * node was lost: MPI_Finalize, collective, would wait for its master forever, so the process
     * ends without it (this node is clean by now) and mpiexec ends the job. When bdmpiexec is lost
     * ({@code orphaned}), this master only tells the others how it ended, and ends without waiting
     * for them (one may be stopped) nor finalizing (mpiexec may be gone with bdmpiexec).
     */
    private static JobOutcome endTogether(JobOutcome local, Internode internode, InternodeLink link, LauncherLink launcher,
                                          boolean orphaned, boolean handedOver) {
        JobOutcome result = local == null ? JobOutcome.failed(1, "master ended without an outcome") : local;
        if (internode == null) {
            report(result);
            return result;
        }
        try {
            if (link != null && orphaned) {
                link.announce(result); // nobody takes the job's exit code any more: the others are not waited for
            } else if (link != null) {
                result = link.finish(result); // its failure, unless a lower node's failed at once and says why
            } else {
                internode.announceEnd(result.exitCode(), true);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!handedOver) {
                report(result);
            }
            if (launcher != null) {
                launcher.goodbye(result.exitCode());
            }
            if ((link == null || !link.peerWasLost()) && !orphaned) {
                internode.close();
            }
        }
        return result;
    }

    /** Starts this node's slaves, in local order, with the world ranks the placement gives them. */
    private SlaveSession[] spawn(SlaveLauncher slaveLauncher, WorkDirectory workDir, List<Process> processes, Placement placement,
                                 int node) throws IOException {
        int[] ranks = placement.ranksOn(node);
        long masterPid = ProcessHandle.current().pid();
        List<SlaveEnvironment> envs = new ArrayList<>();
        for (int rank : ranks) {
            envs.add(new SlaveEnvironment(workDir.socket(), rank, placement.worldSize(), node, placement.nodes(),
                    context.inlineMaxBytes(), workDir.spill(), masterPid, context.tagOutput()));
        }
        processes.addAll(slaveLauncher.startAll(envs));
        SlaveSession[] sessions = new SlaveSession[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            sessions[i] = new SlaveSession(ranks[i], i, processes.get(i).pid(), System.nanoTime());
        }
        return sessions;
    }

    /**
     * Memory the job may still fill: its cgroup's limit less its use, where page cache it has not
     * touched since it was read or written counts as free (the kernel reclaims that first: a
     * limit is soon full of such pages, e.g. the input read at set-up, and counting them as used
     * skipped half the reads ahead of K-means at 4x its memory); else the node's available memory,
     * which counts page cache likewise.
     */
    private static LongSupplier freeMemory(MemoryCgroup cgroup) {
        if (cgroup != null) {
            return () -> cgroup.limitBytes() - cgroup.usageBytes() + cgroup.inactiveFileBytes();
        }
        return () -> {
            try {
                return ProcMemory.meminfo("MemAvailable")[0];
            } catch (IOException e) {
                return 0;
            }
        };
    }

    /**
     * A slave killed by SIGKILL while the job's cgroup counts OOM kills was killed by the kernel for
     * the memory limit: say so before the exit itself is reported (the first reason wins).
     */
    private static void reportOomKill(MemoryCgroup cgroup, int rank, Process p, Consumer<MasterEvent> publish) {
        if (p.exitValue() == 128 + 9 && cgroup.oomKills() > 0) {
            publish.accept(new MasterEvent.StopRequested("rank " + rank + " (pid " + p.pid() + ") was killed by the "
                    + "kernel's OOM killer: the job exceeded its --memory-limit of " + (cgroup.limitBytes() >> 20) + " MiB", 1));
        }
    }

    private static JobStats requestStats(SchedulerThread schedulerThread) {
        CompletableFuture<JobStats> f = new CompletableFuture<>();
        schedulerThread.publish(new MasterEvent.StatsRequested(f));
        try {
            return f.get(5, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            return null;
        }
    }

    /** Writes --stats, if asked for; false if it was not written. */
    private boolean writeStats(JobStats stats) {
        if (context.statsFile() == null) {
            return true;
        }
        Path file = context.nodes() > 1 ? JobStats.partFile(context.statsFile(), node) : context.statsFile();
        if (stats == null) {
            System.err.println("bdmpiexec: no statistics to write to " + context.statsFile());
            return false;
        }
        try {
            stats.write(file);
            return true;
        } catch (IOException e) {
            System.err.println("bdmpiexec: cannot write statistics to " + file + ": " + e.getMessage());
            return false;
        }
    }

    private static void report(JobOutcome o) {
        if (o.failure() != null) {
            System.err.println("bdmpiexec: job failed: " + o.failure());
        }
    }

    /** Ends every slave still alive and waits for them to be gone. */
    private static void killAll(List<Process> processes) {
        for (Process p : processes) {
            p.destroyForcibly();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MS);
        for (Process p : processes) {
            try {
                p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Runs a spill file's chore on the file deleter thread. */
    private static void offThread(ExecutorService fileDeleter, Runnable chore) {
        try {
            fileDeleter.execute(chore);
        } catch (RejectedExecutionException jobOver) {
            // A forward sent while the job ends: the work directory goes with the job.
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // The work directory goes at the end of the job in any case.
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(KILL_WAIT_MS + 5_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException ignored) {
            // The JVM is going down anyway.
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                System.err.println("bdmpiexec: while cleaning up: " + e);
            }
        }
    }}
