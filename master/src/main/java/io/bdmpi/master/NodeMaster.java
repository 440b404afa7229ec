package io.bdmpi.master;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.EventTranslatorOneArg;
import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.bdmpi.slave.SlaveEnvironment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs one node's part of a job: spawns the slaves, schedules them, buffers their messages, and
 * cleans up after them whatever happens.
 *
 * <pre>
 *   slave JVMs ==socket==&gt; bdmpi-slave-io ---+
 *   process reaper (exit of a slave) ------+--&gt; ring (Disruptor) --&gt; bdmpi-scheduler (owns all state)
 *   shutdown hook (SIGINT/SIGTERM) --------+                            |
 *   slave JVMs &lt;==socket== replies (the go-signal) -------------------+
 * </pre>
 */
public final class NodeMaster {

    /** Events the ring holds; publishers wait when it is full (back-pressure on slave I/O). */
    static final int RING_SIZE = 16 * 1024;
    /** How long to wait for killed slaves to disappear before giving up on them. */
    static final long KILL_WAIT_MS = 10_000;
    /** Exit code when the launcher itself was told to stop (SIGINT, SIGTERM). */
    static final int EXIT_STOPPED = 143;

    private static final EventTranslatorOneArg<EventSlot, MasterEvent> PUBLISH = (slot, seq, event) -> slot.event = event;
    private static final MasterEvent STOPPED_BY_SIGNAL = new MasterEvent.StopRequested("bdmpiexec was stopped by a signal",
            EXIT_STOPPED);

    private final MasterContext context;

    public NodeMaster(MasterContext context) {
        if (!context.isConcluded()) {
            throw new IllegalStateException("conclude() the MasterContext first");
        }
        this.context = context;
    }

