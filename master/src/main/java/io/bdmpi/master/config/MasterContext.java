package io.bdmpi.master.config;

import io.bdmpi.master.memory.MemoryCgroup;
import io.bdmpi.master.memory.SlaveMemory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Every setting of a node master, in one place, with its default and meaning. The launcher maps
 * command-line options and config-file fields onto these setters; {@link #conclude()} validates the
 * whole once, before anything starts, and errors name the setting and its bound.
 *
 * <p>Each getter documents its setting; the setter of the same name sets it and returns this.
 *
 * <p>Not thread-safe: fill it on one thread, conclude it, then hand it to {@link io.bdmpi.master.NodeMaster}.
 */
public final class MasterContext {

    /**
     * Default of {@link #inlineMaxBytes}: messages up to this size stay in master memory. Measured
     * slave to slave on this project's 2-core machines: inline beats a spill file up to 128 KiB
     * (64 KiB: 550-1000 vs 160 MB/s; 128 KiB: 320-430 vs 245 MB/s), a spill file wins from 256 KiB
     * (420 vs 330 MB/s; 1 MiB: 860 vs 380 MB/s).
     */
    public static final int INLINE_MAX_BYTES_DEFAULT = 128 * 1024;

    /** Largest {@link #inlineMaxBytes} accepted: bigger inline messages would defeat the disk path. */
    public static final int INLINE_MAX_BYTES_LIMIT = 64 * 1024 * 1024;

    /**
     * The value of {@link #running} (and of a node's {@link NodeSettings#running}) that asks for
     * {@code -nr auto}: the master raises and lowers the count at run time, between 1 and -ns,
     * from the memory the node's limit leaves and the slaves' footprints (see
     * {@link io.bdmpi.master.scheduler.RunningController}). Not a number a user can write: the launcher maps "auto" to it.
     */
    public static final int RUNNING_AUTO = Integer.MIN_VALUE;

    /**
     * Default of {@link #quantumSeconds}: long against the stretches between MPI calls of ordinary
     * out-of-core programs (a few seconds; a rank's set-up, reading its part of the input, up to
     * about ten), since a stopped rank keeps its data in memory while the one resumed in its place
     * brings in its own; short against a rank that spins or sleeps while others wait.
     */
    public static final double QUANTUM_SECONDS_DEFAULT = 30;

    /**
     * Most bytes of recycled spill files a master of a job of several nodes keeps while no message
     * holds them (see {@link #recycledSpillBytesOn}): their page cache stays, so the next large
     * message from another node overwrites cached pages instead of allocating new ones (64 MiB:
     * 4 to 20 ms instead of 30 to 120 on the reference VM), and MPI receives into the pool's
     * mapping of it. Eight messages of 64 MiB: a sender that streams eight of them ahead of its
     * receiver finds them all in place when it sends the next eight. The same bound holds the
     * files of messages sent to other nodes that the master returns to their slaves, for them to
     * overwrite with their next ones.
     */
    public static final long RECYCLED_SPILL_BYTES_DEFAULT = 512L * 1024 * 1024;

    /**
     * Default of {@link #placementWaitMs}: as long as bdmpiexec gives every master to start and
     * connect, since its placement comes once the slowest master has told its holdings.
     */
    public static final long PLACEMENT_WAIT_MS_DEFAULT = 120_000;

    /** Share of a node's --memory-limit that idle recycled spill files may keep in page cache, at most: 1/8. */
    private static final int RECYCLED_SPILL_SHARE_OF_LIMIT = 8;
    /** Share of the master's heap limit that buffered messages over 4 KiB may hold, at most: 1/4. */
    private static final int HELD_MESSAGES_SHARE_OF_HEAP = 4;
    /** Share of a node's --memory-limit that buffered messages over 4 KiB may hold, at most: 1/8. */
    private static final int HELD_MESSAGES_SHARE_OF_LIMIT = 8;

    private int nodes = 1;
    private int slaves = 1;
    private int running = 1;
    private int inlineMaxBytes = INLINE_MAX_BYTES_DEFAULT;
    private Path workDirParent = Path.of(System.getProperty("java.io.tmpdir"));
    private Path statsFile;
    private String classPath = ".";
    private String program;
    private List<String> programArgs = List.of();
    private boolean tagOutput;
    private List<String> slaveJvmOptions = List.of();
    private String placement = "block";
    private ResumePolicyKind resumePolicy = ResumePolicyKind.RESIDENT;
    private long memoryLimitBytes;
    private SlaveMemory.HeapOnPark heapOnPark = SlaveMemory.HeapOnPark.AUTO;
    private boolean offHeapMessages;
    private boolean readAhead = true;
    private double quantumSeconds = QUANTUM_SECONDS_DEFAULT;
    private List<NodeSettings> nodeSettings = List.of();
    private boolean statusLine;
    private Path traceFile;
    private Path reportFile;
    private double progressSeconds;
    private String launcherAddress;
    private String javaExecutable = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private Path checkpointDir;
    private Path classDataCacheDir = defaultCacheDir();
    private Path restartDir;
    private List<Integer> nodeDirs = List.of();
    private boolean heldPlacement;
    private long placementWaitMs = PLACEMENT_WAIT_MS_DEFAULT;
    private int recoveries;
    private boolean concluded;

    /** Number of nodes (one master each). Default 1. */
    public int nodes() { return nodes; }
    public MasterContext nodes(int v) { nodes = v; return this; }

    /** Slaves (MPI ranks) on this node: -ns. Default 1. */
    public int slaves() { return slaves; }
    public MasterContext slaves(int v) { slaves = v; return this; }

    /** Most slaves running at once on this node: -nr, 1 &lt;= nr &lt;= ns, or {@link #RUNNING_AUTO}. Default 1. */
    public int running() { return running; }
    public MasterContext running(int v) { running = v; return this; }

    /** Largest message, in bytes, kept in master memory; larger ones go to disk: -im. */
    public int inlineMaxBytes() { return inlineMaxBytes; }
    public MasterContext inlineMaxBytes(int v) { inlineMaxBytes = v; return this; }

    /** Directory under which the job's fresh work directory is made: -wd. Default: java.io.tmpdir. */
    public Path workDirParent() { return workDirParent; }
    public MasterContext workDirParent(Path v) { workDirParent = v; return this; }

    /** Where to write end-of-run statistics as JSON, or null: --stats. */
    public Path statsFile() { return statsFile; }
    public MasterContext statsFile(Path v) { statsFile = v; return this; }

    /** The program's class path (slave-lib is added by the master): -cp. Default ".". */
    public String classPath() { return classPath; }
    public MasterContext classPath(String v) { classPath = v; return this; }

    /** The program: a main class name, or a path to a jar whose manifest names its main class. */
    public String program() { return program; }
    public MasterContext program(String v) { program = v; return this; }

    /** The program's own arguments, passed through untouched. */
    public List<String> programArgs() { return programArgs; }
    public MasterContext programArgs(List<String> v) { programArgs = List.copyOf(v); return this; }

    /** Prefix every output line of a slave with its rank: --tag-output. Default false. */
    public boolean tagOutput() { return tagOutput; }
    public MasterContext tagOutput(boolean v) { tagOutput = v; return this; }

    /** Extra JVM options for every slave (e.g. -Xmx512m): --slave-jvm-opts. Default none. */
    public List<String> slaveJvmOptions() { return slaveJvmOptions; }
    public MasterContext slaveJvmOptions(List<String> v) { slaveJvmOptions = List.copyOf(v); return this; }

    /** Which node each rank lives on when there are several: block, cyclic, or a file (see {@link io.bdmpi.master.internode.Placement}). Default block. */
    public String placement() { return placement; }
    public MasterContext placement(String v) { placement = v; return this; }

    /** Which runnable slave resumes next: --policy. Default RESIDENT ("most resident first"). */
    public ResumePolicyKind resumePolicy() { return resumePolicy; }
    public MasterContext resumePolicy(ResumePolicyKind v) { resumePolicy = v; return this; }

    /**
     * Memory limit of the node's master and slaves together, page cache included, enforced by a
     * memory cgroup of the job (see {@link MemoryCgroup}): --memory-limit. Default 0: no limit.
     */
    public long memoryLimitBytes() { return memoryLimitBytes; }
    public MasterContext memoryLimitBytes(long v) { memoryLimitBytes = v; return this; }

    /**
     * Whether parked slaves run a full GC and give free heap back to the OS (their JVMs then get
     * {@link io.bdmpi.slave.SlaveEnvironment#HEAP_SHRINK_JVM_OPTIONS} before the user's options):
     * --shrink-heap-on-park (SHRINK), --no-shrink-heap-on-park (KEEP). Default AUTO: when the
     * slaves' heaps cannot all stay in the node's memory (see {@link SlaveMemory}).
     */
    public SlaveMemory.HeapOnPark heapOnPark() { return heapOnPark; }
    public MasterContext heapOnPark(SlaveMemory.HeapOnPark v) { heapOnPark = v; return this; }

    /**
     * The slaves' memory on {@code node}: heap limit and heap on park from its budget, -ns and
     * -nr, with the warnings the user must hear. Reads /proc/meminfo.
     */
    public SlaveMemory slaveMemoryOn(int node) {
        int nr = runningOn(node);
        return SlaveMemory.plan(slavesOn(node), nr == RUNNING_AUTO ? 1 : nr, slaveJvmOptions, memoryLimitBytesOn(node),
                heapOnPark);
    }

    /**
     * While slaves run, the master reads the data of the slave that resumes next into memory
     * (see {@link io.bdmpi.master.memory.ReadAhead}): default true; --no-read-ahead turns it off.
     */
    public boolean readAhead() { return readAhead; }
    public MasterContext readAhead(boolean v) { readAhead = v; return this; }

    /**
     * A slave that runs this many seconds without an MPI call while others wait for a running slot
     * is stopped (SIGSTOP) and resumed later like a parked one, so that no rank holds a node
     * hostage; 0: never: --quantum. Default {@value #QUANTUM_SECONDS_DEFAULT}.
     */
    public double quantumSeconds() { return quantumSeconds; }
    public MasterContext quantumSeconds(double v) { quantumSeconds = v; return this; }

    /**
     * Keep buffered small messages off the master's heap, in a Chronicle Map in the work directory
     * (see {@link io.bdmpi.master.store.ChronicleMessageStore}): --offheap-messages. Opening the map costs about a second
     * at start; the master's JVM needs the options of bin/master-jvm.options. Default false.
     */
    public boolean offHeapMessages() { return offHeapMessages; }
    public MasterContext offHeapMessages(boolean v) { offHeapMessages = v; return this; }

    /**
     * Per-node settings from the config file, one per node in node order, or empty. Node 0's
     * slaves, running and work directory are already applied to this context by the launcher;
     * the list keeps every node's values (memory limit included) for the masters of other nodes.
     */
    public List<NodeSettings> nodeSettings() { return nodeSettings; }
    public MasterContext nodeSettings(List<NodeSettings> v) { nodeSettings = List.copyOf(v); return this; }

    /** -ns on {@code node}: its per-node entry's, else {@link #slaves()}. */
    public int slavesOn(int node) {
        NodeSettings s = nodeSetting(node);
        return s != null && s.slaves() != null ? s.slaves() : slaves;
    }

    /** The slaves of every node, in node order; COMM_WORLD has their sum. */
    public int[] slavesPerNode() {
        int[] perNode = new int[Math.max(nodes, 0)];
        for (int n = 0; n < perNode.length; n++) {
            perNode[n] = slavesOn(n);
        }
        return perNode;
    }

    /**
     * -nr on {@code node}: its per-node entry's, else {@link #running()}, or all the node's slaves
     * when it has fewer; {@link #RUNNING_AUTO} for auto.
     */
    public int runningOn(int node) {
        NodeSettings s = nodeSetting(node);
        return s != null && s.running() != null ? s.running() : Math.min(running, slavesOn(node));
    }

    /** --memory-limit on {@code node}: its per-node entry's, else {@link #memoryLimitBytes()}. */
    public long memoryLimitBytesOn(int node) {
        NodeSettings s = nodeSetting(node);
        return s != null && s.memoryLimitBytes() != null ? s.memoryLimitBytes() : memoryLimitBytes;
    }

    /** The smallest --memory-limit of the nodes that have one, or 0 when none has. */
    public long smallestMemoryLimitBytes() {
        return IntStream.range(0, nodes).mapToLong(this::memoryLimitBytesOn).filter(l -> l > 0).min().orElse(0);
    }

    /**
     * The most bytes of recycled spill files the master of {@code node} keeps while no message
     * holds them, and of returned ones: {@link #RECYCLED_SPILL_BYTES_DEFAULT}, at most an eighth
     * of the node's --memory-limit, since the page cache of files a job writes counts against it.
     */
    public long recycledSpillBytesOn(int node) {
        long limit = memoryLimitBytesOn(node);
        return limit > 0 ? Math.min(RECYCLED_SPILL_BYTES_DEFAULT, limit / RECYCLED_SPILL_SHARE_OF_LIMIT)
                : RECYCLED_SPILL_BYTES_DEFAULT;
    }

    /**
     * The most bytes of buffered messages over 4 KiB that the master of {@code node} holds in
     * memory (see {@link io.bdmpi.master.store.BoundedMessageStore}); beyond, they wait in spill
     * files: a quarter of the master's heap limit, and at most an eighth of the node's
     * --memory-limit, which also holds the master's garbage and the slaves. Called on that master.
     */
    public long heldMessageBytesOn(int node) {
        long heap = Runtime.getRuntime().maxMemory() / HELD_MESSAGES_SHARE_OF_HEAP;
        long limit = memoryLimitBytesOn(node);
        return limit > 0 ? Math.min(heap, limit / HELD_MESSAGES_SHARE_OF_LIMIT) : heap;
    }

    /** -wd on {@code node}: its per-node entry's, else {@link #workDirParent()}. */
    public Path workDirParentOn(int node) {
        NodeSettings s = nodeSetting(node);
        return s != null && s.workDirParent() != null ? s.workDirParent() : workDirParent;
    }

    private NodeSettings nodeSetting(int node) {
        return node < nodeSettings.size() ? nodeSettings.get(node) : null;
    }

    /** Where to write the Chrome trace-event JSON of every slave's states, or null: --trace. */
    public Path traceFile() { return traceFile; }
    public MasterContext traceFile(Path v) { traceFile = v; return this; }

    /** Where to write the self-contained HTML report (timeline and statistics), or null: --report. */
    public Path reportFile() { return reportFile; }
    public MasterContext reportFile(Path v) { reportFile = v; return this; }

    /**
     * Show a live status line on stderr, redrawn in place (for a terminal); slave output then passes
     * through the master so that the two never mix within a line. Default false.
     */
    public boolean statusLine() { return statusLine; }
    public MasterContext statusLine(boolean v) { statusLine = v; return this; }

    /** Print a one-line progress summary on stderr every this many seconds; 0 for none: --progress. Default 0. */
    public double progressSeconds() { return progressSeconds; }
    public MasterContext progressSeconds(double v) { progressSeconds = v; return this; }

    /**
     * {@code HOST:PORT} of the bdmpiexec that started this master of a job of several nodes, for
     * the side channel (heartbeats, status, lost nodes; see {@code io.bdmpi.master.control}), or
     * null (one node, or a master started by hand). Default null.
     */
    public String launcherAddress() { return launcherAddress; }
    public MasterContext launcherAddress(String v) { launcherAddress = v; return this; }

    /** The java launcher for slaves. Default: the one running the master. */
    public String javaExecutable() { return javaExecutable; }
    public MasterContext javaExecutable(String v) { javaExecutable = v; return this; }

    /**
     * Where the slaves' class-data archive and the copy of jffi's native stub they load are kept
     * between jobs (made by the first job that finds none: see {@link
     * io.bdmpi.master.slaveio.SlaveLauncher}), or null for slaves without either.
     * Default: {@code bdmpi} in {@code $XDG_CACHE_HOME}, else in {@code ~/.cache}.
     */
    public Path classDataCacheDir() { return classDataCacheDir; }
    public MasterContext classDataCacheDir(Path v) { classDataCacheDir = v; return this; }

    private static Path defaultCacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "bdmpi");
        }
        String home = System.getProperty("user.home");
        return home == null || home.isBlank() || home.equals("?") ? null : Path.of(home, ".cache", "bdmpi");
    }

    /**
     * Where checkpoints ({@code mpi.BDMPI.checkpoint}) are written and kept after the job, or null
     * for the job's work directory (gone with the job): --checkpoint-dir. Default null.
     */
    public Path checkpointDir() { return checkpointDir; }
    public MasterContext checkpointDir(Path v) { checkpointDir = v; return this; }

    /**
     * A checkpoint directory to go on from (its latest checkpoint; new ones are written there too
     * unless {@link #checkpointDir} says otherwise), or null: --restart. Default null.
     */
    public Path restartDir() { return restartDir; }
    public MasterContext restartDir(Path v) { restartDir = v; return this; }

    /**
     * What stands for the node in a node-local checkpoint directory ({@code --checkpoint-dir
     * /scratch/ck-%n}): each node has its own directory, kept on its own disk, and its part of every
     * checkpoint gets a buddy copy on another node.
     */
    public static final String NODE_MARK = "%n";

    /** Whether {@code dir} names a node-local checkpoint directory (it holds {@link #NODE_MARK}). */
    public static boolean nodeLocal(Path dir) {
        return dir != null && dir.toString().contains(NODE_MARK);
    }

    /**
     * Which node-local checkpoint directory each node uses: the number {@link #NODE_MARK} stands for
     * ({@code --node-dirs}, set by bdmpiexec when it starts a job again without a lost node: the
     * survivors keep their directories). Default: node k uses k.
     */
    public List<Integer> nodeDirs() { return nodeDirs; }
    public MasterContext nodeDirs(List<Integer> v) { nodeDirs = List.copyOf(v); return this; }

    /** {@code dir} as {@code node} sees it: {@link #NODE_MARK} replaced by its {@link #nodeDirs} entry; null for null. */
    public Path dirOn(Path dir, int node) {
        if (!nodeLocal(dir)) {
            return dir;
        }
        int slot = node < nodeDirs.size() ? nodeDirs.get(node) : node;
        return Path.of(dir.toString().replace(NODE_MARK, Integer.toString(slot)));
    }

    /**
     * Whether the ranks are placed where the masters' node-local directories hold their parts of
     * the checkpoint to go on from ({@code --held-placement}, set by bdmpiexec when it starts a job
     * again after a lost node): each master tells bdmpiexec what its own directory holds, bdmpiexec
     * places the ranks and tells every master ({@link #placedBy}). Needs a node-local
     * {@link #restartDir}. Default false.
     */
    public boolean heldPlacement() { return heldPlacement; }
    public MasterContext heldPlacement(boolean v) { heldPlacement = v; return this; }

    /**
     * How long a master waits for the ranks' placement on the checkpoint's parts before it gives up
     * with a message saying so: with {@link #heldPlacement}, for bdmpiexec's answer (bdmpiexec may be
     * stuck, or another master never told its holdings); restarting from node-local directories,
     * for each message of the other masters while they agree on the parts each fetches and send
     * them. Default {@value #PLACEMENT_WAIT_MS_DEFAULT} ms.
     */
    public long placementWaitMs() { return placementWaitMs; }
    public MasterContext placementWaitMs(long v) { placementWaitMs = v; return this; }

    /**
     * Takes the placement bdmpiexec gave after the masters told it their holdings: the node of
     * each world rank, as a {@code --placement} list; each node's slaves are the ranks it gets.
     *
     * @param nodeOf the node of each world rank, every one of the {@link #nodes} given at least one
     * @return this context
     * @throws IllegalArgumentException when a node gets no rank or a rank no node of this job
     */
    public MasterContext placedBy(List<Integer> nodeOf) {
        int[] count = new int[nodes];
        for (int n : nodeOf) {
            if (n < 0 || n >= nodes) {
                throw new IllegalArgumentException("bdmpiexec placed a rank on node " + n + " of " + nodes);
            }
            count[n]++;
        }
        List<NodeSettings> perNode = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            if (count[n] == 0) {
                throw new IllegalArgumentException("bdmpiexec placed no rank on node " + n);
            }
            perNode.add(new NodeSettings(n, count[n], null, null, null));
        }
        nodeSettings = List.copyOf(perNode);
        placement = String.join(",", nodeOf.stream().map(String::valueOf).toList());
        return this;
    }

    /**
     * How many times a job whose rank died (on several nodes: whose master or machine was lost)
     * rolls back to its last checkpoint: --recover. Default 0.
     */
    public int recoveries() { return recoveries; }
    public MasterContext recoveries(int v) { recoveries = v; return this; }

    /**
     * Checks every rule once. Call before {@link io.bdmpi.master.NodeMaster#run}.
     *
     * @throws IllegalArgumentException naming the setting and the bound it breaks
     */
    public MasterContext conclude() {
        if (concluded) {
            throw new IllegalStateException("MasterContext already concluded");
        }
        List<String> errors = new ArrayList<>();
        if (nodes < 1) {
            errors.add("-nn=" + nodes + " must be at least 1");
        } else if (Arrays.stream(slavesPerNode()).allMatch(n -> n >= 1)) {
            try {
                io.bdmpi.master.internode.Placement.of(placement, slavesPerNode());
            } catch (IllegalArgumentException e) {
                errors.add(e.getMessage());
            }
        }
        if (slaves < 1) {
            errors.add("-ns=" + slaves + " must be at least 1");
        }
        int mostSlaves = Math.max(Arrays.stream(slavesPerNode()).max().orElse(slaves), slaves);
        if (running != RUNNING_AUTO && (running < 1 || running > Math.max(mostSlaves, 1))) {
            errors.add("-nr=" + running + " must be between 1 and " + (mostSlaves == slaves ? "-ns=" : "the most slaves of a node, ")
                    + mostSlaves);
        }
        if (inlineMaxBytes < 0 || inlineMaxBytes > INLINE_MAX_BYTES_LIMIT) {
            errors.add("-im=" + inlineMaxBytes + " must be between 0 and " + INLINE_MAX_BYTES_LIMIT);
        }
        if (program == null || program.isBlank()) {
            errors.add("no program given (a main class or a jar)");
        }
        if (workDirParent == null || !Files.isDirectory(workDirParent) || !Files.isWritable(workDirParent)) {
            errors.add("-wd=" + workDirParent + " is not a writable directory");
        }
        checkMemoryLimit(memoryLimitBytes, "--memory-limit", errors);
        for (NodeSettings n : nodeSettings) {
            String where = "per-node[" + n.node() + "].";
            if (n.slaves() != null && n.slaves() < 1) {
                errors.add(where + "slaves=" + n.slaves() + " must be at least 1");
            }
            if (n.running() != null && n.running() != RUNNING_AUTO && (n.running() < 1 || n.running() > slavesOn(n.node()))) {
                errors.add(where + "running=" + n.running() + " must be between 1 and the node's slaves, " + slavesOn(n.node()));
            }
            if (n.memoryLimitBytes() != null) {
                checkMemoryLimit(n.memoryLimitBytes(), where + "memory-limit", errors);
            }
            if (n.workDirParent() != null && !(Files.isDirectory(n.workDirParent()) && Files.isWritable(n.workDirParent()))) {
                errors.add(where + "workdir=" + n.workDirParent() + " is not a writable directory");
            }
        }
        if (anyRunningAuto() && !Files.isReadable(Path.of("/proc/self/status"))) {
            errors.add("-nr auto measures memory in /proc, which this system does not have");
        }
        if (!(quantumSeconds >= 0) || Double.isInfinite(quantumSeconds)) {
            errors.add("--quantum=" + quantumSeconds + " must be a number of seconds, 0 or more");
        }
        if (!(progressSeconds >= 0) || Double.isInfinite(progressSeconds)) {
            errors.add("--progress=" + progressSeconds + " must be a number of seconds, 0 or more");
        }
        if (!nodeSettings.isEmpty() && nodeSettings.size() != nodes) {
            errors.add("the config file's per-node list has " + nodeSettings.size() + " entries for -nn=" + nodes + " nodes");
        }
        if (recoveries < 0) {
            errors.add("--recover=" + recoveries + " must be at least 0");
        }
        if (nodes > 1 && recoveries > 0 && checkpointDir == null && restartDir == null) {
            errors.add("--recover on several nodes (-nn=" + nodes + ") needs --checkpoint-dir: a directory every node sees,"
                    + " or one of each node's own (with " + NODE_MARK + "), from which bdmpiexec starts the job again");
        }
        if (!nodeDirs.isEmpty() && nodeDirs.size() != nodes) {
            errors.add("--node-dirs has " + nodeDirs.size() + " entries for -nn=" + nodes + " nodes");
        }
        if (heldPlacement && (!nodeLocal(restartDir) || launcherAddress == null)) {
            errors.add("--held-placement is for masters that bdmpiexec starts with a node-local --restart directory");
        }
        if (restartDir != null && !nodeLocal(restartDir) && !Files.isDirectory(restartDir)) {
            errors.add("--restart=" + restartDir + " is not a directory");
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", errors));
        }
        concluded = true;
        return this;
    }

    private boolean anyRunningAuto() {
        for (int n = 0; n < Math.max(nodes, 1); n++) {
            if (runningOn(n) == RUNNING_AUTO) {
                return true;
            }
        }
        return false;
    }

    private static void checkMemoryLimit(long bytes, String name, List<String> errors) {
        if (bytes == 0) {
            return;
        }
        if (bytes < MemoryCgroup.MIN_LIMIT_BYTES) {
            errors.add(name + "=" + bytes + " must be at least " + MemoryCgroup.MIN_LIMIT_BYTES + " (64m)");
        } else {
            String why = MemoryCgroup.unavailableReason();
            if (why != null) {
                errors.add(name + ": " + why);
            }
        }
    }

    public boolean isConcluded() {
        return concluded;
    }
}
