package io.bdmpi.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's resident memory, from {@code /proc/self/status} (Linux). */
final class ProcStatus {

    private ProcStatus() {
    }

    /** VmRSS in KiB: what this process has in RAM right now. */
    static long rssKiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring("VmRSS:".length()).replace("kB", "").trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }
}
