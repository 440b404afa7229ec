package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/** Every rank sleeps (outside MPI) for an hour: a job that only the harness's timeout ends. */
public final class Sleeper {

    private Sleeper() {
    }

    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        System.out.println("Sleeper rank " + MPI.COMM_WORLD.getRank() + " sleeping");
        Thread.sleep(3_600_000);
        MPI.Finalize();
    }
}
