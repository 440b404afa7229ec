package io.bdmpi.tests.programs.collectives;

import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Communicator management and its interplay with collectives and point-to-point traffic:
 * <ul>
 *   <li>{@code compare}: IDENT for the same communicator, CONGRUENT for a dup (and for a split
 *       that keeps every rank in order), SIMILAR for one that keeps every rank in another order,
 *       UNEQUAL for a proper part;</li>
 *   <li>{@code dup}: same rank and size; messages with the same tag on the dup and the original
 *       never match each other; collectives on both;</li>
 *   <li>{@code split(rank % 3, size - rank)}: sizes and ranks (keys reverse the order), point-to-
 *       point around each part with part ranks, checked against the world ranks the senders
 *       have (ANY_SOURCE status in part ranks), a nested split, and a world message crossing
 *       the parts while they run collectives;</li>
 *   <li>{@code split} with {@code MPI.UNDEFINED} for some ranks: a null communicator for them,
 *       working communicators for the rest;</li>
 *   <li>{@code free}: the handle becomes null; 40 rounds of dup, allReduce, free;</li>
 *   <li>COMM_SELF: size 1, rank 0, collectives on it, compare with COMM_WORLD.</li>
 * </ul>
 * Usage: {@code Communicators} (no arguments).
 */
public final class Communicators {

    private static int rank;
    private static int size;

    private Communicators() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();

        CollCheck.equal(MPI.IDENT, Comm.compare(world, world), "compare(COMM_WORLD, COMM_WORLD)");
        dup(world);
        split(world);
        undefined(world);
        manyDups(world);
        self(world);

