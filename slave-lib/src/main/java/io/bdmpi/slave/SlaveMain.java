package io.bdmpi.slave;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.jar.JarFile;

/**
 * What every slave JVM runs: sets up output and the master watchdog, then calls the program's
 * {@code main}. The program itself is unchanged; it connects to the master at {@code MPI.Init}.
 *
 * <p>Usage (by the master only): {@code SlaveMain (MAINCLASS | app.jar) [args...]}.
 */
public final class SlaveMain {

    /** Exit status of a slave whose program threw out of main. */
    public static final int EXIT_UNCAUGHT = 1;
    /** Exit status of a slave that ended itself because its master died. */
    public static final int EXIT_MASTER_GONE = 125;
    /** Exit status of a slave started wrongly (no environment, no such class). */
    public static final int EXIT_BAD_START = 126;
    /**
     * Exit status of a slave that ran out of memory: an {@link OutOfMemoryError} thrown out of
     * main or out of any other thread ends the JVM at once, rather than leaving it limping.
     */
    public static final int EXIT_OUT_OF_MEMORY = 124;

    private static final long WATCHDOG_PERIOD_MS = 200;

    private SlaveMain() {
    }

    public static void main(String[] args) throws Exception {
        SlaveEnvironment env = SlaveEnvironment.fromVariables(System.getenv());
        if (env == null || args.length == 0) {
            System.err.println("bdmpi: SlaveMain is started by bdmpiexec, not by hand");
            System.exit(EXIT_BAD_START);
        }
        prepare(env);
        int rank = env.worldRank();
        Method main = findMain(args[0]);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            uncaught(rank, e.getCause());
        } catch (Error e) {
            // Thrown while the program's class initializes, before main runs (a static initializer).
            uncaught(rank, e);
        }
    }

    private static void uncaught(int rank, Throwable e) {
        if (e instanceof OutOfMemoryError oom) {
            outOfMemory(rank, "main", oom);
        }
        System.err.print("bdmpi: rank " + rank + ": uncaught exception in main: ");
        e.printStackTrace();
        System.exit(EXIT_UNCAUGHT);
    }

    /**
     * What a slave does before the program's {@code main}: whole-line output, the master watchdog,
     * signals, the OOM killer's preference and the handling of uncaught errors. Also run by the
     * {@link ClassDataTraining}, so that what it uses is in the slaves' class-data archive.
     */
    static void prepare(SlaveEnvironment env) {
        installOutput(env);
        watchMaster(env.masterPid());
        ignoreInterrupt();
        offerToTheOomKiller();
        int rank = env.worldRank();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (e instanceof OutOfMemoryError oom) {
                outOfMemory(rank, "thread \"" + t.getName() + "\"", oom);
            }
            System.err.print("Exception in thread \"" + t.getName() + "\" ");
            e.printStackTrace();
        });
    }

    /**
     * Ends a slave whose heap is exhausted with {@link #EXIT_OUT_OF_MEMORY}, which its master
     * reports as "ran out of memory". Halts: shutdown hooks might need memory, and a JVM that has
     * run out once is not to be trusted to finish anything.
     */
    private static void outOfMemory(int rank, String where, OutOfMemoryError e) {
        try {
            System.err.println("bdmpi: rank " + rank + ": out of memory in " + where + ": " + e);
            System.err.flush();
            System.out.flush();
        } catch (Throwable ignored) {
            // Nothing more to say with no memory; the exit status says it.
        }
        Runtime.getRuntime().halt(EXIT_OUT_OF_MEMORY);
    }

    /**
     * Ctrl-C reaches the terminal's whole foreground process group, slaves included: the slaves
     * leave it to bdmpiexec, which stops the job, ends them and reports once.
     */
    @SuppressWarnings("removal")
    private static void ignoreInterrupt() {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), sun.misc.SignalHandler.SIG_IGN);
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            // No such signal here: nothing to ignore.
        }
    }

    /**
     * Makes this slave the OOM killer's first choice over its master (a process may always raise
     * its own score): under a memory limit the master is often the largest process, and killing it
     * ends the whole job without a word, whereas a killed slave is reported with its rank.
     */
    private static void offerToTheOomKiller() {
        try {
            Files.writeString(Path.of("/proc/self/oom_score_adj"), "1000");
        } catch (IOException | UnsupportedOperationException e) {
            // Not Linux, or /proc is read-only: the kernel's own choice stands.
        }
    }

    private static Method findMain(String program) throws IOException {
        String className = program;
        if (program.endsWith(".jar")) {
            try (JarFile jar = new JarFile(program)) {
                className = jar.getManifest() == null ? null : jar.getManifest().getMainAttributes().getValue("Main-Class");
            }
            if (className == null) {
                return fail("jar " + program + " names no Main-Class in its manifest");
            }
        }
        try {
            Class<?> c = Class.forName(className, false, ClassLoader.getSystemClassLoader());
            Method main = c.getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) {
                return fail(className + ".main is not static");
            }
            main.setAccessible(true);
            return main;
        } catch (ClassNotFoundException e) {
            return fail("class " + className + " not found on the class path");
        } catch (NoSuchMethodException e) {
            return fail(className + " has no main(String[])");
        }
    }

    private static Method fail(String message) {
        System.err.println("bdmpi: " + message);
        System.exit(EXIT_BAD_START);
        return null;
    }

    private static void installOutput(SlaveEnvironment env) {
        String prefix = env.tagOutput() ? "[" + env.worldRank() + "] " : "";
        LineOutputStream out = new LineOutputStream(new FileOutputStream(FileDescriptor.out), prefix);
        LineOutputStream err = new LineOutputStream(new FileOutputStream(FileDescriptor.err), prefix);
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                out.close();
                err.close();
            } catch (IOException ignored) {
                // Output is gone with the terminal; nothing to report to.
            }
        }, "bdmpi-output-flush"));
    }

    /**
     * A slave must not outlive its master, even while it computes outside MPI. The master holds
     * the write end of the slave's stdin and never writes to it, so the watchdog sleeps in a read
     * that returns end-of-file when the master's process ends, however it ends: no timer, where a
     * poll of the master's pid every {@value #WATCHDOG_PERIOD_MS} ms in each of a thousand slaves
     * was a fifth of a node's CPU between small collectives. Should stdin end while the master
     * lives (a slave not started by a master), it polls instead. The program gets an empty stdin,
     * as MPI ranks other than an mpirun's first do.
     */
    private static void watchMaster(long masterPid) {
        if (masterPid == OwnProcess.pid()) {
            return; // the class-data training is its own master
        }
        FileInputStream fromMaster = new FileInputStream(FileDescriptor.in);
        System.setIn(InputStream.nullInputStream());
        Thread t = new Thread(new MasterWatchdog(fromMaster, masterPid), "bdmpi-master-watchdog");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The watchdog's loop, a class rather than a lambda: the class-data training never starts it,
     * so a lambda would be spun in every slave, and with it the JDK's bytecode generator.
     */
    private record MasterWatchdog(FileInputStream fromMaster, long masterPid) implements Runnable {
        @Override
        public void run() {
            try {
                while (fromMaster.read() >= 0) {
                    // The master writes nothing; a byte from elsewhere is ignored.
                }
            } catch (IOException ignored) {
                // As for end-of-file: check the master itself.
            }
            ProcessHandle master = ProcessHandle.of(masterPid).orElse(null);
            while (master != null && master.isAlive()) {
                try {
                    Thread.sleep(WATCHDOG_PERIOD_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
            Runtime.getRuntime().halt(EXIT_MASTER_GONE);
        }
    }
}
