package io.bdmpi.bench;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Baseline peer of {@link PingPongBenchmarkTest}: a plain JVM that echoes every byte it receives on a
 * Unix-domain socket, blocking, until the client closes. Prints {@code READY} once it listens, so
 * the client knows when to connect.
 *
 * <p>Usage: {@code EchoServer socketPath}.
 */
public final class EchoServer {

    private EchoServer() {
    }

    public static void main(String[] args) throws IOException {
        Path socket = Path.of(args[0]);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            System.out.println("READY");
            System.out.flush();
            try (SocketChannel client = server.accept()) {
                ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
                while (client.read(buf) >= 0) {
                    buf.flip();
                    while (buf.hasRemaining()) {
                        client.write(buf);
                    }
                    buf.clear();
                }
            }
        } finally {
            Files.deleteIfExists(socket);
        }
    }
}
