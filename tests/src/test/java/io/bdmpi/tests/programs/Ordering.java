package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * MPI's non-overtaking rule under load: every rank s &gt; 0 sends N numbered messages to rank 0,
 * with tags cycling through 0, 1, 2 and sizes mixing small messages with large ones (over a small
 * {@code -im}, so large ones take the spill-file path while small ones stay inline). Rank 0 checks
 * that what it receives keeps each sender's order, three times (barriers between the rounds):
 * <ol>
 *   <li>ANY_SOURCE + ANY_TAG: per source, messages come in exactly the order sent;</li>
 *   <li>each source in turn (last rank first) with ANY_TAG: the same;</li>
 *   <li>each (source, tag) in turn, tag 2 first: per (source, tag), the order sent.</li>
 * </ol>
 * Payload: {@code [source, tag, seqWithinTag, seq, filler...]}.
 *
 * <p>Usage: {@code Ordering [messagesPerSender [largeEvery [largeInts]]]} (defaults 300, 20, 3000).
 */
public final class Ordering {

    static final int TAGS = 3;
    static final int HEADER = 4;

    private Ordering() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int largeEvery = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int largeInts = args.length > 2 ? Integer.parseInt(args[2]) : 3000;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Check.that(size >= 2, "Ordering needs at least 2 ranks");
        int[] buf = new int[Math.max(largeInts, HEADER + 8) + 1];

        for (int round = 1; round <= 3; round++) {
            if (rank != 0) {
                sendAll(rank, n, largeEvery, largeInts);
            } else if (round == 1) {
                int[] nextSeq = new int[size];
                int[][] nextInTag = new int[size][TAGS];
                for (int k = 0; k < (size - 1) * n; k++) {
                    Status st = MPI.COMM_WORLD.recv(buf, buf.length, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    int s = st.getSource();
                    Check.that(s >= 1 && s < size, "round 1: source " + s + " is not a sender");
                    Check.that(st.getTag() >= 0 && st.getTag() < TAGS, "round 1: tag " + st.getTag() + " was never sent");
                    check(round, st, buf, s, st.getTag(), nextSeq[s]++, nextInTag[s][st.getTag()]++, largeEvery, largeInts);
                }
            } else if (round == 2) {
                for (int s = size - 1; s >= 1; s--) {
                    int[] nextInTag = new int[TAGS];
                    for (int seq = 0; seq < n; seq++) {
                        Status st = MPI.COMM_WORLD.recv(buf, buf.length, MPI.INT, s, MPI.ANY_TAG);
                        Check.equal(s, st.getSource(), "round 2: source of recv(" + s + ", ANY_TAG)");
                        Check.that(st.getTag() >= 0 && st.getTag() < TAGS, "round 2: tag " + st.getTag() + " was never sent");
                        check(round, st, buf, s, st.getTag(), seq, nextInTag[st.getTag()]++, largeEvery, largeInts);
                    }
                }
            } else {
                for (int s = size - 1; s >= 1; s--) {
                    for (int tag = TAGS - 1; tag >= 0; tag--) {
                        int inTag = 0;
                        for (int seq = tag; seq < n; seq += TAGS) {
                            Status st = MPI.COMM_WORLD.recv(buf, buf.length, MPI.INT, s, tag);
                            Check.equal(s, st.getSource(), "round 3: source of recv(" + s + ", " + tag + ")");
                            check(round, st, buf, s, tag, seq, inTag++, largeEvery, largeInts);
                        }
                    }
                }
            }
            MPI.COMM_WORLD.barrier();
        }
        Check.ok("Ordering");
        MPI.Finalize();
    }

    private static void sendAll(int rank, int n, int largeEvery, int largeInts) throws MPIException {
        int[] inTag = new int[TAGS];
        for (int seq = 0; seq < n; seq++) {
            int tag = seq % TAGS;
            int len = length(seq, largeEvery, largeInts);
            int[] msg = new int[len];
            msg[0] = rank;
            msg[1] = tag;
            msg[2] = inTag[tag]++;
            msg[3] = seq;
            for (int i = HEADER; i < len; i++) {
                msg[i] = filler(rank, seq, i);
            }
            MPI.COMM_WORLD.send(msg, len, MPI.INT, 0, tag);
        }
    }

    static int length(int seq, int largeEvery, int largeInts) {
        return seq % largeEvery == largeEvery - 1 ? largeInts : HEADER + seq % 5;
    }

    static int filler(int rank, int seq, int i) {
        return rank * 1_000_003 + seq * 7919 + i;
    }

    private static void check(int round, Status st, int[] buf, int source, int tag, int seq, int seqInTag,
                              int largeEvery, int largeInts) throws MPIException {
        String what = "round " + round + ", message from rank " + source + " tag " + tag;
        Check.equal(tag, st.getTag(), what + ": status tag");
        Check.equal(source, buf[0], what + ": sender in payload");
        Check.equal(tag, buf[1], what + ": tag in payload");
        if (buf[2] != seqInTag || buf[3] != seq) {
            throw Check.fail(what + ": out of order: got the message numbered " + buf[3] + " (" + buf[2]
                    + " within its tag), expected " + seq + " (" + seqInTag + " within its tag)");
        }
        int len = length(seq, largeEvery, largeInts);
        Check.equal(len, st.getCount(MPI.INT), what + " #" + seq + ": count");
        for (int i = HEADER; i < len; i++) {
            if (buf[i] != filler(source, seq, i)) {
                throw Check.fail(what + " #" + seq + ": element " + i + " is " + buf[i] + ", expected " + filler(source, seq, i));
            }
        }
    }
}
