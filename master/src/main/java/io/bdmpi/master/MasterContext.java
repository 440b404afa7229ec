package io.bdmpi.master;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Every setting of a node master, in one place, with its default and meaning. The launcher maps
 * command-line options and config-file fields onto these setters; {@link #conclude()} validates the
 * whole once, before anything starts, and errors name the setting and its bound.
 *
 * <p>Not thread-safe: fill it on one thread, conclude it, then hand it to {@link NodeMaster}.
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
    private ResumePolicyKind resumePolicy = ResumePolicyKind.RESIDENT;
    private String javaExecutable = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private Path checkpointDir;
    private Path restartDir;
    private int recoveries;
    private boolean concluded;

    /** Number of nodes (one master each). Default 1. */
    public int nodes() { return nodes; }
    public MasterContext nodes(int v) { nodes = v; return this; }

    /** Slaves (MPI ranks) on this node: -ns. Default 1. */
    public int slaves() { return slaves; }
    public MasterContext slaves(int v) { slaves = v; return this; }

    /** Most slaves running at once on this node: -nr, 1 &lt;= nr &lt;= ns. Default 1. */
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

    /** Which runnable slave resumes next: --policy. Default RESIDENT ("most resident first"). */
    public ResumePolicyKind resumePolicy() { return resumePolicy; }
    public MasterContext resumePolicy(ResumePolicyKind v) { resumePolicy = v; return this; }

    /** The java launcher for slaves. Default: the one running the master. */
    public String javaExecutable() { return javaExecutable; }
    public MasterContext javaExecutable(String v) { javaExecutable = v; return this; }

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

    /** How many times a job whose rank died rolls back to its last checkpoint: --recover. Default 0. */
    public int recoveries() { return recoveries; }
    public MasterContext recoveries(int v) { recoveries = v; return this; }

    /**
     * Checks every rule once. Call before {@link NodeMaster#run}.
     *
     * @throws IllegalArgumentException naming the setting and the bound it breaks
     */
    public MasterContext conclude() {
        if (concluded) {
            throw new IllegalStateException("MasterContext already concluded");
        }
        List<String> errors = new ArrayList<>();
        if (nodes != 1) {
            errors.add("-nn=" + nodes + ": only one node is supported so far");
        }
        if (slaves < 1) {
            errors.add("-ns=" + slaves + " must be at least 1");
        }
        if (running < 1 || running > Math.max(slaves, 1)) {
            errors.add("-nr=" + running + " must be between 1 and -ns=" + slaves);
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
        if (recoveries < 0) {
            errors.add("--recover=" + recoveries + " must be at least 0");
        }
        if (restartDir != null && !Files.isDirectory(restartDir)) {
            errors.add("--restart=" + restartDir + " is not a directory");
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", errors));
        }
        concluded = true;
        return this;
    }

    boolean isConcluded() {
        return concluded;
    }
}
