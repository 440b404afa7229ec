package io.bdmpi.tests.programs.failures;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Misuses the MPI API, on 2 ranks.
 *
 * <p>{@code Misuse return}: under {@code ERRORS_RETURN}, walks through every misuse and prints, for
 * each, {@code MISUSE <case> class=<error class> msg=<message>} (class -1 when nothing was raised),
 * then {@code Misuse rank R OK}. Calls before Init and after Finalize, and a second Init, are refused
 * whatever the handler (class 0: errors found in Java, as in Open MPI's bindings).
 *
 * <p>{@code Misuse fatal CASE}: under the default handler, rank 1 prints
 * {@code INJECT rank 1 pid P fatal CASE at=MILLIS} and makes the one misuse CASE; the job must end.
 */
public final class Misuse {

    private Misuse() {
    }

    /** One misuse. */
    @FunctionalInterface
    private interface Call {
        void run() throws MPIException;
    }

    public static void main(String[] args) throws Exception {
        boolean fatal = args[0].equals("fatal");
        if (!fatal) {
            attempt("before-init", () -> MPI.COMM_WORLD.getRank());
        }
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        if (fatal) {
            String which = args[1];
            Call call = misuse(which, rank); // every rank: making a freed communicator is collective
            MPI.COMM_WORLD.barrier();
            if (rank == 1) {
                System.out.println("INJECT rank 1 pid " + ProcessHandle.current().pid() + " fatal " + which
                        + " at=" + System.currentTimeMillis());
                call.run();
                System.out.println("UNEXPECTED: rank 1 survived the fatal misuse " + which);
            } else {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 99);
                System.out.println("UNEXPECTED: rank 0 received a message nobody sent");
            }
            MPI.Finalize();
            return;
        }
        attempt("double-init", () -> MPI.Init(args));
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        for (String c : new String[] {"rank", "root", "tag", "count", "null-buffer", "small-buffer", "buffer-type",
            "offset", "freed-type", "truncate", "freed-comm"}) {
            if (rank == 1 || !c.equals("truncate")) {
                attempt(c, misuse(c, rank));
            } else {
                MPI.COMM_WORLD.send(new int[8], 8, MPI.INT, 1, 21); // rank 1 receives it into 4 ints
            }
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        attempt("after-finalize", () -> MPI.COMM_WORLD.getRank());
        System.out.println("Misuse rank " + rank + " OK");
    }

    private static Call misuse(String which, int rank) throws MPIException {
        int size = 2;
        return switch (which) {
            case "rank" -> () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, size, 1);
            case "root" -> () -> MPI.COMM_WORLD.bcast(new int[1], 1, MPI.INT, size + 3);
            case "tag" -> () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 1 - rank, -5);
            case "count" -> () -> MPI.COMM_WORLD.send(new int[1], -1, MPI.INT, 1 - rank, 1);
            case "null-buffer" -> () -> MPI.COMM_WORLD.send(null, 1, MPI.INT, 1 - rank, 1);
            case "small-buffer" -> () -> MPI.COMM_WORLD.send(new int[1], 5, MPI.INT, 1 - rank, 1);
            case "buffer-type" -> () -> MPI.COMM_WORLD.send(new boolean[4], 4, MPI.INT, 1 - rank, 1); // a boolean[] holds MPI.BOOLEAN only
            case "offset" -> () -> MPI.COMM_WORLD.Send(new int[4], 10, 2, MPI.INT, 1 - rank, 1); // mpiJava: from element 10
            case "freed-type" -> {
                Datatype pair = Datatype.createContiguous(2, MPI.INT);
                pair.commit();
                pair.free();
                yield () -> MPI.COMM_WORLD.send(new int[2], 1, pair, 1 - rank, 1);
            }
            case "truncate" -> () -> MPI.COMM_WORLD.recv(new int[4], 4, MPI.INT, 0, 21);
            case "freed-comm" -> {
                Intracomm dup = MPI.COMM_WORLD.dup();
                dup.free();
                yield () -> dup.getRank();
            }
            default -> throw new IllegalArgumentException("unknown misuse " + which);
        };
    }

    private static void attempt(String name, Call call) {
        try {
            call.run();
            System.out.println("MISUSE " + name + " class=-1 msg=nothing raised");
        } catch (MPIException e) {
            System.out.println("MISUSE " + name + " class=" + e.getErrorClass() + " msg=" + e.getMessage());
        }
    }
}
