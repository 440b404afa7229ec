package io.bdmpi.master.internode;

import java.nio.ByteBuffer;

/**
 * The raw-MPI baseline of the several-node figures, through the same binding: run under
 * {@code mpiexec -n 2}. Rank 0 sends {@code messages} messages of {@code bytes} to rank 1, which
 * acks with one byte (one-way bandwidth, as bench/Bandwidth does between slaves), then the two
 * bounce 8 bytes {@code roundTrips} times (latency, as bench/PingPong). Best of {@code rounds}.
 * Prints {@code RawPingPong MBps=... usPerRoundTrip=...} on rank 0.
 *
 * <p>Usage: {@code RawPingPong bytes messages roundTrips rounds}.
 */
public final class RawPingPong {

    private RawPingPong() {
    }

    public static void main(String[] args) {
        int bytes = Integer.parseInt(args[0]);
        int messages = Integer.parseInt(args[1]);
        int roundTrips = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        MpiLibrary mpi = MpiLibrary.load(MpiAbi.choose(System.getenv()));
        mpi.init();
        int rank = mpi.rank(MpiLibrary.COMM_WORLD);
        int peer = 1 - rank;
        ByteBuffer big = ByteBuffer.allocateDirect(bytes);
        ByteBuffer small = ByteBuffer.allocateDirect(8);
        double bestMBps = 0;
        double bestUs = Double.MAX_VALUE;
        for (int round = 0; round <= rounds; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < messages; i++) {
                transfer(mpi, big, rank == 0, peer);
            }
            transfer(mpi, small.clear().limit(1), rank == 1, peer);
            long t1 = System.nanoTime();
            for (int i = 0; i < roundTrips; i++) {
                transfer(mpi, small.clear(), rank == 0, peer);
                transfer(mpi, small.clear(), rank == 1, peer);
            }
            long t2 = System.nanoTime();
            if (round > 0) { // the first round warms up
                bestMBps = Math.max(bestMBps, (double) bytes * messages / ((t1 - t0) / 1e9) / 1e6);
                bestUs = Math.min(bestUs, (t2 - t1) / 1e3 / roundTrips);
            }
        }
        if (rank == 0) {
            System.out.printf("RawPingPong MBps=%.0f usPerRoundTrip=%.1f%n", bestMBps, bestUs);
        }
        mpi.finish();
    }

    /** One blocking transfer, done as the pump does it: a nonblocking call tested until complete. */
    private static void transfer(MpiLibrary mpi, ByteBuffer b, boolean send, int peer) {
        int req = send ? mpi.isend(b.position(0), peer, 0, MpiLibrary.COMM_WORLD) : mpi.irecv(b.position(0), peer, 0, MpiLibrary.COMM_WORLD);
        while (!mpi.test(req)) {
            Thread.onSpinWait();
        }
    }
}
