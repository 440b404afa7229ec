package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Counts how often a rank's thread sleeps per collective: each rank runs {@code calls} barriers
 * and 8-byte allReduces (sums checked), and reads the voluntary context switches of its own
 * thread from {@code /proc/thread-self/status} around them. Under {@code -nr 1} a rank parks once
 * per call, so it should sleep about once per call; a rank woken for nothing (the kernel waking a
 * reader each time the master reads its request) sleeps twice or more.
 *
 * <p>It also counts the wake-ups of its JVM's master watchdog over the calls and a second's sleep
 * outside MPI: that thread should sleep in a read of stdin until the master is gone, not wake on
 * a timer. And the program's own stdin is empty, as with mpirun.
 *
 * <p>Usage: {@code WakeUps calls}. Prints {@code WakeUps rank=R sleepsPerCall=X watchdogWakeUps=W}
 * per rank, then OK.
 */
public final class WakeUps {

    private WakeUps() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        args = MPI.Init(args);
        int calls = Integer.parseInt(args[0]);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long[] one = {rank};
        long[] sum = new long[1];
        for (int i = 0; i < calls / 10; i++) { // warm-up: class loading and compilation block the thread too
            MPI.COMM_WORLD.barrier();
        }
        Check.equal(-1, System.in.read(), "a read of the program's stdin");
        long before = sleeps();
        long watchdogBefore = watchdogSleeps();
        for (int i = 0; i < calls; i++) {
            MPI.COMM_WORLD.barrier();
            MPI.COMM_WORLD.allReduce(one, sum, 1, MPI.LONG, MPI.SUM);
            Check.equal((long) size * (size - 1) / 2, sum[0], "allReduce sum at call " + i);
        }
        long after = sleeps();
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            throw Check.fail("interrupted");
        }
        long watchdogWakeUps = watchdogSleeps() - watchdogBefore;
        System.out.printf("WakeUps rank=%d sleepsPerCall=%.3f watchdogWakeUps=%d%n", rank, (after - before) / (2.0 * calls),
                watchdogWakeUps);
        Check.ok("WakeUps");
        MPI.Finalize();
    }

    /** Voluntary context switches of the calling thread so far. */
    private static long sleeps() throws IOException {
        return sleepsOf(Path.of("/proc/thread-self"));
    }

    /** Voluntary context switches so far of this JVM's master watchdog thread. */
    private static long watchdogSleeps() throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                // comm holds the first 15 characters of the thread's name
                if ("bdmpi-master-wa".equals(Files.readString(task.resolve("comm")).trim())) {
                    return sleepsOf(task);
                }
            }
        }
        throw Check.fail("no bdmpi-master-watchdog thread in /proc/self/task");
    }

    private static long sleepsOf(Path task) throws IOException {
        for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw Check.fail("no voluntary_ctxt_switches in " + task.resolve("status"));
    }
}
