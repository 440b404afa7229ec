package io.bdmpi.tests.programs.rma;

import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Every rank makes two windows (library memory, and over its own buffer), puts into its
 * neighbour's, prints {@code WindowCrash rank R holds windows}, then, by {@code MODE}:
 * {@code halt}: rank 1 halts the JVM at once (no Finalize) while the others wait in a fence;
 * {@code wait}: rank 0 sleeps, making no MPI call, and the others wait for a message nobody sends
 * (the test kills bdmpiexec; a running rank keeps the master from seeing a deadlock first);
 * {@code remote} (two nodes or more): rank 0 prints {@code WindowCrash rank 0 works remotely} and
 * takes tickets from a counter of the last rank (another node) under its lock, forever, while the
 * others wait for a message nobody sends (the test kills the last rank's master).
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
        if (args[0].equals("remote")) {
            java.nio.LongBuffer one = MPI.newLongBuffer(1).put(0, 1);
            java.nio.LongBuffer got = MPI.newLongBuffer(1);
            Win counter = new Win(1, 1, MPI.INFO_NULL, MPI.COMM_WORLD, MPI.newLongBuffer(0), Win.FLAVOR_PRIVATE);
            if (rank == 0) {
                System.out.println("WindowCrash rank 0 works remotely");
                while (true) {
                    counter.lock(MPI.LOCK_EXCLUSIVE, size - 1, 0);
                    counter.fetchAndOp(one, got, MPI.LONG, size - 1, 0, MPI.SUM);
                    counter.unlock(size - 1);
                }
            }
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 99);
        } else if (args[0].equals("halt")) {
            MPI.COMM_WORLD.barrier();
            if (rank == 1) {
                Runtime.getRuntime().halt(3);
            }
            allocated.fence(0);
        } else if (rank == 0) {
            sleepForever();
        } else {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 99);
        }
        System.out.println("UNEXPECTED: rank " + rank + " went on");
        MPI.Finalize();
    }

    private static void sleepForever() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
