package io.bdmpi.bench;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * bdmpi program for {@link BandwidthBenchmarkTest}: rank 0 sends {@code messages} messages of
 * {@code bytes} bytes to rank 1, which receives them all and answers with a one-byte ack; rank 0
 * times from its first send to the ack. The first rounds warm up and are not reported; each
 * following round prints {@code Bandwidth round=R bytes=B messages=M ns=T}. Rank 1 checks a marker
 * at both ends of every message, so a benchmark cannot pass on data that never arrived.
 *
 * <p>Usage (exactly 2 ranks): {@code Bandwidth bytes messages rounds [warmUpRounds]}: the first
 * {@code warmUpRounds} rounds (default 1) are not reported, then {@code rounds} are.
 */
public final class Bandwidth {

    private static final int DATA = 1;
    private static final int ACK = 2;

    private Bandwidth() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int bytes = Integer.parseInt(args[0]);
        int messages = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int warmUpRounds = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        Intracomm world = MPI.COMM_WORLD;
        if (world.getSize() != 2) {
            throw new IllegalArgumentException("Bandwidth needs exactly 2 ranks, not " + world.getSize());
        }
        byte[] message = new byte[bytes];
        byte[] ack = new byte[1];
        world.barrier();
        for (int round = 1 - warmUpRounds; round <= rounds; round++) {
            if (world.getRank() == 0) {
                long start = System.nanoTime();
                for (int i = 0; i < messages; i++) {
                    mark(message, i);
                    world.send(message, bytes, MPI.BYTE, 1, DATA);
                }
                world.recv(ack, 1, MPI.BYTE, 1, ACK);
                long ns = System.nanoTime() - start;
                if (round > 0) {
                    System.out.println(Measured.line("Bandwidth",
                            "round", round, "bytes", bytes, "messages", messages, "ns", ns));
                }
            } else {
                for (int i = 0; i < messages; i++) {
                    world.recv(message, bytes, MPI.BYTE, 0, DATA);
                    checkMark(message, i);
                }
                world.send(ack, 1, MPI.BYTE, 0, ACK);
            }
        }
        MPI.Finalize();
    }

    private static void mark(byte[] message, int index) {
        message[0] = (byte) index;
        message[message.length - 1] = (byte) ~index;
    }

    private static void checkMark(byte[] message, int index) {
        if (message[0] != (byte) index || message[message.length - 1] != (byte) ~index) {
            throw new AssertionError("message " + index + " arrived with wrong contents");
        }
    }
}
