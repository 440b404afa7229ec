package io.bdmpi.tests.programs.rma;

import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Every rank makes two windows (library memory, and over its own buffer), puts into its
 * neighbour's, prints {@code WindowCrash rank R holds windows}, then, by {@code MODE}:
 * {@code halt}: rank 1 halts the JVM at once (no Finalize) while the others wait in a fence;
 * {@code wait}: every rank waits for a message nobody sends (the test kills bdmpiexec).
 *
 * <p>Usage: {@code WindowCrash MODE}.
 */
public final class WindowCrash {

    private WindowCrash() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Win allocated = new Win(1 << 20, 1, MPI.INFO_NULL, MPI.COMM_WORLD, MPI.newByteBuffer(0), Win.FLAVOR_SHARED);
        Win own = new Win(MPI.newIntBuffer(1024), 1024, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
        allocated.fence(0);
        own.fence(0);
        allocated.put(MPI.newByteBuffer(4096), 4096, MPI.BYTE, (rank + 1) % size, 0, 4096, MPI.BYTE);
        own.put(MPI.newIntBuffer(16), 16, MPI.INT, (rank + 1) % size, 0, 16, MPI.INT);
        System.out.println("WindowCrash rank " + rank + " holds windows");
        if (args[0].equals("halt")) {
            MPI.COMM_WORLD.barrier();
            if (rank == 1) {
                Runtime.getRuntime().halt(3);
            }
            allocated.fence(0);
        } else {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 99);
        }
        System.out.println("UNEXPECTED: rank " + rank + " went on");
        MPI.Finalize();
    }
}
