package io.bdmpi.tests.programs.memory;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;

/**
 * Every rank prints the memory cgroup it runs in ("rank R cgroup PATH"), fills {@code args[0]} MiB
 * of heap with data of its own, passes a barrier, checks the data and prints "rank R ok".
 */
public final class HeapUser {

    private HeapUser() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        System.out.println("rank " + rank + " cgroup " + CgroupPaths.own());
        int mib = Integer.parseInt(args[0]);
        byte[][] data = new byte[mib][];
        for (int i = 0; i < mib; i++) {
            data[i] = new byte[1 << 20];
            java.util.Arrays.fill(data[i], (byte) (rank + i));
        }
        MPI.COMM_WORLD.barrier();
        for (int i = 0; i < mib; i++) {
            if (data[i][(i * 7919) & ((1 << 20) - 1)] != (byte) (rank + i)) {
                throw new IllegalStateException("rank " + rank + ": data of MiB " + i + " changed");
            }
        }
        System.out.println("rank " + rank + " ok");
        MPI.Finalize();
    }
}
