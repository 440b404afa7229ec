package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 0 sends rank 1 a message of exactly {@code -im} bytes and one of {@code -im + 1} bytes; the
 * end-to-end test checks in the statistics that the first stayed inline and the second was spilled.
 *
 * <p>Usage: {@code Threshold IM}.
 */
public final class Threshold {

    private Threshold() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int im = Integer.parseInt(args[0]);
        int rank = MPI.COMM_WORLD.getRank();
        if (rank == 0) {
            MPI.COMM_WORLD.send(bytes(im), im, MPI.BYTE, 1, 1);
            MPI.COMM_WORLD.send(bytes(im + 1), im + 1, MPI.BYTE, 1, 2);
        } else if (rank == 1) {
            for (int n : new int[] {im, im + 1}) {
                byte[] b = new byte[n];
                MPI.COMM_WORLD.recv(b, n, MPI.BYTE, 0, n == im ? 1 : 2);
                byte[] e = bytes(n);
                for (int i = 0; i < n; i++) {
                    Check.equal(e[i], b[i], "byte " + i + " of the " + n + "-byte message");
                }
            }
        }
        Check.ok("Threshold");
        MPI.Finalize();
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + n);
        }
        return b;
    }
}