        world.barrier();
        CollCheck.ok("Communicators");
        MPI.Finalize();
    }

    /** A nonblocking send of {@code data} from a fresh direct buffer (MPI-safe in a ring). */
    static Request isend(Comm c, int[] data, int dest, int tag) throws MPIException {
        IntBuffer b = MPI.newIntBuffer(data.length);
        b.put(data);
        return c.iSend(b, data.length, MPI.INT, dest, tag);
    }

    static long allSum(Intracomm c, long v) throws MPIException {
        long[] x = {v};
        c.allReduce(x, 1, MPI.LONG, MPI.SUM);
        return x[0];
    }

    static void dup(Intracomm world) throws MPIException {
        Intracomm d = world.dup();
        CollCheck.that(!d.isNull(), "dup() is null");
        CollCheck.equal(rank, d.getRank(), "rank in a dup");
        CollCheck.equal(size, d.getSize(), "size of a dup");
        CollCheck.equal(MPI.CONGRUENT, Comm.compare(world, d), "compare(COMM_WORLD, COMM_WORLD.dup())");
        CollCheck.equal(MPI.IDENT, Comm.compare(d, d), "compare(dup, dup)");

        // Same tag, same pair, two communicators: each receive gets its own communicator's message,
        // even though the dup's receive is posted first and the world's message was sent first.
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        Request w = isend(world, new int[] {1000 + rank}, next, 5);
        Request dd0 = isend(d, new int[] {2000 + rank}, next, 5);
        int[] got = new int[1];
        d.recv(got, 1, MPI.INT, prev, 5);
        CollCheck.equal(2000 + prev, got[0], "message on the dup (a same-tag message on COMM_WORLD must not match)");
        world.recv(got, 1, MPI.INT, prev, 5);
        CollCheck.equal(1000 + prev, got[0], "message on COMM_WORLD");
        Request.waitAll(new Request[] {w, dd0});

        CollCheck.equal((long) size * (size - 1) / 2, allSum(d, rank), "allReduce on a dup");
        Intracomm dd = d.dup();
        CollCheck.equal(MPI.CONGRUENT, Comm.compare(d, dd), "compare(dup, dup.dup())");
        CollCheck.equal((long) size * (size + 1) / 2, allSum(dd, rank + 1), "allReduce on a dup of a dup");
        dd.free();
        CollCheck.that(dd.isNull(), "a freed communicator is not null");
        d.free();
        CollCheck.that(d.isNull(), "a freed dup is not null");
    }

    /** World ranks of colour {@code colour} under split(rank % 3, size - rank): descending. */
    static List<Integer> members(int colour) {
        List<Integer> m = new ArrayList<>();
        for (int q = size - 1; q >= 0; q--) {
            if (q % 3 == colour) {
                m.add(q);
            }
        }
        return m;
    }

    static void split(Intracomm world) throws MPIException {
        int colour = rank % 3;
        List<Integer> members = members(colour);
        Intracomm part = world.split(colour, size - rank);
        CollCheck.that(!part.isNull(), "split part is null");
        int pr = part.getRank();
        int ps = part.getSize();
        CollCheck.equal(members.size(), ps, "size of split colour " + colour);
        CollCheck.equal(members.indexOf(rank), pr, "rank in split colour " + colour + " (keys reverse the order)");
        int expectCompare = ps < size ? MPI.UNEQUAL : ps == 1 ? MPI.CONGRUENT : MPI.SIMILAR;
        CollCheck.equal(expectCompare, Comm.compare(world, part), "compare(COMM_WORLD, split part of " + ps + " of " + size + ")");
        CollCheck.equal(MPI.IDENT, Comm.compare(part, part), "compare(part, part)");

        // Point-to-point around the part, with part ranks; the payload is the sender's world rank.
        int next = (pr + 1) % ps;
        int prev = (pr + ps - 1) % ps;
        Request s1 = isend(part, new int[] {rank, 11}, next, 21);
        int[] got = new int[2];
        Status st = part.recv(got, 2, MPI.INT, prev, 21);
        CollCheck.equal(members.get(prev), got[0], "world rank of part rank " + prev + " in colour " + colour);
        CollCheck.equal(prev, st.getSource(), "status source on the part (a part rank)");
        // ANY_SOURCE: the status names the part rank of the sender.
        Request s2 = isend(part, new int[] {rank, 12}, prev, 22);
        st = part.recv(got, 2, MPI.INT, MPI.ANY_SOURCE, 22);
        CollCheck.equal(members.get(next), got[0], "ANY_SOURCE receive on the part: sender's world rank");
        CollCheck.equal(next, st.getSource(), "ANY_SOURCE receive on the part: status source must be the part rank");

        // The parts run collectives at the same time while a world message crosses between them.
        int wnext = (rank + 1) % size;
        int wprev = (rank + size - 1) % size;
        Request s3 = isend(world, new int[] {rank, 13}, wnext, 23);
        long sum = 0;
        for (int q : members) {
            sum += q;
        }
        CollCheck.equal(sum, allSum(part, rank), "allReduce of world ranks over split colour " + colour);
        long[] fromRoot = {pr == ps - 1 ? 4242 + colour : -1};
        part.bcast(fromRoot, 1, MPI.LONG, ps - 1);
        CollCheck.equal(4242 + colour, fromRoot[0], "bcast from the last rank of colour " + colour);
        world.recv(got, 2, MPI.INT, wprev, 23);
        CollCheck.equal(wprev, got[0], "world message received after collectives on the parts");
        Request.waitAll(new Request[] {s1, s2, s3});

        // A split of the split: halves by part rank, same key everywhere (order = part order).
        Intracomm sub = part.split(pr % 2, 0);
        int subSize = (ps - pr % 2 + 1) / 2;
        CollCheck.equal(subSize, sub.getSize(), "size of a split of a split");
        CollCheck.equal(pr / 2, sub.getRank(), "rank in a split of a split (equal keys keep the old order)");
        long subSum = 0;
        for (int j = pr % 2; j < ps; j += 2) {
            subSum += members.get(j);
        }
        CollCheck.equal(subSum, allSum(sub, rank), "allReduce over a split of a split");
        Intracomm subDup = sub.dup();
        CollCheck.equal(MPI.CONGRUENT, Comm.compare(sub, subDup), "compare(sub, sub.dup())");
        subDup.free();
        sub.free();

        // One colour and equal keys: the same group in the same order.
        Intracomm same = world.split(7, 0);
        CollCheck.equal(rank, same.getRank(), "split(7, 0): rank");
        CollCheck.equal(MPI.CONGRUENT, Comm.compare(world, same), "compare(COMM_WORLD, split(7, 0))");
        same.free();
        part.free();
        CollCheck.that(part.isNull(), "a freed split part is not null");
    }

    static void undefined(Intracomm world) throws MPIException {
        boolean out = rank % 4 == 1;
        int colour = out ? MPI.UNDEFINED : rank % 2;
        Intracomm c = world.split(colour, rank);
        if (out) {
            CollCheck.that(c.isNull(), "split with colour MPI.UNDEFINED must return a null communicator");
        } else {
            CollCheck.that(!c.isNull(), "split with colour " + colour + " returned a null communicator");
            int expectedSize = 0;
            int expectedRank = 0;
            long sum = 0;
            for (int q = 0; q < size; q++) {
                if (q % 4 != 1 && q % 2 == colour) {
                    expectedSize++;
                    sum += q;
                    if (q < rank) {
                        expectedRank++;
                    }
                }
            }
            CollCheck.equal(expectedSize, c.getSize(), "size of colour " + colour + " (ranks with rank % 4 == 1 left out)");
            CollCheck.equal(expectedRank, c.getRank(), "rank in colour " + colour);
            CollCheck.equal(sum, allSum(c, rank), "allReduce over colour " + colour);
            c.barrier();
            c.free();
        }
        world.barrier();
    }

    static void manyDups(Intracomm world) throws MPIException {
        for (int round = 0; round < 40; round++) {
            Intracomm d = world.dup();
            CollCheck.equal((long) size * round, allSum(d, round), "allReduce on dup number " + round);
            d.free();
        }
        Intracomm keep = world.dup();
        Intracomm second = world.dup();
        CollCheck.equal(MPI.CONGRUENT, Comm.compare(keep, second), "compare of two dups of COMM_WORLD");
        second.free();
        CollCheck.equal(size, allSum(keep, 1), "allReduce on a dup made among freed ones");
        keep.free();
    }

    static void self(Intracomm world) throws MPIException {
        Intracomm self = MPI.COMM_SELF;
        CollCheck.equal(1, self.getSize(), "COMM_SELF size");
        CollCheck.equal(0, self.getRank(), "COMM_SELF rank");
        CollCheck.equal(size == 1 ? MPI.CONGRUENT : MPI.UNEQUAL, Comm.compare(self, world), "compare(COMM_SELF, COMM_WORLD)");
        CollCheck.equal(rank * 3L + 1, allSum(self, rank * 3L + 1), "allReduce on COMM_SELF");
        int[] x = {rank};
        self.bcast(x, 1, MPI.INT, 0);
        CollCheck.equal(rank, x[0], "bcast on COMM_SELF");
        int[] g = new int[2];
        self.gather(new int[] {rank, -rank}, 2, MPI.INT, g, 2, MPI.INT, 0);
        CollCheck.that(g[0] == rank && g[1] == -rank, "gather on COMM_SELF");
        int[] s = new int[1];
        self.scatter(new int[] {rank + 5}, 1, MPI.INT, s, 1, MPI.INT, 0);
        CollCheck.equal(rank + 5, s[0], "scatter on COMM_SELF");
        long[] sc = {rank + 9L};
        self.scan(sc, 1, MPI.LONG, MPI.SUM);
        CollCheck.equal(rank + 9L, sc[0], "scan on COMM_SELF");
        self.barrier();
        Intracomm sd = self.dup();
        CollCheck.equal(MPI.CONGRUENT, Comm.compare(self, sd), "compare(COMM_SELF, COMM_SELF.dup())");
        CollCheck.equal(1, allSum(sd, 1), "allReduce on a dup of COMM_SELF");
        sd.free();
        // Point-to-point to oneself on COMM_SELF.
        Request toSelf = isend(self, new int[] {rank + 77}, 0, 1);
        int[] r = new int[1];
        Status st = self.recv(r, 1, MPI.INT, 0, 1);
        CollCheck.equal(rank + 77, r[0], "message to oneself on COMM_SELF");
        CollCheck.equal(0, st.getSource(), "status source on COMM_SELF");
        toSelf.waitFor();
    }
}
