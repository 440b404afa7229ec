package io.bdmpi.bench;

import mpi.MPI;
import mpi.MPIException;

/**
 * bdmpi program for {@link StartupBenchmarkTest}: every rank starts, prints its resident memory
 * ({@code Idle rank=R rssKiB=N}) and parks in a barrier until all ranks are up, then finalizes.
 * The RSS is taken just before the barrier, so it is what a parked slave holds.
 */
public final class Idle {

    private Idle() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        System.out.println(Measured.line("Idle", "rank", MPI.COMM_WORLD.getRank(), "rssKiB", ProcStatus.rssKiB()));
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }
}
