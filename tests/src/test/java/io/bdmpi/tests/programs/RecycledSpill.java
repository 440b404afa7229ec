package io.bdmpi.tests.programs;

import io.bdmpi.spill.SpillDirectory;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.io.IOException;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Large messages from rank 0 to rank 1 on another node, which its master receives into recycled
 * spill files (run with {@code -nn 2 -ns 1} and a small {@code -im}). Every message has its own
 * content and a length that alternates between long and short, so a file that held a longer
 * message holds a shorter one next; rank 1 receives into a buffer longer than any message, filled
 * with -1 first, and checks the count, every element, and that nothing past the message changed.
 * <ol>
 *   <li>ping-pong: rank 0 sends message j once rank 1 has acknowledged message j-1; rank 1's node
 *       then has exactly one recycled file ({@code pool-*} in {@code BDMPI_SPILL_DIR}), which held
 *       every message in turn; on rank 0's node, each message's file was returned once sent and
 *       taken back for the next (see {@link #takeBack});</li>
 *   <li>buffered: rank 0 sends all messages at once; rank 1 receives them in reverse order, the
 *       first half with {@code recv}, the rest with {@code iRecv} + {@code waitAll}, while files
 *       handed back are reused for messages still arriving.</li>
 * </ol>
 * Mode {@code halt}: rank 1 halts (exit 3) half-way through phase 2, while messages sit in
 * recycled files. Mode {@code hold}: rank 1 prints "RecycledSpill rank 1 holds messages" half-way
 * through phase 2 and sleeps, for the test to kill the job.
 *
 * <p>Usage: {@code RecycledSpill ints messages [check|halt|hold]}.
 */
public final class RecycledSpill {

    private static final int ACK_TAG = 999_999;
    private static final long RETURN_GRACE_MS = 5_000;

    private RecycledSpill() {
    }

    public static void main(String[] args) throws MPIException, IOException, InterruptedException {
        args = MPI.Init(args);
        int base = Integer.parseInt(args[0]);
        int m = Integer.parseInt(args[1]);
        String mode = args.length > 2 ? args[2] : "check";
        int rank = MPI.COMM_WORLD.getRank();
        Check.equal(2, MPI.COMM_WORLD.getSize(), "ranks");
        int longest = 3 * base + m;

        // 1. ping-pong
        int[] ack = new int[1];
        for (int j = 0; j < m; j++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(ints(length(base, j), j), length(base, j), MPI.INT, 1, j);
                MPI.COMM_WORLD.recv(ack, 1, MPI.INT, 1, ACK_TAG);
            } else {
                receive(longest, base, j, "ping-pong");
                if (j == m - 1) {
                    // Before the last ack: after it, phase 2's messages arrive into more files.
                    List<String> pool = recycledFiles();
                    Check.that(pool.size() == 1, "after " + m + " messages one after the other, rank 1's node has "
                            + pool.size() + " recycled file(s), expected exactly one: " + pool);
                }
                MPI.COMM_WORLD.send(ack, 1, MPI.INT, 0, ACK_TAG);
            }
        }
        if (rank == 0) {
            takeBack(longest, base);
        }

        // 2. buffered, received in reverse order
        if (rank == 0) {
            for (int j = 0; j < m; j++) {
                MPI.COMM_WORLD.send(ints(length(base, 100 + j), 100 + j), length(base, 100 + j), MPI.INT, 1, 100 + j);
            }
        } else {
            int half = m / 2;
            for (int j = m - 1; j >= half; j--) {
                receive(longest, base, 100 + j, "reverse recv");
            }
            if (mode.equals("halt")) {
                Runtime.getRuntime().halt(3);
            } else if (mode.equals("hold")) {
                System.out.println("RecycledSpill rank 1 holds messages");
                System.out.flush();
                Thread.sleep(60_000);
            }
            Request[] requests = new Request[half];
            IntBuffer[] buffers = new IntBuffer[half];
            for (int j = half - 1; j >= 0; j--) {
                buffers[j] = MPI.newIntBuffer(longest);
                for (int i = 0; i < longest; i++) {
                    buffers[j].put(i, -1);
                }
                requests[j] = MPI.COMM_WORLD.iRecv(buffers[j], longest, MPI.INT, 0, 100 + j);
            }
            Status[] statuses = Request.waitAllStatus(requests);
            for (int j = 0; j < half; j++) {
                int[] got = new int[longest];
                buffers[j].get(0, got);
                check(got, statuses[j].getCount(MPI.INT), base, 100 + j, "iRecv + waitAll");
            }
        }
        Check.ok("RecycledSpill");
        MPI.Finalize();
    }

    /**
     * Rank 0's master returned the files of its messages once sent, and rank 0 took them back one
     * after the other, and the next large message, a shorter one to rank 0 itself, goes into one of
     * them and arrives intact. How many files are left depends on timing: usually one, one more
     * each time a file's return came after rank 0's next send (its master may read the ack of a
     * message before it sees that MPI has sent it), as on a loaded node.
     */
    private static void takeBack(int longest, int base) throws MPIException, IOException, InterruptedException {
        Path returnedDir = SpillDirectory.returnedPath(SpillListing.spillDir(), "r0-1").getParent();
        long deadline = System.currentTimeMillis() + RETURN_GRACE_MS;
        List<String> returned;
        do {
            Thread.sleep(10);
            returned = Files.isDirectory(returnedDir) ? SpillListing.names(returnedDir, n -> true) : List.of();
        } while (returned.isEmpty() && System.currentTimeMillis() < deadline);
        Check.that(!returned.isEmpty() && returned.stream().anyMatch(SpillDirectory::mayBeLonger),
                "after its messages one after the other, rank 0's node has returned files " + returned
                        + ", expected at least one, taken back before");
        int tag = 201;
        MPI.COMM_WORLD.send(ints(length(base, tag), tag), length(base, tag), MPI.INT, 0, tag);
        List<String> reused = SpillListing.names(SpillListing.spillDir(), n -> n.startsWith("r0-") && SpillDirectory.mayBeLonger(n));
        Check.that(reused.size() == 1, "rank 0's message to itself is not in a file taken back: " + reused);
        receive(longest, base, tag, "taken back");
    }

    private static void receive(int longest, int base, int tag, String what) throws MPIException {
        int[] got = new int[longest];
        Arrays.fill(got, -1);
        Status st = MPI.COMM_WORLD.recv(got, longest, MPI.INT, 0, tag);
        check(got, st.getCount(MPI.INT), base, tag, what);
    }

    /** Long and short in turn, each a little different. */
    private static int length(int base, int tag) {
        return (tag % 2 == 0 ? 3 * base : base) + tag % 100;
    }

    private static int[] ints(int n, int tag) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = tag * 1_000_003 + i * 7;
        }
        return a;
    }

    private static void check(int[] got, int count, int base, int tag, String what) {
        Check.equal(length(base, tag), count, what + ": count of message " + tag);
        for (int i = 0; i < got.length; i++) {
            int expected = i < count ? tag * 1_000_003 + i * 7 : -1;
            if (got[i] != expected) {
                throw Check.fail(what + ": element " + i + " of message " + tag + " (" + count + " ints) is " + got[i]
                        + ", expected " + expected);
            }
        }
    }

    private static List<String> recycledFiles() throws IOException {
        return SpillListing.names(SpillListing.spillDir(), SpillDirectory::isRecycled);
    }
}
