package io.bdmpi.master.slaveio;

import io.bdmpi.slave.ClassDataTraining;
import io.bdmpi.slave.SlaveEnvironment;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The slaves' class-data archive (AppCDS): the classes a slave loads at start-up, from the JDK and
 * from bdmpi's own jars, stored once in a file that every slave maps read-only
 * ({@code -XX:SharedArchiveFile}). A slave then neither parses nor verifies those classes, and their
 * metadata is shared between all slaves of the node instead of copied into each.
 *
 * <p>The masters of a job of several nodes have one too ({@link #forMasters}): bdmpiexec starts them
 * through MPI, and again after a lost node, when every second before the ranks are back at work
 * counts; loading, verifying and interpreting the classes of the launcher, MPI's binding (jnr-ffi
 * and the ASM it generates stubs with) and Jackson took a master about 2 s of its start on two
 * loaded cores.
 *
 * <p>Made on first use by a short training JVM ({@link ClassDataTraining}, about a second), in a
 * cache directory, under a name that hashes the java executable and the jars' paths, sizes and
 * times: a rebuilt jar or another JDK gets a new archive, and a clean clone makes its own. The JVM
 * checks at start that the archive's class path (bdmpi's jars) begins the slave's class path, which
 * the {@link SlaveLauncher} puts first, so the user's own class path, whatever it is, comes after.
 * Anything that goes wrong (no cache directory, a jar that is a directory, a failed training run)
 * only means slaves start without the archive.
 */
public final class ClassDataArchive {

    /** How long the training run may take before the job starts without an archive. */
    private static final long TRAINING_TIMEOUT_S = 60;
    /**
     * Archives kept in the cache, the most recently made: every rebuilt jar makes a new one (2.5 MiB
     * for slaves, 15 MiB for masters), and a JVM that maps one still has it when it is removed.
     */
    static final int KEPT_ARCHIVES = 16;
    /** An archive being written, named after the pid of the master that trains it. */
    private static final Pattern PARTIAL_ARCHIVE = Pattern.compile("(?:slave|master)-[0-9a-f]+\\.jsa\\.([0-9]+)\\.part");

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
        return archive("slave-", cacheDir, java, jvmOptions, jars, ClassDataTraining.class.getName(), loadAll);
    }

    /**
     * The archive for masters of {@code java} (without JVM options) whose class path begins with
     * {@code jars}, made now if the cache has none yet: the training loads every class of the jars
     * in {@code loadAll} ({@link MasterClassDataTraining}).
     *
     * @param cacheDir where archives are kept, or null for none
     * @param java     the masters' java executable
     * @param jars     the jars that begin the masters' class path
     * @param loadAll  the jars of {@code jars} whose every class the training loads
     * @return the JVM options that map the archive, or none when there is no archive to use
     */
    public static List<String> forMasters(Path cacheDir, String java, List<String> jars, List<String> loadAll) {
        return archive("master-", cacheDir, java, List.of(), jars, MasterClassDataTraining.class.getName(), loadAll)
                .map(ClassDataArchive::options)
                .orElse(List.of());
    }

    /**
     * Whether a class path entry is a jar file, the only kind an archive holds classes of.
     *
     * @param entry a class path entry
     * @return true for an existing regular file named *.jar
     */
    public static boolean isJar(String entry) {
        return entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry));
    }

    /**
     * The jar (or directory) a class was loaded from.
     *
     * @param c a class loaded from the class path
     * @return its code source's path
     * @throws IllegalStateException if the location is not a path
     */
    public static String codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate " + c.getName(), e);
        }
    }

    /** The JVM options that map {@code archive}; quiet: a JVM whose own options rule it out starts without it. */
    static List<String> options(Path archive) {
        return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off");
    }

    private static Optional<Path> archive(String kind, Path cacheDir, String java, List<String> jvmOptions, List<String> jars,
                                          String training, List<String> loadAll) {
        try {
            if (cacheDir == null || jars.isEmpty() || !jars.stream().allMatch(ClassDataArchive::isJar)) {
                return Optional.empty();
            }
            Path archive = cacheDir.resolve(kind + key(java, jvmOptions, jars) + ".jsa");
            if (Files.isRegularFile(archive)) {
                return Optional.of(archive);
            }
            Files.createDirectories(cacheDir);
            return train(archive, java, jvmOptions, jars, training, loadAll) ? Optional.of(archive) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean train(Path archive, String java, List<String> jvmOptions, List<String> jars, String training,
                                 List<String> loadAll) throws IOException {
        Path partial = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".part");
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add("-XX:ArchiveClassesAtExit=" + partial);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, jars));
        command.add(training);
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

    /**
     * Removes all but the {@link #KEPT_ARCHIVES} newest archives of the cache, and the partial
     * archives of trainings whose master is gone (killed while it trained, so its own clean-up
     * never ran).
     */
    private static void prune(Path cacheDir) throws IOException {
        List<Path> files;
        try (var listing = Files.list(cacheDir)) {
            files = listing.toList();
        }
        List<Path> archives = files.stream().filter(f -> f.getFileName().toString().matches("(slave|master)-[0-9a-f]+\\.jsa")).toList();
        for (Path f : files) {
            Matcher partial = PARTIAL_ARCHIVE.matcher(f.getFileName().toString());
            if (partial.matches() && ProcessHandle.of(Long.parseLong(partial.group(1))).isEmpty()) {
                Files.deleteIfExists(f);
            }
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
