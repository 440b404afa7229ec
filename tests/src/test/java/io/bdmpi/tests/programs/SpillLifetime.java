package io.bdmpi.tests.programs;

import mpi.BDMPI;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.io.IOException;
import java.nio.IntBuffer;
import java.nio.file.Path;

/**
 * Spill files live exactly as long as their message. Run with a small {@code -im} so that the large
 * messages here go through spill files. After each phase and a barrier, rank 0 lists the job's
 * spill directory ({@code BDMPI_SPILL_DIR}, set by the master), which must hold no message's file:
 * only the recycled files ({@code pool-*}) that a master keeps for the messages of other nodes
 * once their receivers are done with them, and the files of messages sent to other nodes that it
 * returned to their writers (in {@code sent-*}), at most {@link SpillListing#KEPT_MAX_BYTES} of each:
 * <ol>
 *   <li>each rank sends M large messages to the next rank, which receives them with {@code recv};</li>
 *   <li>the same with {@code probe} + {@code recv}, and with {@code iRecv} + {@code waitAll};</li>
 *   <li>rank 1, under {@code ERRORS_RETURN}, receives a large message into a too-small buffer: the
 *       receive fails with ERR_TRUNCATE and the file must still be gone.</li>
 * </ol>
 * Last, rank 1 sends rank 0 some large messages that are never received; the job still ends
 * normally, and the end-to-end test checks that nothing is left in {@code -wd}.
 *
 * <p>Usage: {@code SpillLifetime [largeInts [messages]]} (defaults 4096, 10).
 */
public final class SpillLifetime {

    private static final long SHIPPED_GRACE_MS = 5_000;

    private SpillLifetime() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        args = MPI.Init(args);
        int large = args.length > 0 ? Integer.parseInt(args[0]) : 4096;
        int m = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Check.that(size >= 2, "SpillLifetime needs at least 2 ranks");
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        Path spill = SpillListing.spillDir();

        // 1. send + recv
        for (int j = 0; j < m; j++) {
            MPI.COMM_WORLD.send(ints(large, rank, j), large, MPI.INT, next, j);
        }
        int[] buf = new int[large];
        for (int j = 0; j < m; j++) {
            MPI.COMM_WORLD.recv(buf, large, MPI.INT, prev, j);
            check(buf, prev, j, "recv");
        }
        expectEmpty(rank, spill, "after send + recv of " + m + " large messages per rank");

        // 2. probe + recv, iRecv + waitAll
        for (int j = 0; j < m; j++) {
            MPI.COMM_WORLD.send(ints(large, rank, 100 + j), large, MPI.INT, next, 100 + j);
        }
        for (int j = 0; j < m; j++) {
            Status st = MPI.COMM_WORLD.probe(prev, MPI.ANY_TAG);
            int n = st.getCount(MPI.INT);
            Check.equal(large, n, "probed count");
            int[] b = new int[n];
            MPI.COMM_WORLD.recv(b, n, MPI.INT, prev, st.getTag());
            check(b, prev, st.getTag(), "probe + recv");
        }
        Request[] reqs = new Request[m];
        IntBuffer[] in = new IntBuffer[m];
        for (int j = 0; j < m; j++) {
            in[j] = MPI.newIntBuffer(large);
            reqs[j] = MPI.COMM_WORLD.iRecv(in[j], large, MPI.INT, prev, 200 + j);
        }
        for (int j = 0; j < m; j++) {
            MPI.COMM_WORLD.send(ints(large, rank, 200 + j), large, MPI.INT, next, 200 + j);
        }
        Request.waitAll(reqs);
        for (int j = 0; j < m; j++) {
            int[] b = new int[large];
            in[j].get(0, b);
            check(b, prev, 200 + j, "iRecv + waitAll");
        }
        expectEmpty(rank, spill, "after probe + recv and iRecv + waitAll of large messages");

        // 3. a truncated large receive
        if (rank == 0) {
            MPI.COMM_WORLD.send(ints(large, rank, 300), large, MPI.INT, 1, 300);
        } else if (rank == 1) {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            try {
                MPI.COMM_WORLD.recv(new int[large / 2], large / 2, MPI.INT, 0, 300);
                throw Check.fail("recv of half a large message returned normally under ERRORS_RETURN");
            } catch (MPIException e) {
                Check.equal(MPI.ERR_TRUNCATE, e.getErrorClass(), "error class of a truncated large recv");
            }
        }
        expectEmpty(rank, spill, "after a truncated receive of a large message");

        // 4. messages never received; the runtime removes them with the job.
        if (rank == 1) {
            for (int j = 0; j < 3; j++) {
                MPI.COMM_WORLD.send(ints(large, rank, 400 + j), large, MPI.INT, 0, 400 + j);
            }
        }
        Check.ok("SpillLifetime");
        MPI.Finalize();
    }

    /**
     * On one node a message's file is gone once it is received. On several, the file of a message
     * forwarded to another node goes when its master has seen the transfer end, which no barrier
     * orders: that master is given {@link #SHIPPED_GRACE_MS} to notice.
     */
    private static void expectEmpty(int rank, Path spill, String when) throws MPIException, IOException {
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            SpillListing.expectNoMessageFiles(spill, BDMPI.getNodeSize(MPI.COMM_WORLD) > 1 ? SHIPPED_GRACE_MS : 0, when);
        }
        MPI.COMM_WORLD.barrier();
    }

    private static int[] ints(int n, int sender, int tag) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = sender * 100_000_000 + tag * 100_000 + i;
        }
        return a;
    }

    private static void check(int[] b, int sender, int tag, String what) {
        int[] e = ints(b.length, sender, tag);
        for (int i = 0; i < b.length; i++) {
            if (b[i] != e[i]) {
                throw Check.fail(what + ": element " + i + " of tag " + tag + " from rank " + sender + " is " + b[i]
                        + ", expected " + e[i]);
            }
        }
    }
}
