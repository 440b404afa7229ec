package io.bdmpi.launcher;

import io.bdmpi.master.config.MasterContext;
import io.bdmpi.master.control.LauncherLink;
import io.bdmpi.master.internode.MpiLauncher;
import io.bdmpi.master.observe.JobSnapshot;
import io.bdmpi.master.observe.JobStats;
import io.bdmpi.master.observe.ProgressReporter;
import io.bdmpi.master.observe.TimelineParts;
import io.bdmpi.master.slaveio.DetachedShell;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Starts the N masters of a job of several nodes through the MPI launcher:
 * {@code mpiexec -n N [its options, hosts] java -cp <this class path> Bdmpiexec --node-master --launcher=HOST:PORT <args>}.
 * Each master learns its node from its MPI rank and connects back to this process on a side
 * channel ({@link JobWatch}: heartbeats, the job-wide status, lost nodes). The masters' (and
 * slaves') output reaches this terminal through mpiexec; the masters agree on the job's exit code,
 * which mpiexec returns. A master that stops answering ends the job ({@link LostNode}).
 *
 * @param mpiexec         the launcher of the MPI library the masters bind
 * @param nodes           -nn
 * @param hosts           --hosts, or null
 * @param hostFile        --hostfile, or null
 * @param args            bdmpiexec's own command line, passed on to every master
 * @param stats           --stats, or null: the masters write a part each, joined here at the end (they
 *                        must see this path: localhost, or a shared file system)
 * @param trace           --trace, or null: joined here from the masters' timeline parts, as the statistics
 * @param report          --report, or null: likewise
 * @param statusLine      whether to show the job's live status line (stderr is a terminal)
 * @param progressSeconds --progress: a summary line of the whole job every this many seconds; 0 for none
 */
