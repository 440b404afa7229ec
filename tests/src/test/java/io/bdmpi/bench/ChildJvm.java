package io.bdmpi.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A plain JVM (no bdmpi) that a baseline runs: one class of the test classes, with the JVM options
 * the master gives every slave, so that a ratio compares bdmpi with plain Java and not two
 * differently tuned JVMs. Closing it kills it if it is still running.
 */
final class ChildJvm implements AutoCloseable {

    /** The options bdmpi's master starts every slave with (its SlaveLauncher.DEFAULT_SLAVE_JVM_OPTIONS). */
    static final List<String> SLAVE_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:-UsePerfData",
            "-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0",
            "-Djava.nio.channels.spi.SelectorProvider=sun.nio.ch.EPollSelectorProvider");

    private final Process process;
    private final BufferedReader stdout;

    private ChildJvm(Process process) {
        this.process = process;
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts {@code main} with {@code args}; its stderr goes to this JVM's stderr. */
    static ChildJvm start(Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(SLAVE_JVM_OPTIONS);
        command.add("-cp");
        command.add(codeSource(main));
        command.add(main.getName());
        command.addAll(List.of(args));
        try {
            return new ChildJvm(new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** The next line the JVM prints; fails if it exits first. */
    String readLine() {
        try {
            String line = stdout.readLine();
            if (line == null) {
                throw new AssertionError("child JVM " + process.pid() + " ended without printing a line");
            }
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for the JVM to exit and fails unless it exited 0 in time. */
    void awaitSuccess(long timeoutSeconds) {
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new AssertionError("child JVM " + process.pid() + " still running after " + timeoutSeconds + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("child JVM " + process.pid() + " exited with " + process.exitValue());
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            stdout.close();
        } catch (IOException ignored) {
            // The process is gone; nothing is left to read.
        }
    }

    /** The test-classes directory (or jar) holding {@code c}; the baselines need nothing else. */
    private static String codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate " + c.getName(), e);
        }
    }
}
