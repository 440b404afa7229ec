package io.bdmpi.slave;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.Unmapper;
import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.PointerOp;
import io.bdmpi.protocol.RmaRequest;
import io.bdmpi.protocol.ProtocolCodec;
import io.bdmpi.protocol.ProtocolException;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.SlaveRequest;
import io.bdmpi.spill.SpillDirectory;
import io.bdmpi.spill.SpillException;

import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The slave's side of the protocol: one Unix-domain socket to the master. A call that must wait
 * (receive, barrier) simply waits for the master's reply, which the master sends when this slave
 * may run again.
 *
 * <p>The socket is non-blocking and a wait for a reply is a wait for input in a selector, not a
 * blocking read: a reader blocked in the socket's read is also woken each time the master reads
 * this slave's request (the kernel then signals room to write on the same wait queue), which made
 * every parked wait cost a second, useless wake-up; a selector asks for input only.
 *
 * <p>Methods are synchronized: a program may call MPI from several threads one at a time
 * (MPI_THREAD_SERIALIZED), and request/reply pairs must not interleave.
 */
public final class SlaveRuntime implements AutoCloseable {

    private static final int INITIAL_BUFFER = 64 * 1024;
    /** How long an aborting slave waits to be killed by its master before it halts itself. */
    private static final long ABORT_GRACE_MS = 5_000;
    /**
     * Bytes packed at a time into a spill file: few enough that the packing buffer stays within
     * what small messages keep (twice the default inline limit), enough for few write calls.
     */
    private static final int SPILL_CHUNK_BYTES = 256 * 1024;
    /** A selector has one key here, and a wait only needs to end: nothing to do per ready key. */
    private static final Consumer<SelectionKey> IGNORE_KEY = key -> { };

    private final SlaveEnvironment env;
    private final SocketChannel channel;
    /** Waits for the master's reply (input only); used under this object's lock. */
    private final Selector replies;
    /** Waits for room to write a large frame; made on first need, used under the channel's lock. */
    private Selector room;
    private final SpillDirectory spill;
    private ByteBuffer out = ByteBuffer.allocateDirect(INITIAL_BUFFER).order(ProtocolCodec.ORDER);
    private ByteBuffer in = ByteBuffer.allocateDirect(INITIAL_BUFFER).order(ProtocolCodec.ORDER);
    private ByteBuffer staging = ByteBuffer.allocateDirect(0);
    private ByteBuffer packing = ByteBuffer.allocateDirect(0);
    /** The mapping of the spilled message last received; null when none. */
    private MappedByteBuffer received;
    /** The name of {@link #received}'s file when it is a recycled one (handed back once unmapped), else null. */
    private String receivedRecycled;
    /** Recycled files this slave is done with, handed back to the master before its next request. */
    private final List<String> released = new ArrayList<>();
    /**
     * Receives and synchronous sends the program freed while they still waited (MPI_Request_free),
     * by id: a receive stays posted, so that it takes the message MPI gives it, and every later
     * collect asks for them too and hands each its outcome.
     */
    private final Map<Long, Consumer<Completed>> freed = new HashMap<>();
    private long nextRequestId = 1;
    private volatile String lastCall = "MPI_Init";
    /** This rank's off-heap arrays, made on first use. */
    private ArrayStore arrays;
    private final ParkWatch parkWatch;
    /** A stream reading one of this runtime's buffers in place, detached before the next request; or null. */
    private StateStreams.Reading inPlace;

    private SlaveRuntime(SlaveEnvironment env, SocketChannel channel) throws IOException {
        this.env = env;
        this.channel = channel;
        channel.configureBlocking(false);
        this.replies = Selector.open();
        try {
            channel.register(replies, SelectionKey.OP_READ);
        } catch (IOException | RuntimeException e) {
            replies.close();
            throw e;
        }
        // Only masters of jobs on several nodes return the files of messages they sent.
        this.spill = new SpillDirectory(env.spillDir(), "r" + env.worldRank() + "-", env.nodeCount() > 1);
        this.parkWatch = new ParkWatch(env.worldRank(), SlaveEnvironment.shrinkHeapOnPark(System.getenv()));
        in.flip();
    }

