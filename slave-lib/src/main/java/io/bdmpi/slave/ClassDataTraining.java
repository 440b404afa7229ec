package io.bdmpi.slave;

import io.bdmpi.ooc.DoubleArray;
import io.bdmpi.ooc.Residency;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.ProtocolCodec;
import io.bdmpi.protocol.SlaveRequest;
import mpi.MPI;
import mpi.OutOfCore;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The training run of the slaves' class-data archive: a master runs it once per set of bdmpi jars,
 * under {@code -XX:ArchiveClassesAtExit}, so that the archive holds what a slave loads at start-up.
 * Every slave then maps that archive read-only instead of loading, verifying and keeping those
 * classes in its own memory: start-up is faster, and the class metadata is shared between slaves.
 *
 * <p>Loads (without initializing) every class of the jars named on its command line, and goes
 * through what a slave does from its start to {@code MPI.Finalize}, as a program of one rank
 * against a stand-in master on a thread of this JVM: the {@link SlaveMain} prologue (output,
 * master watchdog, signals), {@code MPI.Init} (the hello and the go-signal), a rank's first run
 * and first park ({@link #firstRunAndPark}) and {@code MPI.Finalize}. It needs no master.
 *
 * <p>Why the first run and park: at {@code -nr 1} ranks take their first slot one after another,
 * so what a rank does cold between its {@code MPI.Init} and its first park is paid once per rank
 * on the job's critical path. Most of it was bootstrapping lambdas and method handles (of the
 * store, of libc's binding, of file mappings, of the collectives' builders): some 10 to 40 ms
 * each in a cold JVM, which the archive holds ready once the training has made them.
 *
 * <p>Usage (by the master only): {@code ClassDataTraining JAR...}.
 */
public final class ClassDataTraining {

    /** How long the stand-in master keeps a blocking call waiting: a park, for the {@link ParkWatch}. */
    private static final long PARK_MS = 4 * ParkWatch.PARK_DELAY_MS;

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
            Map<String, String> variables = Map.of(SlaveEnvironment.SOCKET, socket.toString(),
                    SlaveEnvironment.WORLD_RANK, "0", SlaveEnvironment.WORLD_SIZE, "1", SlaveEnvironment.NODE_ID, "0",
                    SlaveEnvironment.NODE_COUNT, "1", SlaveEnvironment.INLINE_MAX, "0", SlaveEnvironment.SPILL_DIR, dir.toString(),
                    SlaveEnvironment.MASTER_PID, Long.toString(ProcessHandle.current().pid()),
                    SlaveEnvironment.TAG_OUTPUT, "true");
            SlaveEnvironment env = SlaveEnvironment.fromVariables(variables);
            SlaveMain.prepare(env);
            runOneRank(env, variables);
            System.out.println("loaded " + loaded + " classes");
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
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
     * A program of one rank, against a stand-in master on a thread of this JVM: {@code MPI.Init},
     * {@link #firstRunAndPark} and {@code MPI.Finalize}, through the API a program calls.
     */
    private static void runOneRank(SlaveEnvironment env, Map<String, String> variables) throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(env.socketPath()));
            Thread master = new Thread(() -> standInMaster(server), "bdmpi-training-master");
            master.setDaemon(true);
            master.start();
            init(variables);
            firstRunAndPark();
            MPI.Finalize();
            try {
                master.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } catch (mpi.MPIException e) {
            throw new IOException("the training rank failed: " + e.getMessage(), e);
        }
    }

    /**
     * {@code MPI.Init} with this JVM's stand-in variables: {@code MPI.Init} reads the process's
     * environment, which a JVM cannot set for itself, so this calls the variant that takes them
     * (package-private in {@code mpi}, for tests and for this).
     */
    private static void init(Map<String, String> variables) throws IOException {
        try {
            Method init = MPI.class.getDeclaredMethod("init", Map.class, int.class);
            init.setAccessible(true);
            init.invoke(null, variables, MPI.THREAD_SINGLE);
        } catch (InvocationTargetException e) {
            throw new IOException("MPI.Init of the training rank failed", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IOException("MPI.init(Map, int) is gone: the training needs it", e);
        }
    }

    /**
     * What a rank of an out-of-core program does first: opens its store, makes and fills an
     * array, and parks in a barrier long enough ({@link #PARK_MS}) for its {@link ParkWatch} to
     * release the store and, at resume, prefetch it. The array's residency is {@code NONE},
     * which releases without libc: this JVM's class path has no jffi, with which slaves bind libc on a
     * thread of their own (and which the archive cannot hold, as it comes after the program's
     * class path).
     */
    private static void firstRunAndPark() throws IOException, mpi.MPIException {
        DoubleArray x = OutOfCore.store().doubles("training", 1024, Residency.NONE);
        for (long i = 0; i < x.length(); i++) {
            x.set(i, x.get(i) + i);
        }
        MPI.COMM_WORLD.barrier();
    }

    /**
     * The stand-in master, until the slave disconnects: completes each blocking collect's
     * requests as collectives of one member after {@link #PARK_MS}, sends nothing for one-way
     * requests (a collective's start), and replies Go to the rest (the hello, {@code Finalize}).
     */
    private static void standInMaster(ServerSocketChannel server) {
        try (SocketChannel slave = server.accept()) {
            ByteBuffer in = ByteBuffer.allocate(4096).order(ProtocolCodec.ORDER);
            ByteBuffer out = ByteBuffer.allocate(4096).order(ProtocolCodec.ORDER);
            while (slave.read(in) >= 0) {
                in.flip();
                for (ByteBuffer frame = ProtocolCodec.nextFrame(in); frame != null; frame = ProtocolCodec.nextFrame(in)) {
                    MasterReply reply = answer(ProtocolCodec.decodeRequest(frame));
                    if (reply == null) {
                        continue;
                    }
                    out.clear();
                    ProtocolCodec.encode(reply, out);
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

    /** The stand-in master's reply to {@code request}, or null for a one-way request. */
    private static MasterReply answer(SlaveRequest request) {
        if (request instanceof SlaveRequest.StartCollective) {
            return null;
        }
        if (request instanceof SlaveRequest.Collect collect) {
            try {
                Thread.sleep(PARK_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            List<MasterReply.Completion> done = new ArrayList<>();
            for (long id : collect.requestIds()) {
                done.add(new MasterReply.CollectiveDone(id, new int[0], List.of()));
            }
            return new MasterReply.Deliveries(done);
        }
        return new MasterReply.Go();
    }
}
