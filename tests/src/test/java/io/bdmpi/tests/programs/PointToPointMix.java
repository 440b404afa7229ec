package io.bdmpi.tests.programs;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Random point-to-point traffic mixing every send mode and every way of receiving and completing,
 * checked by every rank: a plan drawn from a seed all ranks share (sender, receiver, communicator,
 * tag, datatype, count, how it is sent, how it is received, which wildcards) on COMM_WORLD and a
 * duplicate; sizes around {@code -im} (empty messages and some over 100 KB included). Each round:
 * <ol>
 *   <li>"early" messages are sent with {@code send}, {@code iSend}, {@code bSend}, {@code ibSend},
 *       {@code isSend}, or through persistent channels ({@code sendInit}, {@code bSendInit},
 *       {@code sSendInit}, started by {@code start} or {@code startAll} and restarted every round);
 *       receives for "ready" messages are posted ({@code iRecv}). No early message has a receive yet,
 *       so every synchronous send must still be incomplete: checked with {@code test()};</li>
 *   <li>after a barrier, the ready messages are sent with {@code rSend}, {@code irSend} or a blocking
 *       {@code sSend}; each rank receives its early messages in plan order with {@code recv},
 *       {@code iRecv}, the persistent {@code recvInit}, {@code mProbe} + {@code mRecv}, {@code imProbe}
 *       polling + {@code imRecv} or {@code probe} + {@code recv}, with exact or wildcard source and tag
 *       where the plan keeps matching determined (non-overtaking per sender, communicator and tag);
 *       nonblocking receives and sends are completed with a random one of the wait/test calls;</li>
 *   <li>after another barrier, every rank exchanges a message with {@code sendRecv} or
 *       {@code sendRecvReplace} along a random shift.</li>
 * </ol>
 * Datatypes: BYTE, INT, DOUBLE, a contiguous type of 3 INT and a vector of 2 DOUBLE with stride 2.
 * Payload elements derive from (round, sender, index), and every element, status source, tag and
 * count is checked.
 *
 * <p>Usage: {@code PointToPointMix [rounds [messagesPerRound [seed]]]}.
 */
public final class PointToPointMix {

    private static final String[] SEND_HOW = {"send", "iSend", "bSend", "ibSend", "isSend", "persistent",
        "rSend", "irSend", "sSend"};
    private static final int SEND = 0, ISEND = 1, BSEND = 2, IBSEND = 3, ISSEND = 4, PERSISTENT = 5,
        RSEND = 6, IRSEND = 7, SSEND = 8;
    private static final String[] RECV_HOW = {"recv", "iRecv", "mProbe+mRecv", "imProbe+imRecv", "probe+recv",
        "recvInit", "pre-posted iRecv"};
    private static final int RECV = 0, IRECV = 1, MPROBE = 2, IMPROBE = 3, PROBE = 4, RECV_INIT = 5, PREPOSTED = 6;
    private static final String[] SPEC = {"exact", "ANY_TAG", "ANY_SOURCE", "ANY_SOURCE+ANY_TAG"};
    private static final String[] COMPLETE = {"waitStatus", "waitFor", "test loop", "testStatus loop", "waitAny",
        "waitAnyStatus", "testAny loop", "testAnyStatus loop", "waitAll", "waitAllStatus", "testAll loop",
        "testAllStatus loop", "waitSome", "waitSomeStatus", "testSome loop", "testSomeStatus loop",
        "getStatus loop + waitStatus"};
    private static final int[] SEND_MODE_OF_CHANNEL = {PERSISTENT, BSEND, SSEND};

    private record Msg(int index, int src, int dst, int comm, int tag, int kind, int count, int send, int recv,
                       int spec, int channel) {
        boolean ready() {
            return send >= RSEND;
        }

        boolean early() {
            return !ready();
        }

        @Override
        public String toString() {
            return "message " + index + " (" + src + " -> " + dst + ", " + (comm == 0 ? "world" : "dup") + ", tag "
                    + tag + ", " + KIND_NAMES[kind] + " x " + count + ", " + SEND_HOW[send]
                    + (channel >= 0 ? " channel " + channel + " (" + CHANNEL_NAMES[channel % 3]
                    + ")" : "") + ", " + RECV_HOW[recv] + " " + SPEC[spec] + ")";
        }
    }

