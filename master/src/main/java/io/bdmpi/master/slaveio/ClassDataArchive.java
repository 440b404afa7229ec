package io.bdmpi.master.slaveio;

import io.bdmpi.slave.ClassDataTraining;
import io.bdmpi.slave.SlaveEnvironment;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The slaves' class-data archive (AppCDS): the classes a slave loads at start-up, from the JDK and
 * from bdmpi's own jars, stored once in a file that every slave maps read-only
 * ({@code -XX:SharedArchiveFile}). A slave then neither parses nor verifies those classes, and their
 * metadata is shared between all slaves of the node instead of copied into each.
 *
 * <p>Made on first use by a short training JVM ({@link ClassDataTraining}, about a second), in a
 * cache directory, under a name that hashes the java executable and the jars' paths, sizes and
 * times: a rebuilt jar or another JDK gets a new archive, and a clean clone makes its own. The JVM
 * checks at start that the archive's class path (bdmpi's jars) begins the slave's class path, which
 * the {@link SlaveLauncher} puts first, so the user's own class path, whatever it is, comes after.
 * Anything that goes wrong (no cache directory, a jar that is a directory, a failed training run)
 * only means slaves start without the archive.
 */
final class ClassDataArchive {

    /** How long the training run may take before the job starts without an archive. */
    private static final long TRAINING_TIMEOUT_S = 60;
    /**
     * Archives kept in the cache, the most recently made: every rebuilt jar makes a new one (2.5 MiB),
     * and a slave that maps one still has it when it is removed.
     */
    static final int KEPT_ARCHIVES = 16;

    private ClassDataArchive() {
    }

    /**
     * The archive for slaves of {@code java} whose class path begins with {@code jars}, made now if
     * the cache has none yet.
     *
     * @param jvmOptions the slaves' JVM options that the archive must match (collector, heap)
     * @param loadAll    the jars of {@code jars} whose every class the training loads
     * @return the archive, or empty when there is none to use
     */
    static Optional<Path> forSlaves(Path cacheDir, String java, List<String> jvmOptions, List<String> jars, List<String> loadAll) {
        try {
            if (cacheDir == null || jars.stream().anyMatch(j -> !j.endsWith(".jar") || !Files.isRegularFile(Path.of(j)))) {
                return Optional.empty();
            }
            Path archive = cacheDir.resolve("slave-" + key(java, jvmOptions, jars) + ".jsa");
            if (Files.isRegularFile(archive)) {
                return Optional.of(archive);
            }
            Files.createDirectories(cacheDir);
            return train(archive, java, jvmOptions, jars, loadAll) ? Optional.of(archive) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean train(Path archive, String java, List<String> jvmOptions, List<String> jars, List<String> loadAll)
            throws IOException {
        Path partial = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".part");
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add("-XX:ArchiveClassesAtExit=" + partial);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, jars));
        command.add(ClassDataTraining.class.getName());
        command.addAll(loadAll);
        ProcessBuilder pb = new ProcessBuilder(command);
        // As in a slave under the default park behaviour: its runtime then makes the park watch's parts.
        pb.environment().put(SlaveEnvironment.SHRINK_HEAP_ON_PARK, Long.toString(Long.MAX_VALUE));
        Process p = pb
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            if (!p.waitFor(TRAINING_TIMEOUT_S, TimeUnit.SECONDS) || p.exitValue() != 0 || !Files.isRegularFile(partial)) {
                return false;
            }
            try {
                Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, archive, StandardCopyOption.REPLACE_EXISTING);
            }
            prune(archive.getParent());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(partial);
        }
    }

    /** Removes all but the {@link #KEPT_ARCHIVES} newest archives of the cache. */
    private static void prune(Path cacheDir) throws IOException {
        List<Path> archives;
        try (var files = Files.list(cacheDir)) {
            archives = files.filter(f -> f.getFileName().toString().matches("slave-[0-9a-f]+\\.jsa")).toList();
        }
        Map<Path, FileTime> made = new HashMap<>();
        for (Path a : archives) {
            made.put(a, Files.getLastModifiedTime(a));
        }
        List<Path> oldestFirst = new ArrayList<>(archives);
        oldestFirst.sort(Comparator.comparing(made::get));
        for (Path a : oldestFirst.subList(0, Math.max(0, oldestFirst.size() - KEPT_ARCHIVES))) {
            Files.deleteIfExists(a);
        }
    }

    /** What the archive depends on: the JVM (its path and its files' times) and the jars. */
    private static String key(String java, List<String> jvmOptions, List<String> jars) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            Path javaPath = Path.of(java).toRealPath();
            Path home = javaPath.getParent().getParent();
            StringBuilder what = new StringBuilder(javaPath.toString()).append('\n');
            what.append(Files.getLastModifiedTime(home.resolve("lib").resolve("modules"))).append('\n');
            jvmOptions.forEach(o -> what.append(o).append('\n'));
            for (String jar : jars) {
                Path p = Path.of(jar).toAbsolutePath();
                what.append(p).append(' ').append(Files.size(p)).append(' ').append(Files.getLastModifiedTime(p).toMillis()).append('\n');
            }
            byte[] hash = digest.digest(what.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
