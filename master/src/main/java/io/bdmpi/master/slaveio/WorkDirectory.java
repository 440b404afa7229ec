package io.bdmpi.master.slaveio;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A job's own directory: a fresh subdirectory of {@code -wd} holding the master's socket and the
 * spill directory. Closing removes it with everything in it.
 *
 * <p>Private to the job's user: the directories are made {@code rwx------} (whatever the umask), so
 * other users can neither read the messages in it nor reach the socket (connecting needs search
 * permission on the directories above it).
 */
public final class WorkDirectory implements AutoCloseable {

    /** Unix-domain socket paths are limited to 107 bytes by the kernel. */
    private static final int MAX_SOCKET_PATH = 100;

    /** Seconds between the janitor's checks of whether the master still lives. */
    private static final String JANITOR_PERIOD_S = "0.2";
    /** Seconds the janitor gives the slaves (whose watchdogs poll every 0.2 s) to die before it removes the files. */
    private static final String JANITOR_GRACE_S = "0.4";
    /** The file, in the work directory, of the pids of the slaves of the current run. */
    private static final String SLAVE_PIDS = "slaves.pids";
    private static final FileAttribute<Set<PosixFilePermission>> PRIVATE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    private final Path root;
    private final Path spill;
    private final Path socketDir;
    private Process janitor;

    private WorkDirectory(Path root, Path spill, Path socketDir) {
        this.root = root;
        this.spill = spill;
        this.socketDir = socketDir;
    }

    public static WorkDirectory create(Path parent) throws IOException {
        Path root = Files.createTempDirectory(parent, "bdmpi-" + ProcessHandle.current().pid() + "-", PRIVATE);
        try {
            Path spill = Files.createDirectory(root.resolve("spill"), PRIVATE);
            Path socketDir = root;
            if (root.resolve("master.sock").toString().length() > MAX_SOCKET_PATH) {
                socketDir = Files.createTempDirectory(Path.of("/tmp"), "bdmpi-", PRIVATE);
            }
            return new WorkDirectory(root, spill, socketDir);
        } catch (IOException | RuntimeException e) {
            deleteTree(root);
            throw e;
        }
    }

    /**
     * Starts a janitor: a tiny shell, in its own session, that removes the directories should this
     * master die without cleaning up (SIGKILL, OOM killer). It first continues the slaves named by
     * {@link #slavesStarted} (a slave stopped for the quantum cannot see its master die), so that
     * they end themselves. It ends by itself once the directories are gone, and {@link #close()}
     * ends it at once.
     *
     * @param alsoRemove a shell command the janitor runs after removing the directories (e.g. one
     *                   that removes the job's memory cgroup); may be empty
     */
    public WorkDirectory guardAgainstMasterDeath(String alsoRemove) throws IOException {
        String script = "while kill -0 \"$0\" 2>/dev/null && [ -d \"$1\" ]; do sleep " + JANITOR_PERIOD_S + "; done; "
                + "[ -f \"$1/" + SLAVE_PIDS + "\" ] && kill -CONT $(cat \"$1/" + SLAVE_PIDS + "\") 2>/dev/null; "
                + "sleep " + JANITOR_GRACE_S + "; rm -rf -- \"$1\" \"$2\"; " + alsoRemove;
        janitor = DetachedShell.start(script, Long.toString(ProcessHandle.current().pid()), root.toString(),
                socketDir.toString());
        return this;
    }

    /**
     * Names the processes of the slaves just started, for the janitor. A pid that is reused by then
     * only gets a SIGCONT, which does nothing to a process that runs.
     */
    public void slavesStarted(long[] pids) throws IOException {
        StringBuilder list = new StringBuilder();
        for (long pid : pids) {
            list.append(pid).append('\n');
        }
        Files.writeString(root.resolve(SLAVE_PIDS), list);
    }

    public Path root() {
        return root;
    }

    public Path spill() {
        return spill;
    }

    /**
     * Removes every file of the spill directory: what the slaves of a run that is over left there
     * (the names of their files would clash with those of the next run's slaves).
     */
    public void clearSpill() throws IOException {
        try (var files = Files.list(spill)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
        }
    }

    public Path socket() {
        return socketDir.resolve("master.sock");
    }

    @Override
    public void close() {
        deleteTree(root);
        if (!socketDir.equals(root)) {
            deleteTree(socketDir);
        }
        if (janitor != null) {
            janitor.descendants().forEach(ProcessHandle::destroyForcibly);
            janitor.destroyForcibly();
        }
    }

    public static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            System.err.println("bdmpiexec: could not remove " + dir + ": " + e.getMessage());
        }
    }
}
