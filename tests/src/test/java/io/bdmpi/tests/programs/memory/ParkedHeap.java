package io.bdmpi.tests.programs.memory;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Rank 0 fills {@code args[0]} MiB of heap, drops it, and parks in a receive from rank 1. Rank 1
 * (run with -nr 1, so it runs while rank 0 is parked) waits a second, then prints rank 0's RSS as
 * "parked rank 0 rssKiB=N" and releases it.
 */
public final class ParkedHeap {

    private ParkedHeap() {
    }

    public static void main(String[] args) throws MPIException, IOException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        long[] pid = new long[1];
        if (rank == 0) {
            byte[][] data = new byte[Integer.parseInt(args[0])][];
            for (int i = 0; i < data.length; i++) {
                data[i] = new byte[1 << 20];
                java.util.Arrays.fill(data[i], (byte) i);
            }
            data = null;
            pid[0] = ProcessHandle.current().pid();
            MPI.COMM_WORLD.send(pid, 1, MPI.LONG, 1, 0);
            MPI.COMM_WORLD.recv(pid, 1, MPI.LONG, 1, 1);
        } else if (rank == 1) {
            MPI.COMM_WORLD.recv(pid, 1, MPI.LONG, 0, 0);
            Thread.sleep(1000);
            System.out.println("parked rank 0 rssKiB=" + rssKiB(pid[0]));
            MPI.COMM_WORLD.send(pid, 1, MPI.LONG, 0, 1);
        }
        MPI.Finalize();
    }

    /** VmRSS of process {@code pid}, in KiB. */
    static long rssKiB(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS in /proc/" + pid + "/status");
    }
}
