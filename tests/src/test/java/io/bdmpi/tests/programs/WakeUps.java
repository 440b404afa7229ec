package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Counts how often a rank's thread sleeps per collective: each rank runs {@code calls} barriers
 * and 8-byte allReduces (sums checked), and reads the voluntary context switches of its own
 * thread from {@code /proc/thread-self/status} around them. Under {@code -nr 1} a rank parks once
 * per call, so it should sleep about once per call; a rank woken for nothing (the kernel waking a
 * reader each time the master reads its request) sleeps twice or more.
 *
 * <p>Usage: {@code WakeUps calls}. Prints {@code WakeUps rank=R sleepsPerCall=X} per rank, then OK.
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
        long before = sleeps();
        for (int i = 0; i < calls; i++) {
            MPI.COMM_WORLD.barrier();
            MPI.COMM_WORLD.allReduce(one, sum, 1, MPI.LONG, MPI.SUM);
            Check.equal((long) size * (size - 1) / 2, sum[0], "allReduce sum at call " + i);
        }
        long after = sleeps();
        System.out.printf("WakeUps rank=%d sleepsPerCall=%.3f%n", rank, (after - before) / (2.0 * calls));
        Check.ok("WakeUps");
        MPI.Finalize();
    }

    /** Voluntary context switches of the calling thread so far. */
    private static long sleeps() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw Check.fail("no voluntary_ctxt_switches in /proc/thread-self/status");
    }
}
