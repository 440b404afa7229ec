package io.bdmpi.master.scheduler;

import io.bdmpi.master.memory.MemorySample;
import io.bdmpi.master.observe.JobStats;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Decides, for {@code -nr auto}, how many slaves may run at once from what the node's memory
 * allows. Plain arithmetic on {@link MemorySample}s; the scheduler thread owns it and applies
 * what it decides (at most this many RUNNING; lowering preempts nobody, it only stops resuming
 * until the count has fallen).
 *
 * <p>The model. Whoever runs, the job holds its memory at rest: the master's anonymous memory
 * and each live slave's anonymous memory as last seen while it was not running (a parked Java
 * heap cannot leave RAM without swap). A running slave needs more: up to its peak footprint
 * (anonymous memory plus the whole of its off-heap arrays, which it may touch) minus its memory
 * at rest. A slave's need is known once it has finished a run (been parked after running at least
 * once); slaves not known yet are assumed to need as much as the hungriest known one. {@code k}
 * slaves running at once then need {@code rest + the k largest extras}, and the count allowed is the largest
 * {@code k} (1 to -ns) for which that fits the budget less a reserve of
 * {@value #RESERVE_PERCENT}% of it (at least {@value #RESERVE_MIN_MIB} MiB), kept for page cache,
 * the kernel and what the samples miss.
 *
 * <p>Hysteresis: the count is lowered as soon as it no longer fits with one reserve, but raised
 * only to a count that fits with two, not within {@link #HOLD_NS} of the previous change, and
 * only while a slave waits for a slot (so a raise is decided on the latest figures, when it
 * matters), so that a footprint near a boundary does not make it go up and down. Nothing is
 * decided before one slave has finished a run. Starts at {@value #START}: until then nothing is
 * known of what a running slave needs.
 *
 * <p>Not thread-safe: the scheduler thread calls it.
 */
public final class RunningController {

    /** The count allowed at the start. */
    public static final int START = 1;
    /** Share of the budget kept free, in percent. */
    static final int RESERVE_PERCENT = 10;
    /** Smallest reserve, MiB. */
    static final long RESERVE_MIN_MIB = 16;
    /** No raise within this long of the previous change. */
    static final long HOLD_NS = 1_000_000_000L;

    /** Where a slave is, as far as the count is concerned. */
    enum Phase {
        /** Has not run yet. */
        NEW,
        /** Runs for the first time: what it needs is not known yet. */
        FIRST_RUN,
        /** Runs, and has finished a run before. */
        RUNNING,
        /** Not running, after at least one run: parked, runnable or finalized. */
        AT_REST,
        /** Has exited: holds no memory. */
        GONE
    }

    private final int slaves;
    private final long startNs;
    /** Anonymous memory of each slave while not running (-1: never measured). */
    private final long[] restBytes;
    /** Largest footprint seen of each slave (anonymous memory plus arrays). */
    private final long[] peakBytes;
    private int allowed = START;
    private long changedAtNs;
    private boolean changed;

    /**
     * @param slaves  this node's slaves (-ns): the count is never above it
     * @param startNs the time changes are counted from (the scheduler's start)
     */
    public RunningController(int slaves, long startNs) {
        if (slaves < 1) {
            throw new IllegalArgumentException("slaves=" + slaves);
        }
        this.slaves = slaves;
        this.startNs = startNs;
        this.restBytes = new long[slaves];
        this.peakBytes = new long[slaves];
        Arrays.fill(restBytes, -1);
    }

    /** How many slaves may run at once now, 1 to -ns. */
    int allowed() {
        return allowed;
    }

    /**
     * Takes in a sample and says whether the count allowed changes.
     *
     * @param nowNs   the scheduler's clock
     * @param phases  where the slave of a local index is now
     * @param waiting whether a slave waits for a slot (is RUNNABLE); raises wait for one
     * @return the change, already applied to {@link #allowed()}, or null for none
     */
    JobStats.NrunningChange onSample(long nowNs, MemorySample sample, IntFunction<Phase> phases, boolean waiting) {
        if (sample.slaves() != slaves) {
            throw new IllegalArgumentException("a sample of " + sample.slaves() + " slaves for " + slaves);
        }
        long rest = sample.masterBytes();
        long[] extras = new long[slaves];
        int known = 0;
        int unknown = 0;
        long hungriest = 0;
        for (int i = 0; i < slaves; i++) {
            Phase phase = phases.apply(i);
            if (phase == Phase.GONE || !sample.measured(i)) {
                continue;
            }
            long anon = sample.slaveAnonBytes()[i];
            if (phase == Phase.NEW || phase == Phase.AT_REST || restBytes[i] < 0) {
                restBytes[i] = anon;
            }
            peakBytes[i] = Math.max(peakBytes[i], anon + sample.slaveDataBytes()[i]);
            rest += restBytes[i];
            if (phase == Phase.RUNNING || phase == Phase.AT_REST) {
                extras[known] = Math.max(0, peakBytes[i] - restBytes[i]);
                hungriest = Math.max(hungriest, extras[known]);
                known++;
            } else {
                unknown++;
            }
        }
        if (known == 0) {
            return null;
        }
        Arrays.fill(extras, known, known + unknown, hungriest);
        long[] need = needed(rest, extras, known + unknown);
        long budget = sample.budgetBytes();
        long reserve = Math.max(RESERVE_MIN_MIB << 20, budget / 100 * RESERVE_PERCENT);
        int fitsOnce = largestFitting(need, budget - reserve);
        int fitsTwice = largestFitting(need, budget - 2 * reserve);
        int to;
        String why;
        if (fitsOnce < allowed) {
            to = fitsOnce;
            why = String.format(Locale.ROOT, "lowered from %d to %d: %d running would need %s, over the %s less a %s reserve",
                    allowed, to, allowed, mib(need[allowed]), budgetName(sample), mib(reserve));
        } else if (fitsTwice > allowed && waiting && (!changed || nowNs - changedAtNs >= HOLD_NS)) {
            to = fitsTwice;
            why = String.format(Locale.ROOT, "raised from %d to %d: %d running need %s of the %s less twice a %s reserve",
                    allowed, to, to, mib(need[to]), budgetName(sample), mib(reserve));
        } else {
            return null;
        }
        why += String.format(Locale.ROOT, " (at rest: master and slaves %s; a running slave needs up to %s more)",
                mib(rest), mib(hungriest));
        JobStats.NrunningChange change = new JobStats.NrunningChange((nowNs - startNs) / 1e9, allowed, to, budget, rest,
                hungriest, need[to], why);
        allowed = to;
        changedAtNs = nowNs;
        changed = true;
        return change;
    }

    /** need[k]: memory for k slaves running at once, k = 0..slaves; the k with the largest extras run. */
    private long[] needed(long rest, long[] extras, int live) {
        long[] sorted = Arrays.copyOf(extras, live);
        Arrays.sort(sorted);
        long[] need = new long[slaves + 1];
        need[0] = rest;
        for (int k = 1; k <= slaves; k++) {
            need[k] = need[k - 1] + (k <= live ? sorted[live - k] : 0);
        }
        return need;
    }

    /** The largest k in 1..slaves whose need fits {@code bytes}; 1 if none does. */
    private int largestFitting(long[] need, long bytes) {
        int k = slaves;
        while (k > 1 && need[k] > bytes) {
            k--;
        }
        return k;
    }

    private static String budgetName(MemorySample s) {
        return mib(s.budgetBytes()) + (s.limited() ? " --memory-limit" : " available");
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
    }
}
