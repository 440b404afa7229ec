package io.bdmpi.tests.support;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.master.internode.MpiLauncher;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs one real job: {@code java -cp <test class path> io.bdmpi.launcher.Bdmpiexec -ns S -nr R
 * [-im B] [options] -wd <fresh dir> --stats <file> -cp <test class path> MAINCLASS args...} as a
 * child process, the way a user would, and checks afterwards that the job left nothing behind.
 *
 * <p>This is the one place for the end-to-end tests' timeouts, temporary directories and process
 * reaping:
 * <ul>
 *   <li>Every job gets a fresh directory (under {@code java.io.tmpdir}, short enough for a
 *       Unix-socket path) holding its {@code -wd}, its stats file and its captured output; it is
 *       removed after the job.</li>
 *   <li>A job that outlives its timeout is killed with all its descendants and the run fails.</li>
 *   <li>After every job, {@link #run()} fails unless, within {@link #CLEANUP_GRACE}, the {@code -wd}
 *       directory is empty and no live process refers to it (see {@link Reaper}); leftovers are
 *       killed and removed so that later tests start clean.</li>
 *   <li>Jobs still running when the test JVM exits are killed by a shutdown hook.</li>
 * </ul>
 *
 * <p>The system property {@code bdmpi.tests.timeoutScale} (default 1) multiplies every timeout,
 * for slow machines. Not thread-safe: build and run a job on one thread.
 */
public final class JobRunner {

    /** The launcher's main class. */
    public static final String LAUNCHER = "io.bdmpi.launcher.Bdmpiexec";
    /** Default time a whole job may take, start-up of every slave JVM included. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** How long after bdmpiexec exits its slaves and work files may take to disappear. */
    public static final Duration CLEANUP_GRACE = Duration.ofSeconds(3);
    /** How long a killed job tree may take to die. */
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);
    private static final long POLL_MS = 100;
    private static final int MAX_TEMP_PARENT_LENGTH = 40;

    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(p -> Reaper.killTree(p.toHandle())),
                "bdmpi-tests-reaper"));
    }

    private final String mainClass;
    private int nodes = 1;
    private MpiAbi mpi;
    private boolean countsFromConfig;
    private int ranks = 1;
    private String running = "1";
    private Integer inlineMaxBytes;
    private final List<String> options = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private Duration timeout = DEFAULT_TIMEOUT;
    private List<String> trigger;
    private Action triggerAction;
    private String tmpfsSize;
    private boolean ownProcessGroup;
    private final Map<String, String> environment = new HashMap<>();
    /** bdmpiexec's working directory; null: this JVM's. */
    private Path directory;

    /** A signal the harness can send to bdmpiexec itself (not to its children). */
    public enum Signal {
        /** SIGTERM, as from {@code kill}: bdmpiexec should stop the job and clean up. */
        TERM,
        /** SIGKILL: bdmpiexec gets no chance; its slaves and janitor must clean up after it. */
        KILL,
        /** SIGINT (sent with {@code kill -INT}): the same clean stop as SIGTERM. */
        INT,
        /**
         * SIGINT to bdmpiexec's whole process group, slaves included, as Ctrl-C in a terminal does;
         * needs {@link #ownProcessGroup()}.
         */
        INT_GROUP
    }

    /** Something done to a running job (see {@link #whenStdoutHas}). */
    @FunctionalInterface
    public interface Action {
        /**
         * @param launcher the bdmpiexec process
         * @param workDir  the job's {@code -wd} directory
         */
        void run(ProcessHandle launcher, Path workDir) throws Exception;
    }

    private JobRunner(String mainClass) {
        this.mainClass = mainClass;
    }

    /** A job running {@code mainClass} (on the tests' own class path) with 1 rank, 1 running. */
    public static JobRunner job(Class<?> mainClass) {
        return new JobRunner(mainClass.getName());
    }

    /** A job running the named main class. */
    public static JobRunner job(String mainClass) {
        return new JobRunner(mainClass);
    }

    /**
     * {@code -nn}: number of nodes, one master each, all on this machine and started through the
     * MPI library's launcher when more than one; fails at once, saying so, when no MPI is installed.
     */
    public JobRunner nodes(int n) {
        nodes = n;
        requireMpi();
        return this;
    }

    /**
     * The MPI library the masters bind (bdmpiexec's {@code BDMPI_MPI_ABI}; default: its own
     * choice, MPICH when both are installed); fails at once, saying so, when it is not installed.
     */
    public JobRunner mpi(MpiAbi abi) {
        mpi = abi;
        requireMpi();
        return this;
    }

    private void requireMpi() {
        if (nodes > 1) {
            try {
                MpiLauncher.find(null, withMpiSettings(new HashMap<>(System.getenv())));
            } catch (IllegalStateException e) {
                throw new AssertionError("this test runs " + nodes + " nodes and needs MPI: " + e.getMessage(), e);
            }
        }
    }

    /** Removes the user's bdmpi settings from {@code env} and names the MPI library asked for; returns {@code env}. */
    private Map<String, String> withMpiSettings(Map<String, String> env) {
        env.keySet().removeIf(k -> k.startsWith("BDMPI_"));
        if (mpi != null) {
            env.put(MpiAbi.ABI_VARIABLE, mpi.settingName());
        }
        return env;
    }

    /** {@code -ns}: number of ranks (slaves) per node. */
    public JobRunner ranks(int n) {
        ranks = n;
        return this;
    }

    /** {@code -nr}: most slaves running at once. */
    public JobRunner running(int n) {
        running = Integer.toString(n);
        return this;
    }

    /** {@code -nr auto}: the master sets how many slaves run at once from the memory available. */
    public JobRunner runningAuto() {
        running = "auto";
        return this;
    }

    /** {@code -im}: largest message kept in master memory; larger ones go through spill files. */
    public JobRunner inlineMax(int bytes) {
        inlineMaxBytes = bytes;
        return this;
    }

    /**
     * {@code --config FILE}, whose slave and running counts (top-level or per node) then apply:
     * the job passes no {@code -ns} and {@code -nr}, which would beat them.
     */
    public JobRunner config(Path file) {
        options.addAll(List.of("--config", file.toString()));
        countsFromConfig = true;
        return this;
    }

    /** Extra bdmpiexec options, placed before {@code -wd}. */
    public JobRunner options(String... opts) {
        options.addAll(Arrays.asList(opts));
        return this;
    }

    /** An environment variable of bdmpiexec (and so of its slaves). */
    public JobRunner environment(String name, String value) {
        environment.put(name, value);
        return this;
    }

    /** Runs bdmpiexec in {@code dir} instead of this JVM's working directory (the tests module's). */
    public JobRunner inDirectory(Path dir) {
        directory = dir;
        return this;
    }

    /** The program's own arguments. */
    public JobRunner args(Object... programArgs) {
        for (Object a : programArgs) {
            args.add(String.valueOf(a));
        }
        return this;
    }

    /** Time the whole job may take before it is killed and the run fails. */
    public JobRunner timeout(Duration t) {
        timeout = t;
        return this;
    }

    /**
     * Sends {@code signal} to the bdmpiexec process (only) as soon as its stdout contains a line
     * containing {@code text}; the job then runs to its end as usual and is checked as usual.
     */
    public JobRunner signalWhenStdoutHas(String text, Signal signal) {
        return whenStdoutHas(text, (launcher, wd) -> send(launcher, signal));
    }

    /**
     * Runs {@code action} (once, on the harness's thread) as soon as the job's stdout has a line
     * containing {@code text}; the job then runs to its end and is checked as usual. An exception
     * from the action kills the job and fails the run, with what the kill left behind.
     */
    public JobRunner whenStdoutHas(String text, Action action) {
        return whenStdoutHasAll(List.of(text), action);
    }

    /**
     * As {@link #whenStdoutHas}, once every one of {@code texts} is on a line of the job's stdout:
     * for an action on the processes of several ranks, which start in no set order.
     */
    public JobRunner whenStdoutHasAll(List<String> texts, Action action) {
        trigger = List.copyOf(texts);
        triggerAction = action;
        return this;
    }

    /**
     * Mounts a fresh tmpfs of {@code size} (e.g. "8m") as the job's {@code -wd}, to fill the disk;
     * unmounted after the job. The test is skipped (assumption) when mounting is not permitted.
     */
    public JobRunner workDirOnTmpfs(String size) {
        tmpfsSize = size;
        return this;
    }

    /**
     * Starts bdmpiexec through {@code setsid}, as the leader of a new process group (as a shell
     * starts a foreground job), so that {@link Signal#INT_GROUP} can reach it and its slaves.
     */
    public JobRunner ownProcessGroup() {
        ownProcessGroup = true;
        return this;
    }

    /** The slave process of a world rank, found by its environment among the launcher's descendants. */
    public static ProcessHandle slaveOfRank(ProcessHandle launcher, int rank) {
        return launcher.descendants().filter(p -> environment(p).contains("\0BDMPI_RANK=" + rank + "\0"))
                .findFirst().orElseThrow(() -> new AssertionError("no slave of rank " + rank));
    }

    private static String environment(ProcessHandle p) {
        try {
            return "\0" + Files.readString(Path.of("/proc", Long.toString(p.pid()), "environ"), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    /** Sends {@code signal} to one process (only), or to its process group for {@link Signal#INT_GROUP}. */
    public static void send(ProcessHandle p, Signal signal) {
        switch (signal) {
            case KILL -> p.destroyForcibly();
            case TERM -> p.destroy();
            case INT, INT_GROUP -> {
                String target = signal == Signal.INT ? Long.toString(p.pid()) : "-" + p.pid();
                try {
                    int rc = new ProcessBuilder("kill", "-INT", "--", target).inheritIO().start().waitFor();
                    if (rc != 0) {
                        throw new AssertionError("kill -INT -- " + target + " exited " + rc);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
            default -> throw new IllegalArgumentException(signal.toString());
        }
    }

    /**
     * Runs bdmpiexec with exactly {@code launcherArgs} (nothing added: no -wd, no stats), for
     * command-line checks. The result has no statistics.
     */
    public static JobResult launch(Duration timeout, String... launcherArgs) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(testClassPath());
        command.add(LAUNCHER);
        command.addAll(Arrays.asList(launcherArgs));
        Path dir = createJobDir();
        try {
            Path out = dir.resolve("stdout.txt");
            Path err = dir.resolve("stderr.txt");
            ProcessBuilder pb = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            pb.environment().keySet().removeIf(k -> k.startsWith("BDMPI_"));
            long startNs = System.nanoTime();
            Process process = pb.start();
            RUNNING.add(process);
            try {
                if (!process.waitFor(scaled(timeout).toMillis(), TimeUnit.MILLISECONDS)) {
                    Reaper.killTree(process.toHandle());
                    throw new AssertionError("bdmpiexec " + launcherArgs.length + " args timed out: " + command);
                }
            } finally {
                RUNNING.remove(process);
            }
            return new JobResult(List.copyOf(command), process.exitValue(), readLines(out), readLines(err), null,
                    "not asked for", Duration.ofNanos(System.nanoTime() - startNs), System.currentTimeMillis());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } finally {
            deleteTree(dir);
        }
    }

    /**
     * Runs the job to its end and checks that it left nothing behind.
     *
     * @return the result, whatever bdmpiexec's exit code (tests check it)
     * @throws AssertionError when the job timed out, or left files in {@code -wd} or live processes
     */
    public JobResult run() {
        Path jobDir = createJobDir();
        try {
            return runIn(jobDir);
        } finally {
            deleteTree(jobDir);
        }
    }

    private JobResult runIn(Path jobDir) {
        Path workDir = jobDir.resolve("wd");
        Path statsFile = jobDir.resolve("stats.json");
        Path out = jobDir.resolve("stdout.txt");
        Path err = jobDir.resolve("stderr.txt");
        List<String> command = command(workDir, statsFile);
        createDirectory(workDir);
        if (tmpfsSize != null) {
            mountTmpfs(workDir, tmpfsSize);
        }
        try {
            return runIn(jobDir, workDir, statsFile, out, err, command);
        } finally {
            if (tmpfsSize != null) {
                unmount(workDir);
            }
        }
    }

    private JobResult runIn(Path jobDir, Path workDir, Path statsFile, Path out, Path err, List<String> command) {
        Set<String> shmBefore = listShm();

        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .directory(directory == null ? null : directory.toFile());
        withMpiSettings(pb.environment());
        pb.environment().putAll(environment);
        long startNs = System.nanoTime();
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        RUNNING.add(process);
        boolean timedOut;
        long exitedAtMillis;
        Throwable actionFailure;
        try {
            actionFailure = awaitExit(process, startNs + scaled(timeout).toNanos(), out, workDir);
            timedOut = actionFailure == TIMED_OUT;
            exitedAtMillis = System.currentTimeMillis();
            if (timedOut) {
                Reaper.killTree(process.toHandle());
                process.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Reaper.killTree(process.toHandle());
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the job", e);
        } finally {
            RUNNING.remove(process);
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startNs);

        Stats stats = null;
        String statsProblem = null;
        if (!Files.exists(statsFile)) {
            statsProblem = "bdmpiexec wrote no " + statsFile.getFileName();
        } else {
            try {
                stats = Stats.read(statsFile);
            } catch (IOException e) {
                statsProblem = "cannot parse " + statsFile.getFileName() + ": " + e.getMessage();
            }
        }
        JobResult result = new JobResult(List.copyOf(command), timedOut ? -1 : process.exitValue(), readLines(out),
                readLines(err), stats, statsProblem, elapsed, exitedAtMillis);

        String leftBehind = awaitNothingLeft(workDir, shmBefore);
        String besides = leftBehind == null ? "" : "; besides, " + leftBehind;
        if (timedOut) {
            throw new AssertionError("job timed out after " + scaled(timeout).toSeconds() + " s and was killed"
                    + besides + "\n" + result.describe());
        }
        if (actionFailure != null) {
            // The job was SIGKILLed whole, its masters' janitors with it: what it left says nothing of bdmpi.
            throw new AssertionError("the action on the running job failed: " + actionFailure + besides + "\n"
                    + result.describe(), actionFailure);
        }
        if (leftBehind != null) {
            throw new AssertionError("job left things behind: " + leftBehind + "\n" + result.describe());
        }
        return result;
    }

    /** What {@link #awaitExit} returns when the deadline passed first. */
    private static final Throwable TIMED_OUT = new Throwable("timed out");

    /**
     * Waits for the process to exit, running the trigger's action once if asked to.
     *
     * @return null when it exited, {@link #TIMED_OUT} if the deadline passed first, or what the
     *         action threw (the process exited then)
     */
    private Throwable awaitExit(Process process, long deadlineNs, Path out, Path workDir) throws InterruptedException {
        boolean triggered = trigger == null;
        Throwable failure = null;
        while (true) {
            long left = deadlineNs - System.nanoTime();
            if (left <= 0) {
                return process.isAlive() ? TIMED_OUT : failure;
            }
            if (process.waitFor(triggered ? left : Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_MS)),
                    TimeUnit.NANOSECONDS)) {
                return failure;
            }
            if (!triggered && hasEvery(readLines(out), trigger)) {
                triggered = true;
                try {
                    triggerAction.run(process.toHandle(), workDir);
                } catch (Exception | AssertionError e) {
                    failure = e;
                    Reaper.killTree(process.toHandle());
                }
            }
        }
    }

    /** The bdmpiexec command line. */
    private List<String> command(Path workDir, Path statsFile) {
        String classPath = testClassPath();
        List<String> cmd = new ArrayList<>();
        if (ownProcessGroup) {
            cmd.add("setsid"); // not a group leader here, so it execs in place: same pid
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(masterJvmOptions());
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(LAUNCHER);
        if (nodes != 1) {
            cmd.add("-nn");
            cmd.add(Integer.toString(nodes));
        }
        if (!countsFromConfig) {
            cmd.add("-ns");
            cmd.add(Integer.toString(ranks));
            cmd.add("-nr");
            cmd.add(running);
        }
        if (inlineMaxBytes != null) {
            cmd.add("-im");
            cmd.add(Integer.toString(inlineMaxBytes));
        }
        cmd.addAll(options);
        cmd.add("-wd");
        cmd.add(workDir.toString());
        cmd.add("--stats");
        cmd.add(statsFile.toString());
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /** The master's JVM options, as bin/bdmpiexec passes them (from bin/master-jvm.options of the project). */
    public static List<String> masterJvmOptions() {
        Path file = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath()
                .getParent().resolve("bin").resolve("master-jvm.options");
        try {
            return Files.readAllLines(file).stream().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the master's JVM options " + file, e);
        }
    }

    /**
     * Polls until {@code workDir} is empty and no process refers to it.
     *
     * @return null when clean; otherwise what was left (which is then killed and removed)
     */
    private static String awaitNothingLeft(Path workDir, Set<String> shmBefore) {
        long deadline = System.nanoTime() + scaled(CLEANUP_GRACE).toNanos();
        while (true) {
            List<Reaper.Leftover> processes = Reaper.find(workDir);
            List<String> files = listTree(workDir);
            List<String> shm = listShm().stream().filter(e -> !shmBefore.contains(e)).sorted().toList();
            if (processes.isEmpty() && files.isEmpty() && shm.isEmpty()) {
                return null;
            }
            if (System.nanoTime() - deadline > 0) {
                Reaper.kill(processes);
                removeUnmapped(shm);
                StringBuilder sb = new StringBuilder();
                if (!processes.isEmpty()) {
                    sb.append(processes.size()).append(" live process(es) ").append(processes);
                }
                if (!files.isEmpty()) {
                    sb.append(sb.length() > 0 ? " and " : "").append(files.size()).append(" path(s) in -wd ")
                            .append(files.subList(0, Math.min(files.size(), 20)));
                }
                if (!shm.isEmpty()) {
                    sb.append(sb.length() > 0 ? " and " : "").append(shm.size()).append(" new entr(ies) in /dev/shm ")
                            .append(shm.subList(0, Math.min(shm.size(), 20)));
                }
                sb.append(" ").append(scaled(CLEANUP_GRACE).toMillis()).append(" ms after bdmpiexec exited");
                return sb.toString();
            }
            sleep(POLL_MS);
        }
    }

    /**
     * The class path of this test JVM: test classes, examples, slave-lib, launcher and their
     * dependencies. Surefire may run tests through a manifest-only booter jar, in which case the
     * real class path is in {@code surefire.test.class.path}.
     */
    public static String testClassPath() {
        String cp = System.getProperty("java.class.path");
        String surefire = System.getProperty("surefire.test.class.path");
        boolean booterOnly = cp != null && !cp.contains(File.pathSeparator) && cp.contains("surefirebooter");
        if ((cp == null || cp.isBlank() || booterOnly) && surefire != null && !surefire.isBlank()) {
            return surefire;
        }
        return cp;
    }

    /**
     * Removes what a failed job left in /dev/shm, so that one failure does not stay on the machine;
     * an entry that a live process maps (another job's, on a shared machine) is left alone.
     */
    private static void removeUnmapped(List<String> shmEntries) {
        Set<String> inUse;
        try {
            inUse = Reaper.sharedMemoryInUse();
        } catch (IllegalStateException e) {
            return; // cannot tell what is in use: remove nothing
        }
        for (String entry : shmEntries) {
            if (!inUse.contains(entry)) {
                try {
                    Files.deleteIfExists(Path.of("/dev/shm", entry));
                } catch (IOException e) {
                    // reported already as left behind
                }
            }
        }
    }

    /** Names in /dev/shm (empty where there is none): a job must not leave new ones. */
    private static Set<String> listShm() {
        Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) {
            return Set.of();
        }
        try (Stream<Path> s = Files.list(shm)) {
            return s.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
        } catch (IOException | UncheckedIOException e) {
            return Set.of();
        }
    }

    private static void mountTmpfs(Path dir, String size) {
        int rc;
        String output;
        try {
            Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0755", "tmpfs", dir.toString())
                    .redirectErrorStream(true).start();
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            rc = p.waitFor();
        } catch (IOException e) {
            rc = -1;
            output = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(rc == 0,
                "cannot mount a tmpfs (not root, or not permitted here): " + output);
    }

    private static void unmount(Path dir) {
        try {
            Process p = new ProcessBuilder("umount", dir.toString()).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor() != 0) {
                new ProcessBuilder("umount", "-l", dir.toString()).inheritIO().start().waitFor();
                throw new AssertionError("cannot unmount the job's tmpfs " + dir + " (still in use?): " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    public static Duration scaled(Duration d) {
        double scale = Double.parseDouble(System.getProperty("bdmpi.tests.timeoutScale", "1"));
        return Duration.ofMillis((long) (d.toMillis() * scale));
    }

    private static Path createJobDir() {
        Path parent = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        if (parent.toString().length() > MAX_TEMP_PARENT_LENGTH) {
            parent = Path.of("/tmp"); // the master's socket lives under -wd; keep the path short
        }
        try {
            return Files.createTempDirectory(parent, "bdt-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void createDirectory(Path dir) {
        try {
            Files.createDirectory(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean hasEvery(List<String> lines, List<String> texts) {
        return texts.stream().allMatch(t -> lines.stream().anyMatch(l -> l.contains(t)));
    }

    private static List<String> readLines(Path file) {
        try {
            if (!Files.exists(file)) {
                return List.of();
            }
            // Malformed bytes (a slave killed mid-character) must not hide the rest of the output.
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every path below {@code dir} (not {@code dir} itself); empty if it is gone. */
    private static List<String> listTree(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> !p.equals(dir)).map(Path::toString).toList();
        } catch (IOException | UncheckedIOException e) {
            // Files vanishing while we walk: the job is still cleaning up; report it as not empty.
            return List.of("(changing: " + e.getMessage() + ")");
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // Best effort: a temp directory, reported by the checks if it mattered.
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // Best effort, as above.
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
