package io.bdmpi.master.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A job's memory cgroup ({@code --memory-limit}): a fresh child of the cgroup bdmpiexec runs in,
 * with a memory limit, which the master joins before it spawns the slaves (they inherit it). The
 * kernel charges page cache to it too, so a job's reads and its memory-mapped data really go to
 * disk once the job fills its limit: what a benchmark needs to emulate a node smaller than its
 * data. The child is made under the current cgroup, not the hierarchy's root, so a limit set
 * around bdmpiexec still holds.
 *
 * <p>cgroup v1 (the {@code memory} hierarchy) is used where it is mounted, else cgroup v2 where
 * the current cgroup offers the {@code memory} controller. Removing the cgroup needs it empty:
 * {@link #close()} moves the master back and kills whatever is left; should the master die first,
 * the work directory's janitor runs {@link #janitorScript()}.
 */
public final class MemoryCgroup implements AutoCloseable {

    /** Smallest limit accepted: below it the master's own JVM would be killed at start. */
    public static final long MIN_LIMIT_BYTES = 64L << 20;
    private static final long REMOVE_WAIT_MS = 5_000;

    /** Where the controller is, and its files for the limit and the OOM-kill count. */
    private record Location(Path current, boolean v2) {
        String limitFile() {
            return v2 ? "memory.max" : "memory.limit_in_bytes";
        }

        String eventsFile() {
            return v2 ? "memory.events" : "memory.oom_control";
        }

        String usageFile() {
            return v2 ? "memory.current" : "memory.usage_in_bytes";
        }
    }

    private final Location location;
    private final Path dir;
    private final long limitBytes;
    private boolean joined;

    private MemoryCgroup(Location location, Path dir, long limitBytes) {
        this.location = location;
        this.dir = dir;
        this.limitBytes = limitBytes;
    }

    /**
     * Why a job's memory cgroup cannot be made here, or null if it can. Tries it: makes and
     * removes an empty cgroup (on cgroup v2 after enabling the memory controller for children,
     * which fails in a cgroup that holds processes itself).
     */
    public static String unavailableReason() {
        Location loc;
        try {
            loc = locate();
        } catch (IOException e) {
            return e.getMessage();
        }
        Path probe = loc.current().resolve("bdmpi-probe-" + ProcessHandle.current().pid());
        try {
            if (loc.v2()) {
                enableMemoryForChildren(loc.current());
            }
            Files.createDirectory(probe);
            Files.delete(probe);
            return null;
        } catch (IOException e) {
            return "cannot make a cgroup under " + loc.current() + " (" + e.getMessage() + "): run bdmpiexec as root"
                    + (loc.v2() ? " or in a cgroup delegated to you" : "");
        }
    }

    /** Makes the job's cgroup with its limit; the caller then {@link #join()}s it. */
    public static MemoryCgroup create(long limitBytes) throws IOException {
        Location loc = locate();
        if (loc.v2()) {
            enableMemoryForChildren(loc.current());
        }
        Path dir = Files.createTempDirectory(loc.current(), "bdmpi-" + ProcessHandle.current().pid() + "-");
        MemoryCgroup cgroup = new MemoryCgroup(loc, dir, limitBytes);
        try {
            write(dir.resolve(loc.limitFile()), Long.toString(limitBytes));
            if (loc.v2()) {
                // No swap for the job either, where the kernel offers it: the limit is a limit of RAM.
                writeIfPresent(dir.resolve("memory.swap.max"), "0");
            }
        } catch (IOException | RuntimeException e) {
            cgroup.close();
            throw e;
        }
        return cgroup;
    }

    /** Moves this process (all its threads) into the cgroup; processes it starts from now on are in it too. */
    public void join() throws IOException {
        write(dir.resolve("cgroup.procs"), Long.toString(ProcessHandle.current().pid()));
        joined = true;
    }

    public long limitBytes() {
        return limitBytes;
    }

    /** Memory the cgroup's processes use now, page cache included; the limit if it cannot be read. */
    public long usageBytes() {
        try {
            return Long.parseLong(Files.readString(dir.resolve(location.usageFile())).trim());
        } catch (IOException | NumberFormatException e) {
            return limitBytes;
        }
    }

    /**
     * The cgroup's page cache on the kernel's inactive list (memory.stat {@code inactive_file}, the
     * same key in v1 and v2): pages read or written once and not touched since, which reclaim takes
     * first; 0 if it cannot be read.
     */
    public long inactiveFileBytes() {
        String key = "inactive_file ";
        try {
            for (String line : Files.readAllLines(dir.resolve("memory.stat"))) {
                if (line.startsWith(key)) {
                    return Long.parseLong(line.substring(key.length()).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Removed or unreadable: count none.
        }
        return 0;
    }

    /** The cgroup's directory, whose {@code cgroup.procs} takes the processes that are to run in it. */
    Path directory() {
        return dir;
    }

    /** How many processes the kernel's OOM killer has killed in this cgroup so far. */
    public long oomKills() {
        try {
            for (String line : Files.readAllLines(dir.resolve(location.eventsFile()))) {
                if (line.startsWith("oom_kill ")) {
                    return Long.parseLong(line.substring("oom_kill ".length()).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Removed or unreadable: no kill can be attributed.
        }
        return 0;
    }

    /**
     * A shell command for the janitor that removes the cgroup after the master died: it moves the
     * janitor's own shell out (the master may have started it inside) and retries while the
     * slaves die.
     */
    public String janitorScript() {
        return "echo $$ > " + quote(location.current().resolve("cgroup.procs")) + " 2>/dev/null; i=0; "
                + "while [ -d " + quote(dir) + " ] && [ $i -lt 50 ]; do "
                + "for p in $(cat " + quote(dir.resolve("cgroup.procs")) + " 2>/dev/null); do kill -9 $p 2>/dev/null; done; "
                + "rmdir " + quote(dir) + " 2>/dev/null || sleep 0.1; i=$((i+1)); done";
    }

    /**
     * Moves this process back to its own cgroup, kills any process left inside (the slaves are
     * gone by now; this catches what a program may have started) and removes the cgroup.
     */
    @Override
    public void close() {
        try {
            if (joined) {
                write(location.current().resolve("cgroup.procs"), Long.toString(ProcessHandle.current().pid()));
                joined = false;
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REMOVE_WAIT_MS);
            while (Files.exists(dir)) {
                killMembers();
                try {
                    Files.delete(dir);
                } catch (IOException busy) {
                    if (System.nanoTime() > deadline) {
                        throw busy;
                    }
                    Thread.sleep(50);
                }
            }
        } catch (IOException e) {
            System.err.println("bdmpiexec: could not remove the memory cgroup " + dir + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void killMembers() throws IOException {
        if (!Files.exists(dir.resolve("cgroup.procs"))) {
            return;
        }
        for (String pid : Files.readAllLines(dir.resolve("cgroup.procs"))) {
            if (!pid.isBlank()) {
                ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    /** Finds this process's memory cgroup directory: v1 first (then v2 has no memory controller), else v2. */
    static Location locate() throws IOException {
        List<String> mounts = Files.readAllLines(Path.of("/proc/self/mountinfo"));
        List<String> own = Files.readAllLines(Path.of("/proc/self/cgroup"));
        for (String m : mounts) {
            // id parent major:minor root mountpoint options - fstype source superoptions
            String[] f = m.split(" ");
            int dash = m.indexOf(" - ");
            if (dash < 0 || f.length < 5) {
                continue;
            }
            String[] after = m.substring(dash + 3).split(" ");
            if (after[0].equals("cgroup") && List.of(after[after.length - 1].split(",")).contains("memory")) {
                for (String line : own) {
                    String[] c = line.split(":", 3);
                    if (c.length == 3 && List.of(c[1].split(",")).contains("memory")) {
                        return new Location(inMount(Path.of(f[4]), f[3], c[2]), false);
                    }
                }
            }
        }
        for (String m : mounts) {
            String[] f = m.split(" ");
            int dash = m.indexOf(" - ");
            if (dash < 0 || f.length < 5 || !m.substring(dash + 3).startsWith("cgroup2 ")) {
                continue;
            }
            for (String line : own) {
                if (line.startsWith("0::")) {
                    Path current = inMount(Path.of(f[4]), f[3], line.substring(3));
                    Path controllers = current.resolve("cgroup.controllers");
                    if (Files.exists(controllers) && List.of(Files.readString(controllers).trim().split(" ")).contains("memory")) {
                        return new Location(current, true);
                    }
                }
            }
        }
        throw new IOException("no cgroup memory controller is available (neither a cgroup v1 memory hierarchy "
                + "nor cgroup v2 with the memory controller is mounted for this process)");
    }

    /** The directory of cgroup {@code path} in a hierarchy whose {@code root} is mounted at {@code mountPoint}. */
    private static Path inMount(Path mountPoint, String root, String path) {
        String rel = path.startsWith(root) ? path.substring(root.length()) : path;
        rel = rel.replaceFirst("^/+", "");
        return rel.isEmpty() ? mountPoint : mountPoint.resolve(rel);
    }

    private static void enableMemoryForChildren(Path current) throws IOException {
        try {
            write(current.resolve("cgroup.subtree_control"), "+memory");
        } catch (IOException e) {
            throw new IOException("cannot enable the memory controller for children of " + current + " ("
                    + e.getMessage() + "); start bdmpiexec in a cgroup of its own, e.g. with systemd-run --scope", e);
        }
    }

    private static void write(Path file, String value) throws IOException {
        Files.writeString(file, value);
    }

    private static void writeIfPresent(Path file, String value) throws IOException {
        if (Files.exists(file)) {
            write(file, value);
        }
    }

    private static String quote(Path p) {
        return "'" + p.toString().replace("'", "'\\''") + "'";
    }
}
