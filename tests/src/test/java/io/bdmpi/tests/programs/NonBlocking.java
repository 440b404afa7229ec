package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.nio.IntBuffer;

/**
 * Nonblocking point-to-point around the ring (each rank sends to the next, receives from the
 * previous; needs 2 or more ranks):
 * <ol>
 *   <li>200 outstanding requests: 100 {@code iRecv} posted in reverse tag order, 100 {@code iSend},
 *       one {@code waitAll}; some messages large (over a small {@code -im}). Then 100 more receives
 *       completed with {@code waitAllStatus}.</li>
 *   <li>{@code waitAnyStatus} and {@code waitAny} until every request is done; then
 *       {@code waitAny} on all-null requests returns {@code MPI.UNDEFINED}.</li>
 *   <li>{@code waitSome} until every request is done, then null.</li>
 *   <li>{@code test}, {@code testStatus}, {@code testAll}, {@code testAny}, {@code testSome} on a
 *       receive whose message is sent only after a barrier: not complete before it; complete after
 *       the sender passed a second barrier (retried for a while, in case the runtime needs progress).</li>
 *   <li>a receive freed while it waits (tag 7001; {@code Request.free}) still takes the first of
 *       the two messages with its tag, as MPI asks: the blocking receive after it gets the second,
 *       also when that is a large message; the freed one's buffer holds the first once a barrier
 *       after the sends has passed.</li>
 * </ol>
 *
 * <p>Usage: {@code NonBlocking [largeInts]} (default 3000).
 */
public final class NonBlocking {

    static final int MANY = 100;
    static final long PATIENCE_NS = 20_000_000_000L;

    private NonBlocking() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int large = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Check.that(size >= 2, "NonBlocking needs at least 2 ranks");
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;

        manyOutstanding(rank, next, prev, large);
        waitAny(rank, next, prev);
        waitSome(rank, next, prev);
        tests(rank, next, prev);
        freedReceive(next, prev, large);

