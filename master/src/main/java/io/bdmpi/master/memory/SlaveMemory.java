package io.bdmpi.master.memory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How much memory the slaves of a node get, decided before they start from the node's budget
 * (its --memory-limit, else the memory available), -ns and -nr: each slave's heap limit, and
 * whether parked slaves give free heap back. Without swap a slave's heap cannot leave RAM, parked or
 * not, so the budget must hold
 * <pre>
 *   the master + S parked slaves (their JVMs) + nr running heaps + (S - nr) parked heaps
 * </pre>
 * <ul>
 *   <li>Heap limit, unless the user gives one ({@code -Xmx} or {@code -XX:MaxHeapSize} in
 *       --slave-jvm-opts): the budget less the master's reserve and S parked JVMs, shared by the
 *       nr running slaves, and at most a quarter of the budget (the JVM's own default).</li>
 *   <li>Heap on park ({@link HeapOnPark#AUTO}): a parked slave gives free heap back when its
 *       heap limit times S does not fit what the slaves have, with no swap to take parked heaps. It
 *       then collects only when its heap has grown beyond its share of what the running slaves
 *       leave ({@link #parkedHeapBytes}, at least {@link #PARKED_HEAP_MIN_BYTES}), and by a quarter
 *       since it last did, so a slave whose heap is small, or full of live data, does not pay for a
 *       collection at every park.</li>
 *   <li>A warning, with what to change, only when the user's own choice cannot fit: more slaves
 *       than the budget holds parked, or a user's heap limit that the running slaves cannot all
 *       have, or parked heaps kept (--no-shrink-heap-on-park) that cannot all stay.</li>
 * </ul>
 *
 * @param heapBytes       the heap limit the master gives every slave, or 0 when the user gave one
 * @param shrinkOnPark    parked slaves give free heap back
 * @param parkedHeapBytes a parked slave's heap beyond which it gives free heap back (0 with
 *                        {@link HeapOnPark#SHRINK}: any)
 * @param warnings        what the user is told before the job starts; empty when all fits
 */
public record SlaveMemory(long heapBytes, boolean shrinkOnPark, long parkedHeapBytes, List<String> warnings) {

    /**
     * What a parked slave's JVM holds besides its heap, as it counts against a node's memory: its
     * own pages (PSS) with the class-data archives mapped unrelocated and shared, measured 15 to
     * 17 MiB with a small heap (StartupBenchmarkTest), rounded up.
     */
    public static final long PARKED_SLAVE_BYTES = 20L << 20;
    /** What the master's JVM is given before the slaves: its own JVM and buffered messages. */
    public static final long MASTER_RESERVE_BYTES = 128L << 20;
    /** The smallest heap limit the master gives a slave; less than this is reported as not fitting. */
    public static final long MIN_HEAP_BYTES = 32L << 20;
    /**
     * What a parked slave may keep of heap before it collects, when parked slaves must give heap
     * back and the running ones leave them nothing more: the -Xms of the heap-shrinking options,
     * about what {@link #PARKED_SLAVE_BYTES} holds of heap. With {@link #MIN_HEAP_BYTES} here
     * instead, PageRank's {@code ooc} ranks under 512 MiB (8 slaves, -nr 2) each kept up to 32 MiB
     * of garbage while parked, 56 MiB of PSS a slave, and the job's anonymous memory came within
     * 50 MiB of its limit.
     */
    public static final long PARKED_HEAP_MIN_BYTES = 8L << 20;

    /** Whether parked slaves give their free heap back to the OS: --shrink-heap-on-park. */
    public enum HeapOnPark {
        /** When the slaves' heaps cannot all stay in memory (the default). */
        AUTO,
        /** At every park, whatever the heap: --shrink-heap-on-park. */
        SHRINK,
        /** Never: --no-shrink-heap-on-park. */
        KEEP
    }

    public SlaveMemory {
        warnings = List.copyOf(warnings);
    }

    /**
     * The plan for one node of a job on this machine.
     *
     * @param slaves           the node's slaves (-ns)
     * @param running          the most that run at once (-nr; 1 for -nr auto, whose controller
     *                         starts there and raises it only as far as memory allows)
     * @param slaveJvmOptions  the user's --slave-jvm-opts, which may set the heap limit
     * @param memoryLimitBytes the node's --memory-limit, or 0 for none
     * @param heapOnPark       --shrink-heap-on-park, --no-shrink-heap-on-park or neither
     */
    public static SlaveMemory plan(int slaves, int running, List<String> slaveJvmOptions, long memoryLimitBytes,
                                   HeapOnPark heapOnPark) {
        long swap;
        long budget;
        try {
            long[] meminfo = ProcMemory.meminfo("SwapTotal", "MemAvailable");
            swap = meminfo[0];
            budget = memoryLimitBytes > 0 ? Math.min(memoryLimitBytes, meminfo[1]) : meminfo[1];
        } catch (IOException | RuntimeException noProc) {
            // No /proc/meminfo: nothing to size by; the JVM's defaults and the user's choice stand.
            return new SlaveMemory(0, heapOnPark == HeapOnPark.SHRINK, 0, List.of());
        }
        return plan(slaves, running, userHeapBytes(slaveJvmOptions), budget, swap > 0 && memoryLimitBytes == 0, heapOnPark,
                memoryLimitBytes > 0 ? "the --memory-limit of " + mib(memoryLimitBytes) : "the " + mib(budget) + " available");
    }

    /**
     * The plan for a node whose slaves have {@code budget} bytes.
     *
     * @param userHeap   the user's heap limit, or 0 for none
     * @param swapTakes  parked heaps can go to swap (there is swap and no memory limit)
     * @param budgetName how the warnings name the budget
     */
    static SlaveMemory plan(int slaves, int running, long userHeap, long budget, boolean swapTakes, HeapOnPark heapOnPark,
                            String budgetName) {
        int nr = Math.max(1, Math.min(running, slaves));
        List<String> warnings = new ArrayList<>();
        long forHeaps = budget - MASTER_RESERVE_BYTES - slaves * PARKED_SLAVE_BYTES;
        if (forHeaps < (long) nr * MIN_HEAP_BYTES) {
            long most = Math.max(0, (budget - MASTER_RESERVE_BYTES - nr * MIN_HEAP_BYTES) / PARKED_SLAVE_BYTES);
            String change = most >= nr
                    ? String.format(Locale.ROOT, "Run at most %d slaves on this node (-ns), or give the job more memory.", most)
                    : String.format(Locale.ROOT, "Give the job at least %d MiB.",
                            (MASTER_RESERVE_BYTES + nr * (PARKED_SLAVE_BYTES + MIN_HEAP_BYTES)) >> 20);
            warnings.add(String.format(Locale.ROOT, "bdmpiexec: warning: %d slaves do not fit %s: each slave's JVM takes "
                            + "about %d MiB parked, the master %d MiB, and each of the %d running at least %d MiB of heap. %s",
                    slaves, budgetName, PARKED_SLAVE_BYTES >> 20, MASTER_RESERVE_BYTES >> 20, nr, MIN_HEAP_BYTES >> 20, change));
        }
        long heap = userHeap > 0 ? userHeap
                : Math.max(MIN_HEAP_BYTES, Math.min(budget / 4, Math.max(forHeaps, 0) / nr));
        boolean heapsFit = swapTakes || (double) slaves * heap <= Math.max(forHeaps, 0);
        boolean shrink = heapOnPark == HeapOnPark.SHRINK || (heapOnPark == HeapOnPark.AUTO && !heapsFit);
        long parkedHeap = heapOnPark == HeapOnPark.SHRINK ? 0
                : slaves > nr ? Math.max(PARKED_HEAP_MIN_BYTES, (forHeaps - nr * heap) / (slaves - nr)) : heap;
        if (userHeap > 0 && warnings.isEmpty() && (double) nr * userHeap > forHeaps) {
            warnings.add(String.format(Locale.ROOT, "bdmpiexec: warning: %d running slaves with a heap of up to %d MiB "
                            + "(-Xmx) may need more than the %d MiB that %s leaves them besides the master and %d parked JVMs: "
                            + "give slaves at most -Xmx%dm, lower -nr, or give the job more memory.", nr, userHeap >> 20,
                    forHeaps >> 20, budgetName, slaves, Math.max(forHeaps, 0) / nr >> 20));
        } else if (heapOnPark == HeapOnPark.KEEP && !heapsFit && warnings.isEmpty()) {
            warnings.add(String.format(Locale.ROOT, "bdmpiexec: warning: there is no swap, and %d slaves may each keep a "
                            + "heap of up to %d MiB while parked (%d MiB in all), more than the %d MiB that %s leaves them: "
                            + "drop --no-shrink-heap-on-park, give slaves a smaller -Xmx (--slave-jvm-opts), or keep large "
                            + "data in off-heap arrays (mpi.OutOfCore).", slaves, heap >> 20, slaves * heap >> 20,
                    forHeaps >> 20, budgetName));
        }
        return new SlaveMemory(userHeap > 0 ? 0 : heap, shrink, parkedHeap, warnings);
    }

    /** The last -Xmx or -XX:MaxHeapSize among the slaves' options, or 0. */
    static long userHeapBytes(List<String> jvmOptions) {
        long max = 0;
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

    private static String mib(long bytes) {
        return (bytes >> 20) + " MiB";
    }
}
