package io.bdmpi.slave;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a slave learns of its own process, from /proc (Linux). */
public final class OwnProcess {

    private OwnProcess() {
    }

    /**
     * This process's pid. {@code ProcessHandle.current()} would do, but its class starts the JDK's
     * process reaper, whose executor spins method-handle classes that no class-data archive
     * holds: some 7 ms of CPU in every slave's start.
     */
    public static long pid() {
        try {
            return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/self")).toString());
        } catch (IOException | NumberFormatException | UnsupportedOperationException e) {
            return ProcessHandle.current().pid();
        }
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
