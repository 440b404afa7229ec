package io.bdmpi.tests.programs.api;

import mpi.Comm;
import mpi.Group;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

import java.nio.IntBuffer;
import java.util.Arrays;

/**
 * Groups, Comm.create, matched probes, persistent requests, buffered sends, attributes, Info and
 * the environment, on any number of ranks, each checked against what the ranks work out
 * themselves. Rank 0 prints {@code LIBVERSION <MPI.getLibVersion()>}; every rank ends with
 * {@code ApiFeatures rank R OK}. A failed check ends the rank with an AssertionError.
 */
public final class ApiFeatures {

    /** Messages each rank sends to rank 0 for the matched probes. */
    private static final int PROBED = 6;
    /** Rounds of the persistent ring. */
    private static final int ROUNDS = 5;

    private static int rank;
    private static int size;

    private ApiFeatures() {
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("CHECK FAILED on rank " + rank + ": " + what);
        }
    }

    public static void main(String[] args) throws MPIException {
        expect(MPI.getVersion().getVersion() == 3 && MPI.getVersion().getSubVersion() == 1, "getVersion before Init");
        String lib = MPI.getLibVersion();
        expect(lib.startsWith("bdmpi-java "), "getLibVersion before Init: " + lib);
        expect(!MPI.isInitialized() && !MPI.isFinalized(), "not initialized before Init");
        MPI.Init(args);
        rank = MPI.COMM_WORLD.getRank();
        size = MPI.COMM_WORLD.getSize();
        if (rank == 0) {
            System.out.println("LIBVERSION " + lib);
        }
        environment();
        groups();
        matchedProbe();
        persistentRing();
        bufferedSends();
        MPI.Finalize();
        expect(MPI.isFinalized() && MPI.isInitialized(), "finalized after Finalize");
        expect(MPI.getVersion().getVersion() == MPI.VERSION, "getVersion after Finalize");
        System.out.println("ApiFeatures rank " + rank + " OK");
    }

    private static void environment() throws MPIException {
        expect(MPI.isInitialized() && !MPI.isFinalized(), "initialized");
        expect(MPI.wtick() > 0 && !MPI.getProcessorName().isEmpty(), "wtick and processor name");
        Object tagUb = MPI.COMM_WORLD.getAttr(MPI.TAG_UB);
        expect(tagUb instanceof Integer && (Integer) tagUb >= 32767, "TAG_UB: " + tagUb);
        expect(Integer.valueOf(MPI.PROC_NULL).equals(MPI.COMM_WORLD.getAttr(MPI.HOST)), "HOST");
        expect(Integer.valueOf(MPI.ANY_SOURCE).equals(MPI.COMM_WORLD.getAttr(MPI.IO)), "IO");
        expect(MPI.COMM_WORLD.getAttr(MPI.WTIME_IS_GLOBAL) instanceof Boolean, "WTIME_IS_GLOBAL");
        expect(Integer.valueOf(size).equals(MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE)), "UNIVERSE_SIZE");
        expect(Integer.valueOf(0).equals(MPI.COMM_WORLD.getAttr(MPI.APPNUM)), "APPNUM");
        MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, (rank + 1) % size, (Integer) tagUb);
        int[] fromTop = new int[1];
        MPI.COMM_WORLD.recv(fromTop, 1, MPI.INT, (rank + size - 1) % size, (Integer) tagUb);
        expect(fromTop[0] == (rank + size - 1) % size, "a message with tag TAG_UB");

        int key = Comm.createKeyval();
        MPI.COMM_WORLD.setAttr(key, "rank " + rank);
        Intracomm dup = MPI.COMM_WORLD.dup();
        expect(("rank " + rank).equals(dup.getAttr(key)), "a user attribute copied by dup");
        expect(dup.getAttr(MPI.TAG_UB).equals(tagUb), "TAG_UB copied by dup");
        dup.setName("api dup");
        expect("api dup".equals(dup.getName()) && "MPI_COMM_WORLD".equals(MPI.COMM_WORLD.getName()), "names");
        Comm.freeKeyval(key);
        expect(("rank " + rank).equals(dup.getAttr(key)), "a user attribute kept after its keyval is freed");
        dup.free();
        MPI.COMM_WORLD.deleteAttr(key);

        expect(Integer.toString(size).equals(MPI.INFO_ENV.get("maxprocs")), "INFO_ENV maxprocs");
        Info info = new Info();
        info.set("bdmpi_test", "yes");
        Intracomm hinted = MPI.COMM_WORLD.dupWithInfo(info);
        expect("yes".equals(hinted.getInfo().get("bdmpi_test")), "hints of dupWithInfo");
        hinted.free();
        info.free();
    }

    private static int[] iota(int n) {
        int[] a = new int[n];
        Arrays.setAll(a, i -> i);
        return a;
    }

    private static void groups() throws MPIException {
        Group world = MPI.COMM_WORLD.getGroup();
        expect(world.getSize() == size && world.getRank() == rank, "the world group");
        int[] reversedRanks = new int[size];
        Arrays.setAll(reversedRanks, i -> size - 1 - i);
        Group reversed = world.incl(reversedRanks);
        expect(reversed.getRank() == size - 1 - rank, "rank in a reversed group");
        expect(Arrays.equals(Group.translateRanks(reversed, iota(size), world), reversedRanks), "translateRanks");
        expect(Group.compare(reversed, world) == (size == 1 ? MPI.IDENT : MPI.SIMILAR), "compare reversed");
        Group evens = world.rangeIncl(new int[][] {{0, size - 1, 2}});
        Group odds = world.difference(world, evens);
        expect(evens.getSize() == (size + 1) / 2 && odds.getSize() == size / 2, "evens and odds");
        expect(Group.compare(odds, size > 1 ? world.rangeExcl(new int[][] {{0, size - 1, 2}}) : MPI.GROUP_EMPTY)
                == MPI.IDENT, "rangeExcl");
        expect(Group.compare(Group.union(evens, odds), world) == (size <= 2 ? MPI.IDENT : MPI.SIMILAR), "union");
        expect(Group.compare(Group.intersection(evens, odds), MPI.GROUP_EMPTY) == MPI.IDENT, "intersection");
        expect(Group.compare(world.excl(new int[] {0}), world.incl(Arrays.copyOfRange(iota(size), 1, size)))
                == MPI.IDENT, "excl");

        // Everyone passes the same group: only the evens get a communicator.
        Intracomm evenComm = MPI.COMM_WORLD.create(evens);
        expect(evenComm.isNull() == (rank % 2 == 1), "create: a communicator for members only");
        if (!evenComm.isNull()) {
            expect(evenComm.getRank() == rank / 2 && evenComm.getSize() == evens.getSize(), "rank in the created comm");
            expect(Group.compare(evenComm.getGroup(), evens) == MPI.IDENT, "group of the created comm");
            checkSumOfWorldRanks(evenComm, evens);
            evenComm.free();
        }
        // Each passes its own part: two disjoint communicators at once (MPI-3).
        Group mine = rank % 2 == 0 ? evens : odds;
        Intracomm part = MPI.COMM_WORLD.create(mine);
        expect(!part.isNull() && part.getSize() == mine.getSize(), "create with disjoint groups");
        checkSumOfWorldRanks(part, mine);
        // A split knows its members too: reversed halves.
        Intracomm split = MPI.COMM_WORLD.split(rank % 2, -rank);
        Group splitGroup = split.getGroup();
        int[] expected = Group.translateRanks(world, iota(size), world);
        expected = Arrays.stream(expected).filter(r -> r % 2 == rank % 2).map(r -> -r).sorted().map(r -> -r).toArray();
        expect(Arrays.equals(Group.translateRanks(splitGroup, iota(splitGroup.getSize()), world), expected),
                "group of a split: " + Arrays.toString(expected));
        split.free();
        part.free();
        for (Group g : new Group[] {world, reversed, evens, odds, splitGroup}) {
            g.free();
        }
    }

    private static void checkSumOfWorldRanks(Intracomm c, Group g) throws MPIException {
        int[] sum = new int[1];
        c.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        int[] members = Group.translateRanks(g, iota(g.getSize()), MPI.COMM_WORLD.getGroup());
        expect(sum[0] == Arrays.stream(members).sum(), "allReduce on a created comm: " + sum[0]);
    }

    /** Rank 0 takes every rank's messages with ANY_SOURCE matched probes, each exactly once. */
    private static void matchedProbe() throws MPIException {
        if (rank != 0) {
            for (int j = 0; j < PROBED; j++) {
                int len = (rank + j) % 4 + 1;
                int[] data = new int[len];
                Arrays.fill(data, rank * 1000 + j);
                MPI.COMM_WORLD.send(data, len, MPI.INT, 0, j % 3);
            }
        } else {
            int[] next = new int[size];
            IntBuffer direct = MPI.newIntBuffer(4);
            for (int m = 0; m < (size - 1) * PROBED; m++) {
                Message msg = new Message();
                Status s;
                if (m % 2 == 0) {
                    s = msg.mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.COMM_WORLD);
                } else {
                    do {
                        s = msg.imProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.COMM_WORLD);
                    } while (s == null);
                }
                int src = s.getSource();
                int j = next[src]++;
                int n = s.getCount(MPI.INT);
                expect(n == (src + j) % 4 + 1 && s.getTag() == j % 3, "probed message " + j + " of rank " + src);
                int[] got = new int[n];
                if (m % 3 == 0) {
                    Status r = msg.imRecv(direct, n, MPI.INT).waitStatus();
                    expect(r.getSource() == src, "imRecv status");
                    direct.get(0, got);
                } else {
                    Status r = msg.mRecv(got, n, MPI.INT);
                    expect(r.getSource() == src && r.getCount(MPI.INT) == n, "mRecv status");
                }
                expect(msg.isNull(), "a received message object is empty");
                for (int v : got) {
                    expect(v == src * 1000 + j, "data of message " + j + " of rank " + src + ": " + v);
                }
            }
            for (int src = 1; src < size; src++) {
                expect(next[src] == PROBED, "every message of rank " + src + " received once");
            }
            expect(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null, "nothing left");
        }
        Message none = new Message();
        none.mProbe(MPI.PROC_NULL, 0, MPI.COMM_WORLD);
        expect(none.isNoProc() && none.mRecv(null, 0, MPI.INT).getSource() == MPI.PROC_NULL, "the no-process message");
        MPI.COMM_WORLD.barrier();
    }

    /** A ring of persistent sends and receives, started with startAll each round. */
    private static void persistentRing() throws MPIException {
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        IntBuffer out = MPI.newIntBuffer(2);
        IntBuffer in = MPI.newIntBuffer(2);
        Prequest[] ring = {MPI.COMM_WORLD.recvInit(in, 2, MPI.INT, prev, 7), MPI.COMM_WORLD.sendInit(out, 2, MPI.INT, next, 7)};
        for (int round = 0; round < ROUNDS; round++) {
            out.put(0, rank).put(1, round);
            Prequest.startAll(ring);
            Status[] s = Request.waitAllStatus(ring);
            expect(s[0].getSource() == prev && in.get(0) == prev && in.get(1) == round, "persistent ring round " + round);
            expect(!ring[0].isNull() && !ring[1].isNull(), "inactive, not null, after a wait");
        }
        for (Prequest p : ring) {
            p.free();
        }
    }

    private static void bufferedSends() throws MPIException {
        Intracomm c = MPI.COMM_WORLD.dup();
        c.setErrhandler(MPI.ERRORS_RETURN);
        int next = (rank + 1) % size;
        try {
            c.bSend(new int[1], 1, MPI.INT, next, 1);
            throw new AssertionError("bSend without attached space succeeded");
        } catch (MPIException e) {
            expect(e.getErrorClass() == MPI.ERR_BUFFER, "bSend without space: " + e.getMessage());
        }
        byte[] space = new byte[2 * (40 + MPI.BSEND_OVERHEAD)];
        MPI.attachBuffer(space);
        c.bSend(new int[] {rank, 1}, 2, MPI.INT, next, 1);
        c.ibSend(MPI.newIntBuffer(10).put(0, rank), 10, MPI.INT, next, 2).waitFor();
        Prequest p = c.bSendInit(MPI.newIntBuffer(3).put(0, rank), 3, MPI.INT, next, 3);
        p.start();
        p.waitFor();
        p.free();
        expect(MPI.detachBuffer() == space, "detachBuffer returns the attached array");
        int prev = (rank + size - 1) % size;
        int[] got = new int[10];
        for (int tag = 1; tag <= 3; tag++) {
            c.recv(got, 10, MPI.INT, prev, tag);
            expect(got[0] == prev, "buffered message with tag " + tag);
        }
        c.free();
    }
}
