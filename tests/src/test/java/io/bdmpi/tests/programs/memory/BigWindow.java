package io.bdmpi.tests.programs.memory;

import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

import java.nio.LongBuffer;

/**
 * A window larger than the job's memory: every rank allocates {@code args[0]} MiB of window, and
 * rank r fills rank r+1's part with puts of 1 MiB under an exclusive lock, parking in a barrier
 * every few MiB; after a fence every rank reads its own part back with gets and checks every
 * element, then adds one to every element of rank r-1's part with accumulates and checks its own
 * part again. Prints "rank R ok" at the end; fails loudly on the first wrong element.
 */
public final class BigWindow {

    private static final int CHUNK = 1 << 17; // longs per MiB

    private BigWindow() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int mib = Integer.parseInt(args[0]);
        Win win = new Win(mib * CHUNK, 1, MPI.INFO_NULL, MPI.COMM_WORLD, MPI.newLongBuffer(0), Win.FLAVOR_PRIVATE);
        int next = (rank + 1) % size;
        int previous = (rank + size - 1) % size;
        LongBuffer buf = MPI.newLongBuffer(CHUNK);
        LongBuffer ones = MPI.newLongBuffer(CHUNK);
        for (int i = 0; i < CHUNK; i++) {
            ones.put(i, 1);
        }
        for (int c = 0; c < mib; c++) {
            for (int i = 0; i < CHUNK; i++) {
                buf.put(i, value(next, (long) c * CHUNK + i));
            }
            win.lock(MPI.LOCK_EXCLUSIVE, next, 0);
            win.put(buf, CHUNK, MPI.LONG, next, c * CHUNK, CHUNK, MPI.LONG);
            win.unlock(next);
            if (c % 16 == 15) {
                MPI.COMM_WORLD.barrier(); // parked: this rank's window pages may leave memory
            }
        }
        win.fence(0);
        check(win, rank, mib, buf, 0);
        win.fence(0);
        for (int c = 0; c < mib; c++) {
            win.accumulate(ones, CHUNK, MPI.LONG, previous, c * CHUNK, CHUNK, MPI.LONG, MPI.SUM);
        }
        win.fence(0);
        check(win, rank, mib, buf, 1);
        win.fence(MPI.MODE_NOSUCCEED);
        win.free();
        System.out.println("rank " + rank + " ok");
        MPI.Finalize();
    }

    private static void check(Win win, int rank, int mib, LongBuffer buf, long plus) throws MPIException {
        for (int c = 0; c < mib; c++) {
            win.get(buf, CHUNK, MPI.LONG, rank, c * CHUNK, CHUNK, MPI.LONG);
            for (int i = 0; i < CHUNK; i++) {
                long at = (long) c * CHUNK + i;
                if (buf.get(i) != value(rank, at) + plus) {
                    throw new AssertionError("rank " + rank + ": element " + at + " is " + buf.get(i) + ", expected "
                            + (value(rank, at) + plus));
                }
            }
        }
    }

    private static long value(int rank, long i) {
        return rank * 1_000_000_007L + i * 31;
    }
}
