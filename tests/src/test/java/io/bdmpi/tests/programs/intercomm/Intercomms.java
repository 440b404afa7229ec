package io.bdmpi.tests.programs.intercomm;

import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

import java.util.Arrays;

import static io.bdmpi.tests.programs.Models.range;

/**
 * An intercommunicator between the even and the odd ranks of COMM_WORLD (at least 2 ranks), made
 * with {@code createIntercomm} from an even/odd split, and every kind of traffic on it, checked:
 * <ol>
 *   <li>sizes, groups, {@code isInter}, {@code getParent};</li>
 *   <li>point-to-point to every remote rank, received with a specific and with any source;</li>
 *   <li>bcast from rank 0 of the even group ({@code MPI.ROOT}/{@code PROC_NULL}) to the odd group;</li>
 *   <li>allReduce between the groups: each gets the other group's sum;</li>
 *   <li>gather from the even group to rank 0 of the odd group, and scatter back;</li>
 *   <li>allGather, allToAll, reduce and reduceScatterBlock between the groups; barrier;</li>
 *   <li>a dup, on which point-to-point is kept apart from the original;</li>
 *   <li>{@code merge(false)} and {@code merge(true)}, with their ranks and an allReduce on them checked;</li>
 *   <li>{@code createGroup} over the odd ranks while the even ones exchange among themselves.</li>
 * </ol>
 */
public final class Intercomms {

    private Intercomms() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int world = MPI.COMM_WORLD.getRank();
        int worldSize = MPI.COMM_WORLD.getSize();
        int colour = world % 2;
        Intracomm half = MPI.COMM_WORLD.split(colour, world);
        int me = half.getRank();
        int evens = (worldSize + 1) / 2;
        int odds = worldSize / 2;
        int remoteLeader = colour == 0 ? 1 : 0; // world ranks of the leaders (rank 0 of each half)
        Intercomm inter = MPI.COMM_WORLD.createIntercomm(half, 0, remoteLeader, 99);
        int localSize = colour == 0 ? evens : odds;
        int remoteSize = colour == 0 ? odds : evens;

        // 1. Shape.
        check(inter.isInter() && !half.isInter(), "isInter");
        check(inter.getSize() == localSize && inter.getRank() == me, "local size and rank");
        check(inter.getRemoteSize() == remoteSize, "remote size " + inter.getRemoteSize());
        Group remote = inter.getRemoteGroup();
        int[] remoteWorld = Group.translateRanks(remote, range(remoteSize), MPI.COMM_WORLD.getGroup());
        check(Arrays.equals(remoteWorld, worldRanks(1 - colour, remoteSize)), "remote group " + Arrays.toString(remoteWorld));
        check(Intercomm.getParent().isNull(), "getParent is null");

