package io.bdmpi.bench;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Baseline of {@link CollectivesBenchmarkTest}: what the machine alone charges per member when one
 * process resumes S others in turn, as a master resumes its slaves at {@code -nr 1}. A hub JVM
 * starts S plain member JVMs (the slaves' JVM options, {@link ChildJvm}), each connected to it by
 * a Unix-domain socket and blocked in a read; a round writes one byte to each member in turn and
 * reads its one-byte answer. Members do nothing else, so the cost per member, and its growth with
 * S, is that of the wake-ups and of the cores' caches shared by S processes, without bdmpi's code.
 * Prints {@code RawStar members=S nanosPerMember=N}.
 *
 * <p>Usage: {@code RawStar hub directory S rounds warmUpRounds}, or {@code RawStar member socketPath}
 * (started by the hub).
 */
public final class RawStar {

    private RawStar() {
    }

    public static void main(String[] args) throws IOException {
        if (args[0].equals("member")) {
            member(Path.of(args[1]));
        } else {
            hub(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        }
    }

    private static void member(Path socket) throws IOException {
        try (SocketChannel hub = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            ByteBuffer b = ByteBuffer.allocateDirect(1);
            while (hub.read(b) > 0) {
                b.flip();
                hub.write(b);
                b.clear();
            }
        }
    }

    private static void hub(Path directory, int members, int rounds, int warmUpRounds) throws IOException {
        Path socket = directory.resolve("star.sock");
        List<ChildJvm> children = new ArrayList<>();
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            SocketChannel[] links = new SocketChannel[members];
            for (int i = 0; i < members; i++) {
                children.add(ChildJvm.start(RawStar.class, "member", socket.toString()));
            }
            for (int i = 0; i < members; i++) {
                links[i] = server.accept();
            }
            ByteBuffer b = ByteBuffer.allocateDirect(1);
            roundsOf(links, b, warmUpRounds);
            long start = System.nanoTime();
            roundsOf(links, b, rounds);
            long nanos = System.nanoTime() - start;
            System.out.println(Measured.line("RawStar", "members", members, "nanosPerMember", nanos / ((long) rounds * members)));
            for (SocketChannel link : links) {
                link.close();
            }
            for (ChildJvm child : children) {
                child.awaitSuccess(30);
            }
        } finally {
            children.forEach(ChildJvm::close);
            Files.deleteIfExists(socket);
        }
    }

    private static void roundsOf(SocketChannel[] links, ByteBuffer b, int rounds) throws IOException {
        for (int round = 0; round < rounds; round++) {
            for (SocketChannel link : links) {
                b.clear().put((byte) 1).flip();
                link.write(b);
                b.clear();
                if (link.read(b) != 1) {
                    throw new IOException("a member of the star ended");
                }
            }
        }
    }
}
