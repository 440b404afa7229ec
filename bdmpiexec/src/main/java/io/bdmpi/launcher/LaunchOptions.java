package io.bdmpi.launcher;

import io.bdmpi.master.config.MasterContext;
import io.bdmpi.master.config.NodeSettings;
import io.bdmpi.master.config.ResumePolicyKind;
import io.bdmpi.master.internode.MpiLauncher;
import io.bdmpi.master.memory.SlaveMemory;
import io.bdmpi.master.observe.ProgressReporter;
import io.bdmpi.slave.SlaveMain;
import io.bdmpi.spill.SpillDirectory;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Command-line options of {@code bdmpiexec} and their checks. Defaults come from a fresh
 * {@link MasterContext}. Parsing stops at the program (the first positional): everything after it
 * goes to the program untouched.
 */
@Command(name = "bdmpiexec",
        versionProvider = Version.class,
        sortOptions = false,
        showDefaultValues = true,
        separator = "=",
        customSynopsis = "bdmpiexec [-nn=1] -ns=S -nr=R|auto [options] (MAINCLASS | app.jar) [args...]",
        description = "Runs an MPI-style Java program as S slave JVMs, at most R running at once.",
        footer = "Options may also be written with a space (-ns 4). Everything after the program is passed to it.")
public final class LaunchOptions {

    /** Exit code for invalid input. */
    public static final int EXIT_USAGE = 2;

    static final String HINT = "Try 'bdmpiexec --help' for more information.";

    /** The option naming a config file. */
    static final String CONFIG_OPTION = "--config";

    private static final MasterContext DEFAULTS = new MasterContext();

    @Option(names = {"-nn", "--nodes"}, paramLabel = "N", description = "Number of nodes: one master each, started through MPI when N > 1.")
    int nodes = DEFAULTS.nodes();

    @Option(names = {"-ns", "-np", "--slaves"}, paramLabel = "S",
            description = "Slaves (MPI ranks) on this node; -np, as MPJ Express users type it, is the same.")
    int slaves = DEFAULTS.slaves();

    @Option(names = {"-nr", "--running"}, paramLabel = "R|auto", converter = RunningConverter.class,
            description = "Most slaves running at once, 1 <= R <= S; auto: raised and lowered at run time from the memory "
                    + "available (the --memory-limit, else the node's) and the slaves' footprints.")
    int running = DEFAULTS.running();

    @Option(names = {"-im", "--inline-max"}, paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Largest message kept in master memory; larger ones go to disk. "
                    + "Suffix k, m or g for KiB, MiB, GiB; at most " + MasterContext.INLINE_MAX_BYTES_LIMIT + ".")
    long inlineMax = DEFAULTS.inlineMaxBytes();

    @Option(names = {"-wd", "--workdir"}, paramLabel = "DIR",
            description = "Writable directory under which the job's work directory is made (java.io.tmpdir).")
    Path workDir = DEFAULTS.workDirParent();

    @Option(names = "--stats", paramLabel = "FILE", showDefaultValue = CommandLine.Help.Visibility.NEVER, description = "Write end-of-run statistics as JSON to FILE; with several nodes every node's section and the job's "
                    + "total, joined from parts each master writes next to FILE (default: none).")
    Path stats = DEFAULTS.statsFile();

    @Option(names = {"-cp", "--classpath"}, paramLabel = "PATH",
            description = "The program's class path (directories, jars, dir/*); slave-lib and spill are added.")
    String classPath = DEFAULTS.classPath();

    @Option(names = "--tag-output", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "Prefix every output line of a slave with its rank.")
    boolean tagOutput = DEFAULTS.tagOutput();

    @Option(names = "--slave-jvm-opts", paramLabel = "OPTS", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Extra JVM options for every slave, split on whitespace (default: none). Without an -Xmx "
                    + "here, a slave's heap limit is the memory left (--memory-limit, else the node's available memory, "
                    + "less " + (SlaveMemory.MASTER_RESERVE_BYTES >> 20) + " MiB for the master and "
                    + (SlaveMemory.PARKED_SLAVE_BYTES >> 20) + " MiB per slave) shared by the -nr running slaves, "
                    + "and at most a quarter of the --memory-limit or available memory.")
    String slaveJvmOpts = String.join(" ", DEFAULTS.slaveJvmOptions());

