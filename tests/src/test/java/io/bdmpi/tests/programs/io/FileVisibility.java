package io.bdmpi.tests.programs.io;

import mpi.BDMPI;
import mpi.File;
import mpi.MPI;
import mpi.MPIException;

/**
 * Opens a node-local file on a communicator over several nodes, which must be refused. On one
 * machine a node-local path is emulated by a directory per node: every rank opens
 * {@code DIR/node<its node>/data}, one name that means another file on each node, as
 * {@code /scratch/data} would on a cluster. Twice: first the file exists on no node (rank 0 creates
 * its own: the others find none), then on every node as a file of its own (the others find another
 * file than rank 0's). Each open must fail with {@code MPI.ERR_FILE} on every rank, and the file
 * rank 0 created must be gone afterwards. Prints "FileVisibility rank R OK".
 *
 * <p>Usage: {@code FileVisibility DIR}.
 */
public final class FileVisibility {

    private FileVisibility() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        java.nio.file.Path local = java.nio.file.Path.of(args[0], "node" + BDMPI.getNodeRank(MPI.COMM_WORLD), "data");
        refused(local, MPI.MODE_RDWR | MPI.MODE_CREATE, "a file only rank 0's node has");
        MPI.COMM_WORLD.barrier();
        if (java.nio.file.Files.exists(local) && rank == 0) {
            throw new AssertionError("CHECK FAILED: the refused open left " + local + " behind");
        }
        if (BDMPI.getLocalRank(MPI.COMM_WORLD) == 0) {
            try {
                java.nio.file.Files.write(local, new byte[] {(byte) rank});
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        }
        MPI.COMM_WORLD.barrier();
        refused(local, MPI.MODE_RDONLY, "a file of its own on every node");
        System.out.println("FileVisibility rank " + rank + " OK");
        MPI.Finalize();
    }

    private static void refused(java.nio.file.Path path, int amode, String what) {
        try {
            new File(MPI.COMM_WORLD, path.toString(), amode).close();
        } catch (MPIException e) {
            if (e.getErrorClass() != MPI.ERR_FILE || !e.getMessage().contains("not visible on node")) {
                throw new AssertionError("CHECK FAILED: " + what + ": expected ERR_FILE, got " + e.getErrorClass() + ": "
                        + e.getMessage());
            }
            System.out.println("refused: " + e.getMessage());
            return;
        }
        throw new AssertionError("CHECK FAILED: " + what + " was opened on several nodes");
    }
}
