package io.bdmpi.slave;

import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.ProtocolCodec;

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
 * through what a slave does before and at {@code MPI.Init} and at {@code MPI.Finalize}: the
 * {@link SlaveMain} prologue (output, master watchdog, signals), and its {@link SlaveRuntime}
 * connecting to a stand-in master on a thread of this JVM (the hello and the go-signal) and
 * finishing. It needs no master.
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
            connectAndFinish(env);
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

    /**
     * A slave's first and last exchange with its master: {@link SlaveRuntime#connect} (the hello and
     * the go-signal, and what the runtime makes for its rank, such as its park watch) and
     * {@link SlaveRuntime#finish}, against a stand-in master on a thread of this JVM that answers
     * both with a go-signal.
     */
    private static void connectAndFinish(SlaveEnvironment env) throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(env.socketPath()));
            Thread master = new Thread(() -> answerWithGo(server), "bdmpi-training-master");
            master.setDaemon(true);
            master.start();
            SlaveRuntime.connect(env).finish(0);
            try {
                master.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The stand-in master: replies Go to each of the slave's requests until it disconnects. */
    private static void answerWithGo(ServerSocketChannel server) {
        try (SocketChannel slave = server.accept()) {
            ByteBuffer in = ByteBuffer.allocate(4096).order(ProtocolCodec.ORDER);
            ByteBuffer out = ByteBuffer.allocate(256).order(ProtocolCodec.ORDER);
            while (slave.read(in) >= 0) {
                in.flip();
                for (ByteBuffer frame = ProtocolCodec.nextFrame(in); frame != null; frame = ProtocolCodec.nextFrame(in)) {
                    ProtocolCodec.decodeRequest(frame);
                    out.clear();
                    ProtocolCodec.encode(new MasterReply.Go(), out);
                    out.flip();
                    while (out.hasRemaining()) {
                        slave.write(out);
                    }
                }
                in.compact();
            }
        } catch (IOException e) {
            // The slave side fails too, and with it the training: no archive is made.
        }
    }
}
