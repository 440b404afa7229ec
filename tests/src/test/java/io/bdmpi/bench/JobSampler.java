package io.bdmpi.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Samples a running job from {@code /proc} on its own thread, for benchmarks: the master (the
 * bdmpiexec JVM this test JVM started, found by an argument only its command line has) and its
 * slaves (the master's child JVMs). Keeps the peaks: the master's VmRSS and threads, and the sum of
 * the slaves' PSS with how many slaves it covered. A pass over a thousand slaves' smaps_rollup takes
 * a moment, so the samples are as frequent as that allows.
 */
final class JobSampler implements AutoCloseable {

    /** The peaks seen; zero for what was never seen. */
    record Peaks(long masterRssKiB, long masterThreads, long slavesPssKiB, int slavesInPss) {
    }

    private static final long PAUSE_MS = 200;

    private final String marker;
    private final Thread thread;
    private volatile boolean stop;
    private long masterRssKiB;
    private long masterThreads;
    private long slavesPssKiB;
    private int slavesInPss;

    /** Starts sampling the bdmpiexec JVM whose command line contains {@code marker}. */
    JobSampler(String marker) {
        this.marker = marker;
        this.thread = new Thread(this::run, "job-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (!stop) {
            ProcessHandle.current().children()
                    .filter(p -> commandLine(p.pid()).contains(marker))
                    .findFirst()
                    .ifPresent(this::sample);
            try {
                TimeUnit.MILLISECONDS.sleep(PAUSE_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sample(ProcessHandle master) {
        long[] status = status(master.pid());
        List<ProcessHandle> slaves = master.children().toList();
        long pss = 0;
        int counted = 0;
        for (ProcessHandle s : slaves) {
            ProcStatus.Rollup r = ProcStatus.rollup(s.pid());
            if (r != null) {
                pss += r.pssKiB();
                counted++;
            }
        }
        synchronized (this) {
            masterRssKiB = Math.max(masterRssKiB, status[0]);
            masterThreads = Math.max(masterThreads, status[1]);
            if (pss > slavesPssKiB) {
                slavesPssKiB = pss;
                slavesInPss = counted;
            }
        }
    }

    /** The command line of a process from /proc (ProcessHandle.Info cuts long ones short), "" if it has gone. */
    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return "";
        }
    }

    /** VmRSS (KiB) and Threads of a process, zeros if it has gone. */
    private static long[] status(long pid) {
        long[] out = new long[2];
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    out[0] = Long.parseLong(line.replaceAll("[^0-9]", ""));
                } else if (line.startsWith("Threads:")) {
                    out[1] = Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException gone) {
            return new long[2];
        }
        return out;
    }

    synchronized Peaks peaks() {
        return new Peaks(masterRssKiB, masterThreads, slavesPssKiB, slavesInPss);
    }

    @Override
    public void close() {
        stop = true;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
