package io.bdmpi.bench;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.ByteBuffer;

/**
 * bdmpi program for {@link PollingBenchmarkTest}: a ping-pong of a small message whose receives
 * complete either by {@code waitFor()} or by a loop on {@code test()}, on both ranks. After a
 * warm-up, rank 0 times batches of round trips and prints one line per batch:
 * {@code PollingPingPong batch=B roundTrips=N ns=T polls=P}, where P counts the fruitless tests of
 * both ranks in the batch (0 with {@code waitFor}).
 *
 * <p>Usage (exactly 2 ranks): {@code PollingPingPong wait|test warmUpRoundTrips roundTripsPerBatch batches}.
 */
public final class PollingPingPong {

    private static final int TAG = 1;
    private static final int BYTES = 8;

    private PollingPingPong() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        boolean poll = args[0].equals("test");
        int warmUp = Integer.parseInt(args[1]);
        int perBatch = Integer.parseInt(args[2]);
        int batches = Integer.parseInt(args[3]);
        Intracomm world = MPI.COMM_WORLD;
        if (world.getSize() != 2) {
            throw new IllegalArgumentException("PollingPingPong needs exactly 2 ranks, not " + world.getSize());
        }
        ByteBuffer message = MPI.newByteBuffer(BYTES);
        long[] polls = new long[1];
        world.barrier();
        int peer = 1 - world.getRank();
        if (world.getRank() == 0) {
            roundTrips(world, message, peer, warmUp, poll, polls, true);
            for (int b = 0; b < batches; b++) {
                polls[0] = 0;
                long start = System.nanoTime();
                roundTrips(world, message, peer, perBatch, poll, polls, true);
                long ns = System.nanoTime() - start;
                long[] all = {polls[0]};
                world.reduce(all, 1, MPI.LONG, MPI.SUM, 0); // the peer's polls of this batch
                System.out.println(Measured.line("PollingPingPong", "batch", b, "roundTrips", perBatch, "ns", ns,
                        "polls", all[0]));
            }
        } else {
            roundTrips(world, message, peer, warmUp, poll, polls, false);
            for (int b = 0; b < batches; b++) {
                polls[0] = 0;
                roundTrips(world, message, peer, perBatch, poll, polls, false);
                world.reduce(new long[] {polls[0]}, 1, MPI.LONG, MPI.SUM, 0);
            }
        }
        MPI.Finalize();
    }

    private static void roundTrips(Intracomm world, ByteBuffer message, int peer, int count, boolean poll, long[] polls,
                                   boolean sendFirst) throws MPIException {
        for (int i = 0; i < count; i++) {
            if (sendFirst) {
                world.send(message, BYTES, MPI.BYTE, peer, TAG);
            }
            Request r = world.iRecv(message, BYTES, MPI.BYTE, peer, TAG);
            if (poll) {
                while (!r.test()) {
                    polls[0]++;
                }
            } else {
                r.waitFor();
            }
            if (!sendFirst) {
                world.send(message, BYTES, MPI.BYTE, peer, TAG);
            }
        }
    }
}
