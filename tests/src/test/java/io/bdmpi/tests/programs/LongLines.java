package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Every rank prints lines longer than a slave writes at once, all ranks at the same time: rank r's
 * lines are {@code LENGTH} times the letter 'A' + r, so any line that mixes letters mixes ranks.
 *
 * <p>Usage: {@code LongLines LENGTH LINES}.
 */
public final class LongLines {

    private LongLines() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        String line = String.valueOf((char) ('A' + rank)).repeat(Integer.parseInt(args[0]));
        MPI.COMM_WORLD.barrier();
        for (int i = 0; i < Integer.parseInt(args[1]); i++) {
            System.out.println(line);
        }
        MPI.Finalize();
    }
}
