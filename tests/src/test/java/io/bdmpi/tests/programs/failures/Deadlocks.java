package io.bdmpi.tests.programs.failures;

import mpi.File;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Three kinds of deadlock the runtime must report (each rank's pending call) instead of hanging.
 * Every rank prints {@code Deadlocks rank R blocking at=MILLIS} just before its blocking call.
 *
 * <p>Usage: {@code Deadlocks MODE}, MODE one of
 * <ul>
 *   <li>{@code recv}: rank 0 receives (tag 11) from rank 1, which never sends; the others finalize;</li>
 *   <li>{@code skip}: every rank but the last calls a barrier; the last one receives (tag 12) from rank 0 instead;</li>
 *   <li>{@code cycle}: every rank receives (tag 13) from the next one, nobody sends;</li>
 *   <li>{@code lock}: rank 0 locks rank 0's part of a window exclusively and receives (tag 14) from
 *       rank 1, which asks for the same lock instead of sending; the others finalize;</li>
 *   <li>{@code fence}: over a communicator the program names {@code rows} (a split of COMM_WORLD),
 *       every rank but rank 1 calls a window's fence, while rank 1 calls a barrier of {@code rows}
 *       instead: the report must name the window and {@code rows}, not the runtime's numbers;</li>
 *   <li>{@code dup}: rank 0 duplicates COMM_WORLD while the others receive (tag 16) from it;</li>
 *   <li>{@code win}, {@code file}: rank 0 allocates a window, or opens a file, over COMM_WORLD while the
 *       others receive (tag 17) from it.</li>
 * </ul>
 */
public final class Deadlocks {

    private Deadlocks() {
    }

    public static void main(String[] args) throws MPIException {
        String mode = args[0];
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        MPI.COMM_WORLD.barrier();
        switch (mode) {
            case "recv" -> {
                if (rank == 0) {
                    blocking(rank);
                    MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 11);
                    System.out.println("UNEXPECTED: rank 0 received a message nobody sent");
                }
            }
            case "skip" -> {
                blocking(rank);
                if (rank == size - 1) {
                    MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 12);
                } else {
                    MPI.COMM_WORLD.barrier();
                }
                System.out.println("UNEXPECTED: rank " + rank + " got past its blocking call");
            }
            case "cycle" -> {
                blocking(rank);
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, (rank + 1) % size, 13);
                System.out.println("UNEXPECTED: rank " + rank + " received a message nobody sent");
            }
            case "lock" -> {
                Win win = new Win(rank == 0 ? 1 : 0, 1, MPI.INFO_NULL, MPI.COMM_WORLD, MPI.newIntBuffer(0),
                        Win.FLAVOR_PRIVATE);
                if (rank == 0) {
                    win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                    MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 1, 15);
                    blocking(rank);
                    MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 14);
                    System.out.println("UNEXPECTED: rank 0 received a message nobody sent");
                } else if (rank == 1) {
                    MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 15);
                    blocking(rank);
                    win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                    System.out.println("UNEXPECTED: rank 1 got a lock rank 0 holds");
                }
            }
            case "fence" -> {
                Intracomm rows = MPI.COMM_WORLD.split(0, rank);
                rows.setName("rows");
                Win win = new Win(MPI.newIntBuffer(1), 1, 4, MPI.INFO_NULL, rows);
                win.fence(0);
                blocking(rank);
                if (rank == 1) {
                    rows.barrier();
                } else {
                    win.fence(0);
                }
                System.out.println("UNEXPECTED: rank " + rank + " got past its blocking call");
            }
            case "dup" -> {
                blocking(rank);
                if (rank == 0) {
                    MPI.COMM_WORLD.dup();
                } else {
                    MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 16);
                }
                System.out.println("UNEXPECTED: rank " + rank + " got past its blocking call");
            }
            case "win", "file" -> {
                blocking(rank);
                if (rank != 0) {
                    MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 17);
                } else if (mode.equals("win")) {
                    new Win(1, 1, MPI.INFO_NULL, MPI.COMM_WORLD, MPI.newIntBuffer(0), Win.FLAVOR_PRIVATE);
                } else {
                    // Never made: the open waits for the others before it touches the file system.
                    new File(MPI.COMM_WORLD, "deadlocks-never-made", MPI.MODE_CREATE | MPI.MODE_RDWR);
                }
                System.out.println("UNEXPECTED: rank " + rank + " got past its blocking call");
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        MPI.Finalize();
    }

    private static void blocking(int rank) {
        System.out.println("Deadlocks rank " + rank + " blocking at=" + System.currentTimeMillis());
    }
}
