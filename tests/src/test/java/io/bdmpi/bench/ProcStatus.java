package io.bdmpi.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Resident memory of processes, from {@code /proc} (Linux). */
final class ProcStatus {

    private ProcStatus() {
    }

    /**
     * A process's memory from {@code /proc/PID/smaps_rollup}: RSS, and PSS, which splits each page
     * shared by several processes among them (a JVM's code and a mapped class-data archive are
     * shared by all slaves), so that the PSS of all processes adds up to the memory they use.
     *
     * @param rssKiB Rss in KiB
     * @param pssKiB Pss in KiB
     */
    record Rollup(long rssKiB, long pssKiB) {
    }

    /** VmRSS in KiB: what this process has in RAM right now. */
    static long rssKiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return kiB(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }

    /** The rollup of process {@code pid}, or null if it has gone. */
    static Rollup rollup(long pid) {
        long rss = -1;
        long pss = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/smaps_rollup"))) {
                if (line.startsWith("Rss:")) {
                    rss = kiB(line);
                } else if (line.startsWith("Pss:")) {
                    pss = kiB(line);
                }
            }
        } catch (IOException gone) {
            return null;
        }
        if (rss < 0 || pss < 0) {
            throw new IllegalStateException("no Rss or Pss in /proc/" + pid + "/smaps_rollup");
        }
        return new Rollup(rss, pss);
    }

    private static long kiB(String line) {
        return Long.parseLong(line.substring(line.indexOf(':') + 1).replace("kB", "").trim());
    }
}
