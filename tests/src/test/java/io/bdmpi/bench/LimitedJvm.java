package io.bdmpi.bench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A plain JVM run in a memory cgroup of its own, made for it under this JVM's memory cgroup (v1,
 * as on the reference machine, or v2) and removed afterwards, with a time cap: the baselines of a
 * benchmark run under the same limit as bdmpiexec {@code --memory-limit} gives a job, page cache
 * included. Its stdout goes to a file, so a run that dies or is capped still leaves what it
 * printed.
 */
final class LimitedJvm {

    /**
     * How a run ended.
     *
     * @param exitCode   the JVM's exit code, or null if it hit the cap (and was killed)
     * @param stdout     what it printed
     * @param oomKills   processes the kernel's OOM killer killed in its cgroup
     * @param io         its storage I/O
     * @param wallSeconds from start to exit
     */
    record Outcome(Integer exitCode, List<String> stdout, long oomKills, IoCounters io, double wallSeconds) {

        /** "ok", "OOM-killed", "capped" or the exit code. */
        String describe() {
            if (exitCode == null) {
                return "capped";
            }
            if (exitCode == 0) {
                return "ok";
            }
            return oomKills > 0 ? "OOM-killed" : "exit " + exitCode;
        }
    }

    private LimitedJvm() {
    }

    /** Runs {@code main} with {@code args} under {@code limitBytes} of memory for at most {@code cap}. */
    static Outcome run(long limitBytes, Duration cap, List<String> jvmOptions, Class<?> main, String... args) {
        Path out = null;
        try (BenchCgroup cgroup = BenchCgroup.limited(limitBytes)) {
            out = Files.createTempFile("bdmpi-limited-", ".out");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString()));
            command.addAll(ChildJvm.SLAVE_JVM_OPTIONS);
            command.addAll(jvmOptions);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
            command.addAll(List.of(args));
            IoCounters before = IoCounters.now();
            long start = System.nanoTime();
            Process p = new ProcessBuilder(cgroup.wrap(command)).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).redirectOutput(out.toFile()).start();
            Integer exit;
            if (p.waitFor(cap.toMillis(), TimeUnit.MILLISECONDS)) {
                exit = p.exitValue();
            } else {
                p.destroyForcibly();
                p.waitFor();
                exit = null;
            }
            double wall = (System.nanoTime() - start) / 1e9;
            return new Outcome(exit, Files.readAllLines(out), cgroup.oomKills(), IoCounters.now().since(before), wall);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a temp file: not worth failing the benchmark
                }
            }
        }
    }
}
