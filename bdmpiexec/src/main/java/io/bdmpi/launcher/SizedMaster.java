package io.bdmpi.launcher;

import io.bdmpi.master.NodeMaster;
import io.bdmpi.master.config.MasterContext;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The master of a job of one node under a --memory-limit, run in a JVM of its own whose heap is
 * sized for the limit ({@link MultiNodeLaunch#masterJavaOptions}), as the masters of several nodes
 * are. bdmpiexec's own JVM sizes its heap by the whole machine, and a master's garbage grew it
 * past the limit before it collected: with two ranks sending 512 messages of 100 kB a round, the
 * master reached 355 MB of RSS and the kernel killed the job under a limit of 320 MiB; in a JVM
 * sized for the limit it stays near 210 MB. It costs the job one more JVM start.
 *
 * <p>bdmpiexec waits for that JVM and exits with its code; stopped by a signal, it stops the JVM
 * (SIGTERM, as the user stopped bdmpiexec) and waits for it to end its job, so nothing of the job
 * outlives bdmpiexec. Should bdmpiexec die first (SIGKILL), the master's JVM ends its job as if
 * stopped ({@link #endWithLauncher}).
 *
 * <p>Not used when bdmpiexec's own options size its heap ({@code -Xmx} in {@code BDMPIEXEC_JVM_OPTS}):
 * the user's choice stands, in the one JVM.
 */
final class SizedMaster {

    /** Set in the environment of the master's own JVM, to bdmpiexec's pid: that JVM runs the job itself. */
    static final String LAUNCHER_PID = "BDMPI_LAUNCHER_PID";
    /** How often the master's JVM looks whether bdmpiexec is still there. */
    private static final long LAUNCHER_POLL_MS = 200;

    private SizedMaster() {
    }

    /** Whether the job of {@code context} runs its master in a JVM of its own: see the class comment. */
    static boolean wanted(MasterContext context) {
        return context.nodes() == 1 && context.memoryLimitBytesOn(0) > 0 && System.getenv(LAUNCHER_PID) == null
                && MultiNodeLaunch.launcherJavaOptions().stream()
                .noneMatch(o -> o.startsWith("-Xmx") || o.startsWith("-XX:MaxHeapSize=") || o.startsWith("-XX:MaxRAM="));
    }

    /**
     * Runs bdmpiexec with {@code args} in the master's own JVM and waits for it.
     *
     * @return its exit code, to exit with
     */
    static int run(MasterContext context, String[] args) {
        List<String> command = MultiNodeLaunch.masterJvm(MultiNodeLaunch.masterJavaOptions(context.memoryLimitBytesOn(0)));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().put(LAUNCHER_PID, Long.toString(ProcessHandle.current().pid()));
        Process master;
        try {
            master = builder.start();
        } catch (IOException e) {
            System.err.println("bdmpiexec: job failed: cannot start the master's JVM: " + e.getMessage());
            return 1;
        }
        Thread stop = new Thread(() -> { // as the masters of several nodes get to stop
            master.destroy();
            try {
                if (!master.waitFor(MultiNodeLaunch.STOP_WAIT_S, TimeUnit.SECONDS)) {
                    master.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                master.destroyForcibly();
            }
        }, "bdmpi-stop-master");
        Runtime.getRuntime().addShutdownHook(stop);
        while (true) {
            try {
                int exitCode = master.waitFor();
                Runtime.getRuntime().removeShutdownHook(stop);
                return exitCode;
            } catch (InterruptedException e) {
                // Only the master's end ends the wait.
            } catch (IllegalStateException shuttingDown) {
                return NodeMaster.EXIT_STOPPED; // the hook runs and waits for the master; the JVM ends with it
            }
        }
    }

    /**
     * In the master's own JVM: ends the job as if stopped by a signal once bdmpiexec is gone, so
     * that a killed bdmpiexec leaves nothing running. Does nothing in any other JVM.
     */
    static void endWithLauncher() {
        String launcher = System.getenv(LAUNCHER_PID);
        if (launcher == null) {
            return;
        }
        long pid = Long.parseLong(launcher);
        Thread watch = new Thread(() -> {
            try {
                while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    Thread.sleep(LAUNCHER_POLL_MS);
                }
            } catch (InterruptedException e) {
                return;
            }
            System.exit(NodeMaster.EXIT_STOPPED); // the master's shutdown hook stops the job and cleans up
        }, "bdmpi-launcher-watch");
        watch.setDaemon(true);
        watch.start();
    }
}
