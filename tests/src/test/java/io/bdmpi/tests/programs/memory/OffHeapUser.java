package io.bdmpi.tests.programs.memory;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.DoubleArray;
import io.bdmpi.ooc.Residency;
import mpi.MPI;
import mpi.MPIException;
import mpi.OutOfCore;

import java.io.IOException;

/**
 * Every rank fills an off-heap array of {@code args[0]} MiB (residency {@code args[1]}), then for
 * {@code args[2]} rounds parks in a barrier and checks and updates every element, so each round
 * reads what the round before wrote while the rank was parked. Prints "rank R ok" at the end, and
 * fails loudly on the first wrong element.
 */
public final class OffHeapUser {

    private OffHeapUser() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        long n = Long.parseLong(args[0]) << 17; // doubles per MiB
        int rounds = Integer.parseInt(args[2]);
        ArrayStore store = OutOfCore.store();
        DoubleArray a = store.doubles("data", n, Residency.valueOf(args[1]));
        for (long i = 0; i < n; i++) {
            a.set(i, value(rank, i, 0));
        }
        for (int round = 0; round < rounds; round++) {
            MPI.COMM_WORLD.barrier();
            for (long i = 0; i < n; i++) {
                double v = a.get(i);
                if (v != value(rank, i, round)) {
                    throw new IllegalStateException("rank " + rank + " round " + round + ": element " + i + " is " + v
                            + ", expected " + value(rank, i, round));
                }
                a.set(i, v + 1);
            }
        }
        System.out.println("rank " + rank + " ok");
        MPI.Finalize();
    }

    private static double value(int rank, long i, int round) {
        return rank * 1e9 + i + round;
    }
}