    @Option(names = "--policy", paramLabel = "resident|fifo",
            description = "Which runnable slave resumes next: most resident first, or first come first.")
    String policy = DEFAULTS.resumePolicy().name().toLowerCase(Locale.ROOT);

    @Option(names = "--hosts", paramLabel = "A,B,...", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Hosts of the N masters, passed to mpiexec (default: all on this machine); hosts beyond the"
                    + " first N are spares, where --recover starts a lost node's master again.")
    String hosts;

    @Option(names = "--hostfile", paramLabel = "FILE", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "A host file for mpiexec, instead of --hosts; mpiexec fills its hosts in order, one master a"
                    + " slot, and the slots beyond the first N are spares, where --recover starts a lost node's master again.")
    Path hostFile;

    @Option(names = "--mpiexec", paramLabel = "PATH", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "The MPI launcher, of the library the masters bind (default: $" + MpiLauncher.MPIEXEC_VARIABLE
                    + ", else mpiexec.mpich or mpiexec.openmpi on PATH).")
    String mpiexec;

    @Option(names = "--placement", paramLabel = "block|cyclic|FILE|LIST",
            description = "Which node each rank lives on: blocks of S, round robin, a file of one node number per rank, "
                    + "or their list (0,0,1,1).")
    String placement = DEFAULTS.placement();

    /** Set by bdmpiexec on the masters it starts through mpiexec: run this node's master here. */
    @Option(names = "--node-master", hidden = true)
    boolean nodeMaster;

    /** Set by bdmpiexec on the masters it starts: where it listens for their heartbeats ({@code HOST:PORT}). */
    @Option(names = "--launcher", hidden = true)
    String launcherAddress;

    /**
     * Set by bdmpiexec on the masters it starts again after a lost node: the slaves of each node
     * (the same ranks over fewer nodes), instead of -ns and the config file's per-node list.
     */
    @Option(names = "--node-slaves", hidden = true, split = ",")
    List<Integer> nodeSlaves;

    /**
     * Set by bdmpiexec on the masters it starts again after a lost node, with node-local checkpoint
     * directories: the number each node puts for %n in --checkpoint-dir (the survivors keep theirs).
     */
    @Option(names = "--node-dirs", hidden = true, split = ",")
    List<Integer> nodeDirs;

    /**
     * Set by bdmpiexec on the masters it starts again after a lost node, with node-local checkpoint
     * directories: each master tells bdmpiexec what its own directory holds and bdmpiexec places
     * the ranks (instead of -ns, --placement and the config file's per-node list).
     */
    @Option(names = "--held-placement", hidden = true)
    boolean heldPlacement;

    @Option(names = "--memory-limit", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Run master and slaves in a memory cgroup of SIZE (page cache included; e.g. 512m, 2g), "
                    + "the master in a JVM sized for it. Needs root and the cgroup memory controller (at least 64m; default and 0: no limit).")
    long memoryLimit = DEFAULTS.memoryLimitBytes();

    @Option(names = "--shrink-heap-on-park", negatable = true, showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Parked slaves run a full GC and give free heap back to the OS, or with --no-... never "
                    + "(default: when the slaves' heaps cannot all stay in memory: no swap, and -ns times their heap "
                    + "limit over the memory left besides the master and the parked JVMs).")
    Boolean shrinkHeapOnPark;

    @Option(names = "--no-read-ahead",
            description = "Do not read the data of the slave that resumes next into memory while others run "
                    + "(its off-heap and saved arrays; skipped anyway when they would not fit the free memory).")
    boolean noReadAhead = !DEFAULTS.readAhead();

    @Option(names = "--quantum", paramLabel = "SECONDS",
            description = "Stop (SIGSTOP) a slave that runs SECONDS without an MPI call while others wait for a slot, "
                    + "and resume it later; 0: never.")
    double quantum = DEFAULTS.quantumSeconds();

