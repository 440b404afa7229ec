package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Many fast slave switches, for the nrunning invariant on the master's fast paths: for
 * {@code rounds} rounds each even rank ping-pongs a small message with the next odd rank (every
 * message a switch under {@code -nr 1}), then all ranks pass a barrier and an 8-byte allReduce,
 * whose sum is checked. Each rank records with {@link System#nanoTime} (CLOCK_MONOTONIC: one
 * clock for every process of the machine) every stretch in which its own code ran, from the
 * return of a blocking MPI call to the start of the next, and writes them to
 * {@code DIR/runs-RANK.txt}, one {@code start end} pair per line: a stretch lies inside the
 * master's RUNNING interval of the rank, so no more than {@code -nr} stretches may overlap.
 *
 * <p>Usage (an even number of ranks): {@code Switches rounds DIR}.
 */
public final class Switches {

    private static final int TAG = 3;

    private Switches() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        args = MPI.Init(args);
        Stretches ran = new Stretches();
        int rounds = Integer.parseInt(args[0]);
        Path dir = Path.of(args[1]);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Check.that(size % 2 == 0, "Switches needs an even number of ranks, not " + size);
        int partner = rank ^ 1;
        byte[] message = new byte[8];
        long[] sum = new long[1];
        for (int round = 0; round < rounds; round++) {
            if (rank % 2 == 0) {
                MPI.COMM_WORLD.send(message, message.length, MPI.BYTE, partner, TAG);
                ran.end();
                MPI.COMM_WORLD.recv(message, message.length, MPI.BYTE, partner, TAG);
                ran.begin();
            } else {
                ran.end();
                MPI.COMM_WORLD.recv(message, message.length, MPI.BYTE, partner, TAG);
                ran.begin();
                MPI.COMM_WORLD.send(message, message.length, MPI.BYTE, partner, TAG);
            }
            ran.end();
            MPI.COMM_WORLD.barrier();
            ran.begin();
            sum[0] = rank;
            ran.end();
            MPI.COMM_WORLD.allReduce(sum, 1, MPI.LONG, MPI.SUM);
            ran.begin();
            Check.equal((long) size * (size - 1) / 2, sum[0], "allReduce sum in round " + round);
        }
        ran.end();
        Files.writeString(dir.resolve("runs-" + rank + ".txt"), ran.lines, StandardCharsets.US_ASCII);
        Check.ok("Switches");
        MPI.Finalize();
    }

    /** The stretches in which this rank's own code ran, as {@code start end} lines of nanoTime readings. */
    private static final class Stretches {
        final StringBuilder lines = new StringBuilder();
        /** Start of the current stretch: MPI.Init has just returned. */
        private long from = System.nanoTime();

        /** A blocking call has just returned. */
        void begin() {
            from = System.nanoTime();
        }

        /** A blocking call is about to start. */
        void end() {
            lines.append(from).append(' ').append(System.nanoTime()).append('\n');
        }
    }
}
