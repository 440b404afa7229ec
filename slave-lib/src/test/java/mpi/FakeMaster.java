package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.FilePointers;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.ProtocolCodec;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.Reduction;
import io.bdmpi.protocol.SlaveRequest;
import io.bdmpi.slave.SlaveEnvironment;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A stand-in for the node master, serving one slave over a real Unix-domain socket with the real
 * codec. The slave is rank {@link #RANK} of a world of {@link #SIZE} on two nodes (world ranks 0
 * and 1 on node 0, 2 and 3 on node 1); the other ranks do not exist, but a test can
 * {@link #inject} messages "from" them and say what they {@link #contribute} to collectives. Messages
 * the slave sends to itself, and injected ones, are matched to its posted receives oldest first,
 * as the real mailbox does. A blocking collect or probe that cannot be answered yet is parked
 * until an injection (or {@link #releaseCollectives()}) answers it.
 *
 * <p>A synchronous send to another rank is matched at once (the other ranks receive at once); one
 * to the slave itself when one of its receives takes the message.
 *
 * <p>Collectives complete as soon as the slave starts them (the other ranks are always there),
 * unless {@link #holdCollectives()} holds them back. The slave's share is computed from every
 * member's part as the real master does: pieces in rank order as {@link CollectiveKind} lists
 * them, the slave's own spilled data handed back as slices of its file, predefined reductions
 * combined in rank order. Splits and frees keep a table of communicators, whose membership also
 * answers QueryComm. File pointers are kept as the real master keeps them ({@link FilePointers}).
 *
 * <p>Every request is recorded (read them after {@link WithMaster#requests()}, which waits for the
 * one-way ones); anything a correct slave would never send (a collect of an unknown id, a
 * collective whose parts do not fit together, an abort) is recorded in {@link #problems()}.
 *
 * <p>Close it only after the slave's connection is closed: a slave that reads end-of-stream halts
 * its JVM, as it should when a real master dies.
 */
final class FakeMaster implements AutoCloseable {

    private final FilePointers filePointers = new FilePointers();

    /** Shared file pointers kept now: none once every file is closed. */
    synchronized int filePointersKept() {
        return filePointers.size();
    }

    static final int RANK = 1;
    static final int SIZE = 4;
    /** Slaves per node: world ranks 0-1 are on node 0, 2-3 on node 1. */
    static final int PER_NODE = 2;
    /** Communicator id of a probe that only synchronizes: answered "none", not recorded. */
    static final int SYNC_COMM = -99;

    /** What another rank hands in to a collective: its data and, where the kind has them, its block sizes. */
    record Contribution(byte[] data, long[] blockBytes) {
        Contribution(byte[] data) {
            this(data, new long[0]);
        }
    }

    /** The other ranks' parts of the slave's collectives, by their rank in the communicator. */
    @FunctionalInterface
    interface Peers {
        Contribution of(int rank, SlaveRequest.StartCollective mine);
    }

    /** The other ranks' {colour, key} in the slave's splits, by their rank in the communicator. */
    @FunctionalInterface
    interface SplitPeers {
        int[] of(int rank);
    }

    private record Stored(int commId, int source, int tag, Payload payload, long syncId) {
        boolean matches(SlaveRequest.PostRecv p) {
            return matches(p.commId(), p.source(), p.tag());
        }

        boolean matches(int comm, int src, int t) {
            return comm == commId && (src == Protocol.ANY_SOURCE || src == source) && (t == Protocol.ANY_TAG || t == tag);
        }
    }

    private final Path socket;
    private final Path spillDir;
    private final int inlineMaxBytes;
    private final ServerSocketChannel server;
    private final Thread thread;

    // Guarded by this: the serving thread and the test thread both touch them.
    private SocketChannel channel;
    private final List<SlaveRequest> requests = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    /** What the slave named each communicator (NameComm). */
    private final Map<Integer, String> commNames = new HashMap<>();
    private final List<Stored> unexpected = new ArrayList<>();
    private final List<SlaveRequest.PostRecv> posted = new ArrayList<>();
    private final Map<Long, MasterReply.Completion> matched = new HashMap<>();
    private final Map<Long, MasterReply.Completion> held = new LinkedHashMap<>();
    private final Set<Long> started = new HashSet<>();
    /** Members of each communicator, as world ranks in communicator-rank order. */
    private final Map<Integer, int[]> comms = new HashMap<>();
    private int nextCommId = Protocol.FIRST_DERIVED_COMM_ID;
    private boolean holding;
    private Peers peers = (rank, mine) -> new Contribution(bytesOf(mine.data()), mine.blockBytes());
    private SplitPeers splitPeers;
    private SlaveRequest parked;

    FakeMaster(Path dir, int inlineMaxBytes) throws IOException {
        this.socket = dir.resolve("master.sock");
        this.spillDir = Files.createDirectories(dir.resolve("spill"));
        this.inlineMaxBytes = inlineMaxBytes;
        comms.put(Protocol.COMM_WORLD_ID, new int[] {0, 1, 2, 3});
        comms.put(Protocol.COMM_SELF_ID, new int[] {RANK});
        comms.put(Protocol.COMM_CWORLD_ID, new int[] {0, 2, 1, 3}); // node by node, cyclically
        comms.put(Protocol.COMM_NODE_ID, new int[] {0, 1});
        this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        this.thread = new Thread(this::serve, "fake-master");
        thread.setDaemon(true);
        thread.start();
    }

    /** The environment variables a real master would give the slave. */
    Map<String, String> variables() {
        return new SlaveEnvironment(socket, RANK, SIZE, 0, SIZE / PER_NODE, inlineMaxBytes, spillDir,
                ProcessHandle.current().pid(), false).toVariables();
    }

    Path spillDir() {
        return spillDir;
    }

    /** A message to the slave from {@code source}, as if another rank had sent it now. */
    synchronized void inject(int commId, int source, int tag, byte[] data) {
        arrive(new Stored(commId, source, tag, new Payload.Inline(ByteBuffer.wrap(data)), 0));
    }

    /** Ints in native order from {@code source} on COMM_WORLD. */
    void injectInts(int source, int tag, int... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ProtocolCodec.ORDER);
        b.asIntBuffer().put(values);
        inject(Protocol.COMM_WORLD_ID, source, tag, b.array());
    }

    /** What the other ranks hand in to the slave's next collectives (by default: what the slave hands in). */
    synchronized void contribute(Peers peers) {
        this.peers = peers;
    }

    /** The other ranks' colours and keys in the slave's next splits (by default: the slave's colour, their rank as key). */
    synchronized void splitAs(SplitPeers splitPeers) {
        this.splitPeers = splitPeers;
    }

    /** From now on collectives complete only at {@link #releaseCollectives()}, as if other ranks were late. */
    synchronized void holdCollectives() {
        holding = true;
    }

    /** Completes the collectives held back, and stops holding. */
    synchronized void releaseCollectives() {
        holding = false;
        matched.putAll(held);
        held.clear();
        answerParkedQuietly();
    }

    /** The world ranks of a communicator's members in rank order, or null if it does not exist (any more). */
    synchronized int[] members(int commId) {
        return comms.get(commId);
    }

    synchronized List<SlaveRequest> requests() {
        return new ArrayList<>(requests);
    }

    <T extends SlaveRequest> List<T> requests(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (SlaveRequest r : requests()) {
            if (type.isInstance(r)) {
                out.add(type.cast(r));
            }
        }
        return out;
    }

    synchronized void clearRequests() {
        requests.clear();
    }

    /** What the slave last named communicator {@code commId}, or null. */
    synchronized String commName(int commId) {
        return commNames.get(commId);
    }

    synchronized List<String> problems() {
        return new ArrayList<>(problems);
    }

    /** Whether a blocking request waits for an injection, i.e. the slave is parked. */
    synchronized boolean hasParked() {
        return parked != null;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        server.close();
        synchronized (this) {
            if (channel != null) {
                channel.close();
            }
        }
        thread.join(5_000);
    }

    // ---------------------------------------------------------------- serving

    private void serve() {
        try (SocketChannel ch = server.accept()) {
            synchronized (this) {
                channel = ch;
            }
            ByteBuffer in = ByteBuffer.allocate(1 << 16).order(ProtocolCodec.ORDER).flip();
            while (true) {
                ByteBuffer frame;
                while ((frame = ProtocolCodec.nextFrame(in)) != null) {
                    onRequest(ProtocolCodec.decodeRequest(frame));
                }
                in.compact();
                if (!in.hasRemaining()) {
                    ByteBuffer bigger = ByteBuffer.allocate(in.capacity() * 2).order(ProtocolCodec.ORDER);
                    in = bigger.put(in.flip());
                }
                if (ch.read(in) < 0) {
                    return;
                }
                in.flip();
            }
        } catch (ClosedChannelException closed) {
            // close() ends the test.
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                problems.add("fake master: " + e);
            }
        }
    }

    private synchronized void onRequest(SlaveRequest r) throws IOException {
        if (r instanceof SlaveRequest.Probe p && p.commId() == SYNC_COMM) {
            reply(MasterReply.ProbeResult.NONE);
            return;
        }
        requests.add(r);
        if (r instanceof SlaveRequest.Hello || r instanceof SlaveRequest.Finalize || r instanceof SlaveRequest.CriticalEnter) {
            reply(new MasterReply.Go());
        } else if (r instanceof SlaveRequest.Send s) {
            int[] members = comm(s.commId(), "send");
            if (s.syncId() != 0) {
                started.add(s.syncId());
            }
            if (members != null && s.dest() >= 0 && s.dest() < members.length && members[s.dest()] == RANK) {
                arrive(new Stored(s.commId(), myRank(members), s.tag(), s.payload(), s.syncId()));
            } else if (s.syncId() != 0) {
                complete(new MasterReply.SendMatched(s.syncId()));
            }
        } else if (r instanceof SlaveRequest.PostRecv p) {
            started.add(p.requestId());
            post(p);
        } else if (r instanceof SlaveRequest.Collect c) {
            for (long id : c.requestIds()) {
                if (!started.contains(id)) {
                    problems.add("collect of request " + id + ", which was never posted or started");
                }
            }
            parked = c;
            answerParked();
        } else if (r instanceof SlaveRequest.Cancel c) {
            reply(new MasterReply.CancelResult(posted.removeIf(p -> p.requestId() == c.requestId())));
        } else if (r instanceof SlaveRequest.Probe p) {
            parked = p;
            answerParked();
        } else if (r instanceof SlaveRequest.StartCollective c) {
            started.add(c.requestId());
            complete(new MasterReply.CollectiveDone(c.requestId(), new int[0], collective(c)));
        } else if (r instanceof SlaveRequest.StartSplit sp) {
            started.add(sp.requestId());
            complete(new MasterReply.CollectiveDone(sp.requestId(), split(sp), List.of()));
        } else if (r instanceof SlaveRequest.StartGroupComm g) {
            started.add(g.requestId());
            int id = nextCommId++;
            comms.put(id, g.members().clone());
            complete(new MasterReply.CollectiveDone(g.requestId(), new int[] {id, myRank(g.members()), g.members().length},
                    List.of()));
        } else if (r instanceof SlaveRequest.QueryComm q) {
            reply(info(q.commId()));
        } else if (r instanceof SlaveRequest.FilePointer f) {
            reply(new MasterReply.PointerValue(filePointers.apply(f.key(), f.op(), f.value())));
        } else if (r instanceof SlaveRequest.NameComm n) {
            commNames.put(n.commId(), n.name());
        } else if (!(r instanceof SlaveRequest.CriticalExit)) {
            problems.add("unexpected request " + r);
        }
    }

    private void complete(MasterReply.Completion done) {
        (holding ? held : matched).put(done.requestId(), done);
        answerParkedQuietly();
    }

    // ---------------------------------------------------------------- communicators

    private int[] comm(int commId, String what) {
        int[] members = comms.get(commId);
        if (members == null) {
            problems.add(what + " on communicator " + commId + ", which does not exist");
        }
        return members;
    }

    private static int myRank(int[] members) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == RANK) {
                return i;
            }
        }
        throw new IllegalStateException("the slave is not a member");
    }

    /** The new communicator's id, the slave's rank, the size and its members, as the real master answers. */
    private int[] split(SlaveRequest.StartSplit sp) {
        int[] members = comm(sp.commId(), "split");
        if (members == null || sp.color() == Protocol.UNDEFINED_COLOR) {
            return new int[] {Protocol.NO_COMM, 0, 0};
        }
        int me = myRank(members);
        List<int[]> chosen = new ArrayList<>(); // {rank here, key}
        for (int r = 0; r < members.length; r++) {
            int[] ck = r == me ? new int[] {sp.color(), sp.key()}
                    : splitPeers != null ? splitPeers.of(r) : new int[] {sp.color(), r};
            if (ck[0] == sp.color()) {
                chosen.add(new int[] {r, ck[1]});
            }
        }
        chosen.sort(Comparator.<int[]>comparingInt(x -> x[1]).thenComparingInt(x -> x[0]));
        int[] newMembers = new int[chosen.size()];
        int newRank = -1;
        for (int i = 0; i < newMembers.length; i++) {
            newMembers[i] = members[chosen.get(i)[0]];
            newRank = chosen.get(i)[0] == me ? i : newRank;
        }
        int id = nextCommId++;
        comms.put(id, newMembers);
        int[] made = new int[3 + newMembers.length];
        made[0] = id;
        made[1] = newRank;
        made[2] = newMembers.length;
        System.arraycopy(newMembers, 0, made, 3, newMembers.length);
        return made;
    }

    private MasterReply.CommInfo info(int commId) {
        int[] members = comm(commId, "query");
        if (members == null) {
            return new MasterReply.CommInfo(commId, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        int myNode = RANK / PER_NODE;
        int[] nodes = Arrays.stream(members).map(w -> w / PER_NODE).distinct().sorted().toArray();
        int localSize = 0;
        int localRank = 0;
        int lowest = -1;
        for (int i = 0; i < members.length; i++) {
            if (members[i] / PER_NODE == myNode) {
                lowest = lowest < 0 ? i : lowest;
                localRank = members[i] == RANK ? localSize : localRank;
                localSize++;
            }
        }
        int[] sorted = members.clone();
        Arrays.sort(sorted);
        return new MasterReply.CommInfo(commId, myRank(members), members.length, nodes.length,
                Arrays.binarySearch(nodes, myNode), localSize, localRank, lowest, Arrays.hashCode(members),
                Arrays.hashCode(sorted));
    }

    // ---------------------------------------------------------------- collectives

    /** The slave's pieces, from every member's part, as {@link CollectiveKind} lists them. */
    private List<Payload> collective(SlaveRequest.StartCollective mine) {
        int[] members = comm(mine.commId(), mine.kind().toString());
        if (members == null) {
            return List.of();
        }
        int n = members.length;
        int me = myRank(members);
        Payload[] data = new Payload[n];
        long[][] blocks = new long[n][];
        for (int r = 0; r < n; r++) {
            Contribution c = r == me ? null : peers.of(r, mine);
            // A member's spilled data goes back to members as slices of its file, never the file itself.
            data[r] = r == me ? whole(mine.data()) : new Payload.Inline(ByteBuffer.wrap(c.data()));
            blocks[r] = r == me ? mine.blockBytes() : c.blockBytes();
        }
        check(mine, me, n);
        if (mine.kind() == CollectiveKind.FREE) {
            comms.remove(mine.commId());
        }
        int root = mine.root();
        boolean user = mine.op() == ReduceOp.USER;
        switch (mine.kind()) {
            case BCAST:
                return me == root ? List.of() : List.of(data[root]);
            case GATHER:
                return me == root ? List.of(data) : List.of();
            case ALLGATHER:
                return List.of(data);
            case SCATTER:
                return List.of(block(data[root], blocks[root], me));
            case ALLTOALL: {
                List<Payload> out = new ArrayList<>();
                for (int r = 0; r < n; r++) {
                    out.add(block(data[r], blocks[r], me));
                }
                return out;
            }
            case REDUCE:
                return me != root ? List.of() : user ? List.of(data) : List.of(reduce(mine, data, n));
            case ALLREDUCE:
                return user ? List.of(data) : List.of(reduce(mine, data, n));
            case SCAN:
                return user ? List.of(data).subList(0, me + 1) : List.of(reduce(mine, data, me + 1));
            case EXSCAN:
                return me == 0 ? List.of() : user ? List.of(data).subList(0, me) : List.of(reduce(mine, data, me));
            case REDUCE_SCATTER: {
                if (!user) {
                    return List.of(block(reduce(mine, data, n), mine.blockBytes(), me));
                }
                List<Payload> out = new ArrayList<>();
                for (int r = 0; r < n; r++) {
                    out.add(block(data[r], mine.blockBytes(), me));
                }
                return out;
            }
            default:
                return List.of();
        }
    }

    /** What the real master checks of a start on its own. */
    private void check(SlaveRequest.StartCollective c, int me, int n) {
        CollectiveKind kind = c.kind();
        if (kind.rooted() && (c.root() < 0 || c.root() >= n)) {
            problems.add(kind + " with root " + c.root() + " on " + n + " ranks");
        }
        if (kind.reduces && c.op() != ReduceOp.USER && c.data().length() != (long) c.count() * c.type().size) {
            problems.add(kind + ": " + c.data().length() + " bytes for " + c.count() + " elements of " + c.type());
        }
        if (kind.reduces && c.op() != ReduceOp.USER && !(c.data() instanceof Payload.Inline)) {
            problems.add(kind + ": the master must read reduction data, but it was spilled");
        }
        if (kind == CollectiveKind.BCAST && c.data().length() != (me == c.root() ? c.count() : 0)) {
            problems.add("BCAST: " + c.data().length() + " bytes of data with count " + c.count() + " at rank " + me);
        }
        boolean hasBlocks = kind == CollectiveKind.ALLTOALL || kind == CollectiveKind.REDUCE_SCATTER
                || kind == CollectiveKind.SCATTER && me == c.root();
        if (hasBlocks) {
            long sum = Arrays.stream(c.blockBytes()).sum();
            if (c.blockBytes().length != n || sum != c.data().length()) {
                problems.add(kind + ": blocks " + Arrays.toString(c.blockBytes()) + " for " + c.data().length() + " bytes");
            }
        } else if (c.blockBytes().length != 0) {
            problems.add(kind + ": unexpected block sizes " + Arrays.toString(c.blockBytes()));
        }
        if (!kind.reduces && (c.op() != ReduceOp.NONE || c.count() != 0 && kind != CollectiveKind.BCAST)) {
            problems.add(kind + ": operator " + c.op() + " and count " + c.count() + " on a kind that does not reduce");
        }
    }

    /** Predefined reduction of ranks 0..upTo-1 in rank order: acc = acc op next. */
    private Payload reduce(SlaveRequest.StartCollective c, Payload[] data, int upTo) {
        ByteBuffer acc = null;
        for (int r = 0; r < upTo; r++) {
            ByteBuffer next = ByteBuffer.wrap(bytesOf(data[r])).order(ByteOrder.nativeOrder());
            if (acc == null) {
                acc = next;
            } else {
                Reduction.combine(c.op(), c.type(), acc, next, c.count());
            }
        }
        return new Payload.Inline(acc);
    }

    private static Payload whole(Payload data) {
        return data instanceof Payload.Spilled s ? new Payload.Slice(s.fileName(), 0, s.length()) : data;
    }

    /** Block {@code i} of data cut into {@code blockBytes}: a view of inline bytes, a slice of a spill file. */
    private static Payload block(Payload data, long[] blockBytes, int i) {
        long offset = 0;
        for (int j = 0; j < i; j++) {
            offset += blockBytes[j];
        }
        long length = blockBytes[i];
        if (data instanceof Payload.Slice s) {
            return new Payload.Slice(s.fileName(), s.offset() + offset, length);
        }
        ByteBuffer b = ((Payload.Inline) data).bytes().duplicate();
        int start = b.position() + (int) offset;
        return new Payload.Inline(b.limit(start + (int) length).position(start).slice());
    }

    private byte[] bytesOf(Payload p) {
        try {
            if (p instanceof Payload.Spilled s) {
                return Files.readAllBytes(spillDir.resolve(s.fileName()));
            }
            if (p instanceof Payload.Slice s) {
                byte[] file = Files.readAllBytes(spillDir.resolve(s.fileName()));
                return Arrays.copyOfRange(file, (int) s.offset(), (int) (s.offset() + s.length()));
            }
            ByteBuffer b = ((Payload.Inline) p).bytes().duplicate();
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- messages

    private void post(SlaveRequest.PostRecv p) {
        for (Iterator<Stored> it = unexpected.iterator(); it.hasNext(); ) {
            Stored m = it.next();
            if (m.matches(p)) {
                it.remove();
                take(p, m);
                return;
            }
        }
        posted.add(p);
    }

    /** Receive {@code p} takes message {@code m}: a synchronous send of it is matched too. */
    private void take(SlaveRequest.PostRecv p, Stored m) {
        matched.put(p.requestId(), new MasterReply.Delivery(p.requestId(), m.source(), m.tag(), m.payload()));
        if (m.syncId() != 0) {
            matched.put(m.syncId(), new MasterReply.SendMatched(m.syncId()));
        }
    }

    private void arrive(Stored m) {
        for (Iterator<SlaveRequest.PostRecv> it = posted.iterator(); it.hasNext(); ) {
            SlaveRequest.PostRecv p = it.next();
            if (m.matches(p)) {
                it.remove();
                take(p, m);
                answerParkedQuietly();
                return;
            }
        }
        unexpected.add(m);
        answerParkedQuietly();
    }

    private void answerParkedQuietly() {
        try {
            answerParked();
        } catch (IOException e) {
            problems.add("fake master: " + e);
        }
    }

    private void answerParked() throws IOException {
        if (parked instanceof SlaveRequest.Collect c) {
            int ready = 0;
            for (long id : c.requestIds()) {
                ready += matched.containsKey(id) ? 1 : 0;
            }
            if (c.block() && ready < c.minReady()) {
                return;
            }
            List<MasterReply.Completion> out = new ArrayList<>();
            for (long id : c.requestIds()) {
                MasterReply.Completion d = matched.remove(id);
                if (d != null) {
                    out.add(d);
                }
            }
            parked = null;
            reply(new MasterReply.Deliveries(out));
        } else if (parked instanceof SlaveRequest.Probe p) {
            Stored m = unexpected.stream().filter(s -> s.matches(p.commId(), p.source(), p.tag())).findFirst().orElse(null);
            if (m == null && p.block()) {
                return;
            }
            parked = null;
            reply(m == null ? MasterReply.ProbeResult.NONE : new MasterReply.ProbeResult(true, m.source(), m.tag(), m.payload().length()));
        }
    }

    private void reply(MasterReply r) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(ProtocolCodec.encodedLength(r)).order(ProtocolCodec.ORDER);
        ProtocolCodec.encode(r, out);
        out.flip();
        while (out.hasRemaining()) {
            channel.write(out);
        }
    }
}
