package io.bdmpi.examples;

import mpi.MPI;
import mpi.MPIException;

/**
 * Open MPI's ring example, then a large array once around the ring.
 *
 * <p>First an {@code int[1]} token goes around the ring with blocking send and receive (tag 50):
 * rank 0 starts it at 10 and decrements it each time it comes back; every rank passes the 0 on
 * and leaves the loop, and rank 0 drains the last message.
 *
 * <p>Then rank 0 fills an array (default 4 MiB of ints; {@code args[0]} sets its size in bytes)
 * with a fixed pattern and sends it around the ring once. Every rank checks what it receives, adds
 * 1 to every element and passes it on; rank 0 checks the array that comes back, carrying one
 * increment per rank, and prints {@code Ring: ... OK}. A rank that finds a wrong element prints
 * where and aborts the job with a non-zero code.
 *
 * <pre>bdmpiexec -ns 8 -nr 2 -cp examples.jar io.bdmpi.examples.Ring [bytes]</pre>
 */
public final class Ring {

    /** Tag of every message, as in Open MPI's Ring.java. */
    static final int TAG = 50;
    /** Default size of the large array, in bytes. */
    static final int DEFAULT_BYTES = 4 * 1024 * 1024;
    /** Error code of a rank that received wrong data. */
    static final int EXIT_BAD_DATA = 3;

    private Ring() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;

        passToken(rank, size, next, prev);

        int bytes = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_BYTES;
        passArray(Math.max(1, bytes / Integer.BYTES), rank, size, next, prev);

        MPI.Finalize();
    }

    /** Open MPI's Ring.java, unchanged in substance. */
    private static void passToken(int rank, int size, int next, int prev) throws MPIException {
        int[] message = new int[1];
        if (rank == 0) {
            message[0] = 10;
            System.out.println("Process 0 sending " + message[0] + " to " + next + ", tag " + TAG
                    + " (" + size + " processes in ring)");
            MPI.COMM_WORLD.send(message, 1, MPI.INT, next, TAG);
            System.out.println("Process 0 sent to " + next);
        }
        while (true) {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, TAG);
            if (rank == 0) {
                message[0]--;
                System.out.println("Process 0 decremented value: " + message[0]);
            }
            MPI.COMM_WORLD.send(message, 1, MPI.INT, next, TAG);
            if (message[0] == 0) {
                System.out.println("Process " + rank + " exiting");
                break;
            }
        }
        // The last process sends one more message to rank 0, which must be received before exiting.
        if (rank == 0) {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, TAG);
        }
    }

    private static void passArray(int n, int rank, int size, int next, int prev) throws MPIException {
        int[] data = new int[n];
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                data[i] = pattern(i);
            }
            MPI.COMM_WORLD.send(data, n, MPI.INT, next, TAG);
            MPI.COMM_WORLD.recv(data, n, MPI.INT, prev, TAG);
            check(data, size - 1, rank, prev);
            System.out.println("Ring: " + n * Integer.BYTES + " bytes passed around " + size + " ranks: OK");
        } else {
            MPI.COMM_WORLD.recv(data, n, MPI.INT, prev, TAG);
            check(data, rank - 1, rank, prev);
            for (int i = 0; i < n; i++) {
                data[i]++;
            }
            MPI.COMM_WORLD.send(data, n, MPI.INT, next, TAG);
        }
    }

    /** Element {@code i} as rank 0 sends it. */
    static int pattern(int i) {
        return i * 0x9E3779B1 + 12345;
    }

    private static void check(int[] data, int increments, int rank, int from) throws MPIException {
        for (int i = 0; i < data.length; i++) {
            int expected = pattern(i) + increments;
            if (data[i] != expected) {
                System.err.println("Ring: rank " + rank + " received a bad array from rank " + from + ": element " + i
                        + " of " + data.length + " is " + data[i] + ", expected " + expected);
                MPI.COMM_WORLD.abort(EXIT_BAD_DATA);
                System.exit(EXIT_BAD_DATA); // abort does not return; this is in case it did
            }
        }
    }
}
