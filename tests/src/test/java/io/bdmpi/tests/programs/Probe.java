package io.bdmpi.tests.programs;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Probe, then receive with the probed count. Every rank s &gt; 0 sends K messages to rank 0 of
 * varying lengths (some empty, some large) and types (tag 0: int, 1: double, 2: byte). Rank 0
 * first checks that {@code iProbe} returns null for a tag nobody sends, then for each message
 * blocks in {@code probe(ANY_SOURCE, ANY_TAG)}, sizes a buffer from {@code getCount}, receives
 * exactly that many from the probed source and tag, and checks the data. Once all are taken,
 * {@code iProbe(ANY_SOURCE, ANY_TAG)} must return null. Last, a 6-byte message: {@code getCount}
 * is 6 bytes, 3 shorts, and {@code MPI.UNDEFINED} ints.
 *
 * <p>Usage: {@code Probe [messagesPerSender [largeElements]]} (defaults 30, 5000).
 */
public final class Probe {

    private Probe() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int k = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int large = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Check.that(size >= 2, "Probe needs at least 2 ranks");

        if (rank == 0) {
            Check.that(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, 999) == null,
                    "iProbe(ANY_SOURCE, 999) returned a status, but nobody sends tag 999");
            int[][] nextJ = new int[size][3];
            for (int[] row : nextJ) {
                row[1] = 1;
                row[2] = 2;
            }
            for (int m = 0; m < (size - 1) * k; m++) {
                Status p = MPI.COMM_WORLD.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                int s = p.getSource();
                int tag = p.getTag();
                Check.that(s >= 1 && s < size, "probe: source " + s + " is not a sender");
                Check.that(tag >= 0 && tag < 3, "probe: tag " + tag + " was never sent");
                int j = nextJ[s][tag];
                nextJ[s][tag] += 3;
                int len = length(s, j, large);
                String what = "message " + j + " from rank " + s + " (tag " + tag + ")";
                int n = p.getCount(type(tag));
                Check.equal(len, n, "probe getCount of " + what);
                Object buf = alloc(tag, n);
                Status st = MPI.COMM_WORLD.recv(buf, n, type(tag), s, tag);
                Check.equal(s, st.getSource(), what + ": recv status source");
                Check.equal(tag, st.getTag(), what + ": recv status tag");
                Check.equal(n, st.getCount(type(tag)), what + ": recv status count");
                checkData(buf, tag, s, j, n, what);
            }
            Check.that(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null,
                    "iProbe(ANY_SOURCE, ANY_TAG) returned a status after every message was received");
        } else {
            for (int j = 0; j < k; j++) {
                int tag = j % 3;
                int len = length(rank, j, large);
                Object buf = alloc(tag, len);
                fill(buf, tag, rank, j, len);
                MPI.COMM_WORLD.send(buf, len, type(tag), 0, tag);
            }
        }

        // Counts that are not a whole number of items. Rank 1 sends between two barriers (so that the
        // wildcard probes above cannot see it), after the second one the message is pending; iProbe
        // is retried for a while in case the runtime needs progress.
        MPI.COMM_WORLD.barrier();
        if (rank == 1) {
            MPI.COMM_WORLD.send(new byte[] {1, 2, 3, 4, 5, 6}, 6, MPI.BYTE, 0, 50);
        }
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            Status p = null;
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (p == null && System.nanoTime() - deadline < 0) {
                p = MPI.COMM_WORLD.iProbe(1, 50);
            }
            Check.that(p != null, "iProbe(1, 50) found nothing for 20 s, though rank 1 sent it before the last barrier");
            Check.equal(1, p.getSource(), "iProbe source");
            Check.equal(50, p.getTag(), "iProbe tag");
            Check.equal(6, p.getCount(MPI.BYTE), "getCount(BYTE) of a 6-byte message");
            Check.equal(3, p.getCount(MPI.SHORT), "getCount(SHORT) of a 6-byte message");
            Check.equal(MPI.UNDEFINED, p.getCount(MPI.INT), "getCount(INT) of a 6-byte message");
            Status again = MPI.COMM_WORLD.probe(1, 50);
            Check.equal(6, again.getCount(MPI.BYTE), "a second probe of the same message");
            byte[] b = new byte[6];
            MPI.COMM_WORLD.recv(b, 6, MPI.BYTE, 1, 50);
            Check.equal(6, b[5], "last byte");
            Check.that(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null, "iProbe found a message after all were received");
        }
        Check.ok("Probe");
        MPI.Finalize();
    }

    /** Elements in message j of sender s: some empty, every 7th large. */
    static int length(int s, int j, int large) {
        if (j % 7 == 6) {
            return large + s;
        }
        return (s * 37 + j * 53) % 50 == 0 ? 0 : (s * 37 + j * 53) % 50;
    }

    private static Datatype type(int tag) {
        return tag == 0 ? MPI.INT : tag == 1 ? MPI.DOUBLE : MPI.BYTE;
    }

    private static Object alloc(int tag, int n) {
        return tag == 0 ? new int[n] : tag == 1 ? (Object) new double[n] : new byte[n];
    }

    private static long value(int s, int j, int i) {
        return s * 100_000L + j * 1000L + i;
    }

    private static void fill(Object buf, int tag, int s, int j, int n) {
        for (int i = 0; i < n; i++) {
            long v = value(s, j, i);
            switch (tag) {
                case 0 -> ((int[]) buf)[i] = (int) v;
                case 1 -> ((double[]) buf)[i] = v + 0.5;
                default -> ((byte[]) buf)[i] = (byte) v;
            }
        }
    }

    private static void checkData(Object buf, int tag, int s, int j, int n, String what) {
        for (int i = 0; i < n; i++) {
            long v = value(s, j, i);
            boolean ok = switch (tag) {
                case 0 -> ((int[]) buf)[i] == (int) v;
                case 1 -> ((double[]) buf)[i] == v + 0.5;
                default -> ((byte[]) buf)[i] == (byte) v;
            };
            if (!ok) {
                throw Check.fail(what + ": element " + i + " is wrong");
            }
        }
    }
}
