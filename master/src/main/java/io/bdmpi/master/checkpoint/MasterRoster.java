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
 * nodes ({@code .masters/node-K}: the master's pid and host), so that bdmpiexec can name the node
 * whose master died when mpiexec reports only a pid (MPICH does). The directory is one every node
 * sees, as recovery needs anyway; bdmpiexec clears it before it starts the masters and after.
 */
public final class MasterRoster {

    private static final String DIR = ".masters";
    private static final String NODE = "node-";

    /** A master as it registered. */
    public record Entry(int node, long pid, String host) {
    }

    private MasterRoster() {
    }

    /** Registers this process as the master of {@code node} (written whole, then renamed into place). */
    public static void register(Path checkpointDir, int node) throws IOException {
        Path dir = Files.createDirectories(checkpointDir.resolve(DIR));
        Path tmp = dir.resolve("." + NODE + node);
        Files.writeString(tmp, ProcessHandle.current().pid() + " " + InetAddress.getLocalHost().getHostName() + "\n",
                StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(NODE + node), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The masters registered in {@code checkpointDir}; unreadable entries are skipped. */
    public static List<Entry> read(Path checkpointDir) {
        List<Entry> entries = new ArrayList<>();
        Path dir = checkpointDir.resolve(DIR);
        if (!Files.isDirectory(dir)) {
            return entries;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.startsWith(NODE)) {
                    String[] fields = Files.readString(f, StandardCharsets.UTF_8).trim().split(" ", 2);
                    entries.add(new Entry(Integer.parseInt(name.substring(NODE.length())), Long.parseLong(fields[0]),
                            fields.length > 1 ? fields[1] : ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // A master died while registering: the others still name themselves.
        }
        return entries;
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
