package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * One rank fails; the others wait in a barrier (or, in mode {@code compute}, sleep outside MPI).
 * Before that, every rank that got through Init sends the next rank a large and a small message
 * that are never received.
 * The job must stop quickly and leave nothing behind. The program writes only to stdout, so that
 * whatever names the failed rank on stderr comes from the runtime.
 *
 * <p>Usage: {@code Fail MODE VICTIM} (VICTIM -1: every rank fails), MODE one of
 * <ul>
 *   <li>{@code exit}: the victim calls {@code System.exit(3)} after Init;</li>
 *   <li>{@code throw}: the victim throws out of main after Init;</li>
 *   <li>{@code exit0}: the victim exits 0 after Init, without Finalize;</li>
 *   <li>{@code before-init}: the victim exits 4 before calling Init;</li>
 *   <li>{@code sigkill}: the victim SIGKILLs itself after Init (as the OOM killer would);</li>
 *   <li>{@code abort}: the victim calls {@code COMM_WORLD.abort(7)};</li>
 *   <li>{@code compute}: as {@code exit}, while the other ranks sleep (outside MPI) for 10 minutes.</li>
 * </ul>
 */
public final class Fail {

    private Fail() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int victim = Integer.parseInt(args[1]);
        if (mode.equals("before-init") && Integer.parseInt(System.getenv("BDMPI_RANK")) == victim) {
            System.out.println("Fail: rank " + victim + " exits 4 before MPI.Init");
            System.exit(4);
        }
        args = MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        // Leave work behind: a 64 KiB message to the next rank that nobody receives (a spill file
        // under a small -im), so the job fails with buffered data on disk and in memory.
        MPI.COMM_WORLD.send(new int[16 * 1024], 16 * 1024, MPI.INT, (rank + 1) % size, 77);
        MPI.COMM_WORLD.send(new int[4], 4, MPI.INT, (rank + 1) % size, 78);
        if (rank == victim || victim < 0) {
            switch (mode) {
                case "exit", "compute" -> {
                    System.out.println("Fail: rank " + rank + " exits 3 after MPI.Init");
                    System.exit(3);
                }
                case "throw" -> throw new IllegalStateException("Fail: deliberate exception");
                case "exit0" -> {
                    System.out.println("Fail: rank " + rank + " exits 0 without MPI.Finalize");
                    System.exit(0);
                }
                case "sigkill" -> {
                    System.out.println("Fail: rank " + rank + " SIGKILLs itself");
                    new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                    Thread.sleep(60_000);
                }
                case "abort" -> {
                    System.out.println("Fail: rank " + rank + " calls abort(7)");
                    MPI.COMM_WORLD.abort(7);
                }
                case "before-init" -> throw new AssertionError("the victim should be gone already");
                default -> throw new IllegalArgumentException("unknown mode " + mode);
            }
        }
        if (mode.equals("compute")) {
            Thread.sleep(600_000);
        }
        MPI.COMM_WORLD.barrier();
        System.out.println("UNEXPECTED: rank " + rank + " passed the barrier although rank " + victim + " failed");
        MPI.Finalize();
    }
}