    /** A ring slot; the scheduler clears it after use so a big payload does not stay reachable. */
    private static final class EventSlot {
        MasterEvent event;
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
        CountDownLatch cleanedUp = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopRequested = true;
            Attempt attempt = current;
            if (attempt != null && !attempt.outcome.isDone()) {
                attempt.ring.publishEvent(PUBLISH, STOPPED_BY_SIGNAL);
                awaitQuietly(cleanedUp);
            }
        }, "bdmpi-shutdown");
        WorkDirectory workDir = null;
        ExecutorService fileDeleter = Executors.newSingleThreadExecutor(r -> daemon(r, "bdmpi-spill-deleter"));
        JobStats stats = null;
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            workDir = WorkDirectory.create(context.workDirParent()).guardAgainstMasterDeath();
            CheckpointStore store = checkpointStore(workDir);
            List<JobStats.Recovery> recoveries = new ArrayList<>();
            boolean restoring = context.restartDir() != null;
            long failedAtNs = 0;
            while (true) {
                Attempt attempt = new Attempt(new Checkpointing(store, restoring));
                JobOutcome result;
                try {
                    result = attempt.run(workDir, fileDeleter);
                    stats = attempt.stats;
                } finally {
                    attempt.close();
                }
                if (!recoveries.isEmpty()) {
                    recoveries.set(recoveries.size() - 1, recoveries.get(recoveries.size() - 1)
                            .restoredAfter(attempt.checkpointing.restoredNs() - failedAtNs));
                }
                boolean recover = result.rankDied() && recoveries.size() < context.recoveries()
                        && store.latest() != null && !stopRequested;
                if (!recover) {
                    stats = stats == null ? null : stats.withRecoveries(recoveries);
                    return report(result);
                }
                failedAtNs = System.nanoTime();
                long checkpointNs = attempt.checkpointing.lastCheckpointNs();
                recoveries.add(new JobStats.Recovery(recoveries.size() + 1, result.failure(), store.latest().sequence(),
                        (failedAtNs - (checkpointNs > 0 ? checkpointNs : attempt.startNs)) / 1e9, -1));
                System.err.println("bdmpiexec: " + result.failure() + "; rolling back to checkpoint "
                        + store.latest().sequence() + " (recovery " + recoveries.size() + " of " + context.recoveries() + ")");
                store.removeIncomplete();
                workDir.clearSpill();
                restoring = true;
            }
        } catch (IOException e) {
            return report(JobOutcome.failed(1, "cannot start the job: " + e.getMessage()));
        } catch (InterruptedException | ExecutionException e) {
            return report(JobOutcome.failed(1, "master interrupted: " + e));
        } finally {
            fileDeleter.shutdownNow();
            writeStats(stats);
            closeQuietly(workDir);
            cleanedUp.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running and waits for this cleanup, which is done.
            }
        }
    }

    private CheckpointStore checkpointStore(WorkDirectory workDir) throws IOException {
        Path dir = context.checkpointDir() != null ? context.checkpointDir()
                : context.restartDir() != null ? context.restartDir() : workDir.root().resolve("checkpoints");
        CheckpointStore store = new CheckpointStore(dir, workDir.spill());
        if (context.restartDir() != null) {
            CheckpointStore.Manifest latest = new CheckpointStore(context.restartDir(), workDir.spill()).latest();
            if (latest == null) {
                throw new IOException("no checkpoint to restart from in " + context.restartDir());
            }
            if (latest.ranks() != context.slaves()) {
                throw new IOException("checkpoint " + latest.sequence() + " in " + context.restartDir() + " has "
                        + latest.ranks() + " ranks but this job has -ns " + context.slaves());
            }
        }
        store.removeIncomplete();
        return store;
    }

    /** Set by the shutdown hook: no new attempt starts after a signal. */
    private volatile boolean stopRequested;
    /** The attempt running now, for the shutdown hook. */
    private volatile Attempt current;

    /** One run of the slaves, from spawning them to the job's outcome: the whole job unless it recovers. */
    private final class Attempt implements AutoCloseable {
        final CompletableFuture<JobOutcome> outcome = new CompletableFuture<>();
        final List<Process> processes = new ArrayList<>();
        final Disruptor<EventSlot> disruptor = new Disruptor<>(EventSlot::new, RING_SIZE, r -> daemon(r, "bdmpi-scheduler"),
                ProducerType.MULTI, new BlockingWaitStrategy());
        final RingBuffer<EventSlot> ring = disruptor.getRingBuffer();
        final Checkpointing checkpointing;
        final long startNs = System.nanoTime();
        SlaveIo io;
        ResidencySampler sampler;
        boolean started;
        JobStats stats;

        Attempt(Checkpointing checkpointing) {
            this.checkpointing = checkpointing;
        }

        JobOutcome run(WorkDirectory workDir, ExecutorService fileDeleter)
                throws IOException, InterruptedException, ExecutionException {
            current = this;
            io = new SlaveIo(workDir.socket(), event -> ring.publishEvent(PUBLISH, event));
            SlaveSession[] sessions = spawn(workDir, processes);
            long[] pids = processes.stream().mapToLong(Process::pid).toArray();
            ResumePolicy policy = ResumePolicy.FIFO;
            if (context.resumePolicy() == ResumePolicyKind.RESIDENT) {
                sampler = new ResidencySampler(pids).start();
                policy = new MostResidentPolicy(sampler);
            }
            Path spillDir = workDir.spill();
            Consumer<String> deleteSpillFile = name -> fileDeleter.execute(() -> deleteQuietly(spillDir.resolve(name)));
            Scheduler scheduler = new Scheduler(sessions, context.running(), policy, System::nanoTime, deleteSpillFile,
                    checkpointing, outcome::complete);
            disruptor.handleEventsWith((slot, sequence, endOfBatch) -> {
                MasterEvent event = slot.event;
                slot.event = null;
                scheduler.onEvent(event);
                if (endOfBatch) {
                    scheduler.onEndOfBatch();
                }
            });
            disruptor.setDefaultExceptionHandler(new FailJob(outcome));
            disruptor.start();
            started = true;
            if (stopRequested) {
                ring.publishEvent(PUBLISH, STOPPED_BY_SIGNAL);
            }
            io.start();
            for (int rank = 0; rank < processes.size(); rank++) {
                int r = rank;
                processes.get(rank).onExit().thenAccept(p -> ring.publishEvent(PUBLISH, new MasterEvent.ProcessExited(r, p.exitValue())));
            }
            JobOutcome result = outcome.get();
            killAll(processes);
            stats = requestStats(ring);
            return result;
        }

        @Override
        public void close() {
            killAll(processes);
            if (started) {
                disruptor.halt();
            }
            closeQuietly(io);
            closeQuietly(sampler);
        }
    }

    private SlaveSession[] spawn(WorkDirectory workDir, List<Process> processes) throws IOException {
        SlaveLauncher launcher = new SlaveLauncher(context);
        int n = context.slaves();
        long masterPid = ProcessHandle.current().pid();
        SlaveSession[] sessions = new SlaveSession[n];
        for (int rank = 0; rank < n; rank++) {
            SlaveEnvironment env = new SlaveEnvironment(workDir.socket(), rank, n, 0, 1, context.inlineMaxBytes(),
                    workDir.spill(), masterPid, context.tagOutput());
            Process p = launcher.start(env);
            processes.add(p);
            sessions[rank] = new SlaveSession(rank, p.pid(), System.nanoTime());
        }
        return sessions;
    }

    private static JobStats requestStats(RingBuffer<EventSlot> ring) {
        CompletableFuture<JobStats> f = new CompletableFuture<>();
        ring.publishEvent(PUBLISH, new MasterEvent.StatsRequested(f));
        try {
            return f.get(5, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            return null;
        }
    }

    private void writeStats(JobStats stats) {
        if (context.statsFile() == null) {
            return;
        }
        if (stats == null) {
            System.err.println("bdmpiexec: no statistics to write to " + context.statsFile());
            return;
        }
        try {
            stats.write(context.statsFile());
        } catch (IOException e) {
            System.err.println("bdmpiexec: cannot write statistics to " + context.statsFile() + ": " + e.getMessage());
        }
    }

    private static int report(JobOutcome o) {
        if (o.failure() != null) {
            System.err.println("bdmpiexec: job failed: " + o.failure());
        }
        return o.exitCode();
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
    }

    /** A scheduler that throws would leave the job hanging: fail it instead. */
    private record FailJob(CompletableFuture<JobOutcome> outcome) implements ExceptionHandler<EventSlot> {
        @Override
        public void handleEventException(Throwable ex, long sequence, EventSlot event) {
            ex.printStackTrace();
            outcome.complete(JobOutcome.failed(1, "internal error in the master scheduler: " + ex));
        }

        @Override
        public void handleOnStartException(Throwable ex) {
            outcome.complete(JobOutcome.failed(1, "master scheduler failed to start: " + ex));
        }

        @Override
        public void handleOnShutdownException(Throwable ex) {
            // Shutting down already.
        }
    }
}
