package io.bdmpi.slave;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Memory figures of this process, from /proc (Linux). */
public final class ProcessMemory {

    private ProcessMemory() {
    }

    /** Peak resident set size in bytes (VmHWM), or 0 where /proc does not tell. */
    public static long peakRssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException ignored) {
            // Not Linux, or /proc hidden: the statistic is simply absent.
        }
        return 0;
    }
}