public record MultiNodeLaunch(MpiLauncher mpiexec, int nodes, String hosts, Path hostFile, List<String> args, Path stats,
                              Path trace, Path report, boolean statusLine, double progressSeconds) {

    /** How long the masters get to stop after bdmpiexec is told to stop. */
    private static final long STOP_WAIT_S = 20;
    /** How long the other masters get to end their part after a node was lost, before the lost master is killed. */
    private static final long OTHERS_WAIT_S = 15;
    /** How long mpiexec then gets to end the job, before every process of it is killed. */
    private static final long LOST_WAIT_S = 10;

    /**
     * The watchdog's shell: while bdmpiexec ($0) lives it only checks that mpiexec ($1) still runs;
     * should bdmpiexec die first (SIGKILL, OOM killer) it stops mpiexec as bdmpiexec would have,
     * with SIGTERM, and with SIGKILL if mpiexec is still there after STOP_WAIT_S.
     */
    private static final String WATCHDOG = "while kill -0 \"$0\" 2>/dev/null; do kill -0 \"$1\" 2>/dev/null || exit 0; sleep 0.2; done; "
            + "kill -TERM \"$1\" 2>/dev/null; i=0; "
            + "while kill -0 \"$1\" 2>/dev/null && [ $i -lt " + STOP_WAIT_S * 5 + " ]; do sleep 0.2; i=$((i+1)); done; "
            + "kill -KILL \"$1\" 2>/dev/null";

    /**
     * How a job of several nodes ended: the hook for a recovery on the surviving hosts.
     *
     * @param exitCode the job's exit code
     * @param lostNode the first node whose master stopped answering, or null when none was lost
     */
    public record Outcome(int exitCode, LostNode lostNode) {
    }

    /**
     * The command line of mpiexec.
     *
     * @param launcherAddress where this process listens for the masters ({@code HOST:PORT})
     * @return mpiexec and its arguments
     */
    public List<String> command(String launcherAddress) {
        List<String> cmd = new ArrayList<>(mpiexec.command(nodes, hosts, hostFile));
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Bdmpiexec.class.getName(), "--node-master",
                "--launcher=" + launcherAddress));
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Runs the masters to their end; returns the job's exit code.
     *
     * @return the job's exit code
     */
    public int run() {
        return runJob().exitCode();
    }

    /**
     * Runs the masters to their end and says how the job ended, and which node was lost if one was.
     *
     * @return the job's exit code and lost node
     */
    public Outcome runJob() {
        Process[] started = new Process[1];
        JobWatch watch;
        try {
            watch = new JobWatch(nodes, hosts == null ? List.of() : Arrays.asList(hosts.split(",")),
                    hosts == null && hostFile == null);
        } catch (java.io.IOException e) {
            System.err.println("bdmpiexec: cannot listen for the masters' heartbeats: " + e.getMessage());
            return new Outcome(1, null);
        }
        ProgressReporter display = ProgressReporter.start(new MasterContext().statusLine(statusLine).progressSeconds(progressSeconds),
                f -> {
                    // The job as a whole only: nothing until every node has reported once.
                    List<JobSnapshot> parts = watch.snapshots();
                    if (parts.size() < nodes) {
                        f.completeExceptionally(new IllegalStateException("not every node has reported yet"));
                    } else {
                        f.complete(JobSnapshot.sum(parts));
                    }
                });
        Process mpi;
        try {
            ProcessBuilder.Redirect output = statusLine ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.INHERIT;
            synchronized (started) {
                mpi = new ProcessBuilder(command(watch.start(lost -> {
                    Process job;
                    synchronized (started) {
                        job = started[0];
                    }
                    endAfterLoss(job, watch, lost);
                }).address()))
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .redirectOutput(output)
                        .redirectError(output)
                        .start();
                started[0] = mpi;
            }
        } catch (java.io.IOException e) {
            System.err.println("bdmpiexec: cannot start the masters with " + mpiexec.path() + ": " + e.getMessage());
            watch.close();
            closeQuietly(display);
            return new Outcome(1, null);
        }
        if (display != null) {
            display.forwardOutputOf(mpi);
        }
        Process watchdog = startWatchdog(mpi);
        // Told to stop (SIGINT, SIGTERM): mpiexec passes the signal to the masters, which stop their slaves.
        Thread hook = new Thread(() -> {
            watch.close();
            mpi.destroy();
            try {
                if (!mpi.waitFor(STOP_WAIT_S, TimeUnit.SECONDS)) {
                    mpi.descendants().forEach(ProcessHandle::destroyForcibly);
                    mpi.destroyForcibly();
                }
            } catch (InterruptedException ignored) {
                // The JVM is going down anyway.
            }
        }, "bdmpi-stop-masters");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            int exitCode = mpi.waitFor();
            watch.close();
            closeQuietly(display);
            LostNode lost = watch.lost();
            if (lost != null) {
                exitCode = 1; // mpiexec's own code then says how MPI ended the rest, not why
            }
            String failure = lost == null ? null : lost.describe();
            if (stats != null) {
                JobStats.merge(stats, nodes, exitCode, failure);
            }
            if (trace != null || report != null) {
                TimelineParts.join(trace, report, nodes, exitCode, failure);
            }
            return new Outcome(exitCode, lost);
        } catch (InterruptedException e) {
            return new Outcome(1, watch.lost());
        } catch (java.io.IOException e) {
            System.err.println("bdmpiexec: cannot join the nodes' statistics or timelines: " + e.getMessage());
            return new Outcome(1, watch.lost());
        } finally {
            watch.close();
            closeQuietly(display);
            if (watchdog != null) {
                watchdog.destroyForcibly();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running.
            }
        }
    }

    /**
     * A node was lost (called on a watch thread; the rest runs on its own): first the other masters
     * end their part (bdmpiexec told them: they stop their slaves and write their parts of the
     * outputs), at most {@link #OTHERS_WAIT_S}; then the lost master, when it still runs here, is
     * killed (a stopped one too: SIGKILL needs no cooperation), which makes mpiexec end the job;
     * one already gone from here leaves mpiexec ending the job (a signal now would disturb it:
     * Open MPI's then crashes and leaves shared memory behind); on another host, mpiexec is told to
     * stop. Whatever is left {@link #LOST_WAIT_S} later is killed.
     */
    private static void endAfterLoss(Process mpi, JobWatch watch, LostNode lost) {
        if (mpi == null) {
            return;
        }
        Thread ender = new Thread(() -> {
            try {
                watch.awaitOthers(lost.node(), TimeUnit.SECONDS.toMillis(OTHERS_WAIT_S));
                Optional<ProcessHandle> here = mpi.descendants().filter(p -> p.pid() == lost.pid()).findFirst();
                if (here.isPresent()) {
                    here.get().destroyForcibly();
                } else if (!lost.host().equals(LauncherLink.hostName())) {
                    mpi.destroy();
                }
                if (!mpi.waitFor(LOST_WAIT_S, TimeUnit.SECONDS)) {
                    mpi.descendants().forEach(ProcessHandle::destroyForcibly);
                    mpi.destroyForcibly();
                }
            } catch (InterruptedException ignored) {
                // bdmpiexec is ending.
            }
        }, "bdmpi-end-after-loss");
        ender.setDaemon(true);
        ender.start();
    }

    /**
     * Starts a shell, in its own session, that stops mpiexec should this JVM die without stopping it
     * (a shutdown hook does not run on SIGKILL); with mpiexec gone, the masters and their slaves stop.
     * Returns null (and says so) if it cannot be started: the job then runs unguarded.
     */
    private static Process startWatchdog(Process mpi) {
        try {
            return DetachedShell.start(WATCHDOG, Long.toString(ProcessHandle.current().pid()), Long.toString(mpi.pid()));
        } catch (java.io.IOException e) {
            System.err.println("bdmpiexec: warning: cannot start the watchdog that stops the masters should bdmpiexec be killed: "
                    + e.getMessage());
            return null;
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // Ending anyway.
            }
        }
    }
}
