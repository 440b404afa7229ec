package io.bdmpi.master.slaveio;

import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.ProtocolCodec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One slave's socket, as the master sees it; confined to the scheduler thread, which reads it
 * through {@link SlaveIo#poll} and writes replies with {@link #send}. A slave waits for each reply
 * before it asks anything that is replied, so at most one reply is ever in flight per connection:
 * a reply the socket cannot take at once is finished when the socket is writable again, and
 * nothing can overtake it.
 */
public class SlaveConnection {

    /** Stands for a connection that has gone; sending to it does nothing. */
    public static final SlaveConnection CLOSED = new SlaveConnection(null, null) {
        @Override
        public void send(MasterReply reply) {
        }
    };

    private final SocketChannel channel;
    private final SlaveIo io;
    /**
     * The start of a request whose rest has not arrived yet, else null: a connection holds a
     * buffer only while a request is cut in two, not for all its life (a thousand slaves took
     * 80 MiB of the master in per-connection buffers). Whole requests are read into
     * {@link SlaveIo}'s shared buffer.
     */
    ByteBuffer partial;
    /** Rest of a reply the socket did not take. */
    private ByteBuffer unsent;
    /** The world rank of the slave this connection belongs to, once it said hello; -1 before. */
    private int worldRank = -1;

    /** Made by {@link SlaveIo} for each accepted socket (and by tests, with no socket). */
    protected SlaveConnection(SocketChannel channel, SlaveIo io) {
        this.channel = channel;
        this.io = io;
    }

    SocketChannel channel() {
        return channel;
    }

    /** The world rank of the slave this connection belongs to, once it said hello, else -1. */
    public int worldRank() {
        return worldRank;
    }

    /** The slave of {@code rank} said hello on this connection. */
    public void attach(int rank) {
        worldRank = rank;
    }

    /** Sends one reply without blocking the scheduler thread. Errors mean the slave is gone. */
    public void send(MasterReply reply) {
        ByteBuffer out = io.replyBuffer(ProtocolCodec.encodedLength(reply));
        ProtocolCodec.encode(reply, out);
        out.flip();
        try {
            channel.write(out);
        } catch (IOException e) {
            return; // The slave died; its process exit is reported separately.
        }
        if (out.hasRemaining()) {
            unsent = ByteBuffer.allocate(out.remaining()).put(out).flip();
            io.finishLater(this);
        }
    }

    /**
     * Writes what is left of a reply, once the socket is writable again.
     *
     * @return true when nothing is left
     */
    boolean writeUnsent() throws IOException {
        if (unsent != null) {
            channel.write(unsent);
            if (unsent.hasRemaining()) {
                return false;
            }
            unsent = null;
        }
        return true;
    }
}
