package io.bdmpi.tests.programs.memory;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Rank 0 sends {@code args[0]} MiB to rank 1, receives them back, drops its array and parks in a
 * receive from rank 1. Rank 1 (run with -nr 1, so it runs while rank 0 is parked) waits a second,
 * then prints rank 0's RSS as "parked rank 0 rssKiB=N" and releases it.
 */
public final class ParkedAfterMessages {

    private static final int TAG_THERE = 0;
    private static final int TAG_BACK = 1;
    private static final int TAG_PID = 2;
    private static final int TAG_RELEASE = 3;

    private ParkedAfterMessages() {
    }

    public static void main(String[] args) throws MPIException, IOException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int bytes = Integer.parseInt(args[0]) << 20;
        long[] pid = new long[1];
        if (rank == 0) {
            byte[] data = new byte[bytes];
            Arrays.fill(data, (byte) 7);
            MPI.COMM_WORLD.send(data, bytes, MPI.BYTE, 1, TAG_THERE);
            MPI.COMM_WORLD.recv(data, bytes, MPI.BYTE, 1, TAG_BACK);
            data = null;
            pid[0] = ProcessHandle.current().pid();
            MPI.COMM_WORLD.send(pid, 1, MPI.LONG, 1, TAG_PID);
            MPI.COMM_WORLD.recv(pid, 1, MPI.LONG, 1, TAG_RELEASE);
        } else if (rank == 1) {
            byte[] data = new byte[bytes];
            MPI.COMM_WORLD.recv(data, bytes, MPI.BYTE, 0, TAG_THERE);
            MPI.COMM_WORLD.send(data, bytes, MPI.BYTE, 0, TAG_BACK);
            data = null;
            MPI.COMM_WORLD.recv(pid, 1, MPI.LONG, 0, TAG_PID);
            Thread.sleep(1000);
            System.out.println("parked rank 0 rssKiB=" + ParkedHeap.rssKiB(pid[0]));
            MPI.COMM_WORLD.send(pid, 1, MPI.LONG, 0, TAG_RELEASE);
        }
        MPI.Finalize();
    }
}