    @Option(names = "--offheap-messages", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "Keep buffered small messages off the master's heap, in a Chronicle Map in the work directory.")
    boolean offHeapMessages = DEFAULTS.offHeapMessages();

    @Option(names = "--trace", paramLabel = "FILE", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Write every slave's states over time as Chrome trace-event JSON to FILE, "
                    + "for Perfetto or chrome://tracing; with several nodes one process per node, on one clock (default: none).")
    Path trace;

    @Option(names = "--report", paramLabel = "FILE.html", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Write a self-contained HTML page with the slaves' timeline and the key statistics "
                    + "to FILE.html; with several nodes grouped by node, with a row per node (default: none).")
    Path report;

    @Option(names = "--progress", paramLabel = "SECONDS", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Print a one-line summary of the job (all nodes) on stderr every SECONDS; 0 for no progress "
                    + "output. Default: a live status line when stderr is a terminal, nothing otherwise.")
    Double progress;

    @Option(names = CONFIG_OPTION, paramLabel = "FILE", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Read options from a YAML or JSON file (keys: the long option names; see docs/running.md). "
                    + "The command line overrides the file (default: none).")
    Path config;

    @Option(names = "--checkpoint-dir", paramLabel = "DIR", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Write the program's checkpoints (BDMPI.checkpoint) to DIR and keep the last one after the job;"
                    + " with -nn > 1 a directory every node sees, or with %%n in it (e.g. /scratch/ck-%%n) a directory of each"
                    + " node's own, %%n its number, where each node also keeps a copy of another node's part"
                    + " (default: in the job's work directory, removed with it).")
    Path checkpointDir;

    @Option(names = "--restart", paramLabel = "DIR", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Go on from the last checkpoint in DIR (the same ranks, on any -nn, any -nr); new checkpoints go"
                    + " there too.")
    Path restartDir;

    @Option(names = "--recover", paramLabel = "N",
            description = "When a rank dies (with -nn > 1: when a node's master is lost; needs --checkpoint-dir), roll"
                    + " every rank back to the last checkpoint and go on, at most N times.")
    int recover = DEFAULTS.recoveries();

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
    boolean help;

    @Option(names = "--version", versionHelp = true, description = "Print the version and exit.")
    boolean version;

    @Parameters(paramLabel = "PROGRAM", arity = "0..*", showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "A main class (found on -cp) or a jar whose manifest names its Main-Class, then its arguments.")
    List<String> program = new ArrayList<>();

    /** The config file's per-node list, or empty. */
    List<NodeSettings> nodeSettings = List.of();

    /**
     * What {@link #parse} produced: a concluded context to run, or (context null) an exit code.
     *
     * @param masters how to start the masters of a job of several nodes; null to run one master here
     */
    public record Result(MasterContext context, int exitCode, MultiNodeLaunch masters) {
        Result(MasterContext context, int exitCode) {
            this(context, exitCode, null);
        }
    }

    /** A user error: one line for stderr. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    /**
     * The parser of {@code args}. A master started again after a lost node gets options that
     * override the user's (see {@link MultiNodeLaunch#without}); a user's own repeated option is an error.
     */
    static CommandLine commandLine(LaunchOptions options, String[] args) {
        CommandLine cl = new CommandLine(options);
        cl.setOverwrittenOptionsAllowed(args.length > 0 && args[0].equals("--node-master"));
        cl.setStopAtPositional(true);
        cl.setUnmatchedOptionsArePositionalParams(false);
        cl.setUsageHelpAutoWidth(false);
        return cl;
    }

