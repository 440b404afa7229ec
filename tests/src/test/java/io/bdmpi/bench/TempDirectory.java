package io.bdmpi.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A fresh directory where the e2e harness puts a job's {@code -wd} (under {@code java.io.tmpdir},
 * or {@code /tmp} when that path is too long for a Unix socket), so a baseline's files and sockets
 * live on the same file system as bdmpi's spill files. Closing it removes it with its contents.
 */
final class TempDirectory implements AutoCloseable {

    /** JobRunner's limit: the master's socket lives under -wd, and socket paths are short. */
    private static final int MAX_PARENT_LENGTH = 40;

    private final Path path;

    private TempDirectory(Path path) {
        this.path = path;
    }

    static TempDirectory create(String prefix) {
        Path parent = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        if (parent.toString().length() > MAX_PARENT_LENGTH) {
            parent = Path.of("/tmp");
        }
        try {
            return new TempDirectory(Files.createTempDirectory(parent, prefix));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path path() {
        return path;
    }

    /** The bytes of every regular file below {@code dir} (e.g. what a job left in a directory it was given). */
    static long bytesUnder(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    @Override
    public void close() {
        try (Stream<Path> s = Files.walk(path)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + path, e);
        }
    }
}
