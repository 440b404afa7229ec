package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Keeps every rank busy: after Init each rank computes (spins on the CPU) for a fixed wall time,
 * then enters a barrier; twice. With S ranks and at most R running, the job can not take less
 * than {@code 2 * S * millis / R}, and R slaves are running at the same time.
 *
 * <p>Usage: {@code Busy [millis]} (default 300).
 */
public final class Busy {

    private Busy() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        long millis = args.length > 0 ? Long.parseLong(args[0]) : 300;
        long sink = 0;
        for (int round = 0; round < 2; round++) {
            long end = System.nanoTime() + millis * 1_000_000L;
            while (System.nanoTime() - end < 0) {
                for (int i = 0; i < 10_000; i++) {
                    sink += (sink ^ i) * 31 + i;
                }
            }
            MPI.COMM_WORLD.barrier();
        }
        if (sink == 0x5EED) {
            System.out.println("(keeps the computation alive)");
        }
        Check.ok("Busy");
        MPI.Finalize();
    }
}
