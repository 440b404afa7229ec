package io.bdmpi.tests.programs.io;

import mpi.File;
import mpi.MPI;
import mpi.MPIException;

/**
 * A job that dies with files open: every rank writes to {@code DIR/kept} (a file it was told to
 * create) and to {@code DIR/scratch} (opened with {@code MODE_DELETE_ON_CLOSE}), moves the shared
 * pointer, and then rank 1 exits with status 3 before anyone closes them. Afterwards only
 * {@code kept} may be in DIR.
 *
 * <p>Usage: {@code FileCrash DIR}.
 */
public final class FileCrash {

    private FileCrash() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        File kept = new File(MPI.COMM_WORLD, args[0] + "/kept", MPI.MODE_WRONLY | MPI.MODE_CREATE);
        File scratch = new File(MPI.COMM_WORLD, args[0] + "/scratch",
                MPI.MODE_RDWR | MPI.MODE_CREATE | MPI.MODE_DELETE_ON_CLOSE);
        byte[] block = new byte[1 << 16];
        kept.writeAtAll((long) rank * block.length, block, block.length, MPI.BYTE);
        scratch.writeShared(block, block.length, MPI.BYTE);
        MPI.COMM_WORLD.barrier();
        if (rank == 1) {
            System.exit(3);
        }
        MPI.COMM_WORLD.barrier();
        System.out.println("UNEXPECTED: rank " + rank + " got past the barrier");
        MPI.Finalize();
    }
}
