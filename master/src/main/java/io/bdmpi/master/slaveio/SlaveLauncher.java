package io.bdmpi.master.slaveio;

import io.bdmpi.master.config.MasterContext;
import io.bdmpi.master.memory.SlaveMemory;
import io.bdmpi.ooc.Libc;
import io.bdmpi.slave.SlaveEnvironment;
import io.bdmpi.slave.SlaveMain;
import io.bdmpi.spill.SpillDirectory;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Builds the command line of slave JVMs and starts them. */
public final class SlaveLauncher {

    /**
     * The slaves' collector, unless {@code --slave-jvm-opts} names another: the JVM refuses two
     * ({@link #command} leaves it out then).
     */
    static final String SERIAL_GC = "-XX:+UseSerialGC";
    private static final Pattern COLLECTOR = Pattern.compile("-XX:\\+Use\\w+GC");

    /**
     * JVM options every slave gets before the user's, for many small JVMs on one node. The serial
     * collector has no GC threads per core; no perf-data file is left in /tmp if a slave is
     * killed. The JDK's class-data archive is mapped where it was built to be
     * ({@code ArchiveRelocationMode=0}) rather than at a random address: relocating it writes to
     * every page of it, which then counts against each slave (10 MiB of its 24 MiB PSS, parked),
     * whereas mapped unchanged its pages are shared by all slaves. (Should that address be taken,
     * the JVM relocates after all.) The NIO selector provider is named, the JDK's own on Linux: a
     * slave's first socket otherwise has the JDK look for another provider among the services of
     * every jar on the class path, which opens all of them (some 40 ms of CPU per slave when
     * slaves had jnr-ffi's ten jars), for a provider no slave uses.
     */
    static final List<String> DEFAULT_SLAVE_JVM_OPTIONS = List.of(SERIAL_GC, "-XX:-UsePerfData",
            "-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0",
            "-Djava.nio.channels.spi.SelectorProvider=sun.nio.ch.EPollSelectorProvider");

    /**
     * The first JIT tier (C1) compiles a method after 1000 calls, or 500 with loops, instead of the
     * JVM's 200 and 100: what a slave runs between its start and MPI.Init, much of it a few hundred
     * times (class initializers, the JDK's set-up), was compiled anew in every slave JVM, a fifth of
     * a slave's start-up CPU (24 of 122 ms, perf over a job of 16; now 10 to 13 ms). A loop still
     * compiles after the JVM's usual count of iterations (these flags leave the back-edge threshold
     * alone), and the second tier's thresholds are unchanged, so a rank's hot code is compiled as
     * before. ({@code -XX:TieredStopAtLevel=1} would save more but makes compute code 3 to 4 times
     * slower.)
     */
    static final List<String> COMPILE_THRESHOLDS = List.of("-XX:Tier3InvocationThreshold=1000",
            "-XX:Tier3MinInvocationThreshold=500", "-XX:Tier3CompileThreshold=10000");

    /**
     * Slaves give back the C heap their JVM has freed: glibc keeps what the JIT compilers and
     * class loading free, and a slave parked for long held it for nothing (with the arenas below,
     * 1.4 MiB of PSS per slave at the peak of a run of collectives). The JVM trims its C heap every
     * 5 s; the trim of an idle slave costs some 30 µs, so 1024 parked slaves spend under 1 % of a
     * core on it. The flag exists from JDK 17.0.9 and 21.0.1 on: it is given only when the slaves
     * run the master's own JVM and that JVM knows it ({@link #runtimeOptions}).
     */
    static final String TRIM_NATIVE_HEAP = "-XX:TrimNativeHeapInterval=5000";
    /**
     * The slaves' malloc arenas, unless the user's environment sets them: glibc's default is one
     * per thread up to 8 per core, each holding its own free memory. 2 keep the JIT compiler
     * threads from queueing on one lock; 1 saved no more than noise (0.1 to 0.4 MiB per slave).
     */
    static final Map<String, String> MALLOC_ENVIRONMENT = Map.of("MALLOC_ARENA_MAX", "2");

    /** Slaves started at once: enough to overlap the waits of a few starts on a node of 2 to 8 cores. */
    static final int STARTERS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

    private final MasterContext context;
    private final SlaveMemory memory;
    private final String classPath;
    private final List<String> archiveOptions;
    private final List<String> runtimeOptions;
    /** Where slaves load jffi's native stub from: one copy in the cache, shared by all, if it could be made. */
    private final Optional<Path> nativeStubDir;

