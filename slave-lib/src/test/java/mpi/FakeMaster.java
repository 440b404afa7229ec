package mpi;

import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.ProtocolCodec;
import io.bdmpi.protocol.SlaveRequest;
import io.bdmpi.slave.SlaveEnvironment;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A stand-in for the node master, serving one slave over a real Unix-domain socket with the real
 * codec. The slave is rank {@link #RANK} of a world of {@link #SIZE}; the other ranks do not exist,
 * but a test can {@link #inject} messages "from" them. Messages the slave sends to itself, and
 * injected ones, are matched to its posted receives oldest first, as the real mailbox does. A
 * blocking collect or probe that cannot be answered yet is parked until an injection answers it.
 *
 * <p>Every request is recorded (read them after {@link WithMaster#requests()}, which waits for the
 * one-way ones); anything a correct slave would never send (a collect of an unknown
 * id, an abort) is recorded in {@link #problems()}.
 *
 * <p>Close it only after the slave's connection is closed: a slave that reads end-of-stream halts
 * its JVM, as it should when a real master dies.
 */
final class FakeMaster implements AutoCloseable {

    static final int RANK = 1;
    static final int SIZE = 4;
    /** Communicator id of a probe that only synchronizes: answered "none", not recorded. */
    static final int SYNC_COMM = -99;

    private record Stored(int commId, int source, int tag, Payload payload) {
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

    // Guarded by this: the serving thread and the test thread (inject) both touch them.
    private SocketChannel channel;
    private final List<SlaveRequest> requests = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final List<Stored> unexpected = new ArrayList<>();
    private final List<SlaveRequest.PostRecv> posted = new ArrayList<>();
    private final Map<Long, MasterReply.Delivery> matched = new HashMap<>();
    private SlaveRequest parked;

    FakeMaster(Path dir, int inlineMaxBytes) throws IOException {
        this.socket = dir.resolve("master.sock");
        this.spillDir = Files.createDirectories(dir.resolve("spill"));
        this.inlineMaxBytes = inlineMaxBytes;
        this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        this.thread = new Thread(this::serve, "fake-master");
        thread.setDaemon(true);
        thread.start();
    }

    /** The environment variables a real master would give the slave. */
    Map<String, String> variables() {
        return new SlaveEnvironment(socket, RANK, SIZE, 0, 1, inlineMaxBytes, spillDir, ProcessHandle.current().pid(),
                false).toVariables();
    }

    Path spillDir() {
        return spillDir;
    }

    /** A message to the slave from {@code source}, as if another rank had sent it now. */
    synchronized void inject(int commId, int source, int tag, byte[] data) {
        arrive(new Stored(commId, source, tag, new Payload.Inline(ByteBuffer.wrap(data))));
    }

    /** Ints in native order from {@code source} on COMM_WORLD. */
    void injectInts(int source, int tag, int... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ProtocolCodec.ORDER);
        b.asIntBuffer().put(values);
        inject(Protocol.COMM_WORLD_ID, source, tag, b.array());
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
        } catch (IOException e) {
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
        if (r instanceof SlaveRequest.Hello || r instanceof SlaveRequest.Barrier || r instanceof SlaveRequest.Finalize) {
            reply(new MasterReply.Go());
        } else if (r instanceof SlaveRequest.Send s) {
            if (s.commId() == Protocol.COMM_SELF_ID || s.dest() == RANK) {
                arrive(new Stored(s.commId(), s.commId() == Protocol.COMM_SELF_ID ? 0 : RANK, s.tag(), s.payload()));
            }
        } else if (r instanceof SlaveRequest.PostRecv p) {
            post(p);
        } else if (r instanceof SlaveRequest.Collect c) {
            for (long id : c.requestIds()) {
                if (!matched.containsKey(id) && posted.stream().noneMatch(p -> p.requestId() == id)) {
                    problems.add("collect of request " + id + ", which is not posted");
                }
            }
            parked = c;
            answerParked();
        } else if (r instanceof SlaveRequest.Cancel c) {
            reply(new MasterReply.CancelResult(posted.removeIf(p -> p.requestId() == c.requestId())));
        } else if (r instanceof SlaveRequest.Probe p) {
            parked = p;
            answerParked();
        } else {
            problems.add("unexpected request " + r);
        }
    }

    private void post(SlaveRequest.PostRecv p) {
        for (Iterator<Stored> it = unexpected.iterator(); it.hasNext(); ) {
            Stored m = it.next();
            if (m.matches(p)) {
                it.remove();
                matched.put(p.requestId(), new MasterReply.Delivery(p.requestId(), m.source(), m.tag(), m.payload()));
                return;
            }
        }
        posted.add(p);
    }

    private void arrive(Stored m) {
        for (Iterator<SlaveRequest.PostRecv> it = posted.iterator(); it.hasNext(); ) {
            SlaveRequest.PostRecv p = it.next();
            if (m.matches(p)) {
                it.remove();
                matched.put(p.requestId(), new MasterReply.Delivery(p.requestId(), m.source(), m.tag(), m.payload()));
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
            List<MasterReply.Delivery> out = new ArrayList<>();
            for (long id : c.requestIds()) {
                MasterReply.Delivery d = matched.remove(id);
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
