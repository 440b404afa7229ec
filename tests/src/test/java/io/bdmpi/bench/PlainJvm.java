package io.bdmpi.bench;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Baselines of {@link StartupBenchmarkTest}: a plain JVM that does what an {@link Idle} rank does
 * besides MPI, print its resident memory ({@code PlainJvm rssKiB=N}), and exits.
 *
 * <p>Given a socket path, it first connects to it through the JDK's Unix-domain channels and sends
 * one byte, as a slave's first contact with its master does: that is the floor of a slave's
 * start-up as long as slaves talk to their master over those channels, whatever bdmpi does.
 */
public final class PlainJvm {

    private PlainJvm() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 0) {
            try (SocketChannel master = SocketChannel.open(UnixDomainSocketAddress.of(args[0]))) {
                master.write(ByteBuffer.wrap(new byte[] {1}));
            }
        }
        System.out.println(Measured.line("PlainJvm", "rssKiB", ProcStatus.rssKiB()));
    }
}
