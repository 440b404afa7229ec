package io.bdmpi.bench;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * bdmpi program for {@link PingPongBenchmarkTest}: rank 0 sends a small message to rank 1, which sends
 * it straight back. After a warm-up, rank 0 times batches of round trips with
 * {@link System#nanoTime} and prints one line per batch:
 * {@code PingPong batch=B roundTrips=N ns=T}. Under {@code -nr 1} every message is a context switch:
 * the sender parks in its receive and the master resumes the other rank.
 *
 * <p>Usage (exactly 2 ranks): {@code PingPong bytes warmUpRoundTrips roundTripsPerBatch batches}.
 */
public final class PingPong {

    private static final int TAG = 1;

    private PingPong() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int bytes = Integer.parseInt(args[0]);
        int warmUp = Integer.parseInt(args[1]);
        int perBatch = Integer.parseInt(args[2]);
        int batches = Integer.parseInt(args[3]);
        Intracomm world = MPI.COMM_WORLD;
        if (world.getSize() != 2) {
            throw new IllegalArgumentException("PingPong needs exactly 2 ranks, not " + world.getSize());
        }
        byte[] message = new byte[bytes];
        world.barrier();
        if (world.getRank() == 0) {
            ping(world, message, warmUp);
            for (int b = 0; b < batches; b++) {
                long start = System.nanoTime();
                ping(world, message, perBatch);
                long ns = System.nanoTime() - start;
                System.out.println(Measured.line("PingPong", "batch", b, "roundTrips", perBatch, "ns", ns));
            }
        } else {
            pong(world, message, warmUp + (long) perBatch * batches);
        }
        MPI.Finalize();
    }

    private static void ping(Intracomm world, byte[] message, int roundTrips) throws MPIException {
        for (int i = 0; i < roundTrips; i++) {
            world.send(message, message.length, MPI.BYTE, 1, TAG);
            world.recv(message, message.length, MPI.BYTE, 1, TAG);
        }
    }

    private static void pong(Intracomm world, byte[] message, long roundTrips) throws MPIException {
        for (long i = 0; i < roundTrips; i++) {
            world.recv(message, message.length, MPI.BYTE, 0, TAG);
            world.send(message, message.length, MPI.BYTE, 0, TAG);
        }
    }
}
