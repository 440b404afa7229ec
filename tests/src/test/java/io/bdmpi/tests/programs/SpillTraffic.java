package io.bdmpi.tests.programs;

import io.bdmpi.spill.SpillDirectory;
import mpi.BDMPI;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Random large-message traffic through spill files (run with {@code -im 4096}), on one node or
 * several: there a master returns the file of a message it sent to another node to its writer
 * ({@code sent-rN-/} in {@code BDMPI_SPILL_DIR}), which takes it back for its next large message,
 * so a file may be longer than the message in it. Every rank draws the same plan from the seed:
 * <ul>
 *   <li>per round, messages between random ranks (itself, its node, other nodes), 0 bytes to
 *       {@value #MAX_MESSAGE_BYTES}, mostly over {@value #INLINE_MAX}; each sender's sizes go up
 *       and down in turn, so a file taken back is often longer than the next message; elements
 *       byte, int, long or double, in a Java array or a direct buffer; random tags, unique per
 *       sender and receiver within a round, so exact source and tag determine every match;</li>
 *   <li>sent by {@code send}, {@code iSend}, {@code bSend} (attached buffer) or {@code sSend};
 *       received by {@code recv}, {@code iRecv} + {@code waitAllStatus}, {@code probe} + {@code recv}
 *       or {@code mProbe} + {@code mRecv}, into a buffer longer than the message and filled with a
 *       sentinel that must survive past its end; status source, tag and count and every element
 *       (derived from round, sender, message and position) are checked;</li>
 *   <li>some rounds end with an {@code allToAllv} or {@code allGatherv} of blocks over
 *       {@value #INLINE_MAX} bytes, different per rank, into a buffer with sentinel gaps between
 *       the blocks;</li>
 *   <li>after each round and a barrier, the lowest rank of each node lists its spill directory:
 *       within {@value #RETURN_GRACE_MS} ms it must hold no message file, only {@code pool-*}
 *       files and {@code sent-*} directories, each kind at most {@link SpillListing#KEPT_MAX_BYTES}.</li>
 * </ul>
 * No plan can deadlock: each rank posts its {@code iRecv}s first, then sends everything, then
 * makes its blocking receives. Only {@code send}, {@code iSend} and {@code bSend} never block in
 * bdmpi (the master buffers them); {@code sSend} is used only for messages received by
 * {@code iRecv}, which the receiver posts before anything of the round that could block, so it
 * completes once the receiver has reached the round.
 *
 * <p>At the end each node's lowest rank prints {@code SpillTraffic node N: ...} with the files
 * left in its {@code sent-*} directories, for the job's log.
 *
 * <p>Usage: {@code SpillTraffic rounds messagesPerRound seed}.
 */
public final class SpillTraffic {

    /** The {@code -im} the test runs with: messages over it are spilled. */
    private static final int INLINE_MAX = 4096;
    private static final int MAX_MESSAGE_BYTES = 3 << 20;
    private static final int MAX_ALL_TO_ALL_BLOCK_BYTES = 300_000;
    private static final int MAX_ALL_GATHER_BLOCK_BYTES = 1 << 20;
    /** Sentinel elements between the blocks a collective receives. */
    private static final int COLLECTIVE_GAP = 3;
    private static final int MAX_SLACK = 64;
    private static final long RETURN_GRACE_MS = 5_000;

    private static final int BYTE = 0, INT = 1, LONG = 2, DOUBLE = 3;
    private static final String[] KIND_NAMES = {"byte", "int", "long", "double"};
    private static final int[] ITEM_BYTES = {1, 4, 8, 8};
    private static final int SEND = 0, ISEND = 1, BSEND = 2, SSEND = 3;
    private static final String[] SEND_NAMES = {"send", "iSend", "bSend", "sSend"};
    private static final int RECV = 0, IRECV = 1, PROBE = 2, MPROBE = 3;
    private static final String[] RECV_NAMES = {"recv", "iRecv", "probe+recv", "mProbe+mRecv"};
    private static final int SELF = 0, SAME_NODE = 1, OTHER_NODE = 2;
    private static final String[] ROUTE_NAMES = {"to itself", "on its node", "to another node"};
    private static final int[] ROUTE_WEIGHTS = {15, 25, 60};

    private record Msg(int index, int src, int dst, int tag, int kind, int count, int slack, int send, int recv,
                       boolean directSend, boolean directRecv) {
        int bytes() {
            return count * ITEM_BYTES[kind];
        }

        @Override
        public String toString() {
            return "message " + index + " (" + src + " -> " + dst + ", tag " + tag + ", " + KIND_NAMES[kind] + " x "
                    + count + " = " + bytes() + " bytes, " + SEND_NAMES[send] + (directSend ? " direct" : " array")
                    + ", " + RECV_NAMES[recv] + (directRecv ? " direct" : " array") + " with " + slack + " more)";
        }
    }

    /** A collective of the round: {@code counts[s][d]} elements from rank s to d ({@code allGatherv}: d = 0 only). */
    private record Collective(boolean allToAll, int kind, int[][] counts, boolean directSend, boolean directRecv) {
        String name() {
            return (allToAll ? "allToAllv" : "allGatherv") + " of " + KIND_NAMES[kind];
        }
    }

    private record Round(List<Msg> messages, Collective collective) {
    }

    private SpillTraffic() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        args = MPI.Init(args);
        int rounds = Integer.parseInt(args[0]);
        int perRound = Integer.parseInt(args[1]);
        long seed = Long.parseLong(args[2]);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Path spill = SpillListing.spillDir();
        int[] nodeOf = new int[size];
        nodeOf[rank] = BDMPI.getNodeRank(MPI.COMM_WORLD);
        MPI.COMM_WORLD.allGather(nodeOf, 1, MPI.INT);
        boolean nodeLister = BDMPI.getLocalRoot(MPI.COMM_WORLD) == rank;

        Random plan = new Random(seed);
        List<Round> plans = new ArrayList<>();
        int[] lastBytes = new int[size];
        boolean[] shrink = new boolean[size];
        for (int round = 0; round < rounds; round++) {
            plans.add(plan(plan, perRound, nodeOf, lastBytes, shrink));
        }
        if (rank == 0) {
            System.out.println("SpillTraffic plan: " + summary(plans));
        }
        // bdmpi frees a bSend's space when the call returns: room for this rank's largest one.
        int bsendBytes = plans.stream().flatMap(r -> r.messages().stream())
                .filter(m -> m.src() == rank && m.send() == BSEND).mapToInt(Msg::bytes).max().orElse(0);
        byte[] attached = new byte[bsendBytes + MPI.BSEND_OVERHEAD];
        MPI.attachBuffer(attached);

        for (int round = 0; round < rounds; round++) {
            Round r = plans.get(round);
            pointToPoint(rank, round, r.messages());
            if (r.collective() != null) {
                collective(rank, size, round, r.collective());
            }
            MPI.COMM_WORLD.barrier();
            if (nodeLister) {
                SpillListing.expectNoMessageFiles(spill, RETURN_GRACE_MS, "after round " + round);
            }
            MPI.COMM_WORLD.barrier();
        }
        if (nodeLister) {
            List<Path> returned = SpillListing.returnedFiles(spill);
            System.out.println("SpillTraffic node " + nodeOf[rank] + ": " + returned.size() + " file(s) of "
                    + SpillListing.bytes(returned) + " bytes in sent-* directories, "
                    + SpillListing.names(spill, SpillDirectory::isRecycled).size() + " pool-* file(s)");
        }
        Check.that(MPI.detachBuffer() == attached, "detachBuffer returns the attached array");
        Check.ok("SpillTraffic");
        MPI.Finalize();
    }

    private static Round plan(Random plan, int perRound, int[] nodeOf, int[] lastBytes, boolean[] shrink) {
        int size = nodeOf.length;
        List<Msg> messages = new ArrayList<>();
        Set<String> envelopes = new HashSet<>();
        for (int i = 0; i < perRound; i++) {
            int src = plan.nextInt(size);
            int dst = destination(plan, src, nodeOf);
            int tag;
            do {
                tag = plan.nextInt(1 << 15);
            } while (!envelopes.add(src + ">" + dst + ":" + tag));
            int kind = plan.nextInt(4);
            int bytes = messageBytes(plan, lastBytes[src], shrink[src]);
            if (bytes > INLINE_MAX) {
                lastBytes[src] = bytes;
                shrink[src] = !shrink[src];
            }
            int recv = plan.nextInt(4);
            // sSend, the last mode, only to a receive posted first (see the class comment).
            int send = plan.nextInt(recv == IRECV ? SSEND + 1 : SSEND);
            messages.add(new Msg(i, src, dst, tag, kind, bytes / ITEM_BYTES[kind], 1 + plan.nextInt(MAX_SLACK), send,
                    recv, send == ISEND || plan.nextBoolean(), recv == IRECV || plan.nextBoolean()));
        }
        Collective collective = null;
        if (plan.nextBoolean()) {
            boolean allToAll = plan.nextBoolean();
            int kind = plan.nextInt(4);
            int[][] counts = new int[size][allToAll ? size : 1];
            for (int[] from : counts) {
                for (int d = 0; d < from.length; d++) {
                    int max = allToAll ? MAX_ALL_TO_ALL_BLOCK_BYTES : MAX_ALL_GATHER_BLOCK_BYTES;
                    // Some empty blocks; the rest spilled, of their own size.
                    int bytes = plan.nextInt(8) == 0 ? 0 : INLINE_MAX + 1 + plan.nextInt(max - INLINE_MAX);
                    from[d] = bytes / ITEM_BYTES[kind];
                }
            }
            collective = new Collective(allToAll, kind, counts, plan.nextBoolean(), plan.nextBoolean());
        }
        return new Round(messages, collective);
    }

    /** A receiver for {@code src}: itself, another rank of its node or one of another node, as the weights draw (any rank if there is none such). */
    private static int destination(Random plan, int src, int[] nodeOf) {
        int route = Models.weighted(plan, ROUTE_WEIGHTS);
        List<Integer> candidates = new ArrayList<>();
        for (int r = 0; r < nodeOf.length; r++) {
            boolean fits = switch (route) {
                case SELF -> r == src;
                case SAME_NODE -> r != src && nodeOf[r] == nodeOf[src];
                default -> nodeOf[r] != nodeOf[src];
            };
            if (fits) {
                candidates.add(r);
            }
        }
        return candidates.isEmpty() ? plan.nextInt(nodeOf.length) : candidates.get(plan.nextInt(candidates.size()));
    }

    /**
     * Mostly spilled sizes, which go down and up in turn for each sender (a file taken back then
     * often holds a shorter message than before); some empty and some inline messages between.
     */
    private static int messageBytes(Random plan, int last, boolean shrink) {
        int draw = plan.nextInt(20);
        if (draw == 0) {
            return 0;
        }
        if (draw <= 2) {
            return 1 + plan.nextInt(INLINE_MAX);
        }
        if (shrink && last > INLINE_MAX + 1) {
            return INLINE_MAX + 1 + plan.nextInt(last - INLINE_MAX - 1);
        }
        int from = Math.min(Math.max(last, INLINE_MAX) + 1, MAX_MESSAGE_BYTES);
        return from + plan.nextInt(MAX_MESSAGE_BYTES - from + 1);
    }

    /** How the plan uses each route, mode and kind, for the job's log. */
    private static String summary(List<Round> plans) {
        int[] send = new int[SEND_NAMES.length];
        int[] recv = new int[RECV_NAMES.length];
        int[] kind = new int[KIND_NAMES.length];
        int spilled = 0;
        int direct = 0;
        long bytes = 0;
        List<String> collectives = new ArrayList<>();
        for (Round r : plans) {
            for (Msg m : r.messages()) {
                send[m.send()]++;
                recv[m.recv()]++;
                kind[m.kind()]++;
                spilled += m.bytes() > INLINE_MAX ? 1 : 0;
                direct += (m.directSend() ? 1 : 0) + (m.directRecv() ? 1 : 0);
                bytes += m.bytes();
            }
            collectives.add(r.collective() == null ? "-" : r.collective().name());
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < send.length; i++) {
            b.append(SEND_NAMES[i]).append(' ').append(send[i]).append(", ");
        }
        for (int i = 0; i < recv.length; i++) {
            b.append(RECV_NAMES[i]).append(' ').append(recv[i]).append(", ");
        }
        for (int i = 0; i < kind.length; i++) {
            b.append(KIND_NAMES[i]).append(' ').append(kind[i]).append(", ");
        }
        return b.append(spilled).append(" spilled, ").append(direct).append(" direct buffers, ").append(bytes)
                .append(" bytes; collectives: ").append(collectives).toString();
    }

    /** This rank's part of a round's messages, in an order that cannot deadlock (see the class comment). */
    private static void pointToPoint(int rank, int round, List<Msg> messages) throws MPIException {
        List<Msg> posted = new ArrayList<>();
        List<Elements> postedInto = new ArrayList<>();
        List<Request> receives = new ArrayList<>();
        for (Msg m : messages) {
            if (m.dst() == rank && m.recv() == IRECV) {
                Elements into = receiveBuffer(m);
                receives.add(MPI.COMM_WORLD.iRecv(into.buffer(), m.count() + m.slack(), type(m.kind()), m.src(), m.tag()));
                posted.add(m);
                postedInto.add(into);
            }
        }
        List<Request> sends = new ArrayList<>();
        List<Msg> sentNonblocking = new ArrayList<>();
        List<Elements> sending = new ArrayList<>();
        for (Msg m : messages) {
            if (m.src() == rank) {
                Elements data = Elements.allocate(m.kind(), m.count(), m.directSend());
                data.fill(0, m.count(), key(round, m.src(), m.index()));
                Datatype t = type(m.kind());
                switch (m.send()) {
                    case SEND -> MPI.COMM_WORLD.send(data.forMpi(), m.count(), t, m.dst(), m.tag());
                    case ISEND -> {
                        sends.add(MPI.COMM_WORLD.iSend(data.buffer(), m.count(), t, m.dst(), m.tag()));
                        sentNonblocking.add(m);
                        sending.add(data);
                    }
                    case BSEND -> MPI.COMM_WORLD.bSend(data.forMpi(), m.count(), t, m.dst(), m.tag());
                    default -> MPI.COMM_WORLD.sSend(data.forMpi(), m.count(), t, m.dst(), m.tag());
                }
            }
        }
        for (Msg m : messages) {
            if (m.dst() == rank && m.recv() != IRECV) {
                Elements into = receiveBuffer(m);
                Datatype t = type(m.kind());
                String how = "round " + round + ", " + m;
                Status st;
                if (m.recv() == RECV) {
                    st = MPI.COMM_WORLD.recv(into.forMpi(), m.count() + m.slack(), t, m.src(), m.tag());
                } else if (m.recv() == PROBE) {
                    checkStatus(MPI.COMM_WORLD.probe(m.src(), m.tag()), m, how + ": probe");
                    st = MPI.COMM_WORLD.recv(into.forMpi(), m.count() + m.slack(), t, m.src(), m.tag());
                } else {
                    Message matched = new Message();
                    checkStatus(matched.mProbe(m.src(), m.tag(), MPI.COMM_WORLD), m, how + ": mProbe");
                    st = matched.mRecv(into.forMpi(), m.count() + m.slack(), t);
                }
                checkStatus(st, m, how);
                into.check(new int[] {0}, new int[] {m.count()}, new long[] {key(round, m.src(), m.index())}, how);
            }
        }
        Status[] statuses = Request.waitAllStatus(receives.toArray(new Request[0]));
        for (int i = 0; i < posted.size(); i++) {
            Msg m = posted.get(i);
            String how = "round " + round + ", " + m;
            checkStatus(statuses[i], m, how);
            postedInto.get(i).check(new int[] {0}, new int[] {m.count()}, new long[] {key(round, m.src(), m.index())}, how);
        }
        Request.waitAll(sends.toArray(new Request[0]));
        for (int i = 0; i < sends.size(); i++) {
            Msg m = sentNonblocking.get(i);
            sending.get(i).check(new int[] {0}, new int[] {m.count()}, new long[] {key(round, m.src(), m.index())},
                    "round " + round + ", " + m + ": iSend's buffer changed");
        }
    }

    private static Elements receiveBuffer(Msg m) {
        Elements into = Elements.allocate(m.kind(), m.count() + m.slack(), m.directRecv());
        into.fillSentinel();
        return into;
    }

    private static void checkStatus(Status st, Msg m, String what) throws MPIException {
        Check.equal(m.src(), st.getSource(), what + ": source");
        Check.equal(m.tag(), st.getTag(), what + ": tag");
        Check.equal(m.count(), st.getCount(type(m.kind())), what + ": count");
    }

    /** The round's collective: each block from s to d holds the elements of key(round, s, d), received with gaps between blocks. */
    private static void collective(int rank, int size, int round, Collective c) throws MPIException {
        int kind = c.kind();
        Datatype t = type(kind);
        String what = "round " + round + ", " + c.name();
        int blocksOut = c.allToAll() ? size : 1;
        int[] sendCounts = c.counts()[rank].clone();
        int[] sendDispls = new int[blocksOut];
        int sendTotal = 0;
        for (int d = 0; d < blocksOut; d++) {
            sendDispls[d] = sendTotal;
            sendTotal += sendCounts[d];
        }
        Elements out = Elements.allocate(kind, sendTotal, c.directSend());
        for (int d = 0; d < blocksOut; d++) {
            out.fill(sendDispls[d], sendCounts[d], collectiveKey(round, rank, c.allToAll() ? d : 0));
        }
        int[] recvCounts = new int[size];
        int[] recvDispls = new int[size];
        long[] keys = new long[size];
        int recvTotal = COLLECTIVE_GAP;
        for (int s = 0; s < size; s++) {
            recvCounts[s] = c.counts()[s][c.allToAll() ? rank : 0];
            recvDispls[s] = recvTotal;
            recvTotal += recvCounts[s] + COLLECTIVE_GAP;
            keys[s] = collectiveKey(round, s, c.allToAll() ? rank : 0);
        }
        Elements in = Elements.allocate(kind, recvTotal, c.directRecv());
        in.fillSentinel();
        if (c.allToAll()) {
            MPI.COMM_WORLD.allToAllv(out.forMpi(), sendCounts, sendDispls, t, in.forMpi(), recvCounts, recvDispls, t);
        } else {
            MPI.COMM_WORLD.allGatherv(out.forMpi(), sendTotal, t, in.forMpi(), recvCounts, recvDispls, t);
        }
        in.check(recvDispls, recvCounts, keys, what);
        out.check(sendDispls, sendCounts, keysOf(round, rank, blocksOut, c.allToAll()), what + ": send buffer changed");
    }

    private static long[] keysOf(int round, int rank, int blocks, boolean perReceiver) {
        long[] keys = new long[blocks];
        for (int d = 0; d < blocks; d++) {
            keys[d] = collectiveKey(round, rank, perReceiver ? d : 0);
        }
        return keys;
    }

    private static long key(int round, int src, int index) {
        return round * 10_000_019L + src * 1_000_003L + index;
    }

    private static long collectiveKey(int round, int src, int block) {
        return key(round, src, 500_000 + block);
    }

    /** Element {@code i} of the data of {@code key}: a raw value that {@link Elements#expected} turns into the kind's. */
    private static long value(long key, int i) {
        long x = key * 0x9E3779B97F4A7C15L + i * 0xC2B2AE3D27D4EB4FL;
        return x ^ (x >>> 29);
    }

    private static Datatype type(int kind) {
        return switch (kind) {
            case BYTE -> MPI.BYTE;
            case INT -> MPI.INT;
            case LONG -> MPI.LONG;
            default -> MPI.DOUBLE;
        };
    }

    /**
     * A buffer of one element kind: a direct one from {@code MPI.new*Buffer}, or a heap one over
     * a Java array (MPI calls get the array). Elements are read and written as the bits of their
     * value widened to a long, so one comparison serves every kind.
     */
    private record Elements(int kind, Buffer buffer) {

        static Elements allocate(int kind, int capacity, boolean direct) {
            Buffer b = switch (kind) {
                case BYTE -> direct ? MPI.newByteBuffer(capacity) : ByteBuffer.wrap(new byte[capacity]);
                case INT -> direct ? MPI.newIntBuffer(capacity) : IntBuffer.wrap(new int[capacity]);
                case LONG -> direct ? MPI.newLongBuffer(capacity) : LongBuffer.wrap(new long[capacity]);
                default -> direct ? MPI.newDoubleBuffer(capacity) : DoubleBuffer.wrap(new double[capacity]);
            };
            return new Elements(kind, b);
        }

        Object forMpi() {
            return buffer.hasArray() ? buffer.array() : buffer;
        }

        /** The bits element {@code i} of {@code key}'s data has in this kind. */
        long expected(long key, int i) {
            long v = value(key, i);
            return switch (kind) {
                case BYTE -> (byte) v;
                case INT -> (int) v;
                case LONG -> v;
                default -> Double.doubleToLongBits((int) v + 0.25);
            };
        }

        long sentinel() {
            return switch (kind) {
                case BYTE -> (byte) 0x5A;
                case INT -> 0x5A5A5A5A;
                case LONG -> 0x5A5A5A5A5A5A5A5AL;
                default -> Double.doubleToLongBits(-1.25);
            };
        }

        long get(int i) {
            return switch (kind) {
                case BYTE -> ((ByteBuffer) buffer).get(i);
                case INT -> ((IntBuffer) buffer).get(i);
                case LONG -> ((LongBuffer) buffer).get(i);
                default -> Double.doubleToLongBits(((DoubleBuffer) buffer).get(i));
            };
        }

        void put(int i, long bits) {
            switch (kind) {
                case BYTE -> ((ByteBuffer) buffer).put(i, (byte) bits);
                case INT -> ((IntBuffer) buffer).put(i, (int) bits);
                case LONG -> ((LongBuffer) buffer).put(i, bits);
                default -> ((DoubleBuffer) buffer).put(i, Double.longBitsToDouble(bits));
            }
        }

        String show(long bits) {
            return kind == DOUBLE ? Double.toString(Double.longBitsToDouble(bits)) : Long.toString(bits);
        }

        /** Writes {@code count} elements of {@code key}'s data from {@code at}. */
        void fill(int at, int count, long key) {
            for (int i = 0; i < count; i++) {
                put(at + i, expected(key, i));
            }
        }

        void fillSentinel() {
            for (int i = 0; i < buffer.capacity(); i++) {
                put(i, sentinel());
            }
        }

        /** Checks every position: block b's data of {@code keys[b]} at {@code displs[b]}, the sentinel everywhere else. */
        void check(int[] displs, int[] counts, long[] keys, String what) {
            int block = 0;
            for (int i = 0; i < buffer.capacity(); i++) {
                while (block < displs.length && i >= displs[block] + counts[block]) {
                    block++;
                }
                boolean inBlock = block < displs.length && i >= displs[block];
                long expected = inBlock ? expected(keys[block], i - displs[block]) : sentinel();
                long got = get(i);
                if (got != expected) {
                    throw Check.fail(what + ": position " + i + " of " + buffer.capacity() + " ("
                            + (inBlock ? "element " + (i - displs[block]) + " of block " + block + " of " + counts[block]
                            : "outside the data") + ") is " + show(got) + ", expected " + show(expected));
                }
            }
        }
    }
}
