package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.IntBuffer;

/**
 * A receive too small for its message. Rank 0 sends to rank 1: 10 ints (tag 1), a large message
 * (tag 2), 10 ints (tag 4, for an {@code iRecv}), 10 and 3 ints (tags 5 and 6, for a
 * {@code waitAll}), and 3 ints (tag 3).
 *
 * <p>Usage: {@code Truncate MODE [largeInts]}:
 * <ul>
 *   <li>{@code return}: rank 1 sets {@code ERRORS_RETURN} on COMM_WORLD; each too-small receive
 *       (recv of 5 from 10; recv of half the large message; iRecv of 5 from 10 then waitFor) must
 *       throw MPIException with error class {@code MPI.ERR_TRUNCATE}; a {@code waitAll} over an
 *       iRecv of 5 from 10 and an iRecv of 3 from 3 must throw {@code MPI.ERR_IN_STATUS} (as MPI's
 *       calls on several requests do), caused by the ERR_TRUNCATE, with the other receive
 *       complete; the job then goes on normally (the tag-3 message is received intact).</li>
 *   <li>{@code fatal}: default error handler; rank 1's recv of 5 from 10 must end the job. Should it
 *       return, rank 1 prints {@code UNEXPECTED} and goes on, so the job would succeed.</li>
 * </ul>
 */
public final class Truncate {

    private Truncate() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        String mode = args[0];
        int large = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        int rank = MPI.COMM_WORLD.getRank();
        Check.that(MPI.COMM_WORLD.getSize() >= 2, "Truncate needs at least 2 ranks");

        if (rank == 0) {
            MPI.COMM_WORLD.send(ints(10, 1), 10, MPI.INT, 1, 1);
            if (mode.equals("return")) {
                MPI.COMM_WORLD.send(ints(large, 2), large, MPI.INT, 1, 2);
                MPI.COMM_WORLD.send(ints(10, 4), 10, MPI.INT, 1, 4);
                MPI.COMM_WORLD.send(ints(10, 5), 10, MPI.INT, 1, 5);
                MPI.COMM_WORLD.send(ints(3, 6), 3, MPI.INT, 1, 6);
            }
            MPI.COMM_WORLD.send(ints(3, 3), 3, MPI.INT, 1, 3);
        } else if (rank == 1) {
            if (mode.equals("fatal")) {
                MPI.COMM_WORLD.recv(new int[5], 5, MPI.INT, 0, 1);
                System.out.println("UNEXPECTED: recv of 5 ints from a 10-int message returned under ERRORS_ARE_FATAL");
            } else {
                MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
                expectTruncate("recv of 5 ints from a 10-int message",
                        () -> MPI.COMM_WORLD.recv(new int[5], 5, MPI.INT, 0, 1));
                expectTruncate("recv of " + large / 2 + " ints from a " + large + "-int message",
                        () -> MPI.COMM_WORLD.recv(new int[large / 2], large / 2, MPI.INT, 0, 2));
                expectTruncate("iRecv of 5 ints from a 10-int message, then waitFor", () -> {
                    Request r = MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(5), 5, MPI.INT, 0, 4);
                    r.waitFor();
                });
                waitAllFailsInStatus();
            }
            int[] last = new int[3];
            MPI.COMM_WORLD.recv(last, 3, MPI.INT, 0, 3);
            for (int i = 0; i < 3; i++) {
                Check.equal(ints(3, 3)[i], last[i], "element " + i + " of the message after the truncated ones");
            }
        }
        Check.ok("Truncate " + mode);
        MPI.Finalize();
    }

    private interface Call {
        void run() throws MPIException;
    }

    private static void expectTruncate(String what, Call call) {
        try {
            call.run();
        } catch (MPIException e) {
            if (e.getErrorClass() != MPI.ERR_TRUNCATE) {
                throw Check.fail(what + ": MPIException with error class " + e.getErrorClass() + " (" + e.getMessage()
                        + "), expected MPI.ERR_TRUNCATE = " + MPI.ERR_TRUNCATE);
            }
            System.out.println("rank 1: " + what + ": MPIException ERR_TRUNCATE: " + e.getMessage());
            return;
        }
        throw Check.fail(what + " under ERRORS_RETURN returned normally; expected MPIException ERR_TRUNCATE");
    }

    private static void waitAllFailsInStatus() throws MPIException {
        IntBuffer intact = MPI.newIntBuffer(3);
        Request[] both = {MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(5), 5, MPI.INT, 0, 5),
            MPI.COMM_WORLD.iRecv(intact, 3, MPI.INT, 0, 6)};
        try {
            Request.waitAll(both);
        } catch (MPIException e) {
            Check.that(e.getErrorClass() == MPI.ERR_IN_STATUS, "waitAll: MPIException with error class " + e.getErrorClass()
                    + " (" + e.getMessage() + "), expected MPI.ERR_IN_STATUS = " + MPI.ERR_IN_STATUS);
            Check.that(e.getCause() instanceof MPIException c && c.getErrorClass() == MPI.ERR_TRUNCATE,
                    "waitAll's ERR_IN_STATUS is not caused by the ERR_TRUNCATE: " + e.getCause());
            Check.that(both[0].isNull() && both[1].isNull(), "waitAll left a request active after a failure");
            for (int i = 0; i < 3; i++) {
                Check.equal(ints(3, 6)[i], intact.get(i), "element " + i + " of the receive beside the truncated one");
            }
            System.out.println("rank 1: waitAll with one truncated receive: MPIException ERR_IN_STATUS: " + e.getMessage());
            return;
        }
        throw Check.fail("waitAll with a truncated receive under ERRORS_RETURN returned normally; expected ERR_IN_STATUS");
    }

    private static int[] ints(int n, int tag) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = tag * 1000 + i;
        }
        return a;
    }
}
