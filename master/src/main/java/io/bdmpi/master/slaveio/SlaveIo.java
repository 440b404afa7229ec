package io.bdmpi.master.slaveio;

import io.bdmpi.protocol.ProtocolCodec;
import io.bdmpi.protocol.ProtocolException;
import io.bdmpi.protocol.SlaveRequest;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The slaves' sockets, without a thread of their own: the thread that {@linkplain #poll polls}
 * them (the scheduler thread) accepts slave connections on the master's Unix-domain socket, reads
 * and decodes their requests, hands them to the {@link Listener} at once, and finishes replies the
 * socket did not take whole. A request thus reaches the scheduler without a hand-off between
 * threads, and a reply leaves on the thread that decided it: a slave switch costs one wake-up of
 * the master and one of the slave that resumes, as a plain socket round trip does.
 *
 * <p>Confined to the polling thread, except {@link #wakeup}, which other threads call to end a
 * poll early when they have published something for that thread.
 */
public final class SlaveIo implements AutoCloseable {

    /** Where what happens on the slaves' sockets goes: the scheduler. Called on the polling thread. */
    public interface Listener {
        /** A slave's request arrived, decoded. */
        void requestArrived(SlaveConnection connection, SlaveRequest request);

        /** A slave's socket closed or failed. */
        void connectionLost(SlaveConnection connection, String reason);

        /** The job must stop: the master's I/O failed, or a slave broke the protocol. */
        void stop(String reason);
    }

    /** {@link #poll} timeout: wait until a socket is ready or {@link #wakeup} is called. */
    public static final long UNTIL_READY = -1;

    /** Size of the buffers shared by all connections: most requests and replies fit them whole. */
    static final int BUFFER_BYTES = 64 * 1024;

    private final Path socketPath;
    private final Listener listener;
    private final Selector selector;
    private final ServerSocketChannel server;
    /** The selector failed: the job is stopping, and polls only wait (for the rest of the events). */
    private boolean failed;
    /** What a read brings in, decoded before the next read: one buffer for all connections. */
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(BUFFER_BYTES).order(ProtocolCodec.ORDER);
    /** Where replies are encoded, one at a time; grows to the largest reply, once for all connections. */
    private ByteBuffer replyBuffer = ByteBuffer.allocateDirect(BUFFER_BYTES).order(ProtocolCodec.ORDER);

    public SlaveIo(Path socketPath, Listener listener) throws IOException {
        this.socketPath = socketPath;
        this.listener = listener;
        this.selector = Selector.open();
        ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            s.bind(UnixDomainSocketAddress.of(socketPath), 1024);
            s.configureBlocking(false);
            s.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            s.close();
            selector.close();
            throw e;
        }
        this.server = s;
    }

    /**
     * Handles what the sockets have ready, waiting for something first up to {@code timeoutMs}
     * (0: not at all; {@link #UNTIL_READY}: until a socket is ready or {@link #wakeup}).
     *
     * @return whether any socket was ready
     */
    public boolean poll(long timeoutMs) {
        if (failed) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(timeoutMs == 0 ? 0 : 1));
            return false;
        }
        try {
            int ready = timeoutMs == 0 ? selector.selectNow()
                    : selector.select(timeoutMs == UNTIL_READY ? 0 : timeoutMs);
            if (ready == 0) {
                return false;
            }
            Iterator<SelectionKey> it = selector.selectedKeys().iterator();
            while (it.hasNext()) {
                SelectionKey key = it.next();
                it.remove();
                if (!key.isValid()) {
                    continue;
                }
                if (key.isAcceptable()) {
                    accept();
                } else {
                    SlaveConnection c = (SlaveConnection) key.attachment();
                    if (key.isWritable() && !finishWrite(key, c)) {
                        continue;
                    }
                    if (key.isReadable()) {
                        read(key, c);
                    }
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            failed = true;
            listener.stop("master I/O failed: " + e);
            return false;
        }
    }

    /** Ends the current or next {@link #poll} early; any thread. */
    public void wakeup() {
        selector.wakeup();
    }

    /** The buffer a reply of {@code length} bytes is encoded in, cleared; polling thread. */
    ByteBuffer replyBuffer(int length) {
        if (replyBuffer.capacity() < length) {
            replyBuffer = ByteBuffer.allocateDirect(Math.max(length, replyBuffer.capacity() * 2)).order(ProtocolCodec.ORDER);
        }
        return replyBuffer.clear();
    }

    /** Called by a connection whose reply did not fit the socket: finish it when writable; polling thread. */
    void finishLater(SlaveConnection c) {
        SelectionKey key = c.channel().keyFor(selector);
        if (key != null && key.isValid()) {
            key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    private void accept() throws IOException {
        SocketChannel ch = server.accept();
        if (ch != null) {
            ch.configureBlocking(false);
            ch.register(selector, SelectionKey.OP_READ, new SlaveConnection(ch, this));
        }
    }

    /**
     * Writes what a reply left unsent; false if the slave's end is gone (EPIPE: it died, perhaps
     * killed by the OOM killer). That loses one connection, like a failed read; the slave's exit
     * is what the job reports, not the master's I/O.
     */
    private boolean finishWrite(SelectionKey key, SlaveConnection c) {
        try {
            if (c.writeUnsent()) {
                key.interestOps(SelectionKey.OP_READ);
            }
            return true;
        } catch (IOException e) {
            lose(key, c, e.toString());
            return false;
        }
    }

    private void read(SelectionKey key, SlaveConnection c) {
        ByteBuffer in = c.partial != null ? c.partial : readBuffer;
        try {
            int n = c.channel().read(in);
            if (n < 0) {
                lose(key, c, "closed by the slave");
                return;
            }
            in.flip();
            ByteBuffer frame;
            while ((frame = ProtocolCodec.nextFrame(in)) != null) {
                listener.requestArrived(c, ProtocolCodec.decodeRequest(frame));
            }
            c.partial = keepPartial(in);
        } catch (ProtocolException e) {
            lose(key, c, "protocol error: " + e.getMessage());
            listener.stop("protocol error on a slave connection: " + e.getMessage());
        } catch (IOException e) {
            lose(key, c, e.toString());
        } finally {
            readBuffer.clear();
        }
    }

    /**
     * What a connection keeps of {@code in} once its whole requests are decoded: nothing, or the
     * start of the next request in a buffer of its own that can hold that request whole. The
     * shared buffer is reused by the next read: a decoded request may view it (a one-sided
     * operation's data does) only while the listener handles it, which is before this returns.
     */
    private ByteBuffer keepPartial(ByteBuffer in) {
        if (!in.hasRemaining()) {
            return null;
        }
        int needed = in.remaining() >= 4 ? in.getInt(in.position()) + 4 : BUFFER_BYTES;
        if (in != readBuffer && needed <= in.capacity()) {
            return in.compact();
        }
        return ByteBuffer.allocate(Math.max(needed, BUFFER_BYTES)).order(ProtocolCodec.ORDER).put(in);
    }

    private void lose(SelectionKey key, SlaveConnection c, String reason) {
        key.cancel();
        try {
            c.channel().close();
        } catch (IOException ignored) {
            // Already broken.
        }
        listener.connectionLost(c, reason);
    }

    /** Closes every socket; call once the polling thread has stopped polling. */
    @Override
    public void close() {
        for (SelectionKey key : selector.keys()) {
            try {
                key.channel().close();
            } catch (IOException ignored) {
                // Closing on the way out: nothing more to do.
            }
        }
        try {
            selector.close();
            server.close();
            Files.deleteIfExists(socketPath);
        } catch (IOException ignored) {
            // The work directory is removed next in any case.
        }
    }
}
