package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A rank that holds its slot without any MPI call: the first rank through {@code MPI.Init} spins on
 * a flag (a file) that only another rank sets, after its own {@code MPI.Init}. At {@code -nr 1} the
 * other rank can only get there if the master takes the slot from the spinner (the quantum); the
 * spinner gives up after {@code timeoutSeconds} and fails. With mode {@code abort}, the other rank
 * aborts the job (error code 7) instead, which must end it although the spinner never calls MPI;
 * with mode {@code hold} it says {@code Spinner set the flag} and sleeps for the timeout, so that
 * a test can kill the job while the spinner is stopped.
 *
 * <p>Args: {@code flagDir mode(barrier|abort|hold) timeoutSeconds}.
 */
public final class Spinner {

    public static void main(String[] args) throws MPIException, IOException, InterruptedException {
        MPI.Init(args);
        Path dir = Path.of(args[0]);
        boolean abort = args[1].equals("abort");
        long timeoutNs = (long) (Double.parseDouble(args[2]) * 1e9);
        int rank = MPI.COMM_WORLD.getRank();
        boolean first;
        try {
            Files.createFile(dir.resolve("first"));
            first = true;
        } catch (FileAlreadyExistsException e) {
            first = false;
        }
        if (first) {
            long start = System.nanoTime();
            Path flag = dir.resolve("flag");
            long spins = 0;
            while (!Files.exists(flag)) {
                spins++;
                Check.that(System.nanoTime() - start < timeoutNs, "spun " + spins + " times: nobody set the flag");
            }
            System.out.println("Spinner rank " + rank + " saw the flag after " + (System.nanoTime() - start) / 1_000_000 + " ms");
        } else {
            Files.createFile(dir.resolve("flag"));
            if (abort) {
                MPI.COMM_WORLD.abort(7);
            }
            if (args[1].equals("hold")) {
                System.out.println("Spinner set the flag");
                Thread.sleep(timeoutNs / 1_000_000);
            }
        }
        MPI.COMM_WORLD.barrier();
        Check.ok("Spinner");
        MPI.Finalize();
    }
}