    /**
     * Parses and checks {@code args}; never exits. Help and version go to {@code out}, errors to
     * {@code err}. With {@code --config FILE}, options the command line leaves out come from the file.
     *
     * @param args the command line, as given to bdmpiexec
     * @param out where help and version go
     * @param err where errors go
     * @return a context to run, or an exit code
     */
    public static Result parse(String[] args, PrintWriter out, PrintWriter err) {
        LaunchOptions options = new LaunchOptions();
        CommandLine cl = commandLine(options, args);
        ConfigDefaults fromFile = null;
        try {
            cl.parseArgs(args);
            if (options.config != null && !cl.isUsageHelpRequested() && !cl.isVersionHelpRequested()) {
                fromFile = new ConfigDefaults(ConfigFile.read(options.config, ConfigDefaults.optionKeys(cl.getCommandSpec())));
                options = new LaunchOptions();
                cl = commandLine(options, args);
                cl.setDefaultValueProvider(fromFile);
                fromFile.apply(options, cl.parseArgs(args));
            }
            if (cl.isUsageHelpRequested()) {
                cl.usage(out);
                out.flush();
                return new Result(null, 0);
            }
            if (cl.isVersionHelpRequested()) {
                cl.printVersionHelp(out);
                out.flush();
                return new Result(null, 0);
            }
            MasterContext context = options.toContext();
            if (context.nodes() > 1 && !options.nodeMaster) {
                return new Result(context, 0, options.multiNodeLaunch(args, context));
            }
            return new Result(context, 0);
        } catch (CommandLine.ParameterException e) {
            return usageError(err, fromFile == null ? e.getMessage() : fromFile.explain(e, args));
        } catch (UsageException | IllegalArgumentException e) {
            return usageError(err, fromFile == null ? e.getMessage() : fromFile.explain(e.getMessage()));
        }
    }

    private static Result usageError(PrintWriter err, String reason) {
        err.println("bdmpiexec: " + reason);
        err.println(HINT);
        err.flush();
        return new Result(null, EXIT_USAGE);
    }

    /** Checks the options and builds a concluded context. */
    MasterContext toContext() throws UsageException {
        String internal = internalOptionGiven();
        if (internal != null) {
            throw new UsageException(internal + " is bdmpiexec's own option for the masters it starts through mpiexec, "
                    + "not one for the command line");
        }
        if (program.isEmpty()) {
            throw new UsageException("no program given (a main class or a jar)");
        }
        if (nodes < 1) {
            throw new UsageException("-nn=" + nodes + " must be at least 1");
        }
        if (hosts != null && hostFile != null) {
            throw new UsageException("give --hosts or --hostfile, not both");
        }
        if (hostFile != null && !Files.isReadable(hostFile)) {
            throw new UsageException("--hostfile=" + hostFile + " is not a readable file");
        }
        if (slaves < 1) {
            throw new UsageException("-ns=" + slaves + " must be at least 1");
        }
        if (nodeSlaves != null) {
            if (nodeSlaves.size() != nodes || nodeSlaves.stream().anyMatch(n -> n < 1)) {
                throw new UsageException("--node-slaves=" + nodeSlaves + " must give at least 1 slave for each of -nn=" + nodes
                        + " nodes");
            }
            List<NodeSettings> perNode = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                perNode.add(new NodeSettings(n, nodeSlaves.get(n), null, null, null));
            }
            nodeSettings = perNode;
        }
        if (heldPlacement) {
            nodeSettings = List.of(); // each node's slaves come with the placement, which replaces the user's
            placement = "block";
        }
        int mostSlaves = nodeSettings.stream().map(NodeSettings::slaves).filter(Objects::nonNull).reduce(slaves, Math::max);
        if (running != MasterContext.RUNNING_AUTO && (running < 1 || running > mostSlaves)) {
            throw new UsageException("-nr=" + running + " must be between 1 and "
                    + (mostSlaves == slaves ? "-ns=" : "the most slaves of a node, ") + mostSlaves);
        }
        if (inlineMax < 0 || inlineMax > MasterContext.INLINE_MAX_BYTES_LIMIT) {
            throw new UsageException("-im=" + inlineMax + " must be between 0 and " + MasterContext.INLINE_MAX_BYTES_LIMIT);
        }
        if (workDir == null || !Files.isDirectory(workDir) || !Files.isWritable(workDir)) {
            throw new UsageException("-wd=" + workDir + " is not a writable directory");
        }
        checkOutputFile("--stats", stats);
        checkOutputFile("--trace", trace);
        checkOutputFile("--report", report);
        ResumePolicyKind policyKind;
        try {
            policyKind = ResumePolicyKind.valueOf(policy.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--policy=" + policy + " must be resident or fifo");
        }
        String prog = program.get(0);
        checkProgram(prog, classPath);

        MasterContext ctx = new MasterContext()
                .nodes(nodes)
                .slaves(slaves)
                .running(running)
                .inlineMaxBytes((int) inlineMax)
                .workDirParent(workDir)
                .statsFile(stats)
                .classPath(classPath)
                .program(prog)
                .programArgs(program.subList(1, program.size()))
                .tagOutput(tagOutput)
                .slaveJvmOptions(splitJvmOptions(slaveJvmOpts))
                .placement(placement)
                .resumePolicy(policyKind)
                .memoryLimitBytes(memoryLimit)
                .heapOnPark(shrinkHeapOnPark == null ? DEFAULTS.heapOnPark()
                        : shrinkHeapOnPark ? SlaveMemory.HeapOnPark.SHRINK : SlaveMemory.HeapOnPark.KEEP)
                .readAhead(!noReadAhead)
                .quantumSeconds(quantum)
                .offHeapMessages(offHeapMessages)
                .nodeSettings(nodeSettings)
                .statusLine(progress == null && nodes == 1 && ProgressReporter.stderrIsTerminal())
                .progressSeconds(progress == null || nodes > 1 ? 0 : progress)
                .traceFile(trace)
                .reportFile(report)
                .checkpointDir(checkpointDir)
                .restartDir(restartDir)
                .nodeDirs(nodeDirs == null ? List.of() : nodeDirs)
                .heldPlacement(heldPlacement)
                .recoveries(recover)
                .launcherAddress(launcherAddress);
        return ctx.conclude();
    }

