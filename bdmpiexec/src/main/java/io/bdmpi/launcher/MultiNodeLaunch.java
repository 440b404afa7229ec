package io.bdmpi.launcher;

import io.bdmpi.master.internode.MpiLauncher;
import io.bdmpi.master.observe.JobStats;
import io.bdmpi.master.slaveio.DetachedShell;

import io.bdmpi.master.checkpoint.CheckpointStore;
import io.bdmpi.master.checkpoint.MasterRoster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts the N masters of a job of several nodes through the MPI launcher:
 * {@code mpiexec -n N [its options, hosts] java -cp <this class path> Bdmpiexec --node-master <args>}.
 * Each master learns its node from its MPI rank. The masters' (and slaves') output reaches this
 * terminal through mpiexec; the masters agree on the job's exit code, which mpiexec returns.
 *
 * <p>With {@code --recover N}: MPI ends the whole job when a master dies, so recovery happens
 * around it. When mpiexec reports that a master was killed ({@link NodeLoss}), bdmpiexec says which
 * node was lost and starts the job again on the surviving nodes (its hosts less the lost one's),
 * the same ranks spread over them in blocks, going on from the last checkpoint in the checkpoint
 * directory (which every node sees); at most N times.
 *
 * @param mpiexec       the launcher of the MPI library the masters bind
 * @param nodes         -nn
 * @param hosts         --hosts, or null
 * @param hostFile      --hostfile, or null
 * @param args          bdmpiexec's own command line, passed on to every master
 * @param stats         --stats, or null: the masters write a part each, joined here at the end (they
 *                      must see this path: localhost, or a shared file system)
 * @param recoveries    --recover: how many lost nodes the job may go on without
 * @param checkpointDir the job's checkpoint directory (--checkpoint-dir, else --restart), or null
 * @param programStart  where the program and its arguments start in {@code args}
 */
public record MultiNodeLaunch(MpiLauncher mpiexec, int nodes, String hosts, Path hostFile, List<String> args, Path stats,
                              int recoveries, Path checkpointDir, int programStart) {

    /** How long the masters' death recorders get to say in which order they died (see {@link MasterRoster}). */
    private static final long RECORDER_WAIT_MS = 2_000;
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

    /** How one run of the masters ended: mpiexec's exit code and the last lines it wrote. */
    private record Ended(int exitCode, List<String> lines) {
    }

    /**
     * Runs the masters to their end, again on the surviving nodes after a lost one (with
     * {@code --recover}); returns the job's exit code.
     *
     * @return the job's exit code
     */
    public int run() {
        AtomicBoolean stopping = new AtomicBoolean();
        List<JobStats.Recovery> done = new ArrayList<>();
        MultiNodeLaunch launch = this;
        while (true) {
            Ended ended = launch.runOnce(stopping);
            MasterRoster.Masters masters = new MasterRoster.Masters(List.of(), List.of(), null);
            if (checkpointDir != null) {
                try {
                    masters = MasterRoster.read(checkpointDir, RECORDER_WAIT_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                MasterRoster.clear(checkpointDir);
            }
            boolean failed = ended.exitCode() != 0 && !stopping.get();
            Optional<NodeLoss> loss = failed ? NodeLoss.find(ended.lines(), masters) : Optional.empty();
            // A rank that died: its master reported it; the job goes on from the checkpoint on the same nodes.
            String failure = loss.map(l -> "node " + l.node() + " was lost: " + l.how())
                    .orElse(failed ? masters.rankDeath() : null);
            if (failure == null) {
                return launch.mergeStats(ended.exitCode(), done);
            }
            String refusal = done.size() >= recoveries ? (recoveries == 0 ? "" : "no recovery left (--recover " + recoveries + ")")
                    : loss.isPresent() && launch.nodes < 2 ? "no node left" : null;
            CheckpointStore.Checkpoint from = null;
            try {
                from = refusal == null ? CheckpointStore.latestIn(checkpointDir) : null;
            } catch (IOException e) {
                refusal = "cannot read the checkpoints in " + checkpointDir + ": " + e.getMessage();
            }
            if (refusal == null && from == null) {
                refusal = "no checkpoint to go on from";
            }
            if (refusal != null) {
                loss.ifPresent(l -> System.err.println("bdmpiexec: " + failure));
                if (!refusal.isEmpty()) {
                    System.err.println("bdmpiexec: the job cannot go on: " + refusal);
                }
                return launch.mergeStats(ended.exitCode(), done);
            }
            done.add(new JobStats.Recovery(done.size() + 1, failure, from.sequence(), -1, -1));
            launch.removeStatsParts();
            launch = loss.isPresent() ? launch.without(loss.get().node(), from.worldSize()) : launch.again();
            System.err.println("bdmpiexec: " + failure + "; going on from checkpoint " + from.sequence() + " on " + launch.nodes
                    + " node" + (launch.nodes == 1 ? "" : "s") + " (recovery " + done.size() + " of " + recoveries + ")");
        }
    }

    /** The launch that goes on from the checkpoints on the same nodes, after a rank died. */
    MultiNodeLaunch again() {
        return withOptions(nodes, hosts, List.of("--restart", checkpointDir.toString()));
    }

    /** This launch on {@code n} nodes and {@code survivors}, with {@code options} before the program, where they override the user's. */
    private MultiNodeLaunch withOptions(int n, String survivors, List<String> options) {
        List<String> a = new ArrayList<>(args.subList(0, programStart));
        a.addAll(options);
        int start = a.size();
        a.addAll(args.subList(programStart, args.size()));
        return new MultiNodeLaunch(mpiexec, n, survivors, hostFile, a, stats, recoveries, checkpointDir, start);
    }

    /**
     * The launch that goes on without node {@code lost}: one node fewer (its host left out of
     * {@code --hosts}), the {@code worldSize} ranks in blocks over the rest, from the checkpoints.
     * The options go before the program, where they override the user's.
     */
    MultiNodeLaunch without(int lost, int worldSize) {
        int n = nodes - 1;
        StringBuilder perNode = new StringBuilder();
        for (int i = 0; i < n; i++) {
            perNode.append(i == 0 ? "" : ",").append(worldSize / n + (i < worldSize % n ? 1 : 0));
        }
        String survivors = null;
        if (hosts != null) {
            List<String> list = new ArrayList<>(List.of(hosts.split(",")));
            if (lost < list.size()) {
                list.remove(lost);
            }
            survivors = String.join(",", list);
        }
        return withOptions(n, survivors, List.of("-nn", Integer.toString(n), "--node-slaves", perNode.toString(),
                "--placement", "block", "--restart", checkpointDir.toString()));
    }

    private int mergeStats(int exitCode, List<JobStats.Recovery> done) {
        if (stats == null) {
            return exitCode;
        }
        try {
            JobStats.merge(stats, nodes, exitCode, done);
            return exitCode;
        } catch (IOException e) {
            System.err.println("bdmpiexec: cannot join the nodes' statistics into " + stats + ": " + e.getMessage());
            return 1;
        }
    }

    /** Removes what the masters of a run that lost a node wrote of their statistics. */
    private void removeStatsParts() {
        if (stats == null) {
            return;
        }
        for (int n = 0; n < nodes; n++) {
            try {
                Files.deleteIfExists(JobStats.partFile(stats, n));
            } catch (IOException e) {
                // The next run writes its own parts over them.
            }
        }
    }

    private Ended runOnce(AtomicBoolean stopping) {
        Process mpi;
        try {
            mpi = new ProcessBuilder(command())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (java.io.IOException e) {
            System.err.println("bdmpiexec: cannot start the masters with " + mpiexec.path() + ": " + e.getMessage());
            return new Ended(1, List.of());
        }
        OutputRelay out = OutputRelay.start(mpi.getInputStream(), System.out, "bdmpi-mpiexec-stdout");
        OutputRelay err = OutputRelay.start(mpi.getErrorStream(), System.err, "bdmpi-mpiexec-stderr");
        Process watchdog = startWatchdog(mpi);
        // Told to stop (SIGINT, SIGTERM): mpiexec passes the signal to the masters, which stop their slaves.
        Thread hook = new Thread(() -> {
            stopping.set(true);
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
            List<String> lines = new ArrayList<>(out.lastLines());
            lines.addAll(err.lastLines());
            return new Ended(exitCode, lines);
        } catch (InterruptedException e) {
            return new Ended(1, List.of());
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