    /** Connects to the master and waits until it lets this slave run. */
    public static SlaveRuntime connect(SlaveEnvironment env) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        SlaveRuntime runtime = null;
        try {
            ch.connect(UnixDomainSocketAddress.of(env.socketPath()));
            runtime = new SlaveRuntime(env, ch);
            runtime.call(new SlaveRequest.Hello(env.worldRank(), OwnProcess.pid()), MasterReply.Go.class);
            return runtime;
        } catch (IOException | RuntimeException e) {
            // Once registered with the runtime's selector, the socket is closed for good only with it.
            try {
                if (runtime != null) {
                    runtime.close();
                } else {
                    ch.close();
                }
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** What the master told this slave at spawn. */
    public SlaveEnvironment environment() {
        return env;
    }

    /** The spill directory this slave writes its large messages to. */
    public SpillDirectory spill() {
        return spill;
    }

    /**
     * This rank's store of off-heap and saved arrays (in the job's work directory), made on first
     * use. Its arrays are released while this rank is parked and prefetched when it resumes.
     */
    public synchronized ArrayStore arrays() throws IOException {
        if (arrays == null) {
            arrays = ArrayStore.open(ArrayStore.rankDirectory(env.spillDir(), env.worldRank()));
            parkWatch.watch(arrays);
        }
        return arrays;
    }

    /** Name of the MPI call in progress or last made, for error reports. */
    public String lastCall() {
        return lastCall;
    }

    /** Records the MPI call being made, for error reports (the master also knows blocking ones). */
    public void enter(String mpiCall) {
        lastCall = mpiCall;
    }

    /**
     * The reusable native-order direct buffer, of at least {@code bytes} capacity, cleared, for
     * packing an outgoing message or a chunk of one. Valid until the next call of this method or
     * the next request to the master (see {@link #flushOut}).
     */
    private ByteBuffer packingBuffer(int bytes) {
        if (packing.capacity() < bytes) {
            packing = ByteBuffer.allocateDirect(Math.max(bytes, packing.capacity() * 2)).order(ByteOrder.nativeOrder());
        }
        return packing.clear();
    }

    /**
     * Buffered send: returns once the master owns the message. Messages larger than the inline limit
     * are first written to a spill file.
     *
     * @param message packed now; the program's buffers are free again on return
     */
    public synchronized void send(int commId, int dest, int tag, Outgoing message) throws IOException {
        write(new SlaveRequest.Send(commId, dest, tag, payload(message, false)));
    }

    /**
     * Synchronous send without waiting: as {@link #send}, and returns the request id that a
     * {@link #collect} hands back, as a {@link SendMatched}, once a receive has matched the message.
     */
    public synchronized long startSyncSend(int commId, int dest, int tag, Outgoing message) throws IOException {
        long id = nextRequestId++;
        write(new SlaveRequest.Send(commId, dest, tag, payload(message, false), id));
        return id;
    }

    /** Synchronous send: as {@link #send}, then waits (parked) until a receive has matched the message. */
    public synchronized void syncSend(int commId, int dest, int tag, Outgoing message) throws IOException {
        long id = nextRequestId++;
        startAndWait(id, new SlaveRequest.Send(commId, dest, tag, payload(message, false), id), SendMatched.class);
    }

    /** Posts a receive without waiting; returns its request id for {@link #collect}. */
    public synchronized long postRecv(int commId, int source, int tag) throws IOException {
        long id = nextRequestId++;
        write(new SlaveRequest.PostRecv(id, commId, source, tag));
        return id;
    }

    /**
     * Blocking receive: posts it and waits (parked) until a message matches.
     */
    public synchronized Received recv(int commId, int source, int tag) throws IOException {
        long id = nextRequestId++;
        return (Received) startAndWait(id, new SlaveRequest.PostRecv(id, commId, source, tag), Received.class);
    }

    /**
     * Takes the outcomes of any of the given requests that have one: messages matched to posted
     * receives, collectives' results, matched synchronous sends. With {@code block}, waits (parked)
     * until at least {@code minReady} of them have one.
     */
    public synchronized List<Completed> collect(long[] requestIds, int minReady, boolean block) throws IOException {
        return deliveries(call(new SlaveRequest.Collect(withFreed(requestIds), minReady, block),
                MasterReply.Deliveries.class));
    }

    /**
     * Keeps receive or synchronous send {@code requestId}, which the program freed before it
     * matched, in the collects: its outcome goes to {@code landing} at whatever collect brings it.
     */
    public synchronized void adoptFreed(long requestId, Consumer<Completed> landing) {
        freed.put(requestId, landing);
    }

    private long[] withFreed(long[] requestIds) {
        if (freed.isEmpty()) {
            return requestIds;
        }
        long[] all = Arrays.copyOf(requestIds, requestIds.length + freed.size());
        int i = requestIds.length;
        for (long id : freed.keySet()) {
            all[i++] = id;
        }
        return all;
    }

    /** Withdraws a posted receive; false if a message had already matched it. */
    public synchronized boolean cancel(long requestId) throws IOException {
        return call(new SlaveRequest.Cancel(requestId), MasterReply.CancelResult.class).cancelled();
    }

    /** Looks for a pending message; with {@code block}, waits (parked) until one matches. */
    public synchronized MasterReply.ProbeResult probe(int commId, int source, int tag, boolean block) throws IOException {
        return call(new SlaveRequest.Probe(commId, source, tag, block), MasterReply.ProbeResult.class);
    }

    /**
     * Starts this slave's part of a collective without waiting; returns the request id whose
     * {@link CollectiveResult} a {@link #collect} hands back. The arguments are those of
     * {@link SlaveRequest.StartCollective}. Data of broadcasts and reductions always travels
     * inline (the master keeps it in memory, as it must read it); other data larger than the
     * inline limit goes through a spill file.
     *
     * @param data what this member sends, packed now; may be empty
     */
    public synchronized long startCollective(int commId, CollectiveKind kind, int root, ReduceOp op, ElementType type,
                                             int count, long[] blockBytes, Outgoing data) throws IOException {
        long id = nextRequestId++;
        write(collectiveStart(id, commId, kind, root, op, type, count, blockBytes, data));
        return id;
    }

    /** As {@link #startCollective}, then waits (parked) until the collective completes for this slave. */
    public synchronized CollectiveResult collective(int commId, CollectiveKind kind, int root, ReduceOp op,
                                                    ElementType type, int count, long[] blockBytes, Outgoing data)
            throws IOException {
        long id = nextRequestId++;
        return (CollectiveResult) startAndWait(id, collectiveStart(id, commId, kind, root, op, type, count, blockBytes, data),
                CollectiveResult.class);
    }

    /**
     * Splits a communicator (collective over its members), waiting (parked) until all have arrived.
     *
     * @return the new communicator's id, this slave's rank and the size; id {@link io.bdmpi.protocol.Protocol#NO_COMM}
     *         for {@link io.bdmpi.protocol.Protocol#UNDEFINED_COLOR}
     */
    public synchronized int[] split(int commId, int color, int key) throws IOException {
        long id = nextRequestId++;
        return ((CollectiveResult) startAndWait(id, new SlaveRequest.StartSplit(id, commId, color, key), CollectiveResult.class))
                .values();
    }

    /**
     * Makes a communicator over exactly {@code members} (collective over them only), waiting
     * (parked) until all have arrived; see {@link SlaveRequest.StartGroupComm}.
     *
     * @return the new communicator's id, this slave's rank and the size
     */
    public synchronized int[] groupComm(int[] members, int lowGroupSize, int tag) throws IOException {
        long id = nextRequestId++;
        return ((CollectiveResult) startAndWait(id, new SlaveRequest.StartGroupComm(id, members, lowGroupSize, tag),
                CollectiveResult.class)).values();
    }

    /** Where the members of a communicator live. */
    public synchronized MasterReply.CommInfo queryComm(int commId) throws IOException {
        return call(new SlaveRequest.QueryComm(commId), MasterReply.CommInfo.class);
    }

    /**
     * Operates on a shared file pointer kept by the master of {@code ownerNode} (see
     * {@link SlaveRequest.FilePointer}).
     *
     * @return the pointer's value before the operation
     */
    public synchronized long filePointer(long key, int ownerNode, PointerOp op, long value) throws IOException {
        return call(new SlaveRequest.FilePointer(key, ownerNode, op, value), MasterReply.PointerValue.class).value();
    }

    /** Waits (parked) until this slave is the only one of its node in a critical section. */
    public synchronized void criticalEnter() throws IOException {
        call(new SlaveRequest.CriticalEnter(), MasterReply.Go.class);
    }

    /** Tells the master what to call communicator {@code commId} in its reports. */
    public synchronized void nameComm(int commId, String name) throws IOException {
        write(new SlaveRequest.NameComm(commId, name));
    }

    /** Leaves the node's critical section. */
    public synchronized void criticalExit() throws IOException {
        write(new SlaveRequest.CriticalExit());
    }

    /**
     * Waits (parked) until this slave holds the lock of rank {@code target}'s part of window
     * {@code winId}, which the master of {@code node} (the target's) keeps.
     */
    public synchronized void winLock(int winId, int target, boolean exclusive, int node) throws IOException {
        call(new SlaveRequest.WinLock(winId, target, exclusive, node), MasterReply.Go.class);
    }

    /** Releases the lock of rank {@code target}'s part of window {@code winId}, kept by the master of {@code node}. */
    public synchronized void winUnlock(int winId, int target, int node) throws IOException {
        write(new SlaveRequest.WinUnlock(winId, target, node));
    }

    /**
     * Has the master of {@code op.targetNode()} apply a one-sided operation to a window member of
     * its node, and waits (parked) until it has.
     *
     * @return its outcome: an error, or the target's bytes before the operation
     */
    public synchronized MasterReply.RmaResult winRma(RmaRequest op) throws IOException {
        return call(new SlaveRequest.WinRma(op), MasterReply.RmaResult.class);
    }

    /** Tells the master this slave has finalized, waits for its acknowledgement and disconnects. */
    public synchronized void finish(long peakRssBytes) throws IOException {
        try {
            call(new SlaveRequest.Finalize(peakRssBytes), MasterReply.Go.class);
        } finally {
            disconnect();
            parkWatch.close();
            if (arrays != null) {
                arrays.close();
            }
        }
    }

    /**
     * Asks the master to end the whole job. Does not return normally: the master kills every slave;
     * should it not, this process halts with {@code errorCode} after a grace period.
     */
    public void abort(int errorCode, String reason) {
        try {
            // Not synchronized: another thread of this slave may be parked in a call, holding the monitor.
            SlaveRequest.Abort abort = new SlaveRequest.Abort(errorCode, reason);
            ByteBuffer frame = ByteBuffer.allocate(ProtocolCodec.encodedLength(abort));
            ProtocolCodec.encode(abort, frame);
            writeFully(frame.flip());
            Thread.sleep(ABORT_GRACE_MS);
        } catch (IOException | InterruptedException ignored) {
            // The master is gone or going: nothing left to tell.
        }
        Runtime.getRuntime().halt(errorCode == 0 ? 1 : errorCode & 0xff);
    }

    @Override
    public synchronized void close() throws IOException {
        releaseReceived();
        parkWatch.close();
        disconnect();
    }

    /** Closes the socket, then the selectors, which closes it for good (a registered channel's close is deferred to them). */
    private void disconnect() throws IOException {
        try {
            channel.close();
        } finally {
            replies.close();
            synchronized (channel) {
                if (room != null) {
                    room.close();
                }
            }
        }
    }

    // ---------------------------------------------------------------- internals

    /**
     * A stream of the remaining bytes of {@code bytes}, a piece this runtime handed out (valid until
     * its next request), read in place: if a request comes first, what is left is copied to the heap.
     */
    public synchronized InputStream readInPlace(ByteBuffer bytes) {
        inPlace = new StateStreams.Reading(bytes);
        return inPlace;
    }

    ByteBuffer readSpilled(Payload.Spilled s) throws SpillException {
        if (s.length() > Integer.MAX_VALUE - 8) {
            discardSpilled(s);
            throw tooLarge(s.length());
        }
        synchronized (this) {
            releaseReceived();
            try {
                received = spill.mapMessage(s.fileName(), s.length());
            } catch (SpillException e) {
                discardSpilled(s);
                throw e;
            }
            receivedRecycled = SpillDirectory.isRecycled(s.fileName()) ? s.fileName() : null;
            return received.duplicate().order(ByteOrder.nativeOrder());
        }
    }

    /** Drops a spilled message unread: a slave's file is deleted, a recycled one handed back. */
    synchronized void discardSpilled(Payload.Spilled s) {
        if (SpillDirectory.isRecycled(s.fileName())) {
            released.add(s.fileName());
        } else {
            spill.discard(s.fileName());
        }
    }

    /**
     * Unmaps the last spilled message {@link #readSpilled} handed out, which frees the pages of a
     * deleted file; a recycled file is handed back with the next request, never before this.
     */
    private void releaseReceived() {
        if (received != null) {
            Unmapper.unmap(received);
            received = null;
            if (receivedRecycled != null) {
                released.add(receivedRecycled);
                receivedRecycled = null;
            }
        }
    }

    ByteBuffer readSlice(Payload.Slice s) throws SpillException {
        if (s.length() > Integer.MAX_VALUE - 8) {
            throw tooLarge(s.length());
        }
        synchronized (this) {
            spill.readRange(s.fileName(), s.offset(), s.length(), staging(s.length()));
            return staging.flip().duplicate().order(ByteOrder.nativeOrder());
        }
    }

    private ByteBuffer staging(long bytes) {
        if (staging.capacity() < bytes) {
            staging = ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
        }
        return staging.clear();
    }

    private static SpillException tooLarge(long bytes) {
        return new SpillException("data of " + bytes + " bytes exceeds the 2 GiB limit of one receive buffer");
    }

    /**
     * Inline up to the inline limit (or always, when the master must read it), else a spill file
     * (a new one, or one of this slave's that its master returned), packed
     * {@link #SPILL_CHUNK_BYTES} at a time.
     */
    private Payload payload(Outgoing data, boolean alwaysInline) throws SpillException {
        long length = data.length();
        if (alwaysInline || length <= env.inlineMaxBytes()) {
            if (length > Integer.MAX_VALUE - 8) {
                throw tooLarge(length);
            }
            ByteBuffer packed = packingBuffer((int) length);
            for (int p = 0; p < data.parts(); p++) {
                data.pack(p, 0, data.items(p), packed);
            }
            return new Payload.Inline(packed.flip());
        }
        try (SpillDirectory.Writer file = spill.messageFile(length)) {
            for (int p = 0; p < data.parts(); p++) {
                int itemBytes = data.itemBytes(p);
                ByteBuffer chunk = packingBuffer(Math.max(SPILL_CHUNK_BYTES, itemBytes));
                int perChunk = chunk.capacity() / itemBytes;
                for (int first = 0; first < data.items(p); first += perChunk) {
                    data.pack(p, first, Math.min(perChunk, data.items(p) - first), chunk.clear());
                    file.write(chunk.flip());
                }
            }
            return new Payload.Spilled(file.finish(), length);
        }
    }

    private SlaveRequest.StartCollective collectiveStart(long id, int commId, CollectiveKind kind, int root, ReduceOp op,
                                                         ElementType type, int count, long[] blockBytes, Outgoing data)
            throws SpillException {
        boolean masterReads = kind.reduces && op != ReduceOp.USER || kind == CollectiveKind.BCAST;
        return new SlaveRequest.StartCollective(id, commId, kind, root, op, type, count, blockBytes,
                payload(data, masterReads));
    }

    /**
     * Sends a one-way start (a receive, collective or synchronous send) and a blocking collect of it
     * in one write, and waits for its outcome, which must be an {@code expected}.
     */
    private Completed startAndWait(long id, SlaveRequest start, Class<? extends Completed> expected) throws IOException {
        SlaveRequest.Collect collect = new SlaveRequest.Collect(withFreed(new long[] {id}), 1, true);
        ensureOut(ProtocolCodec.encodedLength(start) + ProtocolCodec.encodedLength(collect));
        ProtocolCodec.encode(start, out);
        ProtocolCodec.encode(collect, out);
        flushOut();
        return single(id, expected);
    }

    /** Reads the answer to a blocking collect of one request (asking again while only freed requests' outcomes came). */
    private Completed single(long id, Class<? extends Completed> expected) throws IOException {
        int waiting = freed.size();
        List<Completed> got = deliveries(readReply(MasterReply.Deliveries.class));
        while (got.isEmpty() && freed.size() < waiting) {
            waiting = freed.size();
            got = collect(new long[] {id}, 1, true);
        }
        if (got.size() != 1 || got.get(0).requestId() != id || !expected.isInstance(got.get(0))) {
            throw new ProtocolException("master answered request " + id + " with " + got);
        }
        return got.get(0);
    }

    /** The outcomes of a collect, less those of freed requests, which their landings take here. */
    private List<Completed> deliveries(MasterReply.Deliveries reply) {
        List<Completed> list = new ArrayList<>(reply.deliveries().size());
        for (MasterReply.Completion c : reply.deliveries()) {
            Completed done;
            if (c instanceof MasterReply.Delivery d) {
                done = new Received(this, d.requestId(), d.source(), d.tag(), d.payload());
            } else if (c instanceof MasterReply.SendMatched m) {
                done = new SendMatched(m.requestId());
            } else {
                MasterReply.CollectiveDone result = (MasterReply.CollectiveDone) c;
                done = new CollectiveResult(this, result.requestId(), result.values(), result.pieces());
            }
            Consumer<Completed> landing = freed.isEmpty() ? null : freed.remove(done.requestId());
            if (landing != null) {
                landing.accept(done);
            } else {
                list.add(done);
            }
        }
        return list;
    }

    private <R extends MasterReply> R call(SlaveRequest request, Class<R> replyType) throws IOException {
        write(request);
        return readReply(replyType);
    }

    private void write(SlaveRequest request) throws IOException {
        ensureOut(ProtocolCodec.encodedLength(request));
        ProtocolCodec.encode(request, out);
        flushOut();
    }

    private void ensureOut(int bytes) {
        out.clear();
        if (out.capacity() < bytes) {
            out = ByteBuffer.allocateDirect(Math.max(bytes, out.capacity() * 2)).order(ProtocolCodec.ORDER);
        }
    }

    /**
     * Writes the requests encoded in {@code out}, then frees the message buffers that a message
     * larger than the inline limit made grow. They are needed only by the call that packed or
     * read that message, which is over once the next request goes out: kept, they would hold the
     * largest message the rank ever sent or received in native memory, which a parked rank cannot
     * give back (no swap) and the master cannot spill. So a buffer a caller got from
     * {@link #packingBuffer}, {@link Received#data} or {@link CollectiveResult#piece} is valid only
     * until the next request.
     */
    private void flushOut() throws IOException {
        if (inPlace != null) {
            inPlace.detach();
            inPlace = null;
        }
        releaseReceived();
        handBackReleased();
        writeFully(out.flip());
        out = trimmed(out, INITIAL_BUFFER, ProtocolCodec.ORDER);
        packing = trimmed(packing, 0, ByteOrder.nativeOrder());
        staging = trimmed(staging, 0, ByteOrder.nativeOrder());
    }

    /**
     * Tells the master which recycled files this slave has unmapped, ahead of the request about to
     * go (one write, once per large message: nothing next to the message's own copy).
     */
    private void handBackReleased() throws IOException {
        if (released.isEmpty()) {
            return;
        }
        int bytes = 0;
        List<SlaveRequest.ReleaseSpill> frames = new ArrayList<>(released.size());
        for (String name : released) {
            SlaveRequest.ReleaseSpill r = new SlaveRequest.ReleaseSpill(name);
            frames.add(r);
            bytes += ProtocolCodec.encodedLength(r);
        }
        released.clear();
        ByteBuffer frame = ByteBuffer.allocate(bytes);
        frames.forEach(r -> ProtocolCodec.encode(r, frame));
        writeFully(frame.flip());
    }

    /** {@code buffer}, or a new one of {@code initial} bytes after freeing it when it outgrew twice the inline limit. */
    private ByteBuffer trimmed(ByteBuffer buffer, int initial, ByteOrder order) {
        // Buffers grow by doubling: up to twice the inline limit is what small messages need.
        if (buffer.capacity() <= Math.max(initial, 2L * env.inlineMaxBytes())) {
            return buffer;
        }
        Unmapper.unmap(buffer);
        return ByteBuffer.allocateDirect(initial).order(order);
    }

    /**
     * Writes whole frames under their own lock, so an abort never lands inside another frame; when
     * the socket is full, waits for room.
     */
    private void writeFully(ByteBuffer frames) throws IOException {
        synchronized (channel) {
            while (frames.hasRemaining()) {
                if (channel.write(frames) == 0) {
                    if (room == null) {
                        room = Selector.open();
                        channel.register(room, SelectionKey.OP_WRITE);
                    }
                    await(room);
                }
            }
        }
    }

    /** Waits in {@code selector} until its channel is ready, or throws if this thread is interrupted (as a blocking channel would). */
    private void await(Selector selector) throws IOException {
        selector.select(IGNORE_KEY);
        if (Thread.currentThread().isInterrupted()) {
            channel.close();
            throw new ClosedByInterruptException();
        }
    }

    private <R extends MasterReply> R readReply(Class<R> replyType) throws IOException {
        while (true) {
            ByteBuffer frame = ProtocolCodec.nextFrame(in);
            if (frame != null) {
                MasterReply reply = ProtocolCodec.decodeReply(frame);
                if (!replyType.isInstance(reply)) {
                    throw new ProtocolException("expected " + replyType.getSimpleName() + " from the master, got " + reply);
                }
                return replyType.cast(reply);
            }
            fill();
        }
    }

    private void fill() throws IOException {
        in.compact();
        if (!in.hasRemaining()) {
            int needed = in.order(ProtocolCodec.ORDER).getInt(0) + 4;
            ByteBuffer bigger = ByteBuffer.allocateDirect(Math.max(needed, in.capacity() * 2)).order(ProtocolCodec.ORDER);
            in.flip();
            bigger.put(in);
            in = bigger;
        }
        int n = channel.read(in);
        if (n == 0) {
            parkWatch.waiting();
            try {
                while (n == 0) {
                    await(replies);
                    n = channel.read(in);
                }
            } finally {
                parkWatch.resumed();
            }
        }
        in.flip();
        if (n < 0) {
            // The master closes a slave's socket only when it is gone or ending the job, and then
            // kills its slaves anyway: leave now, quietly, rather than with a stack trace per rank.
            Runtime.getRuntime().halt(SlaveMain.EXIT_MASTER_GONE);
        }
    }
}