    private record Channel(int src, int dst, int comm, int tag, int kind, int count) {
    }

    private record Round(List<Msg> messages, boolean startAll, int completeRecv, int completeSend, int shift,
                         boolean replace, boolean anySource, int pairKind, int[] pairCount) {
    }

    private static final String[] KIND_NAMES = {"BYTE", "INT", "DOUBLE", "contiguous(3 INT)", "vector(2,1,2 DOUBLE)"};
    private static final String[] CHANNEL_NAMES = {"sendInit", "bSendInit", "sSendInit"};
    private static final int[] ITEM_BYTES = {1, 4, 8, 12, 16};

    private static Datatype contiguous;
    private static Datatype vector;

    private PointToPointMix() {
    }

    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int perRound = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Intracomm dup = MPI.COMM_WORLD.dup();
        contiguous = Datatype.createContiguous(3, MPI.INT);
        contiguous.commit();
        vector = Datatype.createVector(2, 1, 2, MPI.DOUBLE);
        vector.commit();
        Random plan = new Random(seed);

        List<Channel> channels = new ArrayList<>();
        for (int c = 0; c < 2 * size; c++) {
            int kind = plan.nextInt(5);
            channels.add(new Channel(plan.nextInt(size), plan.nextInt(size), plan.nextInt(2), plan.nextInt(4), kind,
                    count(plan, kind)));
        }
        List<Round> plans = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            plans.add(plan(plan, perRound, size, channels));
        }

        if (rank == 0) {
            System.out.println("PointToPointMix plan: " + summary(plans));
        }
        // Bsend space: MPI counts each buffered message until it is sent, so room for a whole round.
        long bsend = 0;
        for (Round r : plans) {
            long sum = 0;
            for (Msg m : r.messages()) {
                boolean buffered = m.send() == BSEND || m.send() == IBSEND
                        || m.channel() >= 0 && SEND_MODE_OF_CHANNEL[m.channel() % 3] == BSEND;
                if (m.src() == rank && buffered) {
                    sum += (long) m.count() * ITEM_BYTES[m.kind()] + MPI.BSEND_OVERHEAD;
                }
            }
            bsend = Math.max(bsend, sum);
        }
        byte[] attached = new byte[(int) bsend + MPI.BSEND_OVERHEAD];
        MPI.attachBuffer(attached);

        // The persistent requests live over every round.
        Buffer[] channelSendBuf = new Buffer[channels.size()];
        Buffer[] channelRecvBuf = new Buffer[channels.size()];
        Prequest[] channelSend = new Prequest[channels.size()];
        Prequest[] channelRecv = new Prequest[channels.size()];
        for (int c = 0; c < channels.size(); c++) {
            Channel ch = channels.get(c);
            Comm comm = ch.comm() == 0 ? MPI.COMM_WORLD : dup;
            if (ch.src() == rank) {
                channelSendBuf[c] = buffer(ch.kind(), ch.count());
                Datatype t = type(ch.kind());
                channelSend[c] = switch (SEND_MODE_OF_CHANNEL[c % 3]) {
                    case BSEND -> comm.bSendInit(channelSendBuf[c], ch.count(), t, ch.dst(), ch.tag());
                    case SSEND -> comm.sSendInit(channelSendBuf[c], ch.count(), t, ch.dst(), ch.tag());
                    default -> comm.sendInit(channelSendBuf[c], ch.count(), t, ch.dst(), ch.tag());
                };
            }
            if (ch.dst() == rank) {
                channelRecvBuf[c] = buffer(ch.kind(), ch.count() + 2);
                channelRecv[c] = comm.recvInit(channelRecvBuf[c], ch.count() + 2, type(ch.kind()), ch.src(), ch.tag());
            }
        }

        long received = 0;
        for (int round = 0; round < rounds; round++) {
            Round r = plans.get(round);
            received += round(rank, size, round, r, dup, channelSend, channelSendBuf, channelRecv, channelRecvBuf);
        }
        long[] total = {received};
        MPI.COMM_WORLD.allReduce(total, 1, MPI.LONG, MPI.SUM);
        long planned = 0;
        for (Round r : plans) {
            planned += r.messages().size() + size;
        }
        Check.equal(planned, total[0], "messages received by all ranks");
        for (int c = 0; c < channels.size(); c++) {
            if (channelSend[c] != null) {
                channelSend[c].free();
            }
            if (channelRecv[c] != null) {
                channelRecv[c].free();
            }
        }
        byte[] detached = MPI.detachBuffer();
        Check.that(detached == attached, "detachBuffer returns the attached array");
        contiguous.free();
        vector.free();
        dup.free();
        Check.ok("PointToPointMix");
        MPI.Finalize();
    }

    private static Round plan(Random plan, int perRound, int size, List<Channel> channels) {
        boolean startAll = plan.nextBoolean();
        List<Msg> raw = new ArrayList<>();
        for (int i = 0; i < perRound; i++) {
            int kind = plan.nextInt(5);
            int send = plan.nextInt(9);
            // Ready messages have tags of their own: their receives are posted while early messages arrive.
            int tag = send >= RSEND ? 4 + plan.nextInt(2) : plan.nextInt(4);
            raw.add(new Msg(0, plan.nextInt(size), plan.nextInt(size), plan.nextInt(2), tag, kind,
                    count(plan, kind), send == PERSISTENT ? SEND : send, 0, 0, -1));
        }
        List<Msg> chan = new ArrayList<>();
        for (int c = 0; c < channels.size(); c++) {
            Channel ch = channels.get(c);
            chan.add(new Msg(0, ch.src(), ch.dst(), ch.comm(), ch.tag(), ch.kind(), ch.count(), PERSISTENT,
                    RECV_INIT, 0, c));
        }
        List<Msg> ordered = new ArrayList<>();
        if (startAll) {
            ordered.addAll(chan);
            ordered.addAll(raw);
        } else {
            ordered.addAll(raw);
            for (Msg m : chan) {
                ordered.add(plan.nextInt(ordered.size() + 1), m);
            }
        }
        // Receive ways and wildcards, in order: a wildcard only where no later message could match instead.
        List<Msg> messages = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            Msg m = ordered.get(i);
            int recv = m.channel() >= 0 ? RECV_INIT : m.ready() ? PREPOSTED : plan.nextInt(5);
            int spec = 0;
            if (recv != RECV_INIT && recv != PREPOSTED) {
                spec = plan.nextInt(4);
                if ((spec & 2) != 0 && !anySourceDetermined(ordered, i, (spec & 1) != 0)) {
                    spec &= 1;
                }
            } else if (recv == PREPOSTED && plan.nextBoolean() && onlyReadyTo(ordered, i)) {
                spec = 2; // ANY_SOURCE, exact tag: no other ready message can match it.
            }
            messages.add(new Msg(i, m.src(), m.dst(), m.comm(), m.tag(), m.kind(), m.count(), m.send(), recv, spec,
                    m.channel()));
        }
        int pairKind = plan.nextInt(5);
        int[] pairCount = new int[size];
        boolean replace = plan.nextBoolean();
        int same = count(plan, pairKind);
        for (int s = 0; s < size; s++) {
            pairCount[s] = replace ? same : count(plan, pairKind);
        }
        return new Round(messages, startAll, plan.nextInt(COMPLETE.length), plan.nextInt(COMPLETE.length),
                plan.nextInt(size), replace, plan.nextBoolean(), pairKind, pairCount);
    }

    /** How often each way of sending, receiving and completing is used, for the job's log. */
    private static String summary(List<Round> plans) {
        int[] send = new int[SEND_HOW.length];
        int[] recv = new int[RECV_HOW.length];
        int[] spec = new int[SPEC.length];
        int[] kind = new int[KIND_NAMES.length];
        int large = 0;
        int empty = 0;
        StringBuilder completions = new StringBuilder();
        for (Round r : plans) {
            for (Msg m : r.messages()) {
                send[m.send()]++;
                recv[m.recv()]++;
                spec[m.spec()]++;
                kind[m.kind()]++;
                large += m.count() * ITEM_BYTES[m.kind()] > 100_000 ? 1 : 0;
                empty += m.count() == 0 ? 1 : 0;
            }
            completions.append(COMPLETE[r.completeRecv()]).append('/').append(COMPLETE[r.completeSend()]).append(", ")
                    .append(r.replace() ? "sendRecvReplace" : "sendRecv").append(r.startAll() ? ", startAll; " : "; ");
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < send.length; i++) {
            b.append(SEND_HOW[i]).append(' ').append(send[i]).append(", ");
        }
        for (int i = 0; i < recv.length; i++) {
            b.append(RECV_HOW[i]).append(' ').append(recv[i]).append(", ");
        }
        for (int i = 0; i < spec.length; i++) {
            b.append(SPEC[i]).append(' ').append(spec[i]).append(", ");
        }
        for (int i = 0; i < kind.length; i++) {
            b.append(KIND_NAMES[i]).append(' ').append(kind[i]).append(", ");
        }
        return b.append(large).append(" over 100 KB, ").append(empty).append(" empty; rounds: ").append(completions)
                .toString();
    }

    /** Whether ready message i is the only ready one to its receiver on its communicator with its tag. */
    private static boolean onlyReadyTo(List<Msg> ordered, int i) {
        Msg m = ordered.get(i);
        for (int j = 0; j < ordered.size(); j++) {
            Msg o = ordered.get(j);
            if (j != i && o.ready() && o.dst() == m.dst() && o.comm() == m.comm() && o.tag() == m.tag()) {
                return false;
            }
        }
        return true;
    }

    /** Whether an ANY_SOURCE receive of message i can only match it: no later early message to the same rank could. */
    private static boolean anySourceDetermined(List<Msg> ordered, int i, boolean anyTag) {
        Msg m = ordered.get(i);
        for (int j = i + 1; j < ordered.size(); j++) {
            Msg o = ordered.get(j);
            if (o.early() && o.dst() == m.dst() && o.comm() == m.comm() && o.src() != m.src()
                    && (anyTag || o.tag() == m.tag())) {
                return false;
            }
        }
        return true;
    }

    private static int count(Random plan, int kind) {
        int draw = plan.nextInt(10);
        int bytes = draw == 0 ? 0 : draw == 1 ? 100_000 + plan.nextInt(80_000) : plan.nextInt(8000);
        return bytes / ITEM_BYTES[kind];
    }

    private static long round(int rank, int size, int round, Round r, Intracomm dup,
                              Prequest[] channelSend, Buffer[] channelSendBuf,
                              Prequest[] channelRecv, Buffer[] channelRecvBuf) throws MPIException {
        List<Msg> messages = r.messages();
        // Heap array or direct buffer: each rank's own choice, which matching does not depend on.
        Random local = new Random(round * 7919L + rank);
        // 1. early sends, in plan order; receives of ready messages posted.
        List<Request> sends = new ArrayList<>();
        List<Msg> syncSends = new ArrayList<>();
        List<Request> syncRequests = new ArrayList<>();
        List<Prequest> toStart = new ArrayList<>();
        for (Msg m : messages) {
            if (m.src() != rank || m.ready()) {
                continue;
            }
            Comm comm = m.comm() == 0 ? MPI.COMM_WORLD : dup;
            Datatype t = type(m.kind());
            if (m.channel() >= 0) {
                Buffer b = channelSendBuf[m.channel()];
                fill(b, m.kind(), m.count(), key(round, m));
                Prequest p = channelSend[m.channel()];
                sends.add(p);
                if (SEND_MODE_OF_CHANNEL[m.channel() % 3] == SSEND) {
                    syncSends.add(m);
                    syncRequests.add(p);
                }
                if (r.startAll()) {
                    toStart.add(p);
                } else {
                    p.start();
                }
                continue;
            }
            if (!toStart.isEmpty()) {
                Prequest.startAll(toStart.toArray(new Prequest[0]));
                toStart.clear();
            }
            Buffer b = buffer(m.kind(), m.count(), m.send() == SEND || m.send() == BSEND ? local : null);
            fill(b, m.kind(), m.count(), key(round, m));
            switch (m.send()) {
                case SEND -> comm.send(obj(b), m.count(), t, m.dst(), m.tag());
                case ISEND -> sends.add(comm.iSend(b, m.count(), t, m.dst(), m.tag()));
                case BSEND -> comm.bSend(obj(b), m.count(), t, m.dst(), m.tag());
                case IBSEND -> sends.add(comm.ibSend(b, m.count(), t, m.dst(), m.tag()));
                case ISSEND -> {
                    Request q = comm.isSend(b, m.count(), t, m.dst(), m.tag());
                    sends.add(q);
                    syncSends.add(m);
                    syncRequests.add(q);
                }
                default -> throw Check.fail("unexpected early send " + m);
            }
        }
        if (!toStart.isEmpty()) {
            Prequest.startAll(toStart.toArray(new Prequest[0]));
        }
        List<Request> recvs = new ArrayList<>();
        List<Checker> checks = new ArrayList<>();
        long received = 0;
        for (Msg m : messages) {
            if (m.dst() == rank && m.ready()) {
                received++;
                Buffer b = buffer(m.kind(), m.count() + 2);
                recvs.add((m.comm() == 0 ? MPI.COMM_WORLD : dup).iRecv(b, m.count() + 2, type(m.kind()),
                        m.spec() == 2 ? MPI.ANY_SOURCE : m.src(), m.tag()));
                checks.add(st -> checkReceived(st, b, round, m, "pre-posted " + SPEC[m.spec()]));
            }
        }
        for (int k = 0; k < syncRequests.size(); k++) {
            Check.that(!syncRequests.get(k).test(), "round " + round + ": synchronous send of " + syncSends.get(k)
                    + " completed before its receive was posted");
        }
        MPI.COMM_WORLD.barrier();

        // 2. ready sends, then the early receives in plan order.
        for (Msg m : messages) {
            if (m.src() != rank || !m.ready()) {
                continue;
            }
            Comm comm = m.comm() == 0 ? MPI.COMM_WORLD : dup;
            Buffer b = buffer(m.kind(), m.count(), m.send() != IRSEND ? local : null);
            fill(b, m.kind(), m.count(), key(round, m));
            switch (m.send()) {
                case RSEND -> comm.rSend(obj(b), m.count(), type(m.kind()), m.dst(), m.tag());
                case IRSEND -> sends.add(comm.irSend(b, m.count(), type(m.kind()), m.dst(), m.tag()));
                case SSEND -> comm.sSend(obj(b), m.count(), type(m.kind()), m.dst(), m.tag());
                default -> throw Check.fail("unexpected ready send " + m);
            }
        }
        List<Prequest> recvToStart = new ArrayList<>();
        for (Msg m : messages) {
            if (m.dst() != rank || m.ready()) {
                continue;
            }
            received++;
            Comm comm = m.comm() == 0 ? MPI.COMM_WORLD : dup;
            Datatype t = type(m.kind());
            int source = (m.spec() & 2) != 0 ? MPI.ANY_SOURCE : m.src();
            int tag = (m.spec() & 1) != 0 ? MPI.ANY_TAG : m.tag();
            String how = RECV_HOW[m.recv()] + " " + SPEC[m.spec()];
            if (m.channel() >= 0) {
                Buffer b = channelRecvBuf[m.channel()];
                clear(b);
                Prequest p = channelRecv[m.channel()];
                if (r.startAll()) {
                    recvToStart.add(p);
                } else {
                    p.start();
                }
                recvs.add(p);
                checks.add(st -> checkReceived(st, b, round, m, how));
                continue;
            }
            if (!recvToStart.isEmpty()) {
                Prequest.startAll(recvToStart.toArray(new Prequest[0]));
                recvToStart.clear();
            }
            Buffer b = buffer(m.kind(), m.count() + 2, m.recv() == IRECV || m.recv() == IMPROBE ? null : local);
            switch (m.recv()) {
                case RECV -> checkReceived(comm.recv(obj(b), m.count() + 2, t, source, tag), b, round, m, how);
                case IRECV -> {
                    recvs.add(comm.iRecv(b, m.count() + 2, t, source, tag));
                    checks.add(st -> checkReceived(st, b, round, m, how));
                }
                case MPROBE -> {
                    Message msg = new Message();
                    checkEnvelope(msg.mProbe(source, tag, comm), round, m, how + " (probed)");
                    checkReceived(msg.mRecv(obj(b), m.count() + 2, t), b, round, m, how);
                    Check.that(msg.isNull(), how + ": the message is null after mRecv");
                }
                case IMPROBE -> {
                    Message msg = new Message();
                    Status st;
                    while ((st = msg.imProbe(source, tag, comm)) == null) {
                        Thread.onSpinWait();
                    }
                    checkEnvelope(st, round, m, how + " (probed)");
                    recvs.add(msg.imRecv(b, m.count() + 2, t));
                    checks.add(s -> checkReceived(s, b, round, m, how));
                }
                case PROBE -> {
                    Status st = comm.probe(source, tag);
                    checkEnvelope(st, round, m, how + " (probed)");
                    checkReceived(comm.recv(obj(b), m.count() + 2, t, st.getSource(), st.getTag()), b, round, m, how);
                }
                default -> throw Check.fail("unexpected receive " + m);
            }
        }
        if (!recvToStart.isEmpty()) {
            Prequest.startAll(recvToStart.toArray(new Prequest[0]));
        }
        complete(recvs, checks, r.completeRecv(), "round " + round + " receives");
        List<Checker> none = new ArrayList<>(Collections.nCopies(sends.size(), st -> { }));
        complete(sends, none, r.completeSend(), "round " + round + " sends");
        MPI.COMM_WORLD.barrier();

        // 3. sendRecv / sendRecvReplace along a shift.
        int dest = (rank + r.shift()) % size;
        int from = (rank - r.shift() + size) % size;
        Msg out = new Msg(1_000_000 + rank, rank, dest, 0, 7, r.pairKind(), r.pairCount()[rank], SEND, RECV, 0, -1);
        Msg in = new Msg(1_000_000 + from, from, rank, 0, 7, r.pairKind(), r.pairCount()[from], SEND, RECV,
                r.anySource() ? 2 : 0, -1);
        Datatype t = type(r.pairKind());
        int source = r.anySource() ? MPI.ANY_SOURCE : from;
        if (r.replace()) {
            Buffer b = buffer(r.pairKind(), out.count(), local);
            fill(b, r.pairKind(), out.count(), key(round, out));
            Status st = MPI.COMM_WORLD.sendRecvReplace(obj(b), out.count(), t, dest, 7, source, 7);
            checkReceived(st, b, round, in, "sendRecvReplace");
        } else {
            Buffer s = buffer(r.pairKind(), out.count(), local);
            fill(s, r.pairKind(), out.count(), key(round, out));
            Buffer b = buffer(r.pairKind(), in.count() + 2, local);
            Status st = MPI.COMM_WORLD.sendRecv(obj(s), out.count(), t, dest, 7, obj(b), in.count() + 2, t, source, MPI.ANY_TAG);
            checkReceived(st, b, round, in, "sendRecv");
            check(s, r.pairKind(), out.count(), key(round, out), "sendRecv: send buffer changed");
        }
        received++;
        MPI.COMM_WORLD.barrier();
        return received;
    }

    @FunctionalInterface
    private interface Checker {
        void check(Status st) throws MPIException;
    }

    /** Completes every request with the chosen call(s), checking each with its status where the call gives one. */
    private static void complete(List<Request> list, List<Checker> checks, int how, String what) throws MPIException {
        Request[] rs = list.toArray(new Request[0]);
        int n = rs.length;
        boolean[] done = new boolean[n];
        String call = what + " by " + COMPLETE[how];
        switch (how) {
            case 0, 1, 2, 3, 16 -> {
                List<Integer> order = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    order.add(i);
                }
                Collections.shuffle(order, new Random(n * 31L + how));
                for (int i : order) {
                    Status st = null;
                    if (how == 0) {
                        st = rs[i].waitStatus();
                    } else if (how == 1) {
                        rs[i].waitFor();
                    } else if (how == 2) {
                        while (!rs[i].test()) {
                            Thread.onSpinWait();
                        }
                    } else if (how == 3) {
                        while ((st = rs[i].testStatus()) == null) {
                            Thread.onSpinWait();
                        }
                    } else {
                        // getStatus leaves the request as it is: the wait after it completes it.
                        Status peek;
                        while ((peek = rs[i].getStatus()) == null) {
                            Thread.onSpinWait();
                        }
                        Check.that(!peek.isCancelled(), call + ": request " + i + " cancelled");
                        checks.get(i).check(peek);
                        st = rs[i].waitStatus();
                        Check.equal(peek.getSource(), st.getSource(), call + ": source after getStatus of request " + i);
                        Check.equal(peek.getTag(), st.getTag(), call + ": tag after getStatus of request " + i);
                        Check.equal(peek.getCount(MPI.BYTE), st.getCount(MPI.BYTE), call + ": bytes after getStatus of request " + i);
                    }
                    finish(i, st, done, checks, call);
                }
            }
            case 4, 5, 6, 7 -> {
                for (int k = 0; k < n; k++) {
                    int i;
                    Status st = null;
                    if (how == 4) {
                        i = Request.waitAny(rs);
                    } else if (how == 5) {
                        st = Request.waitAnyStatus(rs);
                        i = st.getIndex();
                    } else if (how == 6) {
                        while ((i = Request.testAny(rs)) == MPI.UNDEFINED) {
                            Thread.onSpinWait();
                        }
                    } else {
                        while ((st = Request.testAnyStatus(rs)) == null) {
                            Thread.onSpinWait();
                        }
                        i = st.getIndex();
                    }
                    Check.that(i >= 0 && i < n, call + ": index " + i + " out of range with " + (n - k) + " left");
                    finish(i, st, done, checks, call);
                }
                if (n > 0) {
                    int i = how < 6 ? Request.waitAny(rs) : Request.testAny(rs);
                    Check.equal(MPI.UNDEFINED, i, call + ": index once every request is complete");
                }
            }
            case 8, 9, 10, 11 -> {
                Status[] st = null;
                if (how == 8) {
                    Request.waitAll(rs);
                } else if (how == 9) {
                    st = Request.waitAllStatus(rs);
                } else if (how == 10) {
                    while (!Request.testAll(rs)) {
                        Thread.onSpinWait();
                    }
                } else {
                    while ((st = Request.testAllStatus(rs)) == null) {
                        Thread.onSpinWait();
                    }
                }
                Check.that(st == null || st.length == n, call + ": " + (st == null ? 0 : st.length) + " statuses for "
                        + n + " requests");
                for (int i = 0; i < n; i++) {
                    finish(i, st == null ? null : st[i], done, checks, call);
                }
            }
            default -> {
                int left = n;
                while (left > 0) {
                    if (how == 12 || how == 14) {
                        int[] idx = how == 12 ? Request.waitSome(rs) : Request.testSome(rs);
                        Check.that(idx != null, call + ": null with " + left + " requests active");
                        for (int i : idx) {
                            finish(i, null, done, checks, call);
                            left--;
                        }
                    } else {
                        Status[] st = how == 13 ? Request.waitSomeStatus(rs) : Request.testSomeStatus(rs);
                        Check.that(st != null, call + ": null with " + left + " requests active");
                        for (Status s : st) {
                            finish(s.getIndex(), s, done, checks, call);
                            left--;
                        }
                    }
                }
                Object after = how == 12 ? Request.waitSome(rs) : how == 13 ? Request.waitSomeStatus(rs)
                        : how == 14 ? Request.testSome(rs) : Request.testSomeStatus(rs);
                Check.that(after == null, call + ": not null once every request is complete");
            }
        }
        for (int i = 0; i < n; i++) {
            Check.that(done[i], call + ": request " + i + " never completed");
        }
    }

    private static void finish(int i, Status st, boolean[] done, List<Checker> checks, String call) throws MPIException {
        Check.that(i >= 0 && i < done.length, call + ": index " + i + " out of range");
        Check.that(!done[i], call + ": request " + i + " completed twice");
        done[i] = true;
        if (st != null) {
            Check.that(!st.isCancelled(), call + ": request " + i + " cancelled");
        }
        checks.get(i).check(st);
    }

    private static void checkEnvelope(Status st, int round, Msg m, String how) throws MPIException {
        String what = "round " + round + ", " + how + ", " + m;
        Check.that(st != null, what + ": no status");
        Check.equal(m.src(), st.getSource(), what + ": source");
        Check.equal(m.tag(), st.getTag(), what + ": tag");
        Check.equal(m.count(), st.getCount(type(m.kind())), what + ": count");
        Check.that(!st.isCancelled(), what + ": cancelled");
    }

    /** Checks the status (when there is one) and every element of the received message. */
    private static void checkReceived(Status st, Buffer b, int round, Msg m, String how) throws MPIException {
        if (st != null) {
            checkEnvelope(st, round, m, how);
        }
        check(b, m.kind(), m.count(), key(round, m), "round " + round + ", " + how + ", " + m);
    }

    private static long key(int round, Msg m) {
        return round * 10_000_019L + m.src() * 1_000_003L + m.index();
    }

    private static int value(long key, int i) {
        long x = key * 0x9E3779B97F4A7C15L + i * 0xC2B2AE3D27D4EB4FL;
        return (int) (x ^ (x >>> 29));
    }

    private static Datatype type(int kind) {
        return switch (kind) {
            case 0 -> MPI.BYTE;
            case 1 -> MPI.INT;
            case 2 -> MPI.DOUBLE;
            case 3 -> contiguous;
            default -> vector;
        };
    }

    /** A direct buffer, or when {@code local} says so, a buffer over a Java array (blocking calls take either). */
    private static Buffer buffer(int kind, int count, Random local) {
        if (local == null || local.nextBoolean()) {
            return buffer(kind, count);
        }
        return switch (kind) {
            case 0 -> ByteBuffer.wrap(new byte[count]);
            case 1 -> IntBuffer.wrap(new int[count]);
            case 2 -> DoubleBuffer.wrap(new double[count]);
            case 3 -> IntBuffer.wrap(new int[3 * count]);
            default -> DoubleBuffer.wrap(new double[3 * count]);
        };
    }

    /** What the MPI call gets: the array of a heap buffer, else the direct buffer. */
    private static Object obj(Buffer b) {
        return b.hasArray() ? b.array() : b;
    }

    private static Buffer buffer(int kind, int count) {
        return switch (kind) {
            case 0 -> MPI.newByteBuffer(count);
            case 1 -> MPI.newIntBuffer(count);
            case 2 -> MPI.newDoubleBuffer(count);
            case 3 -> MPI.newIntBuffer(3 * count);
            default -> MPI.newDoubleBuffer(3 * count);
        };
    }

    /** The buffer positions of a message's elements (the vector's gaps are not part of it). */
    private static int elements(int kind, int count) {
        return kind == 3 ? 3 * count : kind == 4 ? 2 * count : count;
    }

    private static int position(int kind, int e) {
        return kind == 4 ? (e / 2) * 3 + (e % 2) * 2 : e;
    }

    private static void clear(Buffer b) {
        if (b instanceof ByteBuffer bb) {
            for (int i = 0; i < bb.capacity(); i++) {
                bb.put(i, (byte) 0x5A);
            }
        } else if (b instanceof IntBuffer ib) {
            for (int i = 0; i < ib.capacity(); i++) {
                ib.put(i, 0x5A5A5A5A);
            }
        } else {
            DoubleBuffer db = (DoubleBuffer) b;
            for (int i = 0; i < db.capacity(); i++) {
                db.put(i, -1.25);
            }
        }
    }

    private static void fill(Buffer b, int kind, int count, long key) {
        int n = elements(kind, count);
        for (int e = 0; e < n; e++) {
            int v = value(key, e);
            int p = position(kind, e);
            switch (kind) {
                case 0 -> ((ByteBuffer) b).put(p, (byte) v);
                case 1, 3 -> ((IntBuffer) b).put(p, v);
                default -> ((DoubleBuffer) b).put(p, v + 0.25);
            }
        }
    }

    private static void check(Buffer b, int kind, int count, long key, String what) {
        int n = elements(kind, count);
        for (int e = 0; e < n; e++) {
            int v = value(key, e);
            int p = position(kind, e);
            boolean ok = switch (kind) {
                case 0 -> ((ByteBuffer) b).get(p) == (byte) v;
                case 1, 3 -> ((IntBuffer) b).get(p) == v;
                default -> ((DoubleBuffer) b).get(p) == v + 0.25;
            };
            if (!ok) {
                Object got = switch (kind) {
                    case 0 -> ((ByteBuffer) b).get(p);
                    case 1, 3 -> ((IntBuffer) b).get(p);
                    default -> ((DoubleBuffer) b).get(p);
                };
                throw Check.fail(what + ": element " + e + " of " + n + " (buffer position " + p + ") is " + got
                        + ", expected " + (kind == 0 ? (byte) v : kind == 1 || kind == 3 ? v : v + 0.25));
            }
        }
    }
}
