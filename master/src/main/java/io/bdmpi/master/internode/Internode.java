package io.bdmpi.master.internode;

import io.bdmpi.ooc.Unmapper;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.ProtocolCodec;
import io.bdmpi.protocol.ProtocolException;
import io.bdmpi.protocol.SlaveRequest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A master's link to the masters of the other nodes: forwards its slaves' messages to theirs,
 * receives theirs for its own, tells a synchronous sender's master that a receive matched its
 * message, and passes the news of a node's end. Every MPI call happens on the {@link Pump}; this
 * class's inbox half runs on the pump thread too (or on the scheduler thread, for the small
 * messages it takes itself: {@link #pollArrivals}), its sending half on the scheduler thread.
 *
 * <p>Large payloads never sit whole in a master's memory: the sender maps its slave's spill file
 * in chunks of {@link #CHUNK_BYTES}, MPI sends straight from each mapping, which is unmapped once
 * sent. A forwarded message's file on the receiving node is a {@linkplain RecycledFiles recycled}
 * one, whose cached pages an earlier message left: MPI receives each chunk straight into the
 * pool's mapping of that file, where the receiving slave reads it (one copy between the two
 * masters, as raw MPI's). Bytes that land where no message wrote before (a new pool file, one that
 * grows, a collective's contribution or a buddy copy's file, which are new files) go into one of a
 * few reused direct buffers instead, which a {@link ChunkWriter} writes to the file while MPI
 * moves the next chunk; a message up to {@code -im} is received into off-heap memory. The pump
 * keeps at most {@link Pump#DATA_WINDOW} chunks per destination in flight and the writer at most
 * {@link ChunkWriter#QUEUED}, so a payload streams through. Small payloads travel inside the header
 * message.
 *
 * <p>Why not receive into a mapping of a new file: each page MPI writes then faults, and the
 * file system zeroes and reserves it first; measured here, that made a 64 MiB transfer ten times
 * slower than MPI between reused buffers, while a buffer written with {@code pwrite} is about as
 * fast as MPI. Likewise, a send mapping left to the garbage collector slowed every later transfer
 * (the masters' address spaces fill with mappings of deleted files).
 */
public final class Internode implements AutoCloseable {

    /**
     * Largest data message: small enough that the receiver writes one chunk to its disk while MPI
     * moves the next, large enough that MPI's per-message handshake does not count.
     */
    public static final int CHUNK_BYTES = 8 * 1024 * 1024;
    /** Receive buffers a master keeps for reuse (more are made while several senders stream at once). */
    private static final int SPARE_CHUNK_BUFFERS = 4;
    private static final long START_TIMEOUT_S = 60;
    /** A checkpoint file (of a buddy copy, or staged for a restart) up to this length travels inside its header (a manifest, a small state). */
    private static final int FILE_INLINE_BYTES = 64 * 1024;

    /** Small messages {@link #pollArrivals} takes at most per call, so its caller's queue cannot fill. */
    public static final int POLLED_ARRIVALS_MAX = 64;

    /**
     * Where arrivals go: called on the pump thread, or on a thread that takes small messages itself
     * ({@link #pollArrivals}); one call at a time. Publish and return.
     */
    public interface Sink {
        /** A message for a slave of this node has fully arrived; its payload is in memory or in the spill directory. */
        void arrived(Arrival arrival);

        /** A slave of another node started a collective on a communicator with members here. */
        void startArrived(RemoteStart start);

        /**
         * A receive on another node matched the message of synchronous send {@code syncId} of
         * {@code senderWorldRank}, a slave of this node.
         */
        void matchArrived(int senderWorldRank, long syncId);

        /** A slave of {@code node} operates on a shared file pointer this master keeps. */
        void pointerRequested(int node, MasterMessage.PointerRequest request);

        /** The master that keeps a shared file pointer answers a slave of this node. */
        void pointerAnswered(MasterMessage.PointerAnswer answer);

        /** The master of {@code node} sends one-sided traffic: an operation or lock for a window member here, or an answer. */
        void windowArrived(int node, MasterMessage.WindowTraffic message);

        /** The master of {@code node} says how its node stands (deadlock detection). */
        void peerState(int node, MasterMessage.NodeState state);

        /** The master of {@code node} has made its part of checkpoint {@code sequence} durable. */
        void partWrittenArrived(int node, int sequence);

        /** Node 0 has committed checkpoint {@code sequence}. */
        void commitArrived(int sequence);

        /**
         * A file of the buddy copy of {@code node}'s part of checkpoint {@code sequence} has fully
         * arrived; its bytes are in memory or in the spill directory.
         */
        void buddyFileArrived(int node, int sequence, String name, Payload payload);

        /** Node {@code node} holds a durable copy of node {@code ofNode}'s part of checkpoint {@code sequence} (to node 0). */
        void buddyCopiedArrived(int node, int sequence, int ofNode);

        /** The master of {@code node} has ended its part of the job. */
        void peerEnded(int node, int exitCode, boolean causedThere);

        /** Something arrived that this master cannot use (a broken or unreadable message). */
        void broken(String reason);
    }

    /**
     * A forwarded message, as the receiving master stores it.
     *
     * @param syncId the sender's request id of a synchronous send, 0 for a buffered send
     */
    public record Arrival(int destWorldRank, int commId, int source, int tag, int senderWorldRank, long syncId,
                          Payload payload) {
    }

    /**
     * A collective start of a slave of another node, as this master runs it.
     *
     * @param start its request; a spilled contribution now names a file in this node's spill directory
     */
    public record RemoteStart(int commId, int worldRank, int idBase, SlaveRequest start) {
    }

    private final Pump pump;
    private final ChunkWriter writer = new ChunkWriter();
    /** Where forwarded messages are received, once {@link #receiveInto} has run. */
    private volatile RecycledFiles recycled;
    private final int node;
    private final int nodes;

    private Internode(Pump pump, int node, int nodes) {
        this.pump = pump;
        this.node = node;
        this.nodes = nodes;
    }

    /**
     * Loads the MPI library chosen by {@code env} (see {@link MpiAbi}), initializes MPI and learns
     * this master's node (its MPI rank).
     *
     * @throws IllegalStateException when there is no usable MPI or it does not start
     */
    public static Internode start(Map<String, String> env) {
        Pump pump = new Pump(MpiLibrary.load(MpiAbi.choose(env)));
        try {
            Pump.Started s = pump.started().get(START_TIMEOUT_S, TimeUnit.SECONDS);
            return new Internode(pump, s.rank(), s.size());
        } catch (TimeoutException e) {
            throw new IllegalStateException("MPI did not start on this master: MPI_Init did not return within " + START_TIMEOUT_S
                    + " s (it waits for every master of the job: could the MPI launcher start one on each host?)", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new IllegalStateException("MPI did not start on this master: "
                    + (cause.getMessage() != null ? cause.getMessage() : cause.toString()), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("MPI did not start on this master: interrupted", e);
        }
    }

    /**
     * The files in /dev/shm that MPI has mapped in this process and not unlinked (Open MPI's
     * {@code vader_segment}s): MPI removes them at MPI_Finalize, so a master killed before that
     * leaves them behind unless its janitor removes them.
     */
    public static List<Path> sharedMemoryFiles() {
        List<Path> files = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                int at = line.indexOf(" /dev/shm/");
                if (at >= 0 && !line.endsWith(" (deleted)")) {
                    Path file = Path.of(line.substring(at + 1).trim());
                    if (!files.contains(file)) {
                        files.add(file);
                    }
                }
            }
        } catch (IOException e) {
            // No /proc: nothing to name.
        }
        return files;
    }

    /** This master's node id (its MPI rank). */
    public int node() {
        return node;
    }

    /** How many masters the MPI job has. */
    public int nodes() {
        return nodes;
    }

    /**
     * Starts delivering what other masters send.
     *
     * @param spillDir       where payloads larger than {@code inlineMaxBytes} are written
     * @param inlineMaxBytes largest payload kept in (off-heap) memory
     * @param recycledBytes  the most bytes of recycled files kept while no message holds them
     */
    public void receiveInto(Path spillDir, int inlineMaxBytes, long recycledBytes, Sink sink) {
        recycled = new RecycledFiles(spillDir, recycledBytes);
        pump.deliverTo(new Inbox(spillDir, inlineMaxBytes, recycled, sink));
    }

    /**
     * The receiver of a forwarded message has unmapped its recycled file {@code fileName}, which
     * may now hold another message (any thread; a name this master did not hand out is ignored).
     *
     * @return the idle recycled files beyond the pool's bound, which the caller deletes
     */
    public List<String> recycle(String fileName) {
        RecycledFiles files = recycled;
        return files == null ? List.of() : files.giveBack(fileName);
    }

    /**
     * Forwards a message to the master of {@code destNode} (scheduler thread). A spilled payload's
     * file is read from {@code spillDir} and handed to {@code afterSent} (to delete) once sent.
     *
     * @throws UncheckedIOException when the spill file cannot be read
     */
    public void forward(int destNode, Arrival m, Path spillDir, Runnable afterSent) {
        Payload p = m.payload();
        if (p instanceof Payload.Inline inline) {
            pump.send(destNode, Pump.CONTROL_TAG, new MasterMessage.Forward(m.destWorldRank(), m.commId(), m.source(), m.tag(),
                    m.senderWorldRank(), m.syncId(), p.length(), true, inline.bytes()).encode(), afterSent);
            return;
        }
        pump.send(destNode, Pump.CONTROL_TAG, new MasterMessage.Forward(m.destWorldRank(), m.commId(), m.source(), m.tag(),
                m.senderWorldRank(), m.syncId(), p.length(), false, null).encode(), p.length() == 0 ? afterSent : null);
        sendFile(destNode, (Payload.Spilled) p, spillDir, afterSent);
    }

    /**
     * Takes up to {@link #POLLED_ARRIVALS_MAX} small messages that other masters sent, on the calling
     * thread, when MPI is free (never waits): for the scheduler thread before it sleeps, so a reply
     * needs no hand-off from the pump. Each goes to the sink given to {@link #receiveInto}, on this
     * thread, and publishes at most one event.
     *
     * @return whether anything arrived
     */
    public boolean pollArrivals() {
        return pump.pollControl(POLLED_ARRIVALS_MAX);
    }

    /** Whether a message went to or came from another master lately (any thread): more may follow soon. */
    public boolean conversing() {
        return pump.active();
    }

    /**
     * Tells the master of {@code senderNode} that a receive here matched the message of synchronous
     * send {@code syncId} of its slave {@code senderWorldRank} (scheduler thread).
     */
    public void sendMatched(int senderNode, int senderWorldRank, long syncId) {
        pump.send(senderNode, Pump.CONTROL_TAG, new MasterMessage.SendMatched(senderWorldRank, syncId).encode(), null);
    }

    /**
     * Ships a local slave's collective start to the masters of {@code destNodes} (scheduler thread).
     * A spilled contribution's file is read from {@code spillDir}; {@code afterSent} runs once it
     * has gone to all of them.
     *
     * @throws UncheckedIOException when the spill file cannot be read
     */
    public void shipStart(int[] destNodes, RemoteStart start, Path spillDir, Runnable afterSent) {
        Payload data = start.start() instanceof SlaveRequest.StartCollective c ? c.data() : null;
        boolean inline = !(data instanceof Payload.Spilled);
        ByteBuffer frame = ByteBuffer.allocate(ProtocolCodec.encodedLength(start.start()));
        ProtocolCodec.encode(start.start(), frame);
        frame.flip();
        for (int i = 0; i < destNodes.length; i++) {
            Runnable last = i == destNodes.length - 1 ? afterSent : null;
            pump.send(destNodes[i], Pump.CONTROL_TAG, new MasterMessage.Started(start.commId(), start.worldRank(), start.idBase(),
                    inline ? 0 : data.length(), inline, frame).encode(), inline || data.length() == 0 ? last : null);
            if (!inline) {
                sendFile(destNodes[i], (Payload.Spilled) data, spillDir, last);
            }
        }
    }

    /**
     * Sends a spill file's bytes as data messages, mapped chunk by chunk (never on the heap). All
     * chunks are mapped here, so a file that cannot be read fails on the caller's thread; a mapping
     * takes no memory until MPI reads it, and goes as soon as it is sent.
     */
    private void sendFile(int destNode, Payload.Spilled spilled, Path spillDir, Runnable afterSent) {
        try {
            sendFile(destNode, Pump.DATA_TAG, spillDir.resolve(spilled.fileName()), spilled.length(), afterSent);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot send spill file " + spilled.fileName(), e);
        }
    }

    /** Sends the first {@code length} bytes of {@code file} as data messages of {@code tag}, as {@link #sendFile} does. */
    private void sendFile(int destNode, int tag, Path file, long length, Runnable afterSent) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            for (long at = 0; at < length; at += CHUNK_BYTES) {
                long n = Math.min(CHUNK_BYTES, length - at);
                MappedByteBuffer chunk = ch.map(FileChannel.MapMode.READ_ONLY, at, n);
                boolean last = at + n == length;
                pump.send(destNode, tag, chunk, () -> {
                    Unmapper.unmap(chunk);
                    if (last && afterSent != null) {
                        afterSent.run();
                    }
                });
            }
        }
    }

    /** Sends a slave's shared file pointer operation to the master of {@code ownerNode}, which keeps it (scheduler thread). */
    public void pointerRequest(int ownerNode, MasterMessage.PointerRequest request) {
        pump.send(ownerNode, Pump.CONTROL_TAG, request.encode(), null);
    }

    /** Answers a {@link MasterMessage.PointerRequest} of a slave of {@code node} (scheduler thread). */
    public void pointerAnswer(int node, MasterMessage.PointerAnswer answer) {
        pump.send(node, Pump.CONTROL_TAG, answer.encode(), null);
    }

    /** Sends one-sided traffic to the master of {@code node} (scheduler thread; encoded at once). */
    public void window(int node, MasterMessage.WindowTraffic message) {
        pump.send(node, Pump.CONTROL_TAG, message.encode(), null);
    }

    /** Tells every other master how this node stands (any thread). */
    public void announceState(MasterMessage.NodeState state) {
        ByteBuffer bytes = state.encode();
        for (int n = 0; n < nodes; n++) {
            if (n != node) {
                pump.send(n, Pump.CONTROL_TAG, bytes.duplicate(), null);
            }
        }
    }

    /** Tells node 0 that this node's part of checkpoint {@code sequence} is durable (scheduler thread). */
    public void checkpointPartWritten(int sequence) {
        pump.send(0, Pump.CONTROL_TAG, new MasterMessage.CheckpointPartWritten(sequence).encode(), null);
    }

    /** Tells every other master that checkpoint {@code sequence} is committed (node 0's scheduler thread). */
    public void checkpointCommitted(int sequence) {
        ByteBuffer bytes = new MasterMessage.CheckpointCommitted(sequence).encode();
        for (int n = 0; n < nodes; n++) {
            if (n != node) {
                pump.send(n, Pump.CONTROL_TAG, bytes.duplicate(), null);
            }
        }
    }

    /**
     * Sends this node's part of checkpoint {@code sequence} to its buddy {@code buddyNode}: each of
     * {@code files} of {@code partDir}, in order, small ones inside their header, large ones
     * streamed from their mapping like a spilled message (scheduler thread).
     *
     * @throws UncheckedIOException when a file cannot be read
     */
    public void copyToBuddy(int buddyNode, int sequence, Path partDir, List<String> files) {
        for (String name : files) {
            Path file = partDir.resolve(name);
            try {
                long length = Files.size(file);
                if (length <= FILE_INLINE_BYTES) {
                    ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
                    pump.send(buddyNode, Pump.CONTROL_TAG, new MasterMessage.BuddyFile(sequence, name, length, true, bytes).encode(),
                            null);
                } else {
                    pump.send(buddyNode, Pump.CONTROL_TAG, new MasterMessage.BuddyFile(sequence, name, length, false, null).encode(),
                            null);
                    sendFile(buddyNode, new Payload.Spilled(name, length), partDir, null);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
    }

    /** Tells node 0 that this node holds a durable copy of {@code ofNode}'s part of checkpoint {@code sequence} (scheduler thread). */
    public void buddyCopied(int sequence, int ofNode) {
        pump.send(0, Pump.CONTROL_TAG, new MasterMessage.BuddyCopied(sequence, ofNode).encode(), null);
    }

    /**
     * Sends a message of a restart's staging to the master of {@code destNode} (launcher thread,
     * before the job starts; see {@link Pump#STAGING_TAG}).
     */
    public void sendStaging(int destNode, MasterMessage message) {
        pump.send(destNode, Pump.STAGING_TAG, message.encode(), null);
    }

    /**
     * Receives the next message of a restart's staging from the master of {@code sourceNode},
     * waiting at most {@code timeoutMs} (launcher thread, before the job starts).
     *
     * @throws IOException when none comes in time, or it cannot be read
     */
    public MasterMessage receiveStaging(int sourceNode, long timeoutMs) throws IOException, InterruptedException {
        ByteBuffer bytes = await(pump.receive(sourceNode, Pump.STAGING_TAG, ByteBuffer::allocateDirect), sourceNode, timeoutMs);
        try {
            return MasterMessage.decode(bytes);
        } catch (IllegalArgumentException e) {
            throw new IOException("node " + sourceNode + " sent a broken message: " + e.getMessage(), e);
        }
    }

    /**
     * Sends {@code file}, named {@code name}, as a file of part {@code part} of checkpoint
     * {@code sequence} to the master of {@code destNode}: a small one inside its header, a large one
     * streamed from its mapping like a spilled message (launcher thread, before the job starts).
     */
    public void sendStagedFile(int destNode, int sequence, int part, Path file) throws IOException {
        long length = Files.size(file);
        String name = file.getFileName().toString();
        if (length <= FILE_INLINE_BYTES) {
            sendStaging(destNode, new MasterMessage.StagedFile(sequence, part, name, length, true,
                    ByteBuffer.wrap(Files.readAllBytes(file))));
        } else {
            sendStaging(destNode, new MasterMessage.StagedFile(sequence, part, name, length, false, null));
            sendFile(destNode, Pump.STAGING_DATA_TAG, file, length, null);
        }
    }

    /**
     * Receives the {@code length} bytes that follow a {@link MasterMessage.StagedFile} header from
     * the master of {@code sourceNode} into {@code out}, one chunk in memory at a time, waiting at
     * most {@code timeoutMs} for each (launcher thread, before the job starts).
     *
     * @throws IOException when a chunk does not come in time or has the wrong length, or the disk fails
     */
    public void receiveStagedData(int sourceNode, long length, FileChannel out, long timeoutMs)
            throws IOException, InterruptedException {
        ByteBuffer buffer = ByteBuffer.allocateDirect((int) Math.min(CHUNK_BYTES, length));
        try {
            for (long at = 0; at < length; ) {
                long expected = Math.min(CHUNK_BYTES, length - at);
                ByteBuffer chunk = await(pump.receive(sourceNode, Pump.STAGING_DATA_TAG,
                        count -> count <= buffer.capacity() ? buffer.clear().limit(count) : ByteBuffer.allocateDirect(count)),
                        sourceNode, timeoutMs);
                if (chunk.remaining() != expected) {
                    throw new IOException("node " + sourceNode + " sent " + chunk.remaining() + " bytes of a staged file where "
                            + expected + " were expected");
                }
                while (chunk.hasRemaining()) {
                    at += out.write(chunk, at);
                }
            }
        } finally {
            Unmapper.unmap(buffer);
        }
    }

    private static ByteBuffer await(CompletableFuture<ByteBuffer> received, int sourceNode, long timeoutMs)
            throws IOException, InterruptedException {
        try {
            return received.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException("node " + sourceNode + "'s master sent nothing for " + timeoutMs / 1000.0 + " s");
        } catch (ExecutionException e) {
            throw new IOException("receiving from node " + sourceNode + ": " + e.getCause(), e.getCause());
        }
    }

    /** Tells every other master that this node has ended its part (any thread). */
    public void announceEnd(int exitCode, boolean causedHere) {
        for (int n = 0; n < nodes; n++) {
            if (n != node) {
                pump.send(n, Pump.CONTROL_TAG, new MasterMessage.NodeEnded(exitCode, causedHere).encode(), null);
            }
        }
    }

    /** Ends the whole MPI job at once (MPI_Abort): for when the masters cannot end it together. */
    public void abort(int exitCode) {
        pump.abort(exitCode);
    }

    /** Sends what is queued, then finalizes MPI (collective: every master closes). */
    @Override
    public void close() {
        pump.close();
        writer.close();
        RecycledFiles files = recycled;
        if (files != null) {
            files.close();
        }
    }

    /** A forward or collective start being received: its header and where its data bytes go. */
    private static final class Inbound {
        final MasterMessage header;
        final long dataBytes;
        final ByteBuffer memory;
        /** The file's first bytes, mapped to receive into; null when all goes through {@link #file}. */
        final ByteBuffer mapped;
        /** Where the bytes beyond {@link #mapped} are written; null when there are none. */
        final FileChannel file;
        final String fileName;
        long assigned;
        long done;

        /** @param dataBytes bytes that follow as data messages (0 when the payload came inline) */
        Inbound(MasterMessage header, long dataBytes, ByteBuffer memory, ByteBuffer mapped, FileChannel file,
                String fileName) {
            this.header = header;
            this.dataBytes = dataBytes;
            this.memory = memory;
            this.mapped = mapped;
            this.file = file;
            this.fileName = fileName;
        }

        boolean complete() {
            return done == dataBytes;
        }

        /** The data that followed the header, as stored here. */
        Payload received() {
            return fileName != null ? new Payload.Spilled(fileName, dataBytes) : new Payload.Inline(memory.flip());
        }
    }

    /**
     * A data message being received for {@code in}, at {@code offset} of its data.
     *
     * @param viaWriter whether it is received into a spare buffer for the {@link ChunkWriter} (else in place)
     */
    private record Chunk(Inbound in, long offset, boolean viaWriter) {
    }

    /** The pump's inbox: keeps each source's forwards in arrival order and publishes them whole, in that order. */
    private final class Inbox implements Pump.Inbox {
        private final Path spillDir;
        private final int inlineMaxBytes;
        private final RecycledFiles recycled;
        private final Sink sink;
        private final ArrayDeque<Inbound>[] pending;
        /** Where each data message being received belongs: its message and its offset there. */
        private final Map<ByteBuffer, Chunk> chunks = new IdentityHashMap<>();
        private final ArrayDeque<ByteBuffer> spareBuffers = new ArrayDeque<>();
        private long files;

        @SuppressWarnings("unchecked")
        Inbox(Path spillDir, int inlineMaxBytes, RecycledFiles recycled, Sink sink) {
            this.spillDir = spillDir;
            this.inlineMaxBytes = inlineMaxBytes;
            this.recycled = recycled;
            this.sink = sink;
            this.pending = new ArrayDeque[nodes];
            for (int i = 0; i < nodes; i++) {
                pending[i] = new ArrayDeque<>();
            }
        }

        @Override
        public ByteBuffer bufferFor(int source, int tag, int count) {
            if (tag == Pump.CONTROL_TAG) {
                return ByteBuffer.allocateDirect(count);
            }
            Inbound in = pending[source].stream().filter(i -> i.assigned < i.dataBytes).findFirst().orElse(null);
            long expected = in == null ? -1 : Math.min(CHUNK_BYTES, in.dataBytes - in.assigned);
            if (expected != count) {
                sink.broken("node " + source + " sent " + count + " data bytes where " + expected + " were expected");
                return ByteBuffer.allocateDirect(count);
            }
            ByteBuffer target;
            boolean viaWriter = false;
            if (in.mapped != null && in.assigned + count <= in.mapped.capacity()) {
                target = range(in.mapped, in.assigned, count);
            } else if (in.file != null) {
                target = spareBuffer().limit(count);
                viaWriter = true;
            } else {
                target = range(in.memory, in.assigned, count);
            }
            chunks.put(target, new Chunk(in, in.assigned, viaWriter));
            in.assigned += count;
            return target;
        }

        @Override
        public void received(int source, int tag, ByteBuffer message) {
            if (tag == Pump.CONTROL_TAG) {
                onControl(source, message);
            } else {
                Chunk c = chunks.remove(message);
                if (c != null && c.viaWriter()) {
                    int count = message.remaining();
                    writer.write(c.in().file, c.offset(), message, failure -> pump.execute(mpi -> written(source, c, count,
                            message, failure)));
                    return;
                }
                if (c != null) {
                    c.in().done += message.remaining();
                }
            }
            publishCompleted(source);
        }

        private static ByteBuffer range(ByteBuffer whole, long offset, int count) {
            return whole.duplicate().position((int) offset).limit((int) offset + count).slice();
        }

        private ByteBuffer spareBuffer() {
            ByteBuffer b = spareBuffers.pollFirst();
            return b != null ? b.clear() : ByteBuffer.allocateDirect(CHUNK_BYTES);
        }

        /** A chunk is in its file (pump thread): takes its buffer back; a failure stops the job (the file is incomplete). */
        private void written(int source, Chunk c, int count, ByteBuffer bytes, IOException failure) {
            if (failure != null) {
                sink.broken("cannot write a message from node " + source + " to " + spillDir + ": " + failure.getMessage());
            }
            c.in().done += count;
            publishCompleted(source);
            if (spareBuffers.size() < SPARE_CHUNK_BUFFERS) {
                spareBuffers.addLast(bytes);
            } else {
                Unmapper.unmap(bytes);
            }
        }

        private void onControl(int source, ByteBuffer message) {
            MasterMessage m;
            try {
                m = MasterMessage.decode(message);
            } catch (IllegalArgumentException e) {
                sink.broken("from node " + source + ": " + e.getMessage());
                return;
            }
            if (m instanceof MasterMessage.NodeEnded ended) {
                sink.peerEnded(source, ended.exitCode(), ended.causedHere());
            } else if (m instanceof MasterMessage.NodeState state) {
                sink.peerState(source, state);
            } else if (m instanceof MasterMessage.CheckpointPartWritten w) {
                sink.partWrittenArrived(source, w.sequence());
            } else if (m instanceof MasterMessage.CheckpointCommitted c) {
                sink.commitArrived(c.sequence());
            } else if (m instanceof MasterMessage.BuddyCopied c) {
                sink.buddyCopiedArrived(source, c.sequence(), c.ofNode());
            } else if (m instanceof MasterMessage.BuddyFile f) {
                // In the order of the part's files, behind the forwards that came before it.
                long follows = f.inline() ? 0 : f.dataBytes();
                pending[source].addLast(inbound(source, f, follows, follows > 0));
            } else if (m instanceof MasterMessage.SendMatched matched) {
                sink.matchArrived(matched.senderWorldRank(), matched.syncId());
            } else if (m instanceof MasterMessage.PointerRequest request) {
                sink.pointerRequested(source, request);
            } else if (m instanceof MasterMessage.PointerAnswer answer) {
                sink.pointerAnswered(answer);
            } else if (m instanceof MasterMessage.WindowTraffic w) {
                sink.windowArrived(source, w);
            } else if (m instanceof MasterMessage.Forward f) {
                // A message's bytes stay in memory up to this node's -im, as a slave's own would.
                long follows = f.inline() ? 0 : f.dataBytes();
                pending[source].addLast(inbound(source, f, follows, follows > inlineMaxBytes));
            } else if (m instanceof MasterMessage.Started st) {
                // A spilled contribution stays spilled: the collective hands out ranges of its file.
                long follows = st.inline() ? 0 : st.dataBytes();
                pending[source].addLast(inbound(source, st, follows, !st.inline()));
            }
        }

        private Inbound inbound(int source, MasterMessage header, long follows, boolean toFile) {
            if (!toFile) {
                return new Inbound(header, follows, ByteBuffer.allocateDirect((int) follows), null, null, null);
            }
            try {
                if (header instanceof MasterMessage.Forward) {
                    RecycledFiles.Taken file = recycled.take(follows);
                    return new Inbound(header, follows, null, file.mapped(), file.channel(), file.name());
                }
                String name = "net-" + source + "-" + (files++);
                FileChannel ch = FileChannel.open(spillDir.resolve(name), StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.READ, StandardOpenOption.WRITE);
                return new Inbound(header, follows, null, null, ch, name);
            } catch (IOException e) {
                sink.broken("cannot store a message from node " + source + " in " + spillDir + ": " + e.getMessage());
                Inbound dropped = new Inbound(header, follows, ByteBuffer.allocateDirect(0), null, null, null);
                dropped.done = follows;
                return dropped;
            }
        }

        private void publishCompleted(int source) {
            while (!pending[source].isEmpty() && pending[source].peekFirst().complete()) {
                Inbound in = pending[source].pollFirst();
                if (in.file != null) {
                    closeQuietly(in.file);
                }
                if (in.header instanceof MasterMessage.Forward f) {
                    Payload p = f.inline() ? new Payload.Inline(f.inlineBytes()) : in.received();
                    sink.arrived(new Arrival(f.destWorldRank(), f.commId(), f.source(), f.tag(), f.senderWorldRank(),
                            f.syncId(), p));
                } else if (in.header instanceof MasterMessage.BuddyFile f) {
                    sink.buddyFileArrived(source, f.sequence(), f.name(), f.inline() ? new Payload.Inline(f.inlineBytes())
                            : in.received());
                } else {
                    publishStart(source, (MasterMessage.Started) in.header, in);
                }
            }
        }

        private void publishStart(int source, MasterMessage.Started st, Inbound in) {
            SlaveRequest start;
            try {
                start = ProtocolCodec.decodeRequest(ProtocolCodec.nextFrame(st.frame()));
            } catch (ProtocolException | RuntimeException e) {
                sink.broken("bad collective start from node " + source + ": " + e.getMessage());
                return;
            }
            if (!st.inline() && start instanceof SlaveRequest.StartCollective c) {
                start = new SlaveRequest.StartCollective(c.requestId(), c.commId(), c.kind(), c.root(), c.op(), c.type(),
                        c.count(), c.blockBytes(), in.received());
            }
            sink.startArrived(new RemoteStart(st.commId(), st.worldRank(), st.idBase(), start));
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // The mappings hold the data; the channel is only a handle.
        }
    }
}
