package io.bdmpi.tests.programs.collectives;

import mpi.MPI;
import mpi.MPIException;

/**
 * Erroneous collective calls the runtime must report (non-zero exit, a clear error on stderr)
 * instead of hanging or returning garbage. Every rank first passes a correct barrier and
 * allReduce; then, by MODE:
 * <ul>
 *   <li>{@code roots}: a bcast where rank 0 names root 0 and the others root 1;</li>
 *   <li>{@code counts}: an allReduce where rank 1 passes count 5 and the others 4;</li>
 *   <li>{@code kinds}: rank 0 calls bcast while the others call reduce (root 0, same count);</li>
 *   <li>{@code blocks}: a reduceScatter of 4 ints where rank 1 splits them 2, 0, 1, 1... and the
 *       others 1, 1, 1, 1... (the same total: only the counts differ);</li>
 *   <li>{@code skip}: the last rank skips an allReduce and calls Finalize; the others wait in it.</li>
 * </ul>
 * Whatever follows the bad call prints an UNEXPECTED line. The program writes nothing to stderr
 * itself, so any error there comes from the runtime. Usage: {@code Mismatch MODE} (needs 3+ ranks).
 */
public final class Mismatch {

    private Mismatch() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        String mode = args[0];
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (size < 3) {
            throw new IllegalArgumentException("Mismatch needs at least 3 ranks");
        }
        MPI.COMM_WORLD.barrier();
        int[] ok = {1};
        MPI.COMM_WORLD.allReduce(ok, 1, MPI.INT, MPI.SUM);
        if (ok[0] != size) {
            System.out.println("UNEXPECTED: correct allReduce gave " + ok[0]);
        }
        System.out.println("Mismatch rank " + rank + " before the bad call");
        int[] buf = new int[8];
        switch (mode) {
            case "roots" -> MPI.COMM_WORLD.bcast(buf, 4, MPI.INT, rank == 0 ? 0 : 1);
            case "counts" -> MPI.COMM_WORLD.allReduce(new int[8], buf, rank == 1 ? 5 : 4, MPI.INT, MPI.SUM);
            case "kinds" -> {
                if (rank == 0) {
                    MPI.COMM_WORLD.bcast(buf, 4, MPI.INT, 0);
                } else {
                    MPI.COMM_WORLD.reduce(new int[4], buf, 4, MPI.INT, MPI.SUM, 0);
                }
            }
            case "blocks" -> {
                int[] counts = new int[size];
                counts[0] = rank == 1 ? 2 : 1;
                counts[1] = rank == 1 ? 0 : 1;
                for (int i = 2; i < size; i++) {
                    counts[i] = 1;
                }
                MPI.COMM_WORLD.reduceScatter(new int[size], buf, counts, MPI.INT, MPI.SUM);
            }
            case "skip" -> {
                if (rank != size - 1) {
                    MPI.COMM_WORLD.allReduce(new int[4], buf, 4, MPI.INT, MPI.SUM);
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        if (!mode.equals("skip") || rank != size - 1) {
            System.out.println("UNEXPECTED: rank " + rank + " returned from the bad call in mode " + mode);
        }
        MPI.Finalize();
    }
}