        Check.ok("NonBlocking");
        MPI.Finalize();
    }

    private static void freedReceive(int next, int prev, int large) throws MPIException {
        int tag = 7001;
        IntBuffer freedInto = MPI.newIntBuffer(1);
        Request freed = MPI.COMM_WORLD.iRecv(freedInto, 1, MPI.INT, prev, tag);
        freed.free();
        Check.that(freed.isNull(), "a freed receive is not null");
        MPI.COMM_WORLD.barrier(); // every rank has posted and freed its receive before any message comes
        MPI.COMM_WORLD.send(message(MPI.COMM_WORLD.getRank(), tag, 1), 1, MPI.INT, next, tag);
        MPI.COMM_WORLD.send(message(MPI.COMM_WORLD.getRank(), tag + 1, large), large, MPI.INT, next, tag);
        IntBuffer second = MPI.newIntBuffer(large);
        MPI.COMM_WORLD.recv(second, large, MPI.INT, prev, tag);
        checkMessage(second, prev, tag + 1, large, "the receive after a freed one got the freed one's message");
        MPI.COMM_WORLD.barrier();
        checkMessage(freedInto, prev, tag, 1, "the freed receive's buffer");
    }

    private static int length(int t, int large) {
        return t % 25 == 24 ? large : 1 + t % 7;
    }

    private static int value(int sender, int tag, int i) {
        return sender * 10_000_000 + tag * 10_000 + i;
    }

    private static IntBuffer message(int sender, int tag, int n) {
        IntBuffer b = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) {
            b.put(i, value(sender, tag, i));
        }
        return b;
    }

    private static void checkMessage(IntBuffer b, int sender, int tag, int n, String what) {
        for (int i = 0; i < n; i++) {
            if (b.get(i) != value(sender, tag, i)) {
                throw Check.fail(what + ": element " + i + " of the message with tag " + tag + " from rank " + sender
                        + " is " + b.get(i) + ", expected " + value(sender, tag, i));
            }
        }
    }

    private static void manyOutstanding(int rank, int next, int prev, int large) throws MPIException {
        Request[] all = new Request[2 * MANY];
        IntBuffer[] in = new IntBuffer[MANY];
        for (int t = MANY - 1; t >= 0; t--) {
            in[t] = MPI.newIntBuffer(length(t, large));
            all[t] = MPI.COMM_WORLD.iRecv(in[t], length(t, large), MPI.INT, prev, 1000 + t);
        }
        for (int t = 0; t < MANY; t++) {
            all[MANY + t] = MPI.COMM_WORLD.iSend(message(rank, 1000 + t, length(t, large)), length(t, large), MPI.INT, next, 1000 + t);
        }
        Request.waitAll(all);
        for (int t = 0; t < MANY; t++) {
            checkMessage(in[t], prev, 1000 + t, length(t, large), "waitAll");
        }
        for (int i = 0; i < all.length; i++) {
            Check.that(all[i].isNull(), "waitAll left request " + i + " not null");
        }

        // The same again, receives completed with waitAllStatus.
        Request[] recvs = new Request[MANY];
        for (int t = MANY - 1; t >= 0; t--) {
            in[t] = MPI.newIntBuffer(length(t, large) + 2);
            recvs[t] = MPI.COMM_WORLD.iRecv(in[t], length(t, large) + 2, MPI.INT, prev, 2000 + t);
        }
        Request[] sends = new Request[MANY];
        for (int t = 0; t < MANY; t++) {
            sends[t] = MPI.COMM_WORLD.iSend(message(rank, 2000 + t, length(t, large)), length(t, large), MPI.INT, next, 2000 + t);
        }
        Status[] st = Request.waitAllStatus(recvs);
        Check.equal(MANY, st.length, "waitAllStatus: number of statuses");
        for (int t = 0; t < MANY; t++) {
            Check.equal(prev, st[t].getSource(), "waitAllStatus: source of request " + t);
            Check.equal(2000 + t, st[t].getTag(), "waitAllStatus: tag of request " + t);
            Check.equal(length(t, large), st[t].getCount(MPI.INT), "waitAllStatus: count of request " + t);
            checkMessage(in[t], prev, 2000 + t, length(t, large), "waitAllStatus");
        }
        Request.waitAll(sends);
    }

    private static void waitAny(int rank, int next, int prev) throws MPIException {
        final int k = 10;
        for (int round = 0; round < 2; round++) {
            int base = 3000 + round * 100;
            Request[] reqs = new Request[k];
            IntBuffer[] in = new IntBuffer[k];
            for (int j = 0; j < k; j++) {
                in[j] = MPI.newIntBuffer(3);
                reqs[j] = MPI.COMM_WORLD.iRecv(in[j], 3, MPI.INT, prev, base + j);
            }
            for (int j = k - 1; j >= 0; j--) {
                MPI.COMM_WORLD.send(message(rank, base + j, 3), 3, MPI.INT, next, base + j);
            }
            boolean[] done = new boolean[k];
            for (int c = 0; c < k; c++) {
                int idx;
                if (round == 0) {
                    Status st = Request.waitAnyStatus(reqs);
                    idx = st.getIndex();
                    Check.that(idx >= 0 && idx < k, "waitAnyStatus: index " + idx);
                    Check.equal(base + idx, st.getTag(), "waitAnyStatus: tag of request " + idx);
                    Check.equal(prev, st.getSource(), "waitAnyStatus: source of request " + idx);
                } else {
                    idx = Request.waitAny(reqs);
                    Check.that(idx >= 0 && idx < k, "waitAny: index " + idx);
                }
                Check.that(!done[idx], "waitAny returned request " + idx + " twice");
                done[idx] = true;
                Check.that(reqs[idx].isNull(), "waitAny left completed request " + idx + " not null");
                checkMessage(in[idx], prev, base + idx, 3, "waitAny");
            }
            Check.equal(MPI.UNDEFINED, Request.waitAny(reqs), "waitAny on requests that are all null");
        }
    }

    private static void waitSome(int rank, int next, int prev) throws MPIException {
        final int k = 10;
        int base = 4000;
        Request[] reqs = new Request[k];
        IntBuffer[] in = new IntBuffer[k];
        for (int j = 0; j < k; j++) {
            in[j] = MPI.newIntBuffer(2);
            reqs[j] = MPI.COMM_WORLD.iRecv(in[j], 2, MPI.INT, prev, base + j);
        }
        for (int j = 0; j < k; j++) {
            MPI.COMM_WORLD.send(message(rank, base + j, 2), 2, MPI.INT, next, base + j);
        }
        boolean[] done = new boolean[k];
        int count = 0;
        while (count < k) {
            int[] idx = Request.waitSome(reqs);
            Check.that(idx != null && idx.length > 0, "waitSome returned nothing with " + (k - count) + " requests active");
            for (int i : idx) {
                Check.that(i >= 0 && i < k && !done[i], "waitSome: bad or repeated index " + i);
                done[i] = true;
                count++;
                checkMessage(in[i], prev, base + i, 2, "waitSome");
            }
        }
        Check.that(Request.waitSome(reqs) == null, "waitSome on requests that are all null must return null");
    }

    private static void tests(int rank, int next, int prev) throws MPIException {
        // Posted now; the matching messages are sent only after the first barrier.
        IntBuffer bAll = MPI.newIntBuffer(1);
        Request rAll = MPI.COMM_WORLD.iRecv(bAll, 1, MPI.INT, prev, 5000);
        IntBuffer[] bAny = {MPI.newIntBuffer(1), MPI.newIntBuffer(1), MPI.newIntBuffer(1)};
        Request[] rAny = new Request[3];
        for (int j = 0; j < 3; j++) {
            rAny[j] = MPI.COMM_WORLD.iRecv(bAny[j], 1, MPI.INT, prev, 5010 + j);
        }
        IntBuffer bOne = MPI.newIntBuffer(1);
        Request rOne = MPI.COMM_WORLD.iRecv(bOne, 1, MPI.INT, prev, 5020);
        IntBuffer bStatus = MPI.newIntBuffer(1);
        Request rStatus = MPI.COMM_WORLD.iRecv(bStatus, 1, MPI.INT, prev, 5021);

        Check.that(!rOne.test(), "test() is true before the message was sent");
        Check.that(rStatus.testStatus() == null, "testStatus() is not null before the message was sent");
        Check.that(!Request.testAll(new Request[] {rAll}), "testAll is true before the message was sent");
        Check.equal(MPI.UNDEFINED, Request.testAny(rAny), "testAny before any message was sent");
        int[] some = Request.testSome(rAny);
        Check.that(some != null && some.length == 0, "testSome before any message was sent must return an empty array");

        MPI.COMM_WORLD.barrier();
        MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, next, 5000);
        MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, next, 5011); // only the middle one of rAny
        MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, next, 5020);
        MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, next, 5021);
        MPI.COMM_WORLD.barrier();

        Request[] all = {rAll};
        awaitTrue(() -> Request.testAll(all), "testAll");
        Check.that(all[0].isNull(), "testAll left its completed request not null");
        Check.equal(prev, bAll.get(0), "testAll: payload");

        Status[] any = new Status[1];
        awaitTrue(() -> (any[0] = Request.testAnyStatus(rAny)) != null, "testAnyStatus");
        Check.equal(1, any[0].getIndex(), "testAnyStatus: index (only request 1 has a message)");
        Check.equal(5011, any[0].getTag(), "testAnyStatus: tag");
        Check.equal(prev, bAny[1].get(0), "testAnyStatus: payload");

        awaitTrue(rOne::test, "test()");
        Check.equal(prev, bOne.get(0), "test(): payload");

        Status[] one = new Status[1];
        awaitTrue(() -> (one[0] = rStatus.testStatus()) != null, "testStatus()");
        Check.equal(prev, one[0].getSource(), "testStatus(): source");
        Check.equal(5021, one[0].getTag(), "testStatus(): tag");
        Check.equal(1, one[0].getCount(MPI.INT), "testStatus(): count");

        // Every rank has checked its testAny before anyone sends the other two rAny messages.
        MPI.COMM_WORLD.barrier();
        MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, next, 5010);
        MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, next, 5012);
        Request.waitAll(rAny);
        Check.equal(prev, bAny[0].get(0), "rAny[0]: payload");
        Check.equal(prev, bAny[2].get(0), "rAny[2]: payload");
    }

    private interface Test {
        boolean done() throws MPIException;
    }

    private static void awaitTrue(Test t, String what) throws MPIException {
        long deadline = System.nanoTime() + PATIENCE_NS;
        while (!t.done()) {
            if (System.nanoTime() - deadline > 0) {
                throw Check.fail(what + " never completed in " + PATIENCE_NS / 1_000_000_000
                        + " s, though the message was sent before the barrier");
            }
        }
    }
}
