package io.bdmpi.master.checkpoint;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Which process is the master of which node, kept in the checkpoint directory of a job of several
 * nodes so that bdmpiexec can name the node whose master died: {@code .masters/node-K} holds
 * master K's pid and host, and {@code .masters/deaths} the nodes in the order their masters died.
 *
 * <p>MPICH reports one dead process after it has killed all the others, and not necessarily the
 * first: the order of deaths says which master went first. Each master starts a recorder, a shell
 * in its own session that reads a pipe from the master and, when the pipe closes (the master has
 * died, however), appends the node to {@code deaths}, with no process to start in between. A node
 * that never appears there was lost with its machine (its recorder with it). The directory is one
 * every node sees, as recovery needs anyway; bdmpiexec clears it before the masters start and
 * after they end.
 */
public final class MasterRoster {

    private static final String DIR = ".masters";
    private static final String NODE = "node-";
    private static final String DEATHS = "deaths";
    /** The recorder: $0 the node, $1 the deaths file; {@code read} and {@code echo} are built in. */
    private static final String RECORDER = "while read -r line; do :; done; echo \"$0\" >> \"$1\"";

    /** The recorder of this master, held so that its pipe stays open until this process dies. */
    private static Process recorder;

    /** A master as it registered. */
    public record Entry(int node, long pid, String host) {
    }

    /** The masters of a run and the order in which they died (nodes, first first). */
    public record Masters(List<Entry> entries, List<Integer> deaths) {
    }

    private MasterRoster() {
    }

    /**
     * Registers this process as the master of {@code node} (written whole, then renamed into place)
     * and starts its death recorder.
     */
    public static synchronized void register(Path checkpointDir, int node) throws IOException {
        Path dir = Files.createDirectories(checkpointDir.resolve(DIR));
        Path tmp = dir.resolve("." + NODE + node);
        Files.writeString(tmp, ProcessHandle.current().pid() + " " + InetAddress.getLocalHost().getHostName() + "\n",
                StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(NODE + node), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        recorder = new ProcessBuilder("setsid", "/bin/sh", "-c", RECORDER, Integer.toString(node), dir.resolve(DEATHS).toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    /**
     * The masters registered in {@code checkpointDirs} (one shared directory, or each node's own)
     * and their deaths so far; unreadable entries are skipped. Waits up to {@code waitMs} for every
     * registered master's death to be recorded. With several directories the order of deaths is
     * known within each only: they are listed directory by directory.
     */
    public static Masters read(List<Path> checkpointDirs, long waitMs) throws InterruptedException {
        long deadline = System.nanoTime() + waitMs * 1_000_000;
        while (true) {
            List<Entry> entries = new ArrayList<>();
            List<Integer> deaths = new ArrayList<>();
            for (Path dir : checkpointDirs) {
                Masters m = readNow(dir);
                entries.addAll(m.entries());
                deaths.addAll(m.deaths());
            }
            if (deaths.size() >= entries.size() || System.nanoTime() > deadline) {
                return new Masters(entries, deaths);
            }
            Thread.sleep(10);
        }
    }

    private static Masters readNow(Path checkpointDir) {
        List<Entry> entries = new ArrayList<>();
        List<Integer> deaths = new ArrayList<>();
        Path dir = checkpointDir.resolve(DIR);
        if (!Files.isDirectory(dir)) {
            return new Masters(entries, deaths);
        }
        try {
            if (Files.isRegularFile(dir.resolve(DEATHS))) {
                for (String line : Files.readAllLines(dir.resolve(DEATHS), StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        deaths.add(Integer.parseInt(line.trim()));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // Being written: read again.
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.startsWith(NODE) && !name.startsWith(".")) {
                    String[] fields = Files.readString(f, StandardCharsets.UTF_8).trim().split(" ", 2);
                    entries.add(new Entry(Integer.parseInt(name.substring(NODE.length())), Long.parseLong(fields[0]),
                            fields.length > 1 ? fields[1] : ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // A master died while registering: the others still name themselves.
        }
        return new Masters(entries, deaths);
    }

    /** Removes the roster. */
    public static void clear(Path checkpointDir) {
        Path dir = checkpointDir.resolve(DIR);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // Nothing there, or already gone.
        }
    }
}
