package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 1 sends large messages to rank 2 without end, four at a time, each round acknowledged, so
 * that the masters of their nodes are nearly always in the middle of moving one (run with
 * {@code -nn 3 -ns 1}: ranks 0, 1 and 2 on nodes 0, 1 and 2). Rank 0 waits for a message that
 * never comes. Rank 2 prints "EndlessStream streaming" once it has received the first round.
 *
 * <p>Usage: {@code EndlessStream bytes}.
 */
public final class EndlessStream {

    private static final int ROUND = 4;
    private static final int ACK_TAG = 1;

    private EndlessStream() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        byte[] message = new byte[Integer.parseInt(args[0])];
        byte[] ack = new byte[1];
        int rank = MPI.COMM_WORLD.getRank();
        Check.equal(3, MPI.COMM_WORLD.getSize(), "ranks");
        if (rank == 0) {
            MPI.COMM_WORLD.recv(ack, 1, MPI.BYTE, 1, ACK_TAG);
        }
        for (long round = 0; rank > 0; round++) {
            for (int j = 0; j < ROUND; j++) {
                if (rank == 1) {
                    MPI.COMM_WORLD.send(message, message.length, MPI.BYTE, 2, 0);
                } else {
                    MPI.COMM_WORLD.recv(message, message.length, MPI.BYTE, 1, 0);
                }
            }
            if (rank == 1) {
                MPI.COMM_WORLD.recv(ack, 1, MPI.BYTE, 2, ACK_TAG);
            } else {
                MPI.COMM_WORLD.send(ack, 1, MPI.BYTE, 1, ACK_TAG);
                if (round == 0) {
                    System.out.println("EndlessStream streaming");
                    System.out.flush();
                }
            }
        }
        MPI.Finalize();
    }
}
