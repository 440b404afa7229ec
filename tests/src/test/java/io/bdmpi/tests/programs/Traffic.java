package io.bdmpi.tests.programs;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Random point-to-point traffic that every rank can check: a plan drawn from a seed all ranks share
 * (sender, receiver, communicator, tag and size of every message; sizes around {@code -im}, so
 * inline and spilled messages mix), on three communicators that reuse the same tags
 * (COMM_WORLD, a duplicate and a split). Each round every rank posts its nonblocking sends, then
 * receives what the plan sends it in three ways at once:
 * <ul>
 *   <li>on COMM_WORLD, one {@code iRecv} per message with its exact source and tag, completed by
 *       {@code waitSome}: the k-th receive of a (source, tag) pair must get the k-th message sent;</li>
 *   <li>on the duplicate, ANY_SOURCE / ANY_TAG: {@code iProbe} in a polling loop, then a receive of
 *       the probed size; per source, messages must come in the order sent;</li>
 *   <li>on the split (even and odd ranks), blocking {@code recv} with the exact source and ANY_TAG.</li>
 * </ul>
 * Payload: bytes derived from (round, sender, index in the plan), so a wrong or torn message shows.
 *
 * <p>Usage: {@code Traffic [rounds [messagesPerRound [largestBytes [seed]]]]}.
 */
public final class Traffic {

    private record Planned(int index, int source, int dest, int comm, int tag, int bytes) {
    }

