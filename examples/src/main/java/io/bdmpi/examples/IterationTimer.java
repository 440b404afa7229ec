package io.bdmpi.examples;

import java.util.Locale;

/**
 * Measures the iterations of an application, from {@link #start()} (after set-up and input
 * loading) to {@link #line}, and prints the one line benchmarks read:
 * {@code NAME timing: I iterations, S s per iteration, T s set-up}.
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
        return String.format(Locale.ROOT, "%s timing: %d iterations, %.6f s per iteration, %.3f s set-up",
                name, iterations, perIteration, (startNs - createdNs) / 1e9);
    }
}
