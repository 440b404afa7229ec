package io.bdmpi.master.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Memory figures of Linux's /proc, in bytes: the fields of a process's {@code status} and of {@code meminfo}. */
public final class ProcMemory {

    private static final Path MEMINFO = Path.of("/proc/meminfo");

    private ProcMemory() {
    }

    /**
     * The named "kB" fields (e.g. "RssAnon") of {@code /proc/PID/status}, in bytes, in the order
     * asked; 0 for a field the kernel does not show.
     *
     * @throws IOException if the process has ended (or /proc is missing)
     */
    static long[] status(long pid, String... fields) throws IOException {
        return fields(Path.of("/proc", Long.toString(pid), "status"), fields);
    }

    /** The named fields of /proc/meminfo (e.g. "MemAvailable"), in bytes. */
    public static long[] meminfo(String... fields) throws IOException {
        return fields(MEMINFO, fields);
    }

    private static long[] fields(Path file, String... fields) throws IOException {
        long[] out = new long[fields.length];
        for (String line : Files.readAllLines(file)) {
            for (int i = 0; i < fields.length; i++) {
                if (line.startsWith(fields[i]) && line.startsWith(":", fields[i].length())) {
                    out[i] = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        }
        return out;
    }
}
