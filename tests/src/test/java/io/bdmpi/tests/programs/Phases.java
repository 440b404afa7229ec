package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * A job with every kind of wait, for the progress, trace and report tests: for {@code rounds}
 * rounds (default 4) each rank works {@code millis} ms (default 200), sends a small message to its
 * right neighbour and receives one from its left (waiting if that one has not run yet), sends a
 * large message (default 256 KiB: through a spill file) to the right, waits in a barrier (the large
 * messages stay buffered meanwhile), then receives the large one from the left. Prints
 * {@code Phases rank R round K} each round.
 */
public final class Phases {

    private Phases() {
    }

    public static void main(String[] args) throws MPIException, InterruptedException {
        args = MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        long millis = args.length > 1 ? Long.parseLong(args[1]) : 200;
        int large = args.length > 2 ? Integer.parseInt(args[2]) : 256 * 1024;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        byte[] small = new byte[1024];
        byte[] big = new byte[large];
        for (int round = 0; round < rounds; round++) {
            Thread.sleep(millis);
            System.out.println("Phases rank " + rank + " round " + round);
            MPI.COMM_WORLD.send(small, small.length, MPI.BYTE, (rank + 1) % size, 1);
            MPI.COMM_WORLD.recv(small, small.length, MPI.BYTE, (rank + size - 1) % size, 1);
            MPI.COMM_WORLD.send(big, big.length, MPI.BYTE, (rank + 1) % size, 2);
            MPI.COMM_WORLD.barrier();
            MPI.COMM_WORLD.recv(big, big.length, MPI.BYTE, (rank + size - 1) % size, 2);
        }
        Check.ok("Phases");
        MPI.Finalize();
    }
}
