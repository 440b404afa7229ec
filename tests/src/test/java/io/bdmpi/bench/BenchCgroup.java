package io.bdmpi.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A memory cgroup of its own for a benchmark's baseline, made under this JVM's memory cgroup (v1,
 * as on the reference machine, or v2) with a limit and no swap, and removed on {@link #close()}:
 * a baseline then runs under the same limit as bdmpiexec {@code --memory-limit} gives a job, page
 * cache and dirty pages included.
 */
final class BenchCgroup implements AutoCloseable {

    private static int sequence;

    private final Path dir;

    private BenchCgroup(Path dir) {
        this.dir = dir;
    }

    /** A new cgroup limited to {@code limitBytes}. */
    static synchronized BenchCgroup limited(long limitBytes) {
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
            return new BenchCgroup(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a memory cgroup for a baseline (run as root, as bdmpiexec"
                    + " --memory-limit needs): " + e.getMessage(), e);
        }
    }

    /** {@code command}, started through a shell that first moves itself into this cgroup. */
    List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("/bin/sh", "-c", "echo $$ > \"$0/cgroup.procs\" && exec \"$@\"",
                dir.toString()));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Processes the kernel's OOM killer has killed in this cgroup. */
    long oomKills() {
        try {
            for (String line : Files.readAllLines(dir.resolve(v2() ? "memory.events" : "memory.oom_control"))) {
                if (line.startsWith("oom_kill ")) {
                    return Long.parseLong(line.substring("oom_kill ".length()).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not reported: no kill can be attributed
        }
        return 0;
    }

    /** Removes the cgroup once its processes are gone (its page cache moves to the parent). */
    @Override
    public void close() {
        for (int attempt = 0; attempt < 100 && Files.exists(dir); attempt++) {
            try {
                Files.delete(dir);
            } catch (IOException busy) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        if (Files.exists(dir)) {
            System.err.println("could not remove the baseline's memory cgroup " + dir);
        }
    }

    private static boolean v2() {
        return !Files.isDirectory(Path.of("/sys/fs/cgroup/memory"));
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
}
