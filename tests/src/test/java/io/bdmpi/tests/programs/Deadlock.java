package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/** Every rank receives from the next one and nobody sends: a deadlock the runtime must report. */
public final class Deadlock {

    private Deadlock() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, (rank + 1) % size, 9);
        System.out.println("UNEXPECTED: rank " + rank + " received a message nobody sent");
        MPI.Finalize();
    }
}
