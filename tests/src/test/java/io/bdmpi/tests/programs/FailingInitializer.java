package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * A program whose class fails to initialize on rank 1 (its static initializer throws, before main
 * runs); the other ranks wait in a barrier. The job must end, with rank 1's exception said as an
 * uncaught one of that rank.
 */
public final class FailingInitializer {

    private static final int RANK = rankOrFail();

    private FailingInitializer() {
    }

    private static int rankOrFail() {
        int rank = Integer.parseInt(System.getenv("BDMPI_RANK"));
        if (rank == 1) {
            throw new IllegalStateException("rank 1's static initializer fails");
        }
        return rank;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.barrier();
        System.out.println("UNEXPECTED: rank " + RANK + " passed the barrier");
        MPI.Finalize();
    }
}
