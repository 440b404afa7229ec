package io.bdmpi.master;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A job's own directory: a fresh subdirectory of {@code -wd} holding the master's socket and the
 * spill directory. Closing removes it with everything in it.
 */
final class WorkDirectory implements AutoCloseable {

    /** Unix-domain socket paths are limited to 107 bytes by the kernel. */
    private static final int MAX_SOCKET_PATH = 100;

    private final Path root;
    private final Path spill;
    private final Path socketDir;

    private WorkDirectory(Path root, Path spill, Path socketDir) {
        this.root = root;
        this.spill = spill;
        this.socketDir = socketDir;
    }

    static WorkDirectory create(Path parent) throws IOException {
        Path root = Files.createTempDirectory(parent, "bdmpi-" + ProcessHandle.current().pid() + "-");
        try {
            Path spill = Files.createDirectory(root.resolve("spill"));
            Path socketDir = root;
            if (root.resolve("master.sock").toString().length() > MAX_SOCKET_PATH) {
                socketDir = Files.createTempDirectory(Path.of("/tmp"), "bdmpi-");
            }
            return new WorkDirectory(root, spill, socketDir);
        } catch (IOException | RuntimeException e) {
            deleteTree(root);
            throw e;
        }
    }

    Path root() {
        return root;
    }

    Path spill() {
        return spill;
    }

    Path socket() {
        return socketDir.resolve("master.sock");
    }

    @Override
    public void close() {
        deleteTree(root);
        if (!socketDir.equals(root)) {
            deleteTree(socketDir);
        }
    }

    static void deleteTree(Path dir) {
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
