package io.bdmpi.bench;

import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.Locale;

/**
 * One-sided transfers between two ranks of one node: rank 1 exposes a window of
 * {@code WINDOW_MIB}; rank 0 puts it full in {@code CHUNK_KIB} pieces, {@code PASSES} times, then
 * gets it back the same way, all in one shared lock epoch; then {@code OPS} fetchAndOp SUMs on one
 * long of rank {@code COUNTER_RANK}'s window in one lockAll epoch, and {@code OPS / 10} each in its
 * own lock/unlock (a master round trip each). Rank 0 prints {@code PUT s}, {@code GET s},
 * {@code FOP s} and {@code FOPLOCK s}, and checks the counter. With the two ranks on two nodes,
 * every operation goes through the masters.
 *
 * <p>Usage: {@code WinTransfer WINDOW_MIB CHUNK_KIB PASSES OPS [COUNTER_RANK]} (rank 0 by default).
 */
public final class WinTransfer {

    private WinTransfer() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int windowBytes = Integer.parseInt(args[0]) << 20;
        int chunk = Integer.parseInt(args[1]) << 10;
        int passes = Integer.parseInt(args[2]);
        int ops = Integer.parseInt(args[3]);
        int counter = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        int rank = MPI.COMM_WORLD.getRank();
        // Rank 1's counter follows the bytes the puts fill.
        int counterDisp = counter == 1 ? windowBytes : 0;
        Win win = new Win(rank == 1 ? windowBytes + 8 : 8, 1, MPI.INFO_NULL, MPI.COMM_WORLD, MPI.newByteBuffer(0),
                Win.FLAVOR_PRIVATE);
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            ByteBuffer buf = MPI.newByteBuffer(chunk);
            for (int i = 0; i < chunk; i++) {
                buf.put(i, (byte) i);
            }
            win.lock(MPI.LOCK_SHARED, 1, 0);
            put(win, buf, windowBytes, chunk, 1); // warm-up: pages of the window exist
            get(win, buf, windowBytes, chunk, 1);
            double start = MPI.wtime();
            put(win, buf, windowBytes, chunk, passes);
            double put = MPI.wtime() - start;
            start = MPI.wtime();
            get(win, buf, windowBytes, chunk, passes);
            double get = MPI.wtime() - start;
            win.unlock(1);
            LongBuffer one = MPI.newLongBuffer(1).put(0, 1);
            LongBuffer old = MPI.newLongBuffer(1);
            win.lockAll(0);
            start = MPI.wtime();
            for (int i = 0; i < ops; i++) {
                win.fetchAndOp(one, old, MPI.LONG, counter, counterDisp, MPI.SUM);
            }
            double fop = MPI.wtime() - start;
            win.unlockAll();
            start = MPI.wtime();
            for (int i = 0; i < ops / 10; i++) {
                win.lock(MPI.LOCK_EXCLUSIVE, counter, 0);
                win.fetchAndOp(one, old, MPI.LONG, counter, counterDisp, MPI.SUM);
                win.unlock(counter);
            }
            double fopLock = MPI.wtime() - start;
            if (old.get(0) != ops + ops / 10 - 1) {
                throw new AssertionError("counter " + old.get(0) + " after " + (ops + ops / 10) + " fetchAndOps");
            }
            System.out.println(String.format(Locale.ROOT, "PUT %.6f", put));
            System.out.println(String.format(Locale.ROOT, "GET %.6f", get));
            System.out.println(String.format(Locale.ROOT, "FOP %.6f", fop));
            System.out.println(String.format(Locale.ROOT, "FOPLOCK %.6f", fopLock));
        }
        MPI.COMM_WORLD.barrier();
        win.free();
        MPI.Finalize();
    }

    private static void put(Win win, ByteBuffer buf, int windowBytes, int chunk, int passes) throws MPIException {
        for (int p = 0; p < passes; p++) {
            for (int at = 0; at + chunk <= windowBytes; at += chunk) {
                win.put(buf, chunk, MPI.BYTE, 1, at, chunk, MPI.BYTE);
            }
        }
        win.flush(1);
    }

    private static void get(Win win, ByteBuffer buf, int windowBytes, int chunk, int passes) throws MPIException {
        for (int p = 0; p < passes; p++) {
            for (int at = 0; at + chunk <= windowBytes; at += chunk) {
                win.get(buf, chunk, MPI.BYTE, 1, at, chunk, MPI.BYTE);
            }
        }
        win.flush(1);
    }
}
