package io.bdmpi.tests.programs;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

import java.nio.DoubleBuffer;

/**
 * {@code sendRecv} and {@code sendRecvReplace} around the ring (works with one rank too: it then
 * talks to itself). Each rank sends its own values to the next rank and receives the previous
 * rank's, for a small and a large count (over a small {@code -im}):
 * <ol>
 *   <li>sendRecv with specific source and tag;</li>
 *   <li>sendRecv with ANY_SOURCE + ANY_TAG: the status names the previous rank and its tag;</li>
 *   <li>sendRecvReplace on an int[];</li>
 *   <li>sendRecvReplace on a direct DoubleBuffer.</li>
 * </ol>
 *
 * <p>Usage: {@code SendRecv [largeCount]} (default 20000).
 */
public final class SendRecv {

    private SendRecv() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int large = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;

        for (int n : new int[] {5, large}) {
            // 1. sendRecv, specific source and tag.
            int[] out = values(rank, n, 1);
            int[] in = new int[n];
            Status st = MPI.COMM_WORLD.sendRecv(out, n, MPI.INT, next, 11, in, n, MPI.INT, prev, 11);
            checkStatus(st, prev, 11, n, MPI.INT, "sendRecv of " + n);
            checkInts(in, values(prev, n, 1), "sendRecv of " + n);

            // 2. sendRecv receiving with wildcards; the receive count is larger than the message.
            out = values(rank, n, 2);
            in = new int[n + 10];
            st = MPI.COMM_WORLD.sendRecv(out, n, MPI.INT, next, 20 + rank, in, n + 10, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            checkStatus(st, prev, 20 + prev, n, MPI.INT, "sendRecv(ANY_SOURCE, ANY_TAG) of " + n);
            checkInts(java.util.Arrays.copyOf(in, n), values(prev, n, 2), "sendRecv(ANY_SOURCE, ANY_TAG) of " + n);

            // 3. sendRecvReplace on an array.
            int[] buf = values(rank, n, 3);
            st = MPI.COMM_WORLD.sendRecvReplace(buf, n, MPI.INT, next, 33, prev, 33);
            checkStatus(st, prev, 33, n, MPI.INT, "sendRecvReplace(int[]) of " + n);
            checkInts(buf, values(prev, n, 3), "sendRecvReplace(int[]) of " + n);

            // 4. sendRecvReplace on a direct buffer.
            DoubleBuffer db = MPI.newDoubleBuffer(n);
            for (int i = 0; i < n; i++) {
                db.put(i, rank * 1e6 + i + 0.25);
            }
            st = MPI.COMM_WORLD.sendRecvReplace(db, n, MPI.DOUBLE, next, 44, MPI.ANY_SOURCE, 44);
            checkStatus(st, prev, 44, n, MPI.DOUBLE, "sendRecvReplace(DoubleBuffer) of " + n);
            for (int i = 0; i < n; i++) {
                if (db.get(i) != prev * 1e6 + i + 0.25) {
                    throw Check.fail("sendRecvReplace(DoubleBuffer) of " + n + ": element " + i + " is " + db.get(i)
                            + ", expected " + (prev * 1e6 + i + 0.25));
                }
            }
        }
        Check.ok("SendRecv");
        MPI.Finalize();
    }

    private static int[] values(int rank, int n, int round) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = rank * 1_000_000 + round * 100_000 + i;
        }
        return a;
    }

    private static void checkStatus(Status st, int source, int tag, int n, Datatype type, String what) throws MPIException {
        Check.equal(source, st.getSource(), what + ": status source");
        Check.equal(tag, st.getTag(), what + ": status tag");
        Check.equal(n, st.getCount(type), what + ": status count");
    }

    private static void checkInts(int[] got, int[] expected, String what) {
        for (int i = 0; i < expected.length; i++) {
            if (got[i] != expected[i]) {
                throw Check.fail(what + ": element " + i + " is " + got[i] + ", expected " + expected[i]);
            }
        }
    }
}
