package io.bdmpi.master.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Without swap a slave's Java heap cannot leave RAM, parked or not: when S slaves may together
 * grow their heaps beyond the memory available (the job's limit, if it has one), the user hears
 * it before the job starts, with what to do about it.
 */
public final class SwapWarning {

    private SwapWarning() {
    }

    /**
     * The warning for one node of a job on this machine, if it needs one.
     *
     * @param slaves           the node's slaves (-ns)
     * @param slaveJvmOptions  their JVM options (--slave-jvm-opts), which may set their heap limit
     * @param memoryLimitBytes the node's --memory-limit, or 0 for none
     */
    public static Optional<String> check(int slaves, List<String> slaveJvmOptions, long memoryLimitBytes) {
        try {
            long[] meminfo = meminfo(Path.of("/proc/meminfo"));
            long swap = meminfo[0];
            long available = meminfo[1];
            long total = meminfo[2];
            long limit = memoryLimitBytes;
            if (limit > 0) {
                available = Math.min(available, limit);
                total = Math.min(total, limit);
            }
            return warning(slaves, maxHeapBytes(slaveJvmOptions, total), swap, available);
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // No /proc/meminfo: nothing to compare with.
        }
    }

    /** The warning when {@code slaves} heaps of {@code heapBytes} exceed {@code availableBytes} with no swap. */
    static Optional<String> warning(int slaves, long heapBytes, long swapBytes, long availableBytes) {
        if (swapBytes > 0 || (double) slaves * heapBytes <= availableBytes) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "bdmpiexec: warning: there is no swap, and %d slaves may each grow "
                        + "their heap to %d MiB (%d MiB in all), more than the %d MiB of memory available: a parked "
                        + "slave's heap cannot leave RAM. Give slaves a smaller -Xmx (--slave-jvm-opts), keep large data "
                        + "in off-heap arrays (mpi.OutOfCore), or add swap.",
                slaves, heapBytes >> 20, (slaves * heapBytes) >> 20, availableBytes >> 20));
    }

    /**
     * The slaves' heap limit: the last -Xmx or -XX:MaxHeapSize among their options, else the JVM's
     * default of a quarter of the memory it sees.
     */
    static long maxHeapBytes(List<String> jvmOptions, long memoryBytes) {
        long max = memoryBytes / 4;
        for (String o : jvmOptions) {
            if (o.startsWith("-Xmx")) {
                max = size(o.substring(4));
            } else if (o.startsWith("-XX:MaxHeapSize=")) {
                max = size(o.substring("-XX:MaxHeapSize=".length()));
            }
        }
        return max;
    }

    private static long size(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        long mult = switch (s.charAt(s.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            case 't' -> 1L << 40;
            default -> 1;
        };
        return Long.parseLong(mult == 1 ? s : s.substring(0, s.length() - 1)) * mult;
    }

    /** SwapTotal, MemAvailable and MemTotal in bytes. */
    private static long[] meminfo(Path file) throws IOException {
        long[] out = new long[3];
        for (String line : Files.readAllLines(file)) {
            int i = line.startsWith("SwapTotal:") ? 0 : line.startsWith("MemAvailable:") ? 1 : line.startsWith("MemTotal:") ? 2 : -1;
            if (i >= 0) {
                out[i] = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return out;
    }
}
