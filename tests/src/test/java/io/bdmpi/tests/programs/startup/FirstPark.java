package io.bdmpi.tests.programs.startup;

import io.bdmpi.ooc.DoubleArray;
import io.bdmpi.ooc.Residency;
import mpi.MPI;
import mpi.MPIException;
import mpi.OutOfCore;

import java.io.IOException;

/**
 * A rank's first run and first park, at set-up: {@code MPI.Init}, opens its out-of-core store
 * with a small array, then parks in {@code BARRIERS} barriers (first argument, default 3). Prints
 * one line {@code FirstPark rank R init NS block NS} with {@link System#nanoTime} (one clock for
 * every JVM of a Linux machine: CLOCK_MONOTONIC) when its {@code MPI.Init} returned and when it
 * entered its first barrier, so that at {@code -nr 1} whoever reads them sees how long a rank
 * ran before its first park, and how long from there until the next rank's {@code Init} returned.
 */
public final class FirstPark {

    private FirstPark() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        long init = System.nanoTime();
        int barriers = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        DoubleArray x = OutOfCore.store().doubles("x", 4096, Residency.SEQUENTIAL);
        for (long i = 0; i < x.length(); i++) {
            x.set(i, i);
        }
        int rank = MPI.COMM_WORLD.getRank();
        long block = System.nanoTime();
        MPI.COMM_WORLD.barrier();
        for (int b = 1; b < barriers; b++) {
            MPI.COMM_WORLD.barrier();
        }
        System.out.println("FirstPark rank " + rank + " init " + init + " block " + block);
        MPI.Finalize();
    }
}