    /**
     * @param memory the heap limit and heap on park of this node's slaves
     */
    public SlaveLauncher(MasterContext context, SlaveMemory memory) {
        this.context = context;
        this.memory = memory;
        // bdmpi's own jars first (what the class-data archive holds), then the program's, then
        // jffi's two (Libc's): a slave finds the program's classes by opening every jar before
        // them, and only a program with off-heap arrays uses jffi, and later.
        List<String> ownJars = Stream.of(SlaveMain.class, SpillDirectory.class).map(ClassDataArchive::codeSource).distinct().toList();
        Set<String> entries = new LinkedHashSet<>(ownJars);
        if (context.program().endsWith(".jar")) {
            entries.add(context.program());
        }
        for (String e : context.classPath().split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                entries.add(e);
            }
        }
        Libc.classPathEntries().forEach(p -> entries.add(p.toString()));
        this.classPath = String.join(File.pathSeparator, entries);
        // The training loads every class of slave-lib and spill that it can without jffi.
        this.archiveOptions = ClassDataArchive.forSlaves(context.classDataCacheDir(), context.javaExecutable(),
                        DEFAULT_SLAVE_JVM_OPTIONS, ownJars, ownJars)
                .map(ClassDataArchive::options)
                .orElse(List.of());
        this.runtimeOptions = runtimeOptions(context.javaExecutable());
        this.nativeStubDir = Libc.nativeStubIn(context.classDataCacheDir());
    }

    /** The directory of the copy of jffi's native stub the slaves load, if it could be made. */
    public Optional<Path> nativeStubDir() {
        return nativeStubDir;
    }

    /** {@link #TRIM_NATIVE_HEAP} if the slaves' JVM is this one and knows the flag, else nothing. */
    static List<String> runtimeOptions(String javaExecutable) {
        try {
            Path own = Path.of(System.getProperty("java.home"), "bin", "java").toRealPath();
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (hotSpot == null || !Path.of(javaExecutable).toRealPath().equals(own)) {
                return List.of();
            }
            hotSpot.getVMOption("TrimNativeHeapInterval");
            return List.of(TRIM_NATIVE_HEAP);
        } catch (IOException | IllegalArgumentException unknown) {
            // No such executable, not HotSpot, or a HotSpot without the flag.
            return List.of();
        }
    }

    /** The command a slave runs. */
    List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(context.javaExecutable());
        List<String> userOptions = context.slaveJvmOptions().stream().filter(o -> !o.isBlank()).toList();
        boolean ownCollector = userOptions.stream().anyMatch(o -> COLLECTOR.matcher(o).matches());
        DEFAULT_SLAVE_JVM_OPTIONS.stream().filter(o -> !(ownCollector && o.equals(SERIAL_GC))).forEach(cmd::add);
        cmd.addAll(COMPILE_THRESHOLDS);
        cmd.addAll(archiveOptions);
        cmd.addAll(runtimeOptions);
        nativeStubDir.ifPresent(d -> cmd.add(Libc.nativeStubOption(d)));
        if (memory.heapBytes() > 0) {
            cmd.add("-Xmx" + (memory.heapBytes() >> 20) + "m");
        }
        if (memory.shrinkOnPark()) {
            cmd.addAll(SlaveEnvironment.HEAP_SHRINK_JVM_OPTIONS);
        }
        cmd.addAll(userOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(SlaveMain.class.getName());
        cmd.add(context.program());
        cmd.addAll(context.programArgs());
        return cmd;
    }

    /**
     * Starts one slave. Its output goes straight to the launcher's stdout and stderr (lines are kept
     * whole by the slave), or, with a status line, to pipes the {@link io.bdmpi.master.observe.ProgressReporter} forwards.
     */
    private Process start(SlaveEnvironment env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command());
        pb.environment().putAll(env.toVariables());
        MALLOC_ENVIRONMENT.forEach(pb.environment()::putIfAbsent);
        if (memory.shrinkOnPark()) {
            pb.environment().put(SlaveEnvironment.SHRINK_HEAP_ON_PARK, Long.toString(memory.parkedHeapBytes()));
        }
        // Stdin stays a pipe whose write end this process holds (in the Process) and never
        // writes: the slave's watchdog reads end-of-file from it the moment the master is gone.
        pb.redirectInput(ProcessBuilder.Redirect.PIPE);
        ProcessBuilder.Redirect output = context.statusLine() ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.INHERIT;
        pb.redirectOutput(output);
        pb.redirectError(output);
        return pb.start();
    }

    /**
     * Starts the slaves of {@code envs}, several at a time: a start waits for the new process to
     * exec, and one after the other a thousand slaves took over three minutes on a busy 2-core
     * node. If one cannot start, those started are ended and the error thrown.
     *
     * @return the processes, in the order of {@code envs}
     */
    public List<Process> startAll(List<SlaveEnvironment> envs) throws IOException {
        ExecutorService starters = Executors.newFixedThreadPool(Math.min(STARTERS, Math.max(1, envs.size())), r -> {
            Thread t = new Thread(r, "bdmpi-slave-starter");
            t.setDaemon(true);
            return t;
        });
        List<Future<Process>> started = new ArrayList<>();
        try {
            for (SlaveEnvironment env : envs) {
                started.add(starters.submit(() -> start(env)));
            }
            List<Process> processes = new ArrayList<>();
            IOException failure = null;
            for (Future<Process> f : started) {
                try {
                    processes.add(f.get());
                } catch (ExecutionException e) {
                    failure = failure != null ? failure
                            : e.getCause() instanceof IOException io ? io : new IOException("cannot start a slave", e.getCause());
                }
            }
            if (failure != null) {
                processes.forEach(Process::destroyForcibly);
                throw failure;
            }
            return processes;
        } catch (InterruptedException e) {
            // Starts not yet begun are dropped; those under way finish in moments, and are waited
            // for (the interrupt is set again after) so that none is left running unknown.
            started.forEach(f -> f.cancel(false));
            for (Future<Process> f : started) {
                if (!f.isCancelled()) {
                    try {
                        f.get().destroyForcibly();
                    } catch (ExecutionException | InterruptedException ignored) {
                        // Not started: nothing to end.
                    }
                }
            }
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting slaves", e);
        } finally {
            starters.shutdown();
        }
    }
}
