package io.bdmpi.tests.programs;

import java.nio.IntBuffer;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Cancels racing the messages they would match: the last rank sends N numbered messages to rank 0
 * (every seventh one large, to be spilled under a small {@code -im}), sleeping 1 ms after each;
 * rank 0 posts a receive and, two times out of three, cancels it at once. A cancel that succeeds
 * must leave the message for a later receive, one that fails must deliver it: rank 0 checks that
 * it gets every message exactly once, in order, with its size and contents, and prints
 * {@code CancelRace cancelled C} with the number of cancels that succeeded.
 *
 * <p>Usage: {@code CancelRace [messages [largeInts]]} (defaults 1000, 5000).
 */
public final class CancelRace {

    private static final int TAG = 5;

    private CancelRace() {
    }

    public static void main(String[] args) throws MPIException, InterruptedException {
        args = MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int large = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        int rank = MPI.COMM_WORLD.getRank();
        int sender = MPI.COMM_WORLD.getSize() - 1;
        Check.that(sender > 0, "CancelRace needs at least 2 ranks");
        if (rank == sender) {
            int[] v = new int[large];
            for (int i = 0; i < n; i++) {
                v[0] = i;
                v[large - 1] = -i;
                MPI.COMM_WORLD.send(v, ints(i, large), MPI.INT, 0, TAG);
                Thread.sleep(1);
            }
        } else if (rank == 0) {
            IntBuffer b = MPI.newIntBuffer(large);
            int next = 0;
            int cancelled = 0;
            for (int attempt = 0; next < n; attempt++) {
                Request r = MPI.COMM_WORLD.iRecv(b, large, MPI.INT, sender, TAG);
                if (attempt % 3 != 2) {
                    r.cancel();
                }
                Status s = r.waitStatus();
                if (s.isCancelled()) {
                    cancelled++;
                    continue;
                }
                Check.equal(next, b.get(0), "number of the next message");
                Check.equal(ints(next, large), s.getCount(MPI.INT), "size of message " + next);
                if (ints(next, large) == large) {
                    Check.equal(-next, b.get(large - 1), "last int of message " + next);
                }
                next++;
            }
            Check.that(MPI.COMM_WORLD.iProbe(sender, TAG) == null, "a message left over after all " + n);
            System.out.println("CancelRace cancelled " + cancelled);
        }
        Check.ok("CancelRace");
        MPI.Finalize();
    }

    private static int ints(int message, int large) {
        return message % 7 == 0 ? large : 1;
    }
}
