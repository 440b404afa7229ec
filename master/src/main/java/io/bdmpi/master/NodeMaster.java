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

    private final MasterContext context;

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

    /** A ring slot; the scheduler clears it after use so a big payload does not stay reachable. */
    private static final class EventSlot {
        MasterEvent event;
    }

    /**
     * Runs the job to its end and cleans up after it (no slave left running, work directory
     * removed), whatever happens. Prints a one-line reason to stderr when the job fails.
     *
     * @return the exit code for bdmpiexec: 0 only if every rank finalized and exited 0
     */
    public int run() {
        CompletableFuture<JobOutcome> outcome = new CompletableFuture<>();
        CountDownLatch cleanedUp = new CountDownLatch(1);
        List<Process> processes = new ArrayList<>();
        Disruptor<EventSlot> disruptor = new Disruptor<>(EventSlot::new, RING_SIZE, r -> daemon(r, "bdmpi-scheduler"),
                ProducerType.MULTI, new BlockingWaitStrategy());
        RingBuffer<EventSlot> ring = disruptor.getRingBuffer();
        Thread hook = new Thread(() -> {
            if (!outcome.isDone()) {
                ring.publishEvent(PUBLISH, new MasterEvent.StopRequested("bdmpiexec was stopped by a signal", EXIT_STOPPED));
                awaitQuietly(cleanedUp);
            }
        }, "bdmpi-shutdown");
        WorkDirectory workDir = null;
        SlaveIo io = null;
        ResidencySampler sampler = null;
        ProgressReporter progress = null;
        TimelineRecorder timeline = null;
        ExecutorService fileDeleter = Executors.newSingleThreadExecutor(r -> daemon(r, "bdmpi-spill-deleter"));
        boolean started = false;
        JobStats stats = null;
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            workDir = WorkDirectory.create(context.workDirParent()).guardAgainstMasterDeath();
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
                    outcome::complete);
            if (context.traceFile() != null || context.reportFile() != null) {
                timeline = new TimelineRecorder(workDir.root().resolve("timeline.bin"), sessions.length, scheduler.startNs());
                scheduler.recordTimeline(timeline);
            }
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
            io.start();
            progress = ProgressReporter.start(context, event -> ring.publishEvent(PUBLISH, event));
            if (progress != null) {
                processes.forEach(progress::forwardOutputOf);
            }
            for (int rank = 0; rank < processes.size(); rank++) {
                int r = rank;
                processes.get(rank).onExit().thenAccept(p -> ring.publishEvent(PUBLISH, new MasterEvent.ProcessExited(r, p.exitValue())));
            }
            JobOutcome result = outcome.get();
            killAll(processes);
            stats = requestStats(ring);
            closeQuietly(progress);
            return report(result);
        } catch (IOException e) {
            return report(JobOutcome.failed(1, "cannot start the job: " + e.getMessage()));
        } catch (InterruptedException | ExecutionException e) {
            return report(JobOutcome.failed(1, "master interrupted: " + e));
        } finally {
            killAll(processes);
            if (started) {
                disruptor.halt();
            }
            closeQuietly(progress);
            closeQuietly(io);
            closeQuietly(sampler);
            fileDeleter.shutdownNow();
            writeStats(stats);
            TimelineOutputs.write(context, timeline, stats);
            closeQuietly(timeline);
            closeQuietly(workDir);
            cleanedUp.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running and waits for this cleanup, which is done.
            }
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
