package io.bdmpi.master;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Measures, off the scheduler thread, which fraction of each slave's memory is resident
 * (resident / size pages of /proc/PID/statm), so the resume policy reads a number instead of
 * doing file I/O on the hot path.
 */
final class ResidencySampler implements AutoCloseable {

    static final long PERIOD_MS = 200;

    private final long[] pids;
    private final AtomicLongArray fractionBits;
    private final Thread thread;
    private volatile boolean stopped;

    /** @param pids index = world rank on this node */
    ResidencySampler(long[] pids) {
        this.pids = pids.clone();
        this.fractionBits = new AtomicLongArray(pids.length);
        this.thread = new Thread(this::loop, "bdmpi-residency");
        thread.setDaemon(true);
    }

    ResidencySampler start() {
        thread.start();
        return this;
    }

    /** Last measured resident fraction in [0, 1]; 0 before the first sample. */
    double residentFraction(int index) {
        return Double.longBitsToDouble(fractionBits.get(index));
    }

    private void loop() {
        while (!stopped) {
            for (int i = 0; i < pids.length && !stopped; i++) {
                fractionBits.set(i, Double.doubleToRawLongBits(sample(pids[i])));
            }
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static double sample(long pid) {
        try {
            String[] f = Files.readString(Path.of("/proc", Long.toString(pid), "statm")).trim().split(" ");
            long size = Long.parseLong(f[0]);
            return size == 0 ? 0 : (double) Long.parseLong(f[1]) / size;
        } catch (IOException | RuntimeException e) {
            return 0; // The process has ended or /proc is unavailable: no preference.
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}
