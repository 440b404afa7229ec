package mpi;

import io.bdmpi.protocol.PointerOp;

import java.io.IOException;
import java.util.function.LongUnaryOperator;

/**
 * The shared file pointer of one open file, in etypes of the view. It is a number in the master
 * of the node of the file communicator's rank 0 (the owner), under a random key: a rank of that
 * node asks its master, a rank of another node asks its own, which forwards the request to the
 * owner's master over the masters' MPI link and parks the rank until the answer is back. The
 * owner's master does one operation at a time, so any rank may move the pointer at any time and
 * each fetch-and-add gets a range of its own. Nothing of it is on disk: it goes with the job.
 */
final class SharedPointer {

    private final long key;
    private final int ownerNode;

    private SharedPointer(long key, int ownerNode) {
        this.key = key;
        this.ownerNode = ownerNode;
    }

    /** The pointer {@code key} kept by the master of {@code ownerNode}. */
    static SharedPointer kept(long key, int ownerNode) {
        return new SharedPointer(key, ownerNode);
    }

    /**
     * Moves the pointer by {@code delta} and returns where it was: what a non-collective
     * shared-pointer access does.
     *
     * @throws MPIException ERR_OTHER when the master is lost
     */
    long fetchAdd(String call, long delta) throws MPIException {
        return apply(call, PointerOp.ADD, delta);
    }

    /** The pointer's value. */
    long get(String call) throws MPIException {
        return apply(call, PointerOp.ADD, 0);
    }

    /** Sets the pointer (by one rank, while no other uses it: at open, or between barriers). */
    void set(String call, long value) throws MPIException {
        apply(call, PointerOp.SET, value);
    }

    /**
     * Collective over {@code comm}: once every rank is done with the pointer, rank 0 sets it to
     * {@code move} of its value unless that is negative (refused), and every rank returns that
     * value once every rank sees the pointer, so that all of them know whether it moved.
     */
    long setAll(String call, Comm comm, int rank, LongUnaryOperator move) throws MPIException {
        comm.barrier();
        long[] moved = {0};
        if (rank == 0) {
            moved[0] = move.applyAsLong(get(call));
            if (moved[0] >= 0) {
                set(call, moved[0]);
            }
        }
        comm.bcast(moved, 1, MPI.LONG, 0);
        return moved[0];
    }

    /**
     * Collective over {@code comm}: reserves {@code mine} etypes for this rank after those of the
     * lower ranks, moves the pointer past all of them, and returns where this rank's part starts.
     * Rank order holds whatever the ranks' nodes: rank 0 alone moves the pointer, once.
     */
    long ordered(String call, Comm comm, int rank, long mine) throws MPIException {
        long[] counts = new long[comm.getSize()];
        counts[rank] = mine;
        comm.allGather(counts, 1, MPI.LONG);
        long before = 0;
        long total = 0;
        for (int r = 0; r < counts.length; r++) {
            before += r < rank ? counts[r] : 0;
            total += counts[r];
        }
        long[] base = {0};
        if (rank == 0) {
            base[0] = fetchAdd(call, total);
        }
        comm.bcast(base, 1, MPI.LONG, 0);
        return base[0] + before;
    }

    /** The owner forgets the pointer (rank 0, once every rank has closed the file). */
    void free(String call) throws MPIException {
        apply(call, PointerOp.FREE, 0);
    }

    private long apply(String call, PointerOp op, long value) throws MPIException {
        try {
            return Session.runtime().filePointer(key, ownerNode, op, value);
        } catch (IOException e) {
            throw Errors.transport(call, e);
        }
    }
}
