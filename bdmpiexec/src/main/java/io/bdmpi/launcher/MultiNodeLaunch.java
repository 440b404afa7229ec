package io.bdmpi.launcher;

import io.bdmpi.master.NodeMaster;
import io.bdmpi.master.StopSignal;
import io.bdmpi.master.checkpoint.CheckpointStore;
import io.bdmpi.master.config.MasterContext;
import io.bdmpi.master.control.ControlMessage;
import io.bdmpi.master.control.LauncherLink;
import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.master.internode.MpiLauncher;
import io.bdmpi.master.observe.JobSnapshot;
import io.bdmpi.master.observe.JobStats;
import io.bdmpi.master.observe.ProgressReporter;
import io.bdmpi.master.observe.TimelineParts;
import io.bdmpi.master.slaveio.ClassDataArchive;
import io.bdmpi.master.slaveio.DetachedShell;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Starts the N masters of a job of several nodes through the MPI launcher:
 * {@code mpiexec -n N [its options, hosts] java -cp <this class path> Bdmpiexec --node-master --launcher=HOST:PORT <args>}.
 * Each master learns its node from its MPI rank and connects back to this process on a side
 * channel ({@link JobWatch}: heartbeats, the job-wide status, lost nodes). The masters' (and
 * slaves') output reaches this terminal through mpiexec; the masters agree on the job's exit code,
 * which mpiexec returns. A master that stops answering or dies ends the job ({@link LostNode}).
 *
 * <p>With {@code --recover N}: MPI ends the whole job when a master dies, so recovery happens
 * around it. When a node is lost ({@link JobWatch}'s {@link LostNode}, else what mpiexec reports,
 * see {@link NodeLoss}), bdmpiexec says which node was lost and starts the job again on the
 * surviving nodes (its hosts less the lost one's, and a spare host in its place if the hosts list
 * one), the same ranks spread over them in blocks, going on from the last checkpoint in the
 * checkpoint directory (which every node sees); at most N times. With node-local checkpoint
 * directories bdmpiexec reads none of them: it starts the job again on every survivor, each in its
 * own directory, and the ranks go to the survivors that hold their parts, as the masters say
 * ({@link NodeLocalRecovery}).
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
 * @param recoveries      --recover: how many lost nodes the job may go on without
 * @param checkpointDir   the job's checkpoint directory (--checkpoint-dir, else --restart), or null; with
 *                        {@link MasterContext#NODE_MARK} each node's own (see {@link NodeLocalRecovery})
 * @param nodeDirs        with node-local checkpoint directories, the number each node puts for
 *                        {@link MasterContext#NODE_MARK} (--node-dirs); empty: node k puts k
 * @param programStart    where the program and its arguments start in {@code args}
 * @param memoryLimitBytes the smallest --memory-limit of the nodes, or 0 for none (see {@link #masterJavaOptions})
 */
public record MultiNodeLaunch(MpiLauncher mpiexec, int nodes, String hosts, Path hostFile, List<String> args, Path stats,
                              Path trace, Path report, boolean statusLine, double progressSeconds, int recoveries,
                              Path checkpointDir, List<Integer> nodeDirs, int programStart, long memoryLimitBytes) {

    /** How long the masters' connections get, once mpiexec has ended, to deliver what the masters said last. */
    private static final long LAST_WORDS_WAIT_MS = 2_000;

    /** How long the masters get to stop after bdmpiexec is told to stop. */
    static final long STOP_WAIT_S = 20;
    /** How long a stopped launch waits for the main thread to join the nodes' outputs, once the masters are gone. */
    private static final long JOIN_WAIT_S = 10;
    /** How long the other masters get to end their part after a node was lost, before the lost master is killed. */
    private static final long OTHERS_WAIT_S = 15;
    /** How long mpiexec then gets to end the job, before every process of it is killed. */
    private static final long LOST_WAIT_S = 10;
    /** How long a master killed by bdmpiexec gets to be gone, so that bdmpiexec exits after it. */
    private static final long KILLED_WAIT_MS = 2_000;

    /**
     * What starts each master under MPICH: in a session of its own ({@code -f}: always in a new
     * process; {@code -w}: the wrapper waits for the master and exits with its code, which so
     * reaches mpiexec). Hydra starts every rank as a session of its own and, the moment one rank
     * dies, kills every other rank's process group; that group is now the wrapper alone, so the
     * other masters live on to say goodbye, and only the dead master's side channel ends without
     * one (see {@link NodeLoss}). What hydra no longer ends, bdmpiexec does: the masters stop when
     * their side channel ends (and end themselves {@link LauncherLink#ORPHAN_LIMIT_MS} later), and
     * bdmpiexec waits for those on this machine and kills any left ({@link #endMastersHere}).
     */
    private static final List<String> OWN_SESSION = List.of("setsid", "-f", "-w");

    /**
     * The watchdog's shell: while bdmpiexec ($0) lives it only checks that mpiexec ($1) still runs;
     * should bdmpiexec die first (SIGKILL, OOM killer) it stops mpiexec as bdmpiexec would have,
     * with SIGTERM, and with SIGKILL if mpiexec is still there after STOP_WAIT_S; then, as
     * {@link #endMastersHere}, gives the masters of this machine (command line with
     * {@code --launcher=$2}, each argument a NUL-ended line of /proc/PID/cmdline; {@code [-]} so
     * that grep's own command line does not match) STOP_WAIT_S to
     * end (their side channel ended with bdmpiexec) and kills those left: under MPICH mpiexec's end
     * does not end them (see {@link #OWN_SESSION}), and a stopped one does not end itself.
     */
    private static final String WATCHDOG = "while kill -0 \"$0\" 2>/dev/null; do kill -0 \"$1\" 2>/dev/null || exit 0; sleep 0.2; done; "
            + "kill -TERM \"$1\" 2>/dev/null; i=0; "
            + "while kill -0 \"$1\" 2>/dev/null && [ $i -lt " + STOP_WAIT_S * 5 + " ]; do sleep 0.2; i=$((i+1)); done; "
            + "kill -KILL \"$1\" 2>/dev/null; "
            + "m=\"[-]-launcher=$2\"; masters() { grep -lzx -e \"$m\" /proc/[0-9]*/cmdline 2>/dev/null | cut -d/ -f3; }; i=0; "
            + "while [ -n \"$(masters)\" ] && [ $i -lt " + STOP_WAIT_S * 5 + " ]; do sleep 0.2; i=$((i+1)); done; "
            + "kill -KILL $(masters) 2>/dev/null";

    /**
     * The classes of the jars whose every class goes into the masters' class-data archive: bdmpi's
     * own, the command line's parser, MPI's binding (jnr-ffi, jffi, and the assemblers it makes its
     * stubs with), the scheduler's ring and Jackson (checkpoint manifests). Named, not linked: a jar
     * that is not on the class path is left out.
     */
    private static final List<String> ARCHIVED_JARS_OF = List.of(Bdmpiexec.class.getName(), NodeMaster.class.getName(),
            "io.bdmpi.slave.SlaveMain", "io.bdmpi.spill.SpillDirectory", "picocli.CommandLine", "jnr.ffi.LibraryLoader",
            "com.kenai.jffi.Foreign", "jnr.x86asm.Assembler", "org.objectweb.asm.ClassWriter", "com.lmax.disruptor.RingBuffer",
            "com.fasterxml.jackson.core.JsonFactory", "com.fasterxml.jackson.databind.ObjectMapper",
            "com.fasterxml.jackson.annotation.JsonProperty");

    /**
     * The command line of mpiexec.
     *
     * @param launcherAddress where this process listens for the masters ({@code HOST:PORT})
     * @param javaOptions     the masters' JVM options (see {@link #masterJavaOptions})
     * @return mpiexec and its arguments
     */
    public List<String> command(String launcherAddress, List<String> javaOptions) {
        List<String> cmd = new ArrayList<>(mpiexec.command(nodes, hosts, hostFile));
        if (mpiexec.abi() == MpiAbi.MPICH) {
            cmd.addAll(OWN_SESSION);
        }
        cmd.addAll(masterJvm(javaOptions));
        cmd.addAll(List.of("--node-master", "--launcher=" + launcherAddress));
        cmd.addAll(args);
        return cmd;
    }

    /** A master's JVM with {@code javaOptions}, running bdmpiexec, whose arguments follow. */
    static List<String> masterJvm(List<String> javaOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(javaOptions);
        cmd.addAll(List.of("-cp", String.join(File.pathSeparator, masterClassPath()), Bdmpiexec.class.getName()));
        return cmd;
    }

    /**
     * The masters' class path: this process's, its jars first (a class-data archive holds jars
     * only, and the JVM maps it only where its class path begins the JVM's), then the rest (the
     * tests' class directories) in their order.
     */
    private static List<String> masterClassPath() {
        List<String> entries = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
        return Stream.concat(entries.stream().filter(ClassDataArchive::isJar), entries.stream().filter(e -> !ClassDataArchive.isJar(e)))
                .toList();
    }

    /**
     * The masters' JVM options: with a --memory-limit ({@code memoryLimitBytes} > 0), the heap the
     * JVM picks on a machine of that memory (a master joins the job's cgroup only once started, so
     * its JVM would size its heap by the whole machine: a quarter of it, which a master's garbage
     * fills well past the limit before it collects, and the kernel kills); then this JVM's own
     * options (a user's -Xmx overrides), then those that map their class-data archive.
     */
    static List<String> masterJavaOptions(long memoryLimitBytes) {
        List<String> options = new ArrayList<>();
        if (memoryLimitBytes > 0) {
            // Not past the machine: the JVM takes an explicit MaxRAM as it is, and fails to reserve a heap of a quarter of 1 PB.
            long machine = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getTotalMemorySize();
            options.add("-XX:MaxRAM=" + (machine > 0 ? Math.min(memoryLimitBytes, machine) : memoryLimitBytes));
        }
        options.addAll(launcherJavaOptions());
        options.addAll(archiveOptions());
        return options;
    }

    /**
     * This JVM's own options (bin/master-jvm.options and the user's {@code BDMPIEXEC_JVM_OPTS}),
     * which the masters need as much as the one master of a job on one node does (Chronicle Map's
     * module options on JDK 17, a heap size), but a debugger's agent, whose port this JVM holds.
     */
    static List<String> launcherJavaOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(o -> !o.startsWith("-agentlib:jdwp") && !o.startsWith("-Xrunjdwp") && !o.equals("-Xdebug"))
                .toList();
    }

    /**
     * The options that map the masters' class-data archive (see {@link ClassDataArchive#forMasters}),
     * made on the first launch of a build (a training run of a few seconds) and kept in the cache;
     * none if there is none to use. A host that does not see the cache starts its master without it.
     */
    private static List<String> archiveOptions() {
        List<String> jars = masterClassPath().stream().filter(ClassDataArchive::isJar).toList();
        List<String> loadAll = new ArrayList<>();
        for (String name : ARCHIVED_JARS_OF) {
            try {
                String jar = ClassDataArchive.codeSource(Class.forName(name, false, MultiNodeLaunch.class.getClassLoader()));
                if (jars.contains(jar) && !loadAll.contains(jar)) {
                    loadAll.add(jar);
                }
            } catch (ClassNotFoundException | RuntimeException notThere) {
                // Not on the class path, or not from a jar: nothing of it to load.
            }
        }
        return ClassDataArchive.forMasters(new MasterContext().classDataCacheDir(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), jars, loadAll);
    }

    /**
     * How one run of the masters ended.
     *
     * @param exitCode the run's exit code
     * @param lines    the last lines mpiexec wrote (none when they went to the status line's display)
     * @param lostNode the first node whose master stopped answering or died, or null
     * @param rankDeath why it failed when a master said that one of its ranks died, else null
     * @param placement what the masters were told of the ranks' placement ({@link ControlMessage.Placed}
     *                  or {@link ControlMessage.NotPlaced}), or null when they placed them themselves
     */
    private record Ended(int exitCode, List<String> lines, LostNode lostNode, String rankDeath, ControlMessage placement) {
    }

    /**
     * Runs the masters to their end, again on the surviving nodes after a lost one (with
     * {@code --recover}); returns the job's exit code.
     *
     * @return the job's exit code
     */
    public int run() {
        CountDownLatch finished = new CountDownLatch(1);
        try {
            return run(finished);
        } finally {
            finished.countDown();
        }
    }

    /** @param finished counted down by the caller once this returns: a shutdown hook waits for it */
    private int run(CountDownLatch finished) {
        StopSignal.watch();
        AtomicBoolean stopping = new AtomicBoolean();
        List<JobStats.Recovery> done = new ArrayList<>();
        if (recoveries > 0 && checkpointDir != null && !MasterContext.nodeLocal(checkpointDir)) {
            Thread reader = new Thread(CheckpointStore::prepareReading, "bdmpi-prepare-recovery");
            reader.setDaemon(true);
            reader.start();
        }
        List<String> javaOptions = masterJavaOptions(memoryLimitBytes);
        MultiNodeLaunch launch = this;
        Function<List<List<ControlMessage.HeldPart>>, ControlMessage> planner = null;
        while (true) {
            Ended ended = launch.runOnce(stopping, javaOptions, planner, finished);
            if (stopping.get()) {
                System.err.println("bdmpiexec: job failed: " + NodeMaster.STOPPED_REASON);
                return launch.joinOutputs(StopSignal.exitCode(), NodeMaster.STOPPED_REASON, JobStats.NO_LOST_NODE, done);
            }
            if (ended.placement() instanceof ControlMessage.NotPlaced) {
                return launch.joinOutputs(ended, done); // the planner said why
            }
            if (ended.placement() instanceof ControlMessage.Placed placed) {
                JobStats.Recovery last = done.remove(done.size() - 1);
                done.add(new JobStats.Recovery(last.recovery(), last.failure(), placed.sequence(), last.lostSeconds(),
                        last.restartSeconds()));
            }
            boolean failed = ended.exitCode() != 0;
            // The side channel names the master that died or stopped answering; mpiexec's report only
            // when the side channel could not tell (see NodeLoss).
            Optional<NodeLoss> loss = ended.lostNode() != null ? Optional.of(NodeLoss.of(ended.lostNode()))
                    : failed ? NodeLoss.find(ended.lines()) : Optional.empty();
            // A rank that died: its master reported it; the job goes on from the checkpoint on the same nodes.
            String failure = loss.map(l -> "node " + l.node() + " was lost: " + l.how())
                    .orElse(failed ? ended.rankDeath() : null);
            if (failure == null) {
                return launch.joinOutputs(ended, done);
            }
            String refusal = done.size() >= recoveries ? (recoveries == 0 ? "" : "no recovery left (--recover " + recoveries + ")")
                    : loss.isPresent() && launch.nodes < 2 ? "no node left" : null;
            int lost = loss.map(NodeLoss::node).orElse(-1);
            MultiNodeLaunch next = null;
            int sequence = 0;
            planner = null;
            if (refusal == null && MasterContext.nodeLocal(checkpointDir)) {
                // The masters read their own directories: the checkpoint and the announcement come with their holdings.
                next = launch.onSurvivors(lost);
                planner = next.planner(failure, loss.isPresent(), done.size() + 1);
                done.add(new JobStats.Recovery(done.size() + 1, failure, 0, -1, -1));
                launch.removeParts();
                launch = next;
                continue;
            }
            try {
                if (refusal == null) {
                    CheckpointStore.Checkpoint from = CheckpointStore.latestIn(checkpointDir, CheckpointStore.Sharing.SHARED);
                    next = from == null ? null : lost >= 0 ? launch.without(lost, from.worldSize()) : launch.again();
                    sequence = from == null ? 0 : from.sequence();
                }
            } catch (IOException e) {
                refusal = "cannot read the checkpoints in " + checkpointDir + ": " + e.getMessage();
            }
            if (refusal == null && next == null) {
                refusal = "no checkpoint to go on from";
            }
            if (refusal != null) {
                if (loss.isPresent() && (ended.lostNode() == null || !refusal.isEmpty())) {
                    System.err.println("bdmpiexec: " + failure); // else the side channel's line has named it
                } else if (loss.isEmpty() && recoveries > 0) {
                    System.err.println("bdmpiexec: job failed: " + failure); // its master left it to this process
                }
                if (!refusal.isEmpty()) {
                    System.err.println("bdmpiexec: the job cannot go on: " + refusal);
                }
                return launch.joinOutputs(ended, done);
            }
            done.add(new JobStats.Recovery(done.size() + 1, failure, sequence, -1, -1));
            launch.removeParts();
            launch = next;
            System.err.println("bdmpiexec: " + failure + "; going on from checkpoint " + sequence + " on " + launch.nodes
                    + " node" + (launch.nodes == 1 ? "" : "s") + " (recovery " + done.size() + " of " + recoveries + ")");
        }
    }

    /** The launch that goes on from the checkpoints on the same nodes, after a rank died. */
    MultiNodeLaunch again() {
        return withOptions(nodes, hosts, List.of("--restart", checkpointDir.toString()));
    }

    /** This launch on {@code n} nodes and {@code survivors}, with {@code options} before the program, where they override the user's. */
    private MultiNodeLaunch withOptions(int n, String survivors, List<String> options) {
        return withOptions(n, survivors, nodeDirs, options);
    }

    private MultiNodeLaunch withOptions(int n, String survivors, List<Integer> dirs, List<String> options) {
        List<String> a = new ArrayList<>(args.subList(0, programStart));
        a.addAll(options);
        int start = a.size();
        a.addAll(args.subList(programStart, args.size()));
        return new MultiNodeLaunch(mpiexec, n, survivors, hostFile, a, stats, trace, report, statusLine, progressSeconds, recoveries,
                checkpointDir, dirs, start, memoryLimitBytes);
    }

    /** The directory number ({@link MasterContext#NODE_MARK}) of node {@code node} of this launch. */
    private int dirOf(int node) {
        return node < nodeDirs.size() ? nodeDirs.get(node) : node;
    }

    /** The directory numbers of this launch's nodes but {@code lost} (-1: all of them). */
    private List<Integer> survivingDirs(int lost) {
        List<Integer> dirs = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            if (n != lost) {
                dirs.add(dirOf(n));
            }
        }
        return dirs;
    }

    /**
     * The launch that goes on from node-local checkpoints without node {@code lost} (-1: on the
     * same nodes): on every survivor (its host, from {@code --hosts} or the host file), each in its
     * own directory; the masters tell what their directories hold and {@link #planner} places the
     * ranks. A spare host (the first beyond the {@code nodes} of {@code --hosts} or the host file)
     * takes the lost node's place with a directory of a number no node used, new: the planner gives
     * it ranks, whose parts its master fetches from the others.
     */
    MultiNodeLaunch onSurvivors(int lost) {
        String survivors = null;
        List<String> list = hostList();
        List<Integer> dirs = survivingDirs(lost);
        if (list != null) {
            List<String> kept = new ArrayList<>();
            for (int n = 0; n < nodes && n < list.size(); n++) {
                if (n != lost) {
                    kept.add(list.get(n));
                }
            }
            if (lost >= 0 && list.size() > nodes) {
                kept.add(list.get(nodes));
                int fresh = 0;
                for (int n = 0; n < nodes; n++) {
                    fresh = Math.max(fresh, dirOf(n) + 1);
                }
                dirs.add(fresh);
            }
            survivors = String.join(",", kept);
        }
        StringBuilder slots = new StringBuilder();
        for (int d : dirs) {
            slots.append(slots.length() == 0 ? "" : ",").append(d);
        }
        int n = dirs.size();
        return withOptions(n, survivors, dirs, List.of("-nn", Integer.toString(n), "--node-dirs", slots.toString(),
                "--held-placement", "--restart", checkpointDir.toString()));
    }

    /**
     * What this launch (from {@link #onSurvivors}) answers its masters' holdings with: the plan of
     * {@link NodeLocalRecovery}, announced with {@code failure} as recovery {@code recovery}; or,
     * when there is none, why the job cannot go on (also printed, after {@code failure} when
     * {@code nodeLost}: the master of a rank that died has named it).
     */
    private Function<List<List<ControlMessage.HeldPart>>, ControlMessage> planner(String failure, boolean nodeLost, int recovery) {
        return held -> {
            String reason;
            try {
                NodeLocalRecovery plan = NodeLocalRecovery.plan(nodeDirs, held);
                if (plan != null) {
                    System.err.println("bdmpiexec: " + failure + "; going on from checkpoint " + plan.sequence() + " on " + nodes
                            + " node" + (nodes == 1 ? "" : "s") + " (recovery " + recovery + " of " + recoveries + ")");
                    return plan.placed();
                }
                reason = "no checkpoint to go on from";
            } catch (NodeLocalRecovery.Refused e) {
                reason = "the checkpoints in " + checkpointDir + " cannot be used: " + e.getMessage();
            }
            if (nodeLost) {
                System.err.println("bdmpiexec: " + failure);
            }
            System.err.println("bdmpiexec: the job cannot go on: " + reason);
            return new ControlMessage.NotPlaced(reason);
        };
    }

    /**
     * The launch that goes on without node {@code lost}, from the checkpoints: its host is left out,
     * and a spare host (a host beyond the first {@code nodes} of {@code --hosts} or the host file)
     * takes its place, else the job goes on with one node fewer; the {@code worldSize} ranks in
     * blocks over the nodes. The options go before the program, where they override the user's.
     */
    MultiNodeLaunch without(int lost, int worldSize) {
        List<String> list = hostList();
        if (list != null && lost < list.size()) {
            list.remove(lost);
        }
        int n = list != null && list.size() >= nodes ? nodes : nodes - 1;
        StringBuilder perNode = new StringBuilder();
        for (int i = 0; i < n; i++) {
            perNode.append(i == 0 ? "" : ",").append(worldSize / n + (i < worldSize % n ? 1 : 0));
        }
        return withOptions(n, list == null ? null : String.join(",", list), List.of("-nn", Integer.toString(n), "--node-slaves",
                perNode.toString(), "--placement", "block", "--restart", checkpointDir.toString()));
    }

    /**
     * The hosts, in the order mpiexec fills them with the masters (node k on the k-th; those beyond
     * {@code nodes} are spares): {@code --hosts}, else the host file's, one entry per slot (MPICH's
     * {@code host:N}, Open MPI's {@code host slots=N}); null when neither is given. A host file that
     * cannot be read gives null too: mpiexec then reads it again itself.
     */
    List<String> hostList() {
        if (hosts != null) {
            return new ArrayList<>(List.of(hosts.split(",")));
        }
        if (hostFile == null) {
            return null;
        }
        try {
            List<String> list = new ArrayList<>();
            for (String line : Files.readAllLines(hostFile)) {
                String[] words = line.replaceAll("#.*", "").trim().split("\\s+");
                if (words[0].isEmpty()) {
                    continue;
                }
                String host = words[0];
                int slots = 1;
                int colon = host.indexOf(':');
                if (colon > 0) {
                    slots = Integer.parseInt(host.substring(colon + 1));
                    host = host.substring(0, colon);
                }
                for (String w : words) {
                    if (w.startsWith("slots=")) {
                        slots = Integer.parseInt(w.substring("slots=".length()));
                    }
                }
                for (int i = 0; i < slots; i++) {
                    list.add(host);
                }
            }
            return list;
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    /** Joins the nodes' parts of the statistics, trace and report of the last run; returns the job's exit code. */
    private int joinOutputs(Ended ended, List<JobStats.Recovery> done) {
        int exitCode = ended.lostNode() != null ? 1 : ended.exitCode(); // mpiexec's own code then says how MPI ended the rest
        String failure = ended.lostNode() == null ? null : ended.lostNode().describe();
        int lostNode = ended.lostNode() == null ? JobStats.NO_LOST_NODE : ended.lostNode().node();
        return joinOutputs(exitCode, failure, lostNode, done);
    }

    private int joinOutputs(int exitCode, String failure, int lostNode, List<JobStats.Recovery> done) {
        try {
            if (stats != null) {
                JobStats.merge(stats, nodes, exitCode, failure, lostNode, done);
            }
            if (trace != null || report != null) {
                TimelineParts.join(trace, report, nodes, exitCode, failure, lostNode);
            }
            return exitCode;
        } catch (IOException e) {
            System.err.println("bdmpiexec: cannot join the nodes' statistics or timelines: " + e.getMessage());
            return 1;
        }
    }

    /** Removes what the masters of a run that lost a node wrote of their outputs: the next run writes its own. */
    private void removeParts() {
        for (int n = 0; n < nodes; n++) {
            try {
                if (stats != null) {
                    Files.deleteIfExists(JobStats.partFile(stats, n));
                }
                if (trace != null || report != null) {
                    Files.deleteIfExists(TimelineParts.partFile(trace != null ? trace : report, n));
                }
            } catch (IOException e) {
                // The next run writes its own parts over them.
            }
        }
    }

    private Ended runOnce(AtomicBoolean stopping, List<String> javaOptions,
                          Function<List<List<ControlMessage.HeldPart>>, ControlMessage> planner, CountDownLatch finished) {
        Process[] started = new Process[1];
        JobWatch watch;
        try {
            watch = new JobWatch(nodes, hosts == null ? List.of() : Arrays.asList(hosts.split(",")),
                    hosts == null && hostFile == null, planner);
        } catch (java.io.IOException e) {
            System.err.println("bdmpiexec: cannot listen for the masters' heartbeats: " + e.getMessage());
            return new Ended(1, List.of(), null, null, null);
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
            synchronized (started) {
                mpi = new ProcessBuilder(command(watch.start(lost -> {
                    Process job;
                    synchronized (started) {
                        job = started[0];
                    }
                    endAfterLoss(job, watch, lost);
                }).address(), javaOptions))
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .start();
                started[0] = mpi;
            }
        } catch (java.io.IOException e) {
            System.err.println("bdmpiexec: cannot start the masters with " + mpiexec.path() + ": " + e.getMessage());
            watch.close();
            closeQuietly(display);
            return new Ended(1, List.of(), null, null, null);
        }
        OutputRelay out = null;
        OutputRelay err = null;
        if (statusLine) {
            display.forwardOutputOf(mpi, watch::mpiOutput); // between the status line's redraws
        } else {
            out = OutputRelay.start(mpi.getInputStream(), System.out, watch::mpiOutput, "bdmpi-mpiexec-stdout");
            err = OutputRelay.start(mpi.getErrorStream(), System.err, watch::mpiOutput, "bdmpi-mpiexec-stderr");
        }
        Process watchdog = startWatchdog(mpi, watch.address());
        // Told to stop (SIGINT, SIGTERM): the masters stop their slaves when their side channel ends
        // (and when mpiexec passes them the signal, as Open MPI's does) and write their parts of the
        // outputs; the main thread joins them as on any other end, which this hook waits for, as the
        // JVM ends with the hooks, not with the main thread.
        Thread hook = new Thread(() -> {
            stopping.set(true);
            watch.close();
            mpi.destroy();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WAIT_S);
                if (!mpi.waitFor(STOP_WAIT_S, TimeUnit.SECONDS)) {
                    mpi.descendants().forEach(ProcessHandle::destroyForcibly);
                    mpi.destroyForcibly();
                }
                endMastersHere(watch.address(), TimeUnit.NANOSECONDS.toMillis(Math.max(0, deadline - System.nanoTime())));
                finished.await(JOIN_WAIT_S, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                // The JVM is going down anyway.
            }
        }, "bdmpi-stop-masters");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            int exitCode = mpi.waitFor();
            // Under MPICH the masters outlive hydra's end of the job (see OWN_SESSION): after a lost
            // node the others may still be ending their part.
            endMastersHere(watch.address(), TimeUnit.SECONDS.toMillis(OTHERS_WAIT_S));
            List<String> lines = new ArrayList<>();
            if (out != null) {
                lines.addAll(out.lastLines());
                lines.addAll(err.lastLines());
            }
            // Each master's last words (a rank's death, its goodbye) are read before the connections close.
            watch.awaitOthers(-1, LAST_WORDS_WAIT_MS);
            return new Ended(exitCode, lines, watch.lost(), watch.rankDeath(), watch.placement());
        } catch (InterruptedException e) {
            return new Ended(1, List.of(), watch.lost(), watch.rankDeath(), watch.placement());
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
     * stop. Whatever is left {@link #LOST_WAIT_S} later is killed: mpiexec, its descendants and the
     * masters of this machine (under MPICH no longer among them, see {@link #OWN_SESSION}).
     */
    private static void endAfterLoss(Process mpi, JobWatch watch, LostNode lost) {
        if (mpi == null) {
            return;
        }
        Thread ender = new Thread(() -> {
            try {
                watch.awaitOthers(lost.node(), TimeUnit.SECONDS.toMillis(OTHERS_WAIT_S));
                Optional<ProcessHandle> here = mastersHere(watch.address()).stream().filter(p -> p.pid() == lost.pid()).findFirst();
                if (here.isPresent()) {
                    here.get().destroyForcibly();
                } else if (!lost.host().equals(LauncherLink.hostName())) {
                    mpi.destroy();
                }
                if (!mpi.waitFor(LOST_WAIT_S, TimeUnit.SECONDS)) {
                    mpi.descendants().forEach(ProcessHandle::destroyForcibly);
                    mastersHere(watch.address()).forEach(ProcessHandle::destroyForcibly);
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
     * The processes of this machine that run a master of the run whose side channel listens at
     * {@code launcherAddress} (the masters, and under MPICH their {@link #OWN_SESSION} wrappers):
     * those whose command line has {@code --launcher=ADDRESS}. Found by their command line, as
     * under MPICH a master outlives its place among mpiexec's descendants; read from
     * {@code /proc/PID/cmdline}, as {@link ProcessHandle.Info#arguments} leaves out the arguments of
     * a command line as long as a master's (its class path).
     */
    static List<ProcessHandle> mastersHere(String launcherAddress) {
        String mark = "--launcher=" + launcherAddress;
        return ProcessHandle.allProcesses().filter(p -> {
            try {
                byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
                return Arrays.asList(new String(cmdline, StandardCharsets.UTF_8).split("\0")).contains(mark);
            } catch (IOException | SecurityException gone) {
                return false; // ended meanwhile, or not ours
            }
        }).toList();
    }

    /**
     * Waits at most {@code timeoutMs} for the masters of the run whose side channel listens at
     * {@code launcherAddress} that still run on this machine to end (after a lost node, the
     * survivors end their part), then kills those left: under MPICH nothing else would (see
     * {@link #OWN_SESSION}).
     */
    private static void endMastersHere(String launcherAddress, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (ProcessHandle p : mastersHere(launcherAddress)) {
            try {
                p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                p.destroyForcibly();
                try {
                    p.onExit().get(KILLED_WAIT_MS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException stillThere) {
                    // Killed: the kernel ends it.
                }
            }
        }
    }

    /**
     * Starts a shell, in its own session, that stops mpiexec and the masters of this machine (of the
     * run whose side channel listens at {@code launcherAddress}) should this JVM die without
     * stopping them (a shutdown hook does not run on SIGKILL); the masters' slaves stop with them.
     * Returns null (and says so) if it cannot be started: the job then runs unguarded.
     */
    private static Process startWatchdog(Process mpi, String launcherAddress) {
        try {
            return DetachedShell.start(WATCHDOG, Long.toString(ProcessHandle.current().pid()), Long.toString(mpi.pid()),
                    launcherAddress);
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