    /**
     * The first of bdmpiexec's own options for the masters it starts that the command line gives
     * without them coming together with {@code --node-master} and {@code --launcher}, as bdmpiexec
     * passes them; null if none.
     */
    private String internalOptionGiven() {
        if (nodeMaster && launcherAddress != null) {
            return null;
        }
        if (nodeMaster) {
            return "--node-master";
        }
        if (launcherAddress != null) {
            return "--launcher";
        }
        if (nodeSlaves != null) {
            return "--node-slaves";
        }
        if (nodeDirs != null) {
            return "--node-dirs";
        }
        return heldPlacement ? "--held-placement" : null;
    }

    /** How to start the masters of {@code context}: through the MPI launcher, each running bdmpiexec --node-master with these arguments. */
    MultiNodeLaunch multiNodeLaunch(String[] args, MasterContext context) throws UsageException {
        MpiLauncher launcher;
        try {
            launcher = MpiLauncher.find(mpiexec, System.getenv());
        } catch (IllegalStateException e) {
            throw new UsageException(e.getMessage());
        }
        return new MultiNodeLaunch(launcher, nodes, hosts, hostFile, List.of(args), stats, trace, report,
                progress == null && ProgressReporter.stderrIsTerminal(), progress == null ? 0 : progress, recover,
                checkpointDir != null ? checkpointDir : restartDir, nodeDirs == null ? List.of() : List.copyOf(nodeDirs),
                args.length - program.size(), context.smallestMemoryLimitBytes());
    }

    static List<String> splitJvmOptions(String opts) {
        if (opts == null) {
            return List.of();
        }
        return Arrays.stream(opts.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
    }

    /** A file the job writes at its end: refused now rather than after a run of hours. */
    private static void checkOutputFile(String option, Path file) throws UsageException {
        if (file == null) {
            return;
        }
        if (Files.isDirectory(file)) {
            throw new UsageException(option + "=" + file + " is a directory, not a file");
        }
        Path dir = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new UsageException(option + "=" + file + ": " + dir + " is not a writable directory");
        }
    }

