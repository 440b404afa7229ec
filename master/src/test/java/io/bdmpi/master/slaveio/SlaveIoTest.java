package io.bdmpi.master.slaveio;

import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.ProtocolCodec;
import io.bdmpi.protocol.SlaveRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The slaves' sockets over a real Unix-domain socket, polled by the test's thread as the scheduler thread polls them. */
class SlaveIoTest {

    /** What a poll reported, as the scheduler would get it. */
    private interface Event {
    }

    private record RequestArrived(SlaveConnection connection, SlaveRequest request) implements Event {
    }

    private record ConnectionLost(SlaveConnection connection, String reason) implements Event {
    }

    private record Stop(String reason) implements Event {
    }

    private record Recorder(BlockingQueue<Event> events) implements SlaveIo.Listener {
        @Override
        public void requestArrived(SlaveConnection connection, SlaveRequest request) {
            events.add(new RequestArrived(connection, request));
        }

        @Override
        public void connectionLost(SlaveConnection connection, String reason) {
            events.add(new ConnectionLost(connection, reason));
        }

        @Override
        public void stop(String reason) {
            events.add(new Stop(reason));
        }
    }

    @TempDir
    Path dir;

    /**
     * A slave that dies (here: closes its end) while a reply too large for the socket buffer is
     * still being written loses its connection; the master's I/O goes on for the other slaves.
     */
    @Test
    void aSlaveGoneInTheMiddleOfAReplyLosesOnlyItsConnection() throws Exception {
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        Path socket = dir.resolve("master.sock");
        try (SlaveIo io = new SlaveIo(socket, new Recorder(events))) {
            SocketChannel dying = connectAndSayHello(socket, 0);
            SocketChannel other = connectAndSayHello(socket, 1);
            SlaveConnection toDying = arrivedFrom(io, events, 0);
            arrivedFrom(io, events, 1);

            ByteBuffer big = ByteBuffer.allocate(64 << 20);
            toDying.send(new MasterReply.Deliveries(List.of(new MasterReply.Delivery(1, 0, 0, new Payload.Inline(big)))));
            // Let the poll wait to write the rest, so the close makes the connection writable
            // (EPIPE) and readable (EOF) at once, as when the kernel kills a slave mid-reply.
            io.poll(300);
            dying.close();

            Event lost = next(io, events, 10_000);
            assertInstanceOf(ConnectionLost.class, lost, "expected the dying slave's connection to be lost");
            assertNull(next(io, events, 300), "nothing else should happen, in particular no stop");

            write(other, new SlaveRequest.Hello(1, 1001));
            assertNotNull(arrivedFrom(io, events, 1), "the other slave is still served");
            other.close();
        }
    }

    /**
     * Requests that arrive in pieces (the length cut in two, a body larger than the shared read
     * buffer, in several writes) from two slaves at once are each decoded whole and unmixed, and
     * whole requests after them still arrive.
     */
    @Test
    void requestsCutIntoPiecesArriveWholeFromEachSlave() throws Exception {
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        Path socket = dir.resolve("master.sock");
        try (SlaveIo io = new SlaveIo(socket, new Recorder(events))) {
            SocketChannel a = connectAndSayHello(socket, 0);
            SocketChannel b = connectAndSayHello(socket, 1);
            arrivedFrom(io, events, 0);
            arrivedFrom(io, events, 1);
            ByteBuffer fromA = encoded(send(0, 2 * SlaveIo.BUFFER_BYTES + 5));
            ByteBuffer fromB = encoded(send(1, 100));
            int[] cutsA = {2, 4, 4 + SlaveIo.BUFFER_BYTES, fromA.limit() - 1, fromA.limit()};
            int[] cutsB = {1, 3, 50, fromB.limit()};
            int doneA = 0;
            int doneB = 0;
            for (int i = 0; i < Math.max(cutsA.length, cutsB.length); i++) {
                if (i < cutsA.length) {
                    writeFully(a, fromA.duplicate().position(doneA).limit(cutsA[i]));
                    doneA = cutsA[i];
                }
                if (i < cutsB.length) {
                    writeFully(b, fromB.duplicate().position(doneB).limit(cutsB[i]));
                    doneB = cutsB[i];
                }
                io.poll(50);
            }
            List<SlaveRequest.Send> sends = new ArrayList<>();
            while (sends.size() < 2) {
                Event e = next(io, events, 10_000);
                assertNotNull(e, "both requests should arrive");
                sends.add(assertInstanceOf(SlaveRequest.Send.class, assertInstanceOf(RequestArrived.class, e).request()));
            }
            for (SlaveRequest.Send s : sends) {
                int n = s.tag() == 0 ? 2 * SlaveIo.BUFFER_BYTES + 5 : 100;
                ByteBuffer bytes = ((Payload.Inline) s.payload()).bytes();
                assertEquals(n, bytes.remaining(), "the whole payload of slave " + s.tag());
                for (int i = 0; i < n; i++) {
                    assertEquals((byte) (s.tag() * 31 + i), bytes.get(bytes.position() + i), "byte " + i + " of slave " + s.tag());
                }
            }
            write(a, new SlaveRequest.Hello(0, 1000));
            assertNotNull(arrivedFrom(io, events, 0), "a whole request after the pieces arrives");
            a.close();
            b.close();
        }
    }

    /** A send of {@code n} bytes from the slave {@code tag}, each byte telling its slave and place. */
    private static SlaveRequest send(int tag, int n) {
        ByteBuffer payload = ByteBuffer.allocate(n);
        for (int i = 0; i < n; i++) {
            payload.put(i, (byte) (tag * 31 + i));
        }
        return new SlaveRequest.Send(0, 0, tag, new Payload.Inline(payload), 0);
    }

    private static ByteBuffer encoded(SlaveRequest r) {
        ByteBuffer out = ByteBuffer.allocate(ProtocolCodec.encodedLength(r)).order(ProtocolCodec.ORDER);
        ProtocolCodec.encode(r, out);
        return out.flip();
    }

    private static void writeFully(SocketChannel ch, ByteBuffer b) throws Exception {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static SocketChannel connectAndSayHello(Path socket, int rank) throws Exception {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(socket));
        write(ch, new SlaveRequest.Hello(rank, 1000 + rank));
        return ch;
    }

    private static void write(SocketChannel ch, SlaveRequest r) throws Exception {
        ByteBuffer out = ByteBuffer.allocate(ProtocolCodec.encodedLength(r)).order(ProtocolCodec.ORDER);
        ProtocolCodec.encode(r, out);
        out.flip();
        while (out.hasRemaining()) {
            ch.write(out);
        }
    }

    /** Polls until an event comes or {@code timeoutMs} have passed; null: none came. */
    private static Event next(SlaveIo io, BlockingQueue<Event> events, long timeoutMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (events.isEmpty()) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return null;
            }
            io.poll(left);
        }
        return events.poll();
    }

    private static SlaveConnection arrivedFrom(SlaveIo io, BlockingQueue<Event> events, int rank) {
        Event e = next(io, events, 10_000);
        RequestArrived arrived = assertInstanceOf(RequestArrived.class, e);
        SlaveRequest.Hello hello = assertInstanceOf(SlaveRequest.Hello.class, arrived.request());
        if (hello.worldRank() != rank) {
            throw new AssertionError("hello from rank " + hello.worldRank() + ", expected " + rank);
        }
        return arrived.connection();
    }
}
