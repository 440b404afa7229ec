package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/** Every rank polls with {@code iProbe} for a message nobody sends: a deadlock made of polls. */
public final class PollForever {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        while (MPI.COMM_WORLD.iProbe((rank + 1) % size, 99) == null) {
            Thread.onSpinWait();
        }
        MPI.Finalize();
    }
}
