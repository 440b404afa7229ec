package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.nio.IntBuffer;

/**
 * Ranks that wait by polling, as many Open MPI programs do: every wait of this program is a loop on
 * {@code test}, {@code testAll}, {@code testAny}, {@code testSome}, {@code getStatus} or
 * {@code iProbe}, never a blocking call. Pairs of ranks (0-1, 2-3, ...) exchange {@code rounds}
 * messages: the odd rank sends first, then polls for the reply; the even rank polls for the odd
 * one's message before it sends, so at {@code -nr 1} it may hold the only slot while its partner
 * has yet to send. Each round also polls a nonblocking barrier and allReduce of the whole world
 * among the receives. Results are checked; each rank prints how many polls it made.
 *
 * <p>Args: {@code rounds} (default 20).
 */
public final class Polling {

    private static final int TAG = 4;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Check.that(size % 2 == 0, "needs an even number of ranks");
        int partner = rank ^ 1;
        long polls = 0;
        for (int round = 0; round < rounds; round++) {
            IntBuffer in = MPI.newIntBuffer(2);
            IntBuffer out = MPI.newIntBuffer(2).put(0, rank).put(1, round);
            IntBuffer sum = MPI.newIntBuffer(1).put(0, rank);
            if (rank % 2 == 0) {
                // The receive is posted and polled before the partner has run at all.
                Request recv = MPI.COMM_WORLD.iRecv(in, 2, MPI.INT, partner, TAG);
                polls += pollOne(round, recv);
                Request send = MPI.COMM_WORLD.iSend(out, 2, MPI.INT, partner, TAG);
                polls += pollAll(new Request[] {send, MPI.COMM_WORLD.iBarrier(),
                        MPI.COMM_WORLD.iAllReduce(sum, 1, MPI.INT, MPI.SUM)});
            } else {
                Request send = MPI.COMM_WORLD.iSend(out, 2, MPI.INT, partner, TAG);
                while (MPI.COMM_WORLD.iProbe(partner, TAG) == null) {
                    polls++;
                }
                Request recv = MPI.COMM_WORLD.iRecv(in, 2, MPI.INT, partner, TAG);
                Status st;
                while ((st = recv.getStatus()) == null) {
                    polls++;
                }
                Check.equal(partner, st.getSource(), "source from getStatus");
                recv.waitFor();
                Request[] rest = {send, MPI.COMM_WORLD.iBarrier(), MPI.COMM_WORLD.iAllReduce(sum, 1, MPI.INT, MPI.SUM)};
                polls += pollSome(rest);
            }
            Check.equal(partner, in.get(0), "round " + round + ": sender");
            Check.equal(round, in.get(1), "round " + round + ": round");
            Check.equal((long) size * (size - 1) / 2, sum.get(0), "round " + round + ": allReduce");
        }
        System.out.println("Polling rank " + rank + " polled " + polls + " times");
        Check.ok("Polling");
        MPI.Finalize();
    }

    /** test() until done, alternating with testAny over the one request. */
    private static long pollOne(int round, Request r) throws MPIException {
        long polls = 0;
        while (round % 2 == 0 ? !r.test() : Request.testAny(new Request[] {r}) == MPI.UNDEFINED) {
            polls++;
        }
        return polls;
    }

    private static long pollAll(Request[] rs) throws MPIException {
        long polls = 0;
        while (!Request.testAll(rs)) {
            polls++;
        }
        return polls;
    }

    /** testSome until every request has been reported once. */
    private static long pollSome(Request[] rs) throws MPIException {
        long polls = 0;
        int done = 0;
        while (done < rs.length) {
            int[] some = Request.testSome(rs);
            if (some == null || some.length == 0) {
                polls++;
            } else {
                done += some.length;
            }
        }
        return polls;
    }
}