    /** A jar must be readable and name a Main-Class; a class must be found on -cp with a public static void main(String[]). */
    static void checkProgram(String prog, String classPath) throws UsageException {
        if (prog.endsWith(".jar")) {
            Path jar = Path.of(prog);
            if (!Files.isRegularFile(jar) || !Files.isReadable(jar)) {
                throw new UsageException("cannot read jar " + prog);
            }
            try (JarFile jf = new JarFile(jar.toFile())) {
                Manifest mf = jf.getManifest();
                String main = mf == null ? null : mf.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
                if (main == null || main.isBlank()) {
                    throw new UsageException("jar " + prog + " has no Main-Class in its manifest");
                }
            } catch (IOException e) {
                throw new UsageException("cannot read jar " + prog + ": " + e.getMessage());
            }
            return;
        }
        List<URL> urls = classPathUrls(classPath);
        // The slaves also get slave-lib and spill; add them so program classes using mpi.* resolve.
        urls.add(codeSource(SlaveMain.class));
        urls.add(codeSource(SpillDirectory.class));
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Class<?> c;
            try {
                c = Class.forName(prog, false, loader);
            } catch (ClassNotFoundException e) {
                throw new UsageException("class " + prog + " not found on class path '" + classPath + "'");
            }
            Method main;
            try {
                main = c.getMethod("main", String[].class);
            } catch (NoSuchMethodException e) {
                main = null;
            }
            if (main == null || !Modifier.isStatic(main.getModifiers()) || main.getReturnType() != void.class) {
                throw new UsageException("class " + prog + " has no public static void main(String[])");
            }
        } catch (LinkageError e) {
            throw new UsageException("cannot load class " + prog + ": " + e);
        } catch (IOException e) {
            throw new UsageException("cannot read class path '" + classPath + "': " + e.getMessage());
        }
    }

    /** URLs of the class path entries: directories, jars, and {@code dir/*} (every jar in dir). */
    static List<URL> classPathUrls(String classPath) throws UsageException {
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            try {
                if (entry.equals("*") || entry.endsWith(File.separator + "*")) {
                    Path dir = Path.of(entry.substring(0, entry.length() - 1).isEmpty() ? "." : entry.substring(0, entry.length() - 1));
                    if (Files.isDirectory(dir)) {
                        List<Path> jars = new ArrayList<>();
                        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                            for (Path p : ds) {
                                String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                                if (n.endsWith(".jar") && Files.isRegularFile(p)) {
                                    jars.add(p);
                                }
                            }
                        }
                        jars.sort(null);
                        for (Path p : jars) {
                            urls.add(p.toUri().toURL());
                        }
                    }
                } else {
                    urls.add(Path.of(entry).toAbsolutePath().toUri().toURL());
                }
            } catch (IOException | RuntimeException e) {
                throw new UsageException("bad class path entry '" + entry + "': " + e.getMessage());
            }
        }
        return urls;
    }

    private static URL codeSource(Class<?> c) throws UsageException {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toUri().toURL();
        } catch (URISyntaxException | MalformedURLException | RuntimeException e) {
            throw new UsageException("cannot locate " + c.getName() + ": " + e.getMessage());
        }
    }

    /** -nr: a number of slaves or "auto" ({@link MasterContext#RUNNING_AUTO}); the range is checked with -ns. */
    static final class RunningConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return parseRunning(value);
        }
    }

    static int parseRunning(String value) {
        String v = value.trim();
        if (v.equals("auto")) {
            return MasterContext.RUNNING_AUTO;
        }
        try {
            int n = Integer.parseInt(v);
            if (n != MasterContext.RUNNING_AUTO) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Said below.
        }
        throw new CommandLine.TypeConversionException("'" + value + "' is neither a number of slaves nor auto");
    }

    /** Bytes with an optional binary suffix: 4096, 64k, 1m, 1g (case-insensitive). */
    static final class ByteSizeConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parseBytes(value);
        }
    }

    static long parseBytes(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        if (!v.isEmpty()) {
            switch (v.charAt(v.length() - 1)) {
                case 'k' -> mult = 1L << 10;
                case 'm' -> mult = 1L << 20;
                case 'g' -> mult = 1L << 30;
                default -> { }
            }
        }
        String digits = mult == 1 ? v : v.substring(0, v.length() - 1);
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 12) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a byte count (digits with optional k, m or g)");
        }
        return Long.parseLong(digits) * mult;
    }
}
