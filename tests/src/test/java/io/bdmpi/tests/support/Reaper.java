package io.bdmpi.tests.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds and ends processes a job left behind. A process belongs to a job when its environment
 * (read from {@code /proc/PID/environ}) has a {@code BDMPI_SOCKET} or {@code BDMPI_SPILL_DIR} under
 * the job's {@code -wd} directory (every slave has both), or its command line names that
 * directory (the master's janitor does).
 *
 * <p>Linux only; reads {@code /proc} of every process, so it needs the right to (root, or the
 * same user as the job).
 */
public final class Reaper {

    private static final String SHM = "/dev/shm/";
    private static final List<String> OWNED_VARIABLES = List.of("BDMPI_SOCKET=", "BDMPI_SPILL_DIR=");

    private Reaper() {
    }

    /** A live process that refers to a job's work directory. */
    public record Leftover(long pid, String why, String commandLine) {
        @Override
        public String toString() {
            return "pid " + pid + " (" + why + "): " + commandLine;
        }
    }

    /** Every live process other than this one that refers to {@code workDir}. */
    public static List<Leftover> find(Path workDir) {
        String dir = workDir.toAbsolutePath().normalize().toString();
        long self = ProcessHandle.current().pid();
        List<Leftover> found = new ArrayList<>();
        for (Path proc : processDirectories()) {
            long pid = Long.parseLong(proc.getFileName().toString());
            if (pid == self) {
                continue;
            }
            String why = refersTo(proc, dir);
            if (why != null) {
                found.add(new Leftover(pid, why, commandLine(proc)));
            }
        }
        return found;
    }

    /** The names of the /dev/shm entries that some live process maps (in use, whoever's they are). */
    public static Set<String> sharedMemoryInUse() {
        Set<String> mapped = new HashSet<>();
        for (Path proc : processDirectories()) {
            read(proc.resolve("maps")).ifPresent(maps -> {
                for (String line : new String(maps, StandardCharsets.ISO_8859_1).split("\n")) {
                    int at = line.indexOf(SHM);
                    if (at >= 0) {
                        mapped.add(line.substring(at + SHM.length()).split(" ")[0]);
                    }
                }
            });
        }
        return mapped;
    }

    /** /proc/PID of every process. */
    private static List<Path> processDirectories() {
        List<Path> dirs = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> isNumeric(p.getFileName().toString()))) {
            procs.forEach(dirs::add);
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc: " + e, e);
        }
        return dirs;
    }

    /** SIGKILLs the given processes (if still alive), children first. */
    public static void kill(List<Leftover> leftovers) {
        for (Leftover l : leftovers) {
            ProcessHandle.of(l.pid()).ifPresent(Reaper::killTree);
        }
    }

    /**
     * SIGKILLs a process and all its descendants. The descendants are listed before anything is
     * killed, since children of a killed parent are re-parented and no longer found through it.
     */
    public static void killTree(ProcessHandle root) {
        List<ProcessHandle> tree = new ArrayList<>(root.descendants().toList());
        root.destroyForcibly();
        tree.forEach(ProcessHandle::destroyForcibly);
    }

    private static String refersTo(Path proc, String dir) {
        Optional<byte[]> environ = read(proc.resolve("environ"));
        if (environ.isPresent()) {
            for (String var : new String(environ.get(), StandardCharsets.UTF_8).split("\0")) {
                for (String owned : OWNED_VARIABLES) {
                    if (var.startsWith(owned) && isUnder(var.substring(owned.length()), dir)) {
                        return var;
                    }
                }
            }
        }
        String cmd = commandLine(proc);
        if (cmd.contains(dir)) {
            return "command line names the work directory";
        }
        return null;
    }

    private static boolean isUnder(String path, String dir) {
        return path.equals(dir) || path.startsWith(dir + "/");
    }

    private static String commandLine(Path proc) {
        return read(proc.resolve("cmdline")).map(b -> new String(b, StandardCharsets.UTF_8).replace('\0', ' ').trim())
                .orElse("");
    }

    /** Contents of a /proc file; empty if the process is gone or not ours to read. */
    private static Optional<byte[]> read(Path file) {
        try {
            return Optional.of(Files.readAllBytes(file));
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    private static boolean isNumeric(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
