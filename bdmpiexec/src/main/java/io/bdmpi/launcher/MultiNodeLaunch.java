package io.bdmpi.launcher;

import io.bdmpi.master.JobStats;
import io.bdmpi.master.internode.MpiLauncher;

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

    /** The command line of mpiexec. */
    public List<String> command() {
        List<String> cmd = new ArrayList<>(mpiexec.command(nodes, hosts, hostFile));
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Bdmpiexec.class.getName(), "--node-master"));
        cmd.addAll(args);
        return cmd;
    }

    /** Runs the masters to their end; returns the job's exit code. */
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
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running.
            }
        }
    }
}
