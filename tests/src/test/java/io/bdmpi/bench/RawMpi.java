package io.bdmpi.bench;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.master.internode.MpiLibrary;

import java.nio.ByteBuffer;

/**
 * The raw-MPI baseline of {@link InternodeBenchmarkTest}: the same transfers as {@link Bandwidth}
 * and {@link PingPong}, made directly between two processes started by {@code mpiexec -n 2} (as the
 * masters of a two-node job are), through the masters' own binding of the MPI library. Every
 * transfer is a nonblocking call tested until complete, yielding in between as the masters' pump
 * does, from reused direct buffers: one copy by MPI, no files. It prints the same measurement lines
 * as the bdmpi programs, on rank 0.
 *
 * <p>Usage: {@code RawMpi bandwidth bytes messages rounds [warmUpRounds]} (rank 0 sends the
 * messages, rank 1 acks with one byte once it has them all; the first {@code warmUpRounds}, default
 * 1, are not reported) or
 * {@code RawMpi pingpong bytes warmUpRoundTrips roundTripsPerBatch batches}.
 */
public final class RawMpi {

    private static final int DATA = 1;
    private static final int ACK = 2;

    private RawMpi() {
    }

    public static void main(String[] args) {
        MpiLibrary mpi = MpiLibrary.load(MpiAbi.choose(System.getenv()));
        mpi.init();
        try {
            if (mpi.size(MpiLibrary.COMM_WORLD) != 2) {
                throw new IllegalArgumentException("RawMpi needs exactly 2 processes, not " + mpi.size(MpiLibrary.COMM_WORLD));
            }
            int rank = mpi.rank(MpiLibrary.COMM_WORLD);
            int[] n = new int[args.length - 1];
            for (int i = 1; i < args.length; i++) {
                n[i - 1] = Integer.parseInt(args[i]);
            }
            switch (args[0]) {
                case "bandwidth" -> bandwidth(mpi, rank, n[0], n[1], n[2], n.length > 3 ? n[3] : 1);
                case "pingpong" -> pingPong(mpi, rank, n[0], n[1], n[2], n[3]);
                default -> throw new IllegalArgumentException("unknown mode " + args[0] + ": bandwidth or pingpong");
            }
        } finally {
            mpi.finish();
        }
    }

    private static void bandwidth(MpiLibrary mpi, int rank, int bytes, int messages, int rounds, int warmUpRounds) {
        ByteBuffer message = ByteBuffer.allocateDirect(bytes);
        ByteBuffer ack = ByteBuffer.allocateDirect(1);
        for (int round = 1 - warmUpRounds; round <= rounds; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < messages; i++) {
                if (rank == 0) {
                    message.put(0, (byte) i).put(bytes - 1, (byte) ~i);
                    transfer(mpi, rank, message, true, DATA);
                } else {
                    transfer(mpi, rank, message, false, DATA);
                    if (message.get(0) != (byte) i || message.get(bytes - 1) != (byte) ~i) {
                        throw new AssertionError("message " + i + " arrived with wrong contents");
                    }
                }
            }
            transfer(mpi, rank, ack, rank == 1, ACK);
            long ns = System.nanoTime() - start;
            if (rank == 0 && round > 0) {
                System.out.println(Measured.line("Bandwidth", "round", round, "bytes", bytes, "messages", messages, "ns", ns));
            }
        }
    }

    private static void pingPong(MpiLibrary mpi, int rank, int bytes, int warmUp, int perBatch, int batches) {
        ByteBuffer message = ByteBuffer.allocateDirect(bytes);
        roundTrips(mpi, rank, message, warmUp);
        for (int b = 0; b < batches; b++) {
            long start = System.nanoTime();
            roundTrips(mpi, rank, message, perBatch);
            long ns = System.nanoTime() - start;
            if (rank == 0) {
                System.out.println(Measured.line("PingPong", "batch", b, "roundTrips", perBatch, "ns", ns));
            }
        }
    }

    private static void roundTrips(MpiLibrary mpi, int rank, ByteBuffer message, int count) {
        for (int i = 0; i < count; i++) {
            transfer(mpi, rank, message, rank == 0, DATA);
            transfer(mpi, rank, message, rank == 1, DATA);
        }
    }

    /** One blocking transfer with the other process, made as the pump makes it: a nonblocking call tested until complete. */
    private static void transfer(MpiLibrary mpi, int rank, ByteBuffer buffer, boolean send, int tag) {
        buffer.clear();
        int peer = 1 - rank;
        int request = send ? mpi.isend(buffer, peer, tag, MpiLibrary.COMM_WORLD) : mpi.irecv(buffer, peer, tag, MpiLibrary.COMM_WORLD);
        while (!mpi.test(request)) {
            Thread.yield(); // as the pump between polls: a pure spin starves the peer when the cores are shared
        }
    }
}
