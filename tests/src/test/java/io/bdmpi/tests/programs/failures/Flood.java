package io.bdmpi.tests.programs.failures;

import mpi.MPI;
import mpi.MPIException;

import java.io.File;
import java.util.Arrays;

/**
 * Fills a small disk: rank 0 sends rank 1 a 2 MiB message (which fits) and then one of
 * {@code BIG_MIB} MiB (which does not); run with a small {@code -im} so both go through spill files.
 *
 * <p>{@code Flood fatal BIG_MIB}: under the default handler the second send ends the job. Rank 0
 * prints {@code INJECT rank 0 pid P flood at=MILLIS} just before it.
 * <p>{@code Flood return BIG_MIB}: under {@code ERRORS_RETURN} rank 0 gets the error, checks that no
 * file of its own is left in the spill directory, prints {@code Flood error class=C msg=M}, and
 * tells rank 1, which must never have received the big message; both end normally.
 */
public final class Flood {

    private static final int MIB_INTS = 256 * 1024;

    private Flood() {
    }

    public static void main(String[] args) throws MPIException {
        boolean fatal = args[0].equals("fatal");
        int bigMib = Integer.parseInt(args[1]);
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        if (!fatal) {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        }
        if (rank == 0) {
            int[] small = new int[2 * MIB_INTS];
            Arrays.fill(small, 7);
            MPI.COMM_WORLD.send(small, small.length, MPI.INT, 1, 1);
            MPI.COMM_WORLD.barrier(); // rank 1 has read (and so deleted) the small message
            int[] big = new int[bigMib * MIB_INTS];
            if (fatal) {
                System.out.println("INJECT rank 0 pid " + ProcessHandle.current().pid() + " flood at=" + System.currentTimeMillis());
            }
            int outcome = 0;
            try {
                MPI.COMM_WORLD.send(big, big.length, MPI.INT, 1, 2);
                System.out.println("UNEXPECTED: a " + bigMib + " MiB message fit the disk");
            } catch (MPIException e) {
                System.out.println("Flood error class=" + e.getErrorClass() + " msg=" + e.getMessage());
                String[] left = new File(System.getenv("BDMPI_SPILL_DIR")).list((d, n) -> n.startsWith("r0-"));
                if (left == null || left.length > 0) {
                    System.out.println("UNEXPECTED: files left in the spill directory: " + Arrays.toString(left));
                }
                outcome = 1;
            }
            MPI.COMM_WORLD.send(new int[] {outcome}, 1, MPI.INT, 1, 3);
        } else {
            int[] small = new int[2 * MIB_INTS];
            MPI.COMM_WORLD.recv(small, small.length, MPI.INT, 0, 1);
            if (small[0] != 7 || small[small.length - 1] != 7) {
                System.out.println("UNEXPECTED: the small message arrived damaged");
            }
            System.out.println("Flood rank 1 received the small message");
            MPI.COMM_WORLD.barrier();
            int[] outcome = new int[1];
            MPI.COMM_WORLD.recv(outcome, 1, MPI.INT, 0, 3);
            if (MPI.COMM_WORLD.iProbe(0, 2) != null) {
                System.out.println("UNEXPECTED: a big message is waiting although its send failed");
            }
        }
        MPI.Finalize();
        System.out.println("Flood rank " + rank + " OK");
    }
}
