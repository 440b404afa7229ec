package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

import java.util.Arrays;

/**
 * Streams of large messages from rank 0 to a slow rank 1 on another node (run with {@code -nn 2
 * -ns 1}), each several of the masters' 8 MiB chunks long, so the receiving master takes them into
 * recycled spill files: new ones in the first round, then files earlier messages wrote, received
 * into in place, some growing past what they held (the rest written) and some holding a shorter
 * message than before. Every round rank 0 sends all its messages at once; rank 1 sleeps before each
 * receive, so they pile up in its master's files while it reads the others, receives into a buffer
 * longer than any message filled with -1, and checks the count, every element, and that nothing
 * past the message changed; then it acknowledges the round.
 *
 * <p>Mode {@code hold}: in round 2, rank 1 prints "LargeStream rank 1 round 2" before its first
 * receive, while round 2's messages stream in, and sleeps on, for the test to kill its master.
 *
 * <p>Usage: {@code LargeStream rounds messages minBytes maxBytes delayMs [check|hold]}.
 */
public final class LargeStream {

    private static final int ACK_TAG = 999_999;

    private LargeStream() {
    }

    public static void main(String[] args) throws MPIException, InterruptedException {
        args = MPI.Init(args);
        int rounds = Integer.parseInt(args[0]);
        int m = Integer.parseInt(args[1]);
        int minLongs = Integer.parseInt(args[2]) / Long.BYTES;
        int maxLongs = Integer.parseInt(args[3]) / Long.BYTES;
        long delayMs = Long.parseLong(args[4]);
        boolean hold = args.length > 5 && args[5].equals("hold");
        int rank = MPI.COMM_WORLD.getRank();
        Check.equal(2, MPI.COMM_WORLD.getSize(), "ranks");
        long[] ack = new long[1];
        long[] got = new long[maxLongs];
        for (int round = 0; round < rounds; round++) {
            if (rank == 0) {
                for (int j = 0; j < m; j++) {
                    int tag = round * m + j;
                    int n = length(tag, minLongs, maxLongs);
                    MPI.COMM_WORLD.send(content(tag, n), n, MPI.LONG, 1, tag);
                }
                MPI.COMM_WORLD.recv(ack, 1, MPI.LONG, 1, ACK_TAG);
            } else {
                if (hold && round == 2) {
                    System.out.println("LargeStream rank 1 round 2");
                    System.out.flush();
                    Thread.sleep(120_000);
                }
                for (int j = 0; j < m; j++) {
                    Thread.sleep(delayMs);
                    int tag = round * m + j;
                    Arrays.fill(got, -1);
                    Status st = MPI.COMM_WORLD.recv(got, maxLongs, MPI.LONG, 0, tag);
                    check(got, st.getCount(MPI.LONG), tag, length(tag, minLongs, maxLongs));
                }
                MPI.COMM_WORLD.send(ack, 1, MPI.LONG, 0, ACK_TAG);
            }
        }
        Check.ok("LargeStream");
        MPI.Finalize();
    }

    /** Lengths spread over [min, max] in an order that makes files grow and shrink from round to round. */
    private static int length(int tag, int minLongs, int maxLongs) {
        return minLongs + (int) ((tag * 2_654_435_761L) % (maxLongs - minLongs + 1));
    }

    private static long[] content(int tag, int n) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = value(tag, i);
        }
        return a;
    }

    private static long value(int tag, int i) {
        return tag * 1_000_000_007L + i * 31L + 1;
    }

    private static void check(long[] got, int count, int tag, int expectedCount) {
        Check.equal(expectedCount, count, "count of message " + tag);
        for (int i = 0; i < got.length; i++) {
            long expected = i < count ? value(tag, i) : -1;
            if (got[i] != expected) {
                throw Check.fail("element " + i + " of message " + tag + " (" + count + " longs) is " + got[i]
                        + ", expected " + expected);
            }
        }
    }
}
