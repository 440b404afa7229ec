package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Many ranks, little data: barriers, small allReduces and an allToAllv, each result checked by
 * every rank. Rank r sends rank d {@code (r + d) % 3} ints of value {@code r * 1000003 + d}.
 * Rank 0 prints {@code Crowd ready epochMs T} once all ranks have passed the first barrier; every
 * rank prints {@code Crowd rank R OK}. Arguments are ignored (benchmarks mark their jobs with one).
 */
public final class Crowd {

    private static final int ROUNDS = 3;
    private static final int MULTIPLIER = 1_000_003;

    private Crowd() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            System.out.println("Crowd ready epochMs " + System.currentTimeMillis());
        }
        for (int round = 0; round < ROUNDS; round++) {
            long[] sums = {rank, 1, round};
            MPI.COMM_WORLD.allReduce(sums, 3, MPI.LONG, MPI.SUM);
            Check.equal((long) size * (size - 1) / 2, sums[0], "sum of ranks in round " + round);
            Check.equal(size, sums[1], "count of ranks in round " + round);
            Check.equal((long) size * round, sums[2], "sum of rounds in round " + round);
            int[] max = {rank};
            MPI.COMM_WORLD.allReduce(max, 1, MPI.INT, MPI.MAX);
            Check.equal(size - 1, max[0], "largest rank in round " + round);
            MPI.COMM_WORLD.barrier();
        }
        int[] sendCounts = new int[size];
        int[] sendDispls = new int[size];
        int[] recvCounts = new int[size];
        int[] recvDispls = new int[size];
        int sent = 0;
        int received = 0;
        for (int d = 0; d < size; d++) {
            sendCounts[d] = (rank + d) % 3;
            sendDispls[d] = sent;
            sent += sendCounts[d];
            recvCounts[d] = (d + rank) % 3;
            recvDispls[d] = received;
            received += recvCounts[d];
        }
        int[] send = new int[sent];
        for (int d = 0; d < size; d++) {
            for (int k = 0; k < sendCounts[d]; k++) {
                send[sendDispls[d] + k] = rank * MULTIPLIER + d;
            }
        }
        int[] recv = new int[received];
        MPI.COMM_WORLD.allToAllv(send, sendCounts, sendDispls, MPI.INT, recv, recvCounts, recvDispls, MPI.INT);
        for (int s = 0; s < size; s++) {
            for (int k = 0; k < recvCounts[s]; k++) {
                Check.equal(s * MULTIPLIER + rank, recv[recvDispls[s] + k], "allToAllv element " + k + " from rank " + s);
            }
        }
        MPI.COMM_WORLD.barrier();
        Check.ok("Crowd");
        MPI.Finalize();
    }
}
