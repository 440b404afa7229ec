package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Wildcard receives. Every rank s &gt; 0 sends to rank 0; rank 0 receives with ANY_SOURCE and/or
 * ANY_TAG and checks that each Status names the real source and tag (never a wildcard) and the
 * real count, which is smaller than the receive count. Phases are separated by barriers so that a
 * wildcard receive can only match messages of its own phase.
 *
 * <p>Usage: {@code AnySource [largeInts]} (default 5000: 20 KB, over a small {@code -im}).
 */
public final class AnySource {

    private AnySource() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int large = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Check.that(size >= 2, "AnySource needs at least 2 ranks");

        // A: ANY_SOURCE + ANY_TAG; sender s sends s+1 ints with tag 100+s.
        if (rank == 0) {
            boolean[] seen = new boolean[size];
            int[] buf = new int[size + 8];
            for (int k = 1; k < size; k++) {
                Status st = MPI.COMM_WORLD.recv(buf, buf.length, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                int s = st.getSource();
                Check.that(s >= 1 && s < size, "A: ANY_SOURCE status source " + s + " is not a sender rank");
                Check.that(!seen[s], "A: message from rank " + s + " received twice");
                seen[s] = true;
                Check.equal(100 + s, st.getTag(), "A: ANY_TAG status tag of the message from rank " + s);
                Check.equal(s + 1, st.getCount(MPI.INT), "A: count of the message from rank " + s);
                for (int i = 0; i <= s; i++) {
                    Check.equal(s * 1000 + i, buf[i], "A: element " + i + " from rank " + s);
                }
            }
        } else {
            int[] msg = new int[rank + 1];
            for (int i = 0; i <= rank; i++) {
                msg[i] = rank * 1000 + i;
            }
            MPI.COMM_WORLD.send(msg, msg.length, MPI.INT, 0, 100 + rank);
        }
        MPI.COMM_WORLD.barrier();

        // B: specific source + ANY_TAG; each sender sends tag 8, then tag 7: they arrive in that order.
        if (rank == 0) {
            int[] buf = new int[4];
            for (int s = size - 1; s >= 1; s--) {
                for (int expectedTag : new int[] {8, 7}) {
                    Status st = MPI.COMM_WORLD.recv(buf, buf.length, MPI.INT, s, MPI.ANY_TAG);
                    Check.equal(s, st.getSource(), "B: source of recv(" + s + ", ANY_TAG)");
                    Check.equal(expectedTag, st.getTag(), "B: tag of recv(" + s + ", ANY_TAG) (send order)");
                    Check.equal(2, st.getCount(MPI.INT), "B: count");
                    Check.equal(s * 10 + expectedTag, buf[0], "B: payload");
                }
            }
        } else {
            MPI.COMM_WORLD.send(new int[] {rank * 10 + 8, 0}, 2, MPI.INT, 0, 8);
            MPI.COMM_WORLD.send(new int[] {rank * 10 + 7, 0}, 2, MPI.INT, 0, 7);
        }
        MPI.COMM_WORLD.barrier();

        // C: ANY_SOURCE + specific tag; each sender sends tag 21, then tag 20; rank 0 takes all 20s first.
        if (rank == 0) {
            double[] buf = new double[3];
            for (int tag : new int[] {20, 21}) {
                boolean[] seen = new boolean[size];
                for (int k = 1; k < size; k++) {
                    Status st = MPI.COMM_WORLD.recv(buf, buf.length, MPI.DOUBLE, MPI.ANY_SOURCE, tag);
                    int s = st.getSource();
                    Check.that(s >= 1 && s < size && !seen[s], "C: bad or repeated source " + s + " for tag " + tag);
                    seen[s] = true;
                    Check.equal(tag, st.getTag(), "C: tag of recv(ANY_SOURCE, " + tag + ")");
                    Check.equal(1, st.getCount(MPI.DOUBLE), "C: count");
                    Check.that(buf[0] == s + tag / 100.0, "C: payload " + buf[0] + " from rank " + s + " tag " + tag);
                }
            }
        } else {
            MPI.COMM_WORLD.send(new double[] {rank + 0.21}, 1, MPI.DOUBLE, 0, 21);
            MPI.COMM_WORLD.send(new double[] {rank + 0.20}, 1, MPI.DOUBLE, 0, 20);
        }
        MPI.COMM_WORLD.barrier();

        // D: large messages (through spill files under a small -im) with ANY_SOURCE + ANY_TAG.
        if (rank == 0) {
            int[] buf = new int[large + size];
            boolean[] seen = new boolean[size];
            for (int k = 1; k < size; k++) {
                Status st = MPI.COMM_WORLD.recv(buf, buf.length, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                int s = st.getSource();
                Check.that(s >= 1 && s < size && !seen[s], "D: bad or repeated source " + s);
                seen[s] = true;
                Check.equal(30 + s, st.getTag(), "D: tag from rank " + s);
                Check.equal(large + s, st.getCount(MPI.INT), "D: count from rank " + s);
                for (int i = 0; i < large + s; i++) {
                    if (buf[i] != s * 7 + i) {
                        throw Check.fail("D: element " + i + " from rank " + s + " is " + buf[i] + ", expected " + (s * 7 + i));
                    }
                }
            }
        } else {
            int[] msg = new int[large + rank];
            for (int i = 0; i < msg.length; i++) {
                msg[i] = rank * 7 + i;
            }
            MPI.COMM_WORLD.send(msg, msg.length, MPI.INT, 0, 30 + rank);
        }

        Check.ok("AnySource");
        MPI.Finalize();
    }
}
