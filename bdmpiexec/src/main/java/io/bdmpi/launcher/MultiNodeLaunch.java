package io.bdmpi.launcher;

import io.bdmpi.master.internode.MpiLauncher;
import io.bdmpi.master.observe.JobStats;
import io.bdmpi.master.slaveio.DetachedShell;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the N masters of a job of several nodes through the MPI launcher:
 * {@code mpiexec -n N [its options, hosts] java -cp <this class path> Bdmpiexec --node-master <args>}.
 * Each master learns its node from its MPI rank. The masters' (and slaves') output reaches this
 * terminal through mpiexec; the masters agree on the job's exit code, which mpiexec returns.
 *
 * @param mpiexec  the launcher of the MPI library the masters bind
 * @param nodes    -nn
 * @param hosts    --hosts, or null
 * @param hostFile --hostfile, or null
 * @param args     bdmpiexec's own command line, passed on to every master
 * @param stats    --stats, or null: the masters write a part each, joined here at the end (they
 *                 must see this path: localhost, or a shared file system)
 */
public record MultiNodeLaunch(MpiLauncher mpiexec, int nodes, String hosts, Path hostFile, List<String> args, Path stats) {

    /** How long the masters get to stop after bdmpiexec is told to stop. */
    private static final long STOP_WAIT_S = 20;

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
     * The command line of mpiexec.
     *
     * @return mpiexec and its arguments
     */
    public List<String> command() {
        List<String> cmd = new ArrayList<>(mpiexec.command(nodes, hosts, hostFile));
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Bdmpiexec.class.getName(), "--node-master"));
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Runs the masters to their end; returns the job's exit code.
     *
     * @return the job's exit code
     */
    public int run() {
        Process mpi;
        try {
            mpi = new ProcessBuilder(command())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (java.io.IOException e) {
            System.err.println("bdmpiexec: cannot start the masters with " + mpiexec.path() + ": " + e.getMessage());
            return 1;
        }
        Process watchdog = startWatchdog(mpi);
        // Told to stop (SIGINT, SIGTERM): mpiexec passes the signal to the masters, which stop their slaves.
        Thread hook = new Thread(() -> {
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
            if (stats != null) {
                JobStats.merge(stats, nodes, exitCode);
            }
            return exitCode;
        } catch (InterruptedException e) {
            return 1;
        } catch (java.io.IOException e) {
            System.err.println("bdmpiexec: cannot join the nodes' statistics into " + stats + ": " + e.getMessage());
            return 1;
        } finally {
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
}
