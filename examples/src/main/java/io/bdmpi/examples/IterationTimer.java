package io.bdmpi.examples;

import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Measures the phases of an application run and prints the one line benchmarks read:
 *
 * <pre>NAME timing: I iterations, S s per iteration, T s set-up, peak RSS R MiB, start-up U s,
 *     first iteration F s, CPU C s, P processes, peak RSS summed Q MiB; iterations (s): t1 t2 ...</pre>
 *
 * <ul>
 * <li>start-up: from the start of the (first) JVM to the program's first own code, i.e. this
 * timer's creation after {@code MPI.Init} (the earliest rank's);</li>
 * <li>set-up: from there to {@link #start()} (reading the input, building index maps); in an MPI
 * program rank 0 starts the clock after a collective, so this is the whole job's set-up;</li>
 * <li>the iterations, each ended by {@link #iterationDone()}: their mean (S), the first (F, which
 * pays for the JIT compiling the loops), and each one (the first 20);</li>
 * <li>peak RSS: the largest process's VmHWM (-1 where {@code /proc} has none), and its sum over
 * all processes (an upper bound of what they held at once); CPU: the processes' CPU time, summed.</li>
 * </ul>
 * An MPI program calls {@link #gather(Comm)} on every rank before rank 0 prints the line, so that
 * these cover all ranks; a serial one does not, and its line covers its one process.
 */
public final class IterationTimer {

    /** Iterations listed one by one in the line; the mean covers all. */
    private static final int LISTED = 20;

    private final long jvmStartMs = ManagementFactory.getRuntimeMXBean().getStartTime();
    private final long createdMs = System.currentTimeMillis();
    private final long createdNs = System.nanoTime();
    private long startNs;
    private long lastNs;
    private long[] iterationNs = new long[16];
    private int iterations;
    /** Over all ranks once {@link #gather} ran: earliest JVM start and first code, peak RSS max and sum, CPU. */
    private long firstJvmStartMs = jvmStartMs;
    private long firstCreatedMs = createdMs;
    private long peakKiB = -1;
    private long peakSumKiB = -1;
    private long cpuNs = -1;
    private int processes = 1;

    /** The iterations begin now; the time before counts as set-up. */
    public void start() {
        startNs = System.nanoTime();
        lastNs = startNs;
    }

    /** An iteration ended now. */
    public void iterationDone() {
        long now = System.nanoTime();
        if (iterations == iterationNs.length) {
            iterationNs = Arrays.copyOf(iterationNs, 2 * iterations);
        }
        iterationNs[iterations++] = now - lastNs;
        lastNs = now;
    }

    /**
     * Collective over {@code comm}, after the last iteration: makes the line cover every rank
     * (earliest start, peak RSS and CPU of all), not only the calling process.
     */
    public void gather(Comm comm) throws MPIException {
        long peak = peakRssKiB();
        long[] max = {peak, -jvmStartMs, -createdMs};
        long[] sum = {peak, processCpuNs()};
        comm.allReduce(max, max.length, MPI.LONG, MPI.MAX);
        comm.allReduce(sum, sum.length, MPI.LONG, MPI.SUM);
        peakKiB = max[0];
        firstJvmStartMs = -max[1];
        firstCreatedMs = -max[2];
        peakSumKiB = sum[0];
        cpuNs = sum[1];
        processes = comm.getSize();
    }

    /**
     * The timing line of a run whose last iteration is {@code iterations} (counted from the first,
     * even if this run began later, from a checkpoint).
     */
    public String line(String name, int iterations) {
        if (cpuNs < 0) {
            peakKiB = peakRssKiB();
            peakSumKiB = peakKiB;
            cpuNs = processCpuNs();
        }
        long total = 0;
        StringBuilder each = new StringBuilder();
        for (int i = 0; i < this.iterations; i++) {
            total += iterationNs[i];
            if (i < LISTED) {
                each.append(String.format(Locale.ROOT, " %.3f", iterationNs[i] / 1e9));
            }
        }
        if (this.iterations > LISTED) {
            each.append(" ...");
        }
        // A run restored from a checkpoint times only its own iterations.
        int timed = Math.max(1, this.iterations);
        double setUp = (createdMs - firstCreatedMs) / 1e3 + (startNs - createdNs) / 1e9;
        return String.format(Locale.ROOT, "%s timing: %d iterations, %.6f s per iteration, %.3f s set-up, peak RSS %.1f MiB, "
                        + "start-up %.3f s, first iteration %.3f s, CPU %.2f s, %d processes, peak RSS summed %.1f MiB; iterations (s):%s",
                name, iterations, total / 1e9 / timed, setUp, peakKiB / 1024.0, (firstCreatedMs - firstJvmStartMs) / 1e3,
                this.iterations == 0 ? 0 : iterationNs[0] / 1e9, cpuNs / 1e9, processes, peakSumKiB / 1024.0, each);
    }

    /** CPU time of this process, all its threads (JIT compilers and GC included). */
    private static long processCpuNs() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
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
