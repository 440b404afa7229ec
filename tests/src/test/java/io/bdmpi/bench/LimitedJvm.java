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

    private static int sequence;

    private LimitedJvm() {
    }

    /** Runs {@code main} with {@code args} under {@code limitBytes} of memory for at most {@code cap}. */
    static Outcome run(long limitBytes, Duration cap, List<String> jvmOptions, Class<?> main, String... args) {
        Path cgroup = makeCgroup(limitBytes);
        Path out = null;
        try {
            out = Files.createTempFile("bdmpi-limited-", ".out");
            List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "echo $$ > \"$0/cgroup.procs\" && exec \"$@\"",
                    cgroup.toString(), Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            command.addAll(ChildJvm.SLAVE_JVM_OPTIONS);
            command.addAll(jvmOptions);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
            command.addAll(List.of(args));
            IoCounters before = IoCounters.now();
            long start = System.nanoTime();
            Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
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
            return new Outcome(exit, Files.readAllLines(out), oomKills(cgroup), IoCounters.now().since(before), wall);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } finally {
            removeCgroup(cgroup);
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a temp file: not worth failing the benchmark
                }
            }
        }
    }

    private static boolean v2() {
        return !Files.isDirectory(Path.of("/sys/fs/cgroup/memory"));
    }

    /** A new cgroup under this JVM's memory cgroup, with the limit and no swap. */
    private static synchronized Path makeCgroup(long limitBytes) {
        try {
            Path current = current();
            Path dir = current.resolve("bdmpi-bench-" + ProcessHandle.current().pid() + "-" + (++sequence));
            if (v2()) {
                Files.writeString(current.resolve("cgroup.subtree_control"), "+memory");
            }
            Files.createDirectory(dir);
            Files.writeString(dir.resolve(v2() ? "memory.max" : "memory.limit_in_bytes"), Long.toString(limitBytes));
            if (v2() && Files.exists(dir.resolve("memory.swap.max"))) {
                Files.writeString(dir.resolve("memory.swap.max"), "0");
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a memory cgroup for a baseline (run as root, as bdmpiexec"
                    + " --memory-limit needs): " + e.getMessage(), e);
        }
    }

    private static Path current() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
            String[] f = line.split(":", 3);
            if (v2() ? f[0].equals("0") : List.of(f[1].split(",")).contains("memory")) {
                return Path.of(v2() ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory", f[2].substring(1));
            }
        }
        throw new IOException("no memory cgroup in /proc/self/cgroup");
    }

    private static long oomKills(Path cgroup) {
        try {
            for (String line : Files.readAllLines(cgroup.resolve(v2() ? "memory.events" : "memory.oom_control"))) {
                if (line.startsWith("oom_kill ")) {
                    return Long.parseLong(line.substring("oom_kill ".length()).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not reported: no kill can be attributed
        }
        return 0;
    }

    /** Removes the cgroup once its process is gone (its page cache moves to the parent). */
    private static void removeCgroup(Path cgroup) {
        for (int attempt = 0; attempt < 100 && Files.exists(cgroup); attempt++) {
            try {
                Files.delete(cgroup);
            } catch (IOException busy) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        if (Files.exists(cgroup)) {
            System.err.println("could not remove the baseline's memory cgroup " + cgroup);
        }
    }
}
