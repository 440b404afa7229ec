package io.bdmpi.tests.programs.failures;

import mpi.MPI;

import java.util.ArrayList;
import java.util.List;

/**
 * Injects one failure into one rank (the victim) at a chosen point; the job must end quickly and
 * explain itself. Just before the failure the victim prints
 * {@code INJECT rank R pid P MODE WHERE at=MILLIS} (wall clock), from which the test measures the
 * time to the end of the job. The program writes nothing else to stderr, so whatever names the
 * victim there comes from the runtime. No rank gets past its blocking call ({@code UNEXPECTED}).
 *
 * <p>Usage: {@code Inject MODE WHERE VICTIM}.
 * <p>MODE, what the victim does:
 * <ul>
 *   <li>{@code throw}: throws out of main;</li>
 *   <li>{@code exit}: {@code System.exit(3)};</li>
 *   <li>{@code oom}: allocates until the heap is exhausted (run with a small {@code -Xmx});</li>
 *   <li>{@code sigkill}: SIGKILLs itself (as the OOM killer or a user would);</li>
 *   <li>{@code abort}: {@code COMM_WORLD.abort(7)}.</li>
 * </ul>
 * <p>WHERE, when, and what the other ranks do meanwhile (every rank first passes a barrier after
 * Init, except with {@code before-init}):
 * <ul>
 *   <li>{@code running}: the victim fails while the others compute (sleep) outside MPI;</li>
 *   <li>{@code recv}: the others are parked in a receive from the victim;</li>
 *   <li>{@code collective}: the others are parked in an allReduce the victim never joins;</li>
 *   <li>{@code before-init}: the victim fails before MPI.Init, the others are parked in the barrier;</li>
 *   <li>{@code after-finalize}: the victim fails after MPI.Finalize; the others finalized and compute;</li>
 *   <li>{@code parked-recv}: the victim itself is parked in a receive nobody answers, and another
 *       of its threads fails (not for {@code throw}: an exception in another thread ends nothing);
 *       the others compute;</li>
 *   <li>{@code parked-collective}: likewise, the victim parked in a barrier the others never join;</li>
 *   <li>{@code pingpong}: the victim and rank 0 (rank 1 if the victim is 0) send a small message back
 *       and forth without end, a slave switch per message under {@code -nr 1}, until another thread
 *       of the victim fails; the others compute.</li>
 * </ul>
 */
public final class Inject {

    private static final long FOREVER_MS = 600_000;
    /** How long the victim's failing thread waits for its main thread to be parked. */
    private static final long PARK_MS = 400;
    private static final int PING_TAG = 9;

    private Inject() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String where = args[1];
        int victim = Integer.parseInt(args[2]);
        boolean isVictim = Integer.parseInt(System.getenv("BDMPI_RANK")) == victim;
        if (where.equals("before-init")) {
            if (isVictim) {
                fail(mode, where, victim);
            }
            MPI.Init(args);
            MPI.COMM_WORLD.barrier();
            unexpected("passed the barrier");
            return;
        }
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int partner = victim == 0 ? 1 : 0;
        MPI.COMM_WORLD.barrier();
        System.out.println("Inject rank " + rank + " started");
        if (!isVictim) {
            switch (where) {
                case "running", "parked-recv", "parked-collective" -> Thread.sleep(FOREVER_MS);
                case "pingpong" -> {
                    if (rank == partner) {
                        pingPong(victim, true);
                    }
                    Thread.sleep(FOREVER_MS);
                }
                case "recv" -> {
                    MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, victim, 5);
                    unexpected("received from the victim");
                }
                case "collective" -> {
                    MPI.COMM_WORLD.allReduce(new int[1], 1, MPI.INT, MPI.SUM);
                    unexpected("passed the allReduce");
                }
                case "after-finalize" -> {
                    MPI.Finalize();
                    Thread.sleep(FOREVER_MS);
                }
                default -> throw new IllegalArgumentException("unknown WHERE " + where);
            }
            unexpected("is still running");
            return;
        }
        switch (where) {
            case "running", "recv", "collective" -> {
                Thread.sleep(200); // let the others get parked (or busy)
                fail(mode, where, rank);
            }
            case "after-finalize" -> {
                MPI.Finalize();
                fail(mode, where, rank);
            }
            case "parked-recv" -> {
                failLater(mode, where, rank);
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, (rank + 1) % MPI.COMM_WORLD.getSize(), 6);
                unexpected("received a message nobody sent");
            }
            case "pingpong" -> {
                failLater(mode, where, rank);
                pingPong(partner, false);
            }
            case "parked-collective" -> {
                failLater(mode, where, rank);
                MPI.COMM_WORLD.barrier();
                unexpected("passed a barrier nobody else joined");
            }
            default -> throw new IllegalArgumentException("unknown WHERE " + where);
        }
    }

    /** Sends a small message to {@code other} and receives it back (or the other way round), without end. */
    private static void pingPong(int other, boolean sendFirst) throws Exception {
        byte[] message = new byte[8];
        if (sendFirst) {
            MPI.COMM_WORLD.send(message, message.length, MPI.BYTE, other, PING_TAG);
        }
        while (true) {
            MPI.COMM_WORLD.recv(message, message.length, MPI.BYTE, other, PING_TAG);
            MPI.COMM_WORLD.send(message, message.length, MPI.BYTE, other, PING_TAG);
        }
    }

    private static void failLater(String mode, String where, int rank) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(PARK_MS);
                fail(mode, where, rank);
            } catch (Exception e) {
                System.out.println("UNEXPECTED: the failing thread got " + e);
            }
        }, "inject");
        t.setDaemon(true);
        t.start();
    }

    /** Prints the marker and fails; does not return. */
    private static void fail(String mode, String where, int rank) throws Exception {
        System.out.println("INJECT rank " + rank + " pid " + ProcessHandle.current().pid() + " " + mode + " " + where
                + " at=" + System.currentTimeMillis());
        switch (mode) {
            case "throw" -> throw new IllegalStateException("Inject: deliberate exception");
            case "exit" -> System.exit(3);
            case "oom" -> {
                List<long[]> hog = new ArrayList<>();
                while (true) {
                    hog.add(new long[1 << 20]);
                }
            }
            case "sigkill" -> {
                new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                Thread.sleep(FOREVER_MS);
            }
            case "abort" -> MPI.COMM_WORLD.abort(7);
            default -> throw new IllegalArgumentException("unknown MODE " + mode);
        }
        unexpected("survived its failure");
    }

    private static void unexpected(String what) {
        System.out.println("UNEXPECTED: rank " + System.getenv("BDMPI_RANK") + " " + what);
    }
}
