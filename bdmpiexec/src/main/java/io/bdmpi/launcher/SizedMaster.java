package io.bdmpi.launcher;

import io.bdmpi.master.NodeMaster;
import io.bdmpi.master.config.MasterContext;
import io.bdmpi.master.scheduler.Signals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
    /** How long bdmpiexec waits for the last of a dead master's stderr (its slaves hold the pipe a moment longer). */
    private static final long RELAY_DRAIN_MS = 1_000;

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
        long limit = context.memoryLimitBytesOn(0);
        List<String> command = MultiNodeLaunch.masterJvm(MultiNodeLaunch.masterJavaOptions(limit));
        command.addAll(List.of(args));
        // Its stderr passes through here, so that a master that died without a word gets one.
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO().redirectError(ProcessBuilder.Redirect.PIPE);
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
        ErrorRelay relay = new ErrorRelay(master.getErrorStream());
        relay.start();
        while (true) {
            try {
                int exitCode = master.waitFor();
                Runtime.getRuntime().removeShutdownHook(stop);
                relay.join(RELAY_DRAIN_MS); // the slaves, which share the pipe, end within their watchdog's period
                if (exitCode > 128 && !relay.saidTheOutcome()) {
                    System.err.println("bdmpiexec: job failed: the master (pid " + master.pid() + ") was killed by signal "
                            + (exitCode - 128) + Signals.name(exitCode - 128) + (exitCode - 128 == 9
                            ? ": under the --memory-limit of " + (limit >> 20) + " MiB, most likely by the kernel's OOM"
                              + " killer; give the job more memory (see the warning above, if any) or fewer slaves (-ns)"
                            : ""));
                }
                return exitCode;
            } catch (InterruptedException e) {
                // Only the master's end ends the wait.
            } catch (IllegalStateException shuttingDown) {
                return NodeMaster.EXIT_STOPPED; // the hook runs and waits for the master; the JVM ends with it
            }
        }
    }

    /**
     * Copies the master JVM's stderr to bdmpiexec's, byte for byte, and notes whether the job's
     * outcome was said ("bdmpiexec: job failed", as every end of a failed job says it).
     */
    private static final class ErrorRelay extends Thread {

        private static final byte[] OUTCOME = "bdmpiexec: job failed".getBytes(StandardCharsets.UTF_8);

        private final InputStream from;
        private volatile boolean said;

        ErrorRelay(InputStream from) {
            super("bdmpi-master-stderr");
            setDaemon(true);
            this.from = from;
        }

        boolean saidTheOutcome() {
            return said;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            int matched = 0;
            try (InputStream in = from) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    System.err.write(buffer, 0, n);
                    System.err.flush();
                    for (int i = 0; i < n && !said; i++) {
                        matched = buffer[i] == OUTCOME[matched] ? matched + 1 : buffer[i] == OUTCOME[0] ? 1 : 0;
                        said = matched == OUTCOME.length;
                    }
                }
            } catch (IOException e) {
                // The master is gone: nothing more to copy.
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