    private Traffic() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int perRound = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int largest = args.length > 2 ? Integer.parseInt(args[2]) : 20000;
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 42;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Intracomm dup = MPI.COMM_WORLD.dup();
        Intracomm half = MPI.COMM_WORLD.split(rank % 2, -rank);
        Random plan = new Random(seed);
        long received = 0;
        for (int round = 0; round < rounds; round++) {
            List<Planned> messages = new ArrayList<>();
            for (int i = 0; i < perRound; i++) {
                int source = plan.nextInt(size);
                int comm = plan.nextInt(3);
                int dest = plan.nextInt(size);
                if (comm == 2) {
                    dest = (dest & ~1) | (source & 1);
                    if (dest >= size) {
                        dest = source;
                    }
                }
                int tag = plan.nextInt(4);
                int bytes = plan.nextInt(4) == 0 ? plan.nextInt(largest + 1) : plan.nextInt(64);
                messages.add(new Planned(i, source, dest, comm, tag, bytes));
            }
            List<Request> sends = new ArrayList<>();
            for (Planned m : messages) {
                if (m.source() == rank) {
                    ByteBuffer b = MPI.newByteBuffer(m.bytes());
                    fill(b, round, m);
                    sends.add(commOf(m.comm(), dup, half).iSend(b, m.bytes(), MPI.BYTE, rankIn(m.comm(), m.dest()), m.tag()));
                }
            }
            received += receiveWorld(rank, round, messages);
            received += receiveAny(rank, round, messages, dup);
            received += receiveSplit(rank, round, messages, half);
            Request.waitAll(sends.toArray(new Request[0]));
            MPI.COMM_WORLD.barrier();
        }
        long[] total = {received};
        MPI.COMM_WORLD.allReduce(total, 1, MPI.LONG, MPI.SUM);
        Check.equal((long) rounds * perRound, total[0], "messages received by all ranks");
        dup.free();
        half.free();
        Check.ok("Traffic");
        MPI.Finalize();
    }

    private static int receiveWorld(int rank, int round, List<Planned> messages) throws MPIException {
        List<Planned> mine = mine(rank, 0, messages);
        Request[] requests = new Request[mine.size()];
        ByteBuffer[] buffers = new ByteBuffer[mine.size()];
        for (int k = 0; k < mine.size(); k++) {
            Planned m = mine.get(k);
            buffers[k] = MPI.newByteBuffer(m.bytes() + 8);
            requests[k] = MPI.COMM_WORLD.iRecv(buffers[k], m.bytes() + 8, MPI.BYTE, m.source(), m.tag());
        }
        int done = 0;
        while (done < requests.length) {
            Status[] statuses = Request.waitSomeStatus(requests);
            for (Status st : statuses) {
                Planned m = mine.get(st.getIndex());
                Check.equal(m.bytes(), st.getCount(MPI.BYTE), "world: size of message " + m);
                check(buffers[st.getIndex()], round, m, "world");
                done++;
            }
        }
        return done;
    }

    private static int receiveAny(int rank, int round, List<Planned> messages, Intracomm dup) throws MPIException {
        List<Planned> mine = mine(rank, 1, messages);
        int size = MPI.COMM_WORLD.getSize();
        List<List<Planned>> bySource = new ArrayList<>();
        for (int s = 0; s < size; s++) {
            bySource.add(new ArrayList<>());
        }
        for (Planned m : mine) {
            bySource.get(m.source()).add(m);
        }
        int[] next = new int[size];
        for (int k = 0; k < mine.size(); k++) {
            Status probed;
            while ((probed = dup.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG)) == null) {
                Thread.onSpinWait();
            }
            int s = probed.getSource();
            Check.that(next[s] < bySource.get(s).size(), "any: more messages from " + s + " than planned");
            Planned m = bySource.get(s).get(next[s]++);
            Check.equal(m.tag(), probed.getTag(), "any: tag of message " + m);
            Check.equal(m.bytes(), probed.getCount(MPI.BYTE), "any: probed size of message " + m);
            byte[] b = new byte[m.bytes()];
            Status st = dup.recv(b, b.length, MPI.BYTE, s, probed.getTag());
            Check.equal(m.bytes(), st.getCount(MPI.BYTE), "any: size of message " + m);
            check(ByteBuffer.wrap(b), round, m, "any");
        }
        return mine.size();
    }

    private static int receiveSplit(int rank, int round, List<Planned> messages, Intracomm half) throws MPIException {
        List<Planned> mine = mine(rank, 2, messages);
        int size = MPI.COMM_WORLD.getSize();
        int count = 0;
        for (int s = size - 1; s >= 0; s--) {
            for (Planned m : mine) {
                if (m.source() == s) {
                    byte[] b = new byte[m.bytes() + 3];
                    Status st = half.recv(b, b.length, MPI.BYTE, rankIn(2, s), MPI.ANY_TAG);
                    Check.equal(m.tag(), st.getTag(), "split: tag of message " + m);
                    Check.equal(rankIn(2, s), st.getSource(), "split: source of message " + m);
                    Check.equal(m.bytes(), st.getCount(MPI.BYTE), "split: size of message " + m);
                    check(ByteBuffer.wrap(b), round, m, "split");
                    count++;
                }
            }
        }
        return count;
    }

    private static List<Planned> mine(int rank, int comm, List<Planned> messages) {
        List<Planned> mine = new ArrayList<>();
        for (Planned m : messages) {
            if (m.dest() == rank && m.comm() == comm) {
                mine.add(m);
            }
        }
        return mine;
    }

    private static mpi.Comm commOf(int comm, Intracomm dup, Intracomm half) {
        return comm == 0 ? MPI.COMM_WORLD : comm == 1 ? dup : half;
    }

    /** A world rank's rank in the communicator: in the split, ranks of one parity ordered by descending world rank. */
    private static int rankIn(int comm, int worldRank) throws MPIException {
        if (comm != 2) {
            return worldRank;
        }
        int size = MPI.COMM_WORLD.getSize();
        int same = 0;
        for (int r = size - 1; r > worldRank; r--) {
            if (r % 2 == worldRank % 2) {
                same++;
            }
        }
        return same;
    }

    private static byte valueAt(int round, Planned m, int i) {
        return (byte) (31 * round + 17 * m.source() + 7 * m.index() + i * 13 + (i >>> 8));
    }

    private static void fill(ByteBuffer b, int round, Planned m) {
        for (int i = 0; i < m.bytes(); i++) {
            b.put(i, valueAt(round, m, i));
        }
    }

    private static void check(ByteBuffer b, int round, Planned m, String how) {
        for (int i = 0; i < m.bytes(); i++) {
            if (b.get(i) != valueAt(round, m, i)) {
                Check.that(false, how + ": byte " + i + " of message " + m + " in round " + round + " is wrong");
            }
        }
    }
}
