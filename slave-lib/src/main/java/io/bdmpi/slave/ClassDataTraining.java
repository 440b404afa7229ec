package io.bdmpi.slave;

import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.ProtocolCodec;
import io.bdmpi.protocol.SlaveRequest;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The training run of the slaves' class-data archive: a master runs it once per set of bdmpi jars,
 * under {@code -XX:ArchiveClassesAtExit}, so that the archive holds what a slave loads at start-up.
 * Every slave then maps that archive read-only instead of loading, verifying and keeping those
 * classes in its own memory: start-up is faster, and the class metadata is shared between slaves.
 *
 * <p>Loads (without initializing) every class of the jars named on its command line, and goes
 * through what a slave does before and at {@code MPI.Init}: the {@link SlaveMain} prologue (output,
 * master watchdog, signals) and a Unix-domain socket carrying the hello and the go-signal. It needs
 * no master.
 *
 * <p>Usage (by the master only): {@code ClassDataTraining JAR...}.
 */
public final class ClassDataTraining {

    private ClassDataTraining() {
    }

    public static void main(String[] jars) throws IOException {
        int loaded = 0;
        for (String jar : jars) {
            loaded += loadAll(Path.of(jar));
        }
        Path dir = Files.createTempDirectory("bdmpi-cds-");
        try {
            Path socket = dir.resolve("s");
            // This JVM is its own "master", so the watchdog the prologue starts never fires.
            SlaveEnvironment env = SlaveEnvironment.fromVariables(Map.of(SlaveEnvironment.SOCKET, socket.toString(),
                    SlaveEnvironment.WORLD_RANK, "0", SlaveEnvironment.WORLD_SIZE, "1", SlaveEnvironment.NODE_ID, "0",
                    SlaveEnvironment.NODE_COUNT, "1", SlaveEnvironment.INLINE_MAX, "0", SlaveEnvironment.SPILL_DIR, dir.toString(),
                    SlaveEnvironment.MASTER_PID, Long.toString(ProcessHandle.current().pid()),
                    SlaveEnvironment.TAG_OUTPUT, "true"));
            System.getenv(SlaveEnvironment.SOCKET);
            SlaveMain.prepare(env);
            helloAndGo(socket);
            System.out.println("loaded " + loaded + " classes");
        } finally {
            Files.deleteIfExists(dir.resolve("s"));
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Loads (without initializing) every class of {@code jar} through the class path; returns how
     * many loaded. The masters' training ({@code MasterClassDataTraining}) uses it too.
     */
    public static int loadAll(Path jar) throws IOException {
        ClassLoader loader = ClassDataTraining.class.getClassLoader();
        int loaded = 0;
        try (JarFile file = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (!name.endsWith(".class") || name.startsWith("META-INF/") || name.endsWith("module-info.class")) {
                    continue;
                }
                try {
                    Class.forName(name.substring(0, name.length() - ".class".length()).replace('/', '.'), false, loader);
                    loaded++;
                } catch (ClassNotFoundException | LinkageError skipped) {
                    // A class whose dependencies are not on a slave's class path is not one a slave loads.
                }
            }
        }
        return loaded;
    }

    /** A slave's first exchange with its master, over a socket pair of its own. */
    private static void helloAndGo(Path socket) throws IOException {
        UnixDomainSocketAddress address = UnixDomainSocketAddress.of(socket);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(address);
            try (SocketChannel slave = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                slave.connect(address);
                try (SocketChannel master = server.accept()) {
                    ByteBuffer buffer = ByteBuffer.allocateDirect(256).order(ProtocolCodec.ORDER);
                    ProtocolCodec.encode(new SlaveRequest.Hello(0, ProcessHandle.current().pid()), buffer);
                    transfer(buffer, slave, master);
                    ProtocolCodec.decodeRequest(ProtocolCodec.nextFrame(buffer));
                    buffer.clear();
                    ProtocolCodec.encode(new MasterReply.Go(), buffer);
                    transfer(buffer, master, slave);
                    ProtocolCodec.decodeReply(ProtocolCodec.nextFrame(buffer));
                }
            }
        }
    }

    /** Sends what {@code buffer} holds from one end to the other and leaves it holding what arrived. */
    private static void transfer(ByteBuffer buffer, SocketChannel from, SocketChannel to) throws IOException {
        buffer.flip();
        int length = buffer.remaining();
        while (buffer.hasRemaining()) {
            from.write(buffer);
        }
        buffer.clear();
        while (buffer.position() < length) {
            to.read(buffer);
        }
        buffer.flip();
    }
}
