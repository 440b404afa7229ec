package io.bdmpi.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Measures the iterations of an application, from {@link #start()} (after set-up and input
 * loading) to {@link #line}, and prints the one line benchmarks read:
 * {@code NAME timing: I iterations, S s per iteration, T s set-up, peak RSS R MiB} (the process's
 * VmHWM so far; -1 where {@code /proc} has none).
 */
public final class IterationTimer {

    private final long createdNs = System.nanoTime();
    private long startNs;

    /** The iterations begin now; the time before counts as set-up. */
    public void start() {
        startNs = System.nanoTime();
    }

    /** The timing line for {@code iterations} iterations ending now. */
    public String line(String name, int iterations) {
        long now = System.nanoTime();
        double perIteration = (now - startNs) / 1e9 / Math.max(1, iterations);
        return String.format(Locale.ROOT, "%s timing: %d iterations, %.6f s per iteration, %.3f s set-up, peak RSS %.1f MiB",
                name, iterations, perIteration, (startNs - createdNs) / 1e9, peakRssKiB() / 1024.0);
    }

    private static long peakRssKiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.substring("VmHWM:".length()).replace("kB", "").trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux, or no such line: reported as -1
        }
        return -1024;
    }
}
