package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.IntBuffer;

/**
 * MPI's guarantee for synchronous sends: {@code sSend} returns, and an {@code isSend}'s request
 * completes, only once a receive has matched the message. Ranks pair up (2k sends to 2k+1); each
 * phase makes the receiver look for a message that the sender may send only after its
 * synchronous send completed, while no receive has matched that send yet: a runtime that
 * completed synchronous sends when it buffered them lets the later message through and fails here.
 * <ol>
 *   <li>{@code sSend} tag 1, then {@code send} tag 2. The receiver waits (polling) until tag 1 is
 *       pending, gives the sender {@value #PAUSE_MS} ms more, and then must not see tag 2; it
 *       receives tag 1, then tag 2.</li>
 *   <li>{@code isSend} tag 3; {@code test} and {@code getStatus} must say "not yet" until the
 *       receiver, told to go on by a buffered message (tag 4), receives tag 3; the sender polls
 *       with {@code test} until then.</li>
 *   <li>{@value #MANY} {@code isSend}s (tags 10..), completed by one {@code waitAll}, then a
 *       buffered tag 30. The receiver takes them in reverse tag order and must not see tag 30
 *       before it took the first one.</li>
 * </ol>
 */
public final class SynchronousSend {

    private static final int PAUSE_MS = 1000;
    private static final int MANY = 5;
    private static final long DEADLINE_NS = 30_000_000_000L;

    private SynchronousSend() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        Check.that(MPI.COMM_WORLD.getSize() % 2 == 0, "SynchronousSend needs an even number of ranks");
        if (rank % 2 == 0) {
            sender(rank + 1);
        } else {
            receiver(rank - 1);
        }
        Check.ok("SynchronousSend");
        MPI.Finalize();
    }

    private static void sender(int peer) throws MPIException {
        MPI.COMM_WORLD.sSend(new int[] {11}, 1, MPI.INT, peer, 1);
        MPI.COMM_WORLD.send(new int[] {22}, 1, MPI.INT, peer, 2);

        Request r = MPI.COMM_WORLD.isSend(ints(33), 1, MPI.INT, peer, 3);
        for (int i = 0; i < 3; i++) {
            Check.that(r.getStatus() == null, "getStatus: an isSend nobody can have received yet is complete");
            Check.that(!r.test(), "test: an isSend nobody can have received yet is complete");
        }
        MPI.COMM_WORLD.send(new int[] {44}, 1, MPI.INT, peer, 4);
        int polls = 0;
        long start = System.nanoTime();
        while (!r.test()) {
            polls++;
            Check.that(System.nanoTime() - start < DEADLINE_NS, "the isSend did not complete in 30 s, " + polls + " tests");
        }
        Check.that(r.isNull(), "a completed request is null");

        Request[] many = new Request[MANY];
        for (int k = 0; k < MANY; k++) {
            many[k] = MPI.COMM_WORLD.isSend(ints(100 + k), 1, MPI.INT, peer, 10 + k);
        }
        Request.waitAll(many);
        for (Request q : many) {
            Check.that(q.isNull(), "waitAll leaves null requests");
        }
        MPI.COMM_WORLD.send(new int[] {MANY}, 1, MPI.INT, peer, 30);
    }

    private static void receiver(int peer) throws MPIException, InterruptedException {
        long start = System.nanoTime();
        while (MPI.COMM_WORLD.iProbe(peer, 1) == null) {
            Check.that(System.nanoTime() - start < DEADLINE_NS, "tag 1 did not arrive in 30 s");
        }
        Thread.sleep(PAUSE_MS);
        Check.that(MPI.COMM_WORLD.iProbe(peer, 2) == null,
                "tag 2 is pending before tag 1 was received: sSend returned before its message was matched");
        Check.equal(11, receive(peer, 1), "the sSend's message");
        Check.equal(22, receive(peer, 2), "the message sent after the sSend");

        Check.equal(44, receive(peer, 4), "the go-ahead");
        Check.equal(33, receive(peer, 3), "the isSend's message");

        for (int k = MANY - 1; k >= 1; k--) {
            Check.equal(100 + k, receive(peer, 10 + k), "isSend " + k);
        }
        Thread.sleep(PAUSE_MS / 2);
        Check.that(MPI.COMM_WORLD.iProbe(peer, 30) == null,
                "tag 30 is pending before the first isSend was received: waitAll returned before it was matched");
        Check.equal(100, receive(peer, 10), "isSend 0");
        Check.equal(MANY, receive(peer, 30), "the message after waitAll");
    }

    private static int receive(int peer, int tag) throws MPIException {
        int[] v = new int[1];
        MPI.COMM_WORLD.recv(v, 1, MPI.INT, peer, tag);
        return v[0];
    }

    private static IntBuffer ints(int value) {
        return MPI.newIntBuffer(1).put(0, value);
    }
}