        // 2. Point-to-point: a message to every remote rank, then receive one from each.
        for (int r = 0; r < remoteSize; r++) {
            inter.send(new int[] {world, r}, 2, MPI.INT, r, 5);
        }
        for (int r = 0; r < remoteSize; r++) {
            int[] in = new int[2];
            Status st = inter.recv(in, 2, MPI.INT, r, 5);
            check(st.getSource() == r && in[0] == 2 * r + 1 - colour && in[1] == me, "message from remote rank " + r
                    + ": " + Arrays.toString(in));
        }
        if (me == 0) {
            inter.send(new int[] {colour}, 1, MPI.INT, remoteSize - 1, 6);
        }
        if (me == localSize - 1) {
            int[] in = new int[1];
            Status st = inter.recv(in, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            check(st.getSource() == 0 && st.getTag() == 6 && in[0] == 1 - colour, "any-source message");
        }

        // 3. Bcast from even rank 0.
        int[] b = colour == 0 && me == 0 ? new int[] {7, 8, 9} : new int[3];
        inter.bcast(b, 3, MPI.INT, colour == 0 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0);
        int[] expected = colour == 0 && me != 0 ? new int[3] : new int[] {7, 8, 9};
        check(Arrays.equals(b, expected), "bcast " + Arrays.toString(b));

        // 4. allReduce: the other group's sum of world ranks.
        int[] sum = new int[1];
        inter.allReduce(new int[] {world}, sum, 1, MPI.INT, MPI.SUM);
        check(sum[0] == sumOf(worldRanks(1 - colour, remoteSize)), "allReduce " + sum[0]);

        // 5. Gather the even ranks' world ranks at odd rank 0; scatter them back doubled.
        int[] gathered = colour == 1 && me == 0 ? new int[evens] : null;
        int gatherRoot = colour == 0 ? 0 : (me == 0 ? MPI.ROOT : MPI.PROC_NULL);
        inter.gather(new int[] {world}, 1, MPI.INT, gathered, 1, MPI.INT, gatherRoot);
        if (gathered != null) {
            check(Arrays.equals(gathered, worldRanks(0, evens)), "gather " + Arrays.toString(gathered));
            for (int i = 0; i < evens; i++) {
                gathered[i] *= 2;
            }
        }
        int[] back = new int[1];
        inter.scatter(gathered, 1, MPI.INT, colour == 0 ? back : null, 1, MPI.INT, gatherRoot);
        check(colour == 1 || back[0] == 2 * world, "scatter " + back[0]);

        // 6. allGather, allToAll, reduce, reduceScatterBlock; barrier.
        int[] all = new int[remoteSize];
        inter.allGather(new int[] {world}, 1, MPI.INT, all, 1, MPI.INT);
        check(Arrays.equals(all, worldRanks(1 - colour, remoteSize)), "allGather " + Arrays.toString(all));
        int[] out = new int[remoteSize];
        for (int r = 0; r < remoteSize; r++) {
            out[r] = 1000 * world + r;
        }
        int[] in = new int[remoteSize];
        inter.allToAll(out, 1, MPI.INT, in, 1, MPI.INT);
        for (int r = 0; r < remoteSize; r++) {
            check(in[r] == 1000 * (2 * r + 1 - colour) + me, "allToAll from remote rank " + r + ": " + in[r]);
        }
        double[] max = new double[1];
        inter.reduce(new double[] {world}, colour == 0 && me == 0 ? max : null, 1, MPI.DOUBLE, MPI.MAX,
                colour == 1 ? 0 : (me == 0 ? MPI.ROOT : MPI.PROC_NULL));
        check(colour == 1 || me != 0 || max[0] == 2 * odds - 1, "reduce " + max[0]);
        int[] vector = new int[2 * localSize];
        Arrays.fill(vector, world);
        int[] block = new int[2];
        if (localSize * 2 == remoteSize * 2) {
            inter.reduceScatterBlock(vector, block, 2, MPI.INT, MPI.SUM);
            int s = sumOf(worldRanks(1 - colour, remoteSize));
            check(block[0] == s && block[1] == s, "reduceScatterBlock " + Arrays.toString(block));
        }
        inter.barrier();

        // 7. A dup: the same groups, its own messages.
        Intercomm copy = inter.dup();
        check(copy.getRemoteSize() == remoteSize && copy.getRank() == me && copy.isInter(), "dup shape");
        if (me == 0) {
            copy.send(new int[] {1}, 1, MPI.INT, 0, 1);
            inter.send(new int[] {2}, 1, MPI.INT, 0, 1);
            int[] x = new int[1];
            inter.recv(x, 1, MPI.INT, 0, 1);
            check(x[0] == 2, "the original's message on the original");
            copy.recv(x, 1, MPI.INT, 0, 1);
            check(x[0] == 1, "the dup's message on the dup");
        }
        copy.free();

        // 8. merge: false takes the low ranks.
        Intracomm lowEven = inter.merge(colour == 1);
        int expectRank = colour == 0 ? me : evens + me;
        check(lowEven.getRank() == expectRank && lowEven.getSize() == worldSize, "merge(even low) rank " + lowEven.getRank());
        Intracomm lowOdd = inter.merge(colour == 0);
        expectRank = colour == 1 ? me : odds + me;
        check(lowOdd.getRank() == expectRank, "merge(odd low) rank " + lowOdd.getRank());
        int[] ranks = new int[worldSize];
        lowOdd.allGather(new int[] {world}, 1, MPI.INT, ranks, 1, MPI.INT);
        int[] order = new int[worldSize];
        System.arraycopy(worldRanks(1, odds), 0, order, 0, odds);
        System.arraycopy(worldRanks(0, evens), 0, order, odds, evens);
        check(Arrays.equals(ranks, order), "merged order " + Arrays.toString(ranks));
        int[] total = new int[1];
        lowEven.allReduce(new int[] {lowEven.getRank()}, total, 1, MPI.INT, MPI.SUM);
        check(total[0] == worldSize * (worldSize - 1) / 2, "allReduce on the merged communicator");
        lowEven.free();
        lowOdd.free();
        inter.free();

        // 9. createGroup over the odd ranks; the even ones talk among themselves meanwhile.
        if (colour == 1) {
            Group odd = MPI.COMM_WORLD.getGroup().incl(worldRanks(1, odds));
            Intracomm c = MPI.COMM_WORLD.createGroup(odd, 3);
            check(c.getSize() == odds && c.getRank() == me, "createGroup rank " + c.getRank());
            int[] s = new int[1];
            c.allReduce(new int[] {world}, s, 1, MPI.INT, MPI.SUM);
            check(s[0] == sumOf(worldRanks(1, odds)), "allReduce on createGroup's communicator");
            c.free();
        } else {
            int[] s = new int[1];
            half.allReduce(new int[] {1}, s, 1, MPI.INT, MPI.SUM);
            check(s[0] == evens, "the even ranks' own allReduce");
        }
        half.free();
        System.out.println("Intercomms rank " + world + " OK");
        MPI.Finalize();
    }

    /** The world ranks of one colour's group, in rank order: colour, colour + 2, ... */
    private static int[] worldRanks(int colour, int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = 2 * i + colour;
        }
        return r;
    }

    private static int sumOf(int[] values) {
        return Arrays.stream(values).sum();
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            int rank = -1;
            try {
                rank = MPI.COMM_WORLD.getRank();
            } catch (MPIException e) {
                // keep -1
            }
            throw new AssertionError("CHECK FAILED on rank " + rank + ": " + what);
        }
    }
}
