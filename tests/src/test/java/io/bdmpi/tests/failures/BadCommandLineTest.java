package io.bdmpi.tests.failures;

import io.bdmpi.examples.Hello;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every invalid command line makes the real bdmpiexec print a one-line reason and the usage hint
 * on stderr, start nothing, and exit 2.
 */
class BadCommandLineTest {

    private static final String HELLO = Hello.class.getName();
    private static final String CP = JobRunner.testClassPath();

    @TempDir
    Path tmp;

    @Test
    void nonNumericCount() {
        usageError("'x'", "-ns", "x", "-nr", "1", "-cp", CP, HELLO);
    }

    @Test
    void zeroSlavesOrRunning() {
        usageError("-ns=0", "-ns", "0", "-nr", "1", "-cp", CP, HELLO);
        usageError("-nr=0", "-ns", "2", "-nr", "0", "-cp", CP, HELLO);
    }

    @Test
    void moreRunningThanSlaves() {
        usageError("-nr=3 must be between 1 and -ns=2", "-ns", "2", "-nr", "3", "-cp", CP, HELLO);
    }

    @Test
    void missingProgram() {
        usageError("no program given", "-ns", "2", "-nr", "1", "-cp", CP);
    }

    @Test
    void unknownClass() {
        usageError("class no.such.Main not found", "-ns", "2", "-nr", "1", "-cp", CP, "no.such.Main");
    }

    @Test
    void unreadableJar() throws IOException {
        Path jar = Files.writeString(tmp.resolve("broken.jar"), "not a zip file");
        Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("---------"));
        usageError("cannot read jar " + jar, "-ns", "2", "-nr", "1", jar.toString());
        usageError("cannot read jar", "-ns", "2", "-nr", "1", tmp.resolve("missing.jar").toString());
    }

    @Test
    void unwritableWorkDirectory() throws Exception {
        usageError("-wd=" + tmp.resolve("missing") + " is not a writable directory",
                "-ns", "2", "-nr", "1", "-wd", tmp.resolve("missing").toString(), "-cp", CP, HELLO);
        Path file = Files.createFile(tmp.resolve("file"));
        usageError("-wd=" + file + " is not a writable directory", "-ns", "2", "-nr", "1", "-wd", file.toString(), "-cp", CP, HELLO);
        // Root writes anywhere, except on a read-only file system.
        Path ro = Files.createDirectory(tmp.resolve("ro"));
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", ro.toString())
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            Assumptions.assumeTrue(p.waitFor() == 0, "cannot mount a read-only tmpfs here");
        } else {
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-x------"));
        }
        try {
            usageError("-wd=" + ro + " is not a writable directory", "-ns", "2", "-nr", "1", "-wd", ro.toString(), "-cp", CP, HELLO);
        } finally {
            if (root) {
                new ProcessBuilder("umount", ro.toString()).inheritIO().start().waitFor();
            }
        }
    }

    @Test
    void unknownOption() {
        usageError("--no-such-option", "-ns", "2", "-nr", "1", "--no-such-option", "-cp", CP, HELLO);
    }

    private static void usageError(String reason, String... args) {
        List<String> all = new ArrayList<>(Arrays.asList(args));
        JobResult r = JobRunner.launch(Duration.ofSeconds(30), all.toArray(String[]::new));
        Expect.that(r, r.exitCode() == 2, "usage errors exit 2, got " + r.exitCode());
        Expect.that(r, r.stderr().size() == 2, "expected a one-line reason and the usage hint on stderr");
        Expect.that(r, r.stderr().get(0).startsWith("bdmpiexec: ") && r.stderr().get(0).contains(reason),
                "the first stderr line does not give the reason '" + reason + "'");
        Expect.that(r, r.stderr().get(1).contains("bdmpiexec --help"), "the second stderr line is not the usage hint");
        Expect.that(r, r.stdout().isEmpty(), "something was written to stdout (a slave ran?)");
    }
}
