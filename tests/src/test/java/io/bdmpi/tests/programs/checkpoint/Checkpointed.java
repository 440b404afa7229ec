package io.bdmpi.tests.programs.checkpoint;

import mpi.BDMPI;
import mpi.Checkpointable;
import mpi.MPI;
import mpi.MPIException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * An iterative job that checkpoints with messages in flight: at every iteration each rank
 * receives what its left neighbour sent in the previous iteration (a small message and, when
 * asked, a large one that goes through the spill directory), mixes it into its state, joins an
 * allReduce, and sends on to its right neighbour; every {@code EVERY} iterations it checkpoints,
 * so both messages are buffered in the master at that moment. At the end each rank prints
 * {@code RESULT rank R x=.. total=.. blockSum=..}: the same lines whether or not the job died and
 * went on from a checkpoint. A restored rank prints {@code RESTORED rank R at iteration I} and
 * {@code RESUMED rank R at T ms} (the wall clock, for the time a recovery takes). Its state's
 * {@code restore} joins a barrier halfway through reading, as a program may.
 *
 * <p>Usage: {@code Checkpointed ITERATIONS EVERY BIG_BYTES STATE_BYTES [CRASH_RANK CRASH_ITERATION MODE]}.
 * MODE: {@code once} (the crash rank SIGKILLs itself at that iteration unless the job was
 * restored), {@code always} (also after a restore), {@code in-checkpoint} (it dies just before
 * the checkpoint of that iteration, while the others are inside it), {@code pending} (it posts a
 * receive just before the checkpoint of that iteration and leaves it pending: a misuse).
 */
public final class Checkpointed {

    private static final long PRIME = 1_000_000_007L;

    private Checkpointed() {
    }

    /**
     * The program's arguments: {@code iterations every bigBytes stateBytes}, then the crash
     * arguments {@code [crashRank crashIteration [mode]]}, if any.
     */
    public static Object[] args(int iterations, int every, int bigBytes, int stateBytes, Object... crash) {
        Object[] args = new Object[4 + crash.length];
        args[0] = iterations;
        args[1] = every;
        args[2] = bigBytes;
        args[3] = stateBytes;
        System.arraycopy(crash, 0, args, 4, crash.length);
        return args;
    }

    /** What a rank carries from iteration to iteration. */
    static final class State implements Checkpointable {
        int iteration;
        long x;
        long total;
        byte[] block;

        @Override
        public void save(DataOutputStream out) throws IOException {
            out.writeInt(iteration);
            out.writeLong(x);
            out.writeLong(total);
            out.writeInt(block.length);
            out.write(block);
        }

        @Override
        public void restore(DataInputStream in) throws IOException {
            iteration = in.readInt();
            x = in.readLong();
            total = in.readLong();
            // An MPI call in the middle of reading, as a program may make: the rest must still read intact.
            try {
                MPI.COMM_WORLD.barrier();
            } catch (MPIException e) {
                throw new IOException(e);
            }
            block = new byte[in.readInt()];
            in.readFully(block);
        }
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int iterations = Integer.parseInt(args[0]);
        int every = Integer.parseInt(args[1]);
        int bigBytes = Integer.parseInt(args[2]);
        int stateBytes = Integer.parseInt(args[3]);
        int crashRank = args.length > 4 ? Integer.parseInt(args[4]) : -1;
        int crashIteration = args.length > 5 ? Integer.parseInt(args[5]) : -1;
        String mode = args.length > 6 ? args[6] : "once";
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int left = (rank + size - 1) % size;
        int right = (rank + 1) % size;

        State state = new State();
        boolean restored = BDMPI.restore(state);
        if (restored) {
            System.out.println("RESTORED rank " + rank + " at iteration " + state.iteration);
            System.out.println("RESUMED rank " + rank + " at " + System.currentTimeMillis() + " ms");
            byte expected = fill(rank, state.x);
            check(state.block.length == stateBytes && IntStream.range(0, stateBytes).allMatch(k -> state.block[k] == expected),
                    "restored block of rank " + rank);
        } else {
            state.x = rank + 1;
            state.block = new byte[stateBytes];
            Arrays.fill(state.block, fill(rank, state.x));
            send(state, right, 0, bigBytes);
        }
        while (state.iteration < iterations) {
            int i = ++state.iteration;
            boolean victim = rank == crashRank && i == crashIteration && (!restored || mode.equals("always"));
            boolean beforeCheckpoint = mode.equals("in-checkpoint") || mode.equals("pending");
            if (victim && !beforeCheckpoint) {
                crash(rank, i);
            }
            long[] v = new long[1];
            MPI.COMM_WORLD.recv(v, 1, MPI.LONG, left, i - 1);
            if (bigBytes > 0) {
                byte[] big = new byte[bigBytes];
                MPI.COMM_WORLD.recv(big, bigBytes, MPI.BYTE, left, 100_000 + i - 1);
                check(big[0] == (byte) v[0] && big[bigBytes - 1] == (byte) v[0], "large message from " + left);
            }
            state.x = (state.x * 31 + v[0]) % PRIME;
            long[] sum = new long[1];
            MPI.COMM_WORLD.allReduce(new long[] {state.x}, sum, 1, MPI.LONG, MPI.SUM);
            state.total = (state.total + sum[0]) % PRIME;
            Arrays.fill(state.block, fill(rank, state.x));
            send(state, right, i, bigBytes);
            if (victim && mode.equals("in-checkpoint")) {
                crash(rank, i);
            }
            if (victim && mode.equals("pending")) {
                MPI.COMM_WORLD.iRecv(ByteBuffer.allocateDirect(8), 1, MPI.LONG, left, 999);
            }
            if (i % every == 0) {
                System.out.println("CHECKPOINT " + BDMPI.checkpoint(state) + " rank " + rank + " at iteration " + i);
            }
        }
        long[] v = new long[1];
        MPI.COMM_WORLD.recv(v, 1, MPI.LONG, left, iterations);
        if (bigBytes > 0) {
            MPI.COMM_WORLD.recv(new byte[bigBytes], bigBytes, MPI.BYTE, left, 100_000 + iterations);
        }
        long blockSum = 0;
        for (byte b : state.block) {
            blockSum += b;
        }
        System.out.println("RESULT rank " + rank + " x=" + state.x + " total=" + state.total + " blockSum=" + blockSum);
        MPI.Finalize();
    }

    /** Dies as a crash would: no exception, no exit code of its own choosing. */
    private static void crash(int rank, int iteration) throws Exception {
        System.out.println("CRASH rank " + rank + " at iteration " + iteration);
        System.out.flush();
        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
        Thread.sleep(60_000);
    }

    private static void send(State state, int right, int tag, int bigBytes) throws MPIException {
        MPI.COMM_WORLD.send(new long[] {state.x}, 1, MPI.LONG, right, tag);
        if (bigBytes > 0) {
            byte[] big = new byte[bigBytes];
            Arrays.fill(big, (byte) state.x);
            MPI.COMM_WORLD.send(big, bigBytes, MPI.BYTE, right, 100_000 + tag);
        }
    }

    private static byte fill(int rank, long x) {
        return (byte) (rank * 7 + x);
    }

    private static void check(boolean ok, String what) throws MPIException {
        if (!ok) {
            System.out.println("WRONG " + what);
            MPI.COMM_WORLD.abort(3);
        }
    }
}
