package mpi;

import io.bdmpi.protocol.SlaveRequest;
import io.bdmpi.slave.SlaveRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Base of tests that run MPI calls against a {@link FakeMaster}: each test is one MPI life, from
 * Init (through the real Init path, with the stand-in's variables) to a reset.
 *
 * <p>Communicators start each test under {@code ERRORS_RETURN}: a fatal error would end the test
 * JVM, as it ends a real slave.
 */
abstract class WithMaster {

    /** Messages above this many bytes are spilled to a file, as a real slave would. */
    static final int INLINE_MAX = 256;

    /** The communicators that outlive a test's MPI life, with their error handlers. */
    private static final Comm[] PREDEFINED = {MPI.COMM_WORLD, MPI.COMM_SELF, BDMPI.COMM_CWORLD, BDMPI.COMM_NODE};

    @TempDir
    Path dir;
    FakeMaster master;

    @BeforeEach
    void startMpi() throws Exception {
        Session.reset();
        master = new FakeMaster(dir, INLINE_MAX);
        MPI.init(master.variables(), MPI.THREAD_SINGLE);
        for (Comm c : PREDEFINED) {
            c.setErrhandler(MPI.ERRORS_RETURN);
        }
        master.clearRequests();
    }

    /**
     * Runs {@code injection} on another thread once the slave is parked at the stand-in master
     * (or after 5 s), to show that a blocking call waits for it.
     */
    Thread whenParked(Runnable injection) {
        Thread t = new Thread(() -> {
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!master.hasParked() && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            injection.run();
        }, "inject-when-parked");
        t.start();
        return t;
    }

    /**
     * Every request the slave has sent so far. Sends and posted receives are one-way, so this
     * first makes a round trip: the master handles a socket's requests in order, so all earlier
     * ones are recorded by the time its answer comes.
     */
    List<SlaveRequest> requests() throws java.io.IOException {
        Session.connection().probe(FakeMaster.SYNC_COMM, MPI.ANY_SOURCE, MPI.ANY_TAG, false);
        return master.requests();
    }

    /** The requests of one type so far, as {@link #requests()}. */
    <T extends SlaveRequest> List<T> requests(Class<T> type) throws java.io.IOException {
        requests();
        return master.requests(type);
    }

    /** Asserts that {@code call} throws an MPI error of {@code errorClass} (as code and class), and returns it. */
    static MPIException assertError(int errorClass, org.junit.jupiter.api.function.Executable call) {
        MPIException e = org.junit.jupiter.api.Assertions.assertThrows(MPIException.class, call);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
        assertEquals(errorClass, e.getErrorCode());
        return e;
    }

    /** Ints in native order, as a message carries them. */
    static byte[] bytesOf(int... values) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * values.length).order(java.nio.ByteOrder.nativeOrder());
        b.asIntBuffer().put(values);
        return b.array();
    }

    /** Longs in native order. */
    static byte[] bytesOf(long... values) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 * values.length).order(java.nio.ByteOrder.nativeOrder());
        b.asLongBuffer().put(values);
        return b.array();
    }

    /** Doubles in native order. */
    static byte[] bytesOf(double... values) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 * values.length).order(java.nio.ByteOrder.nativeOrder());
        b.asDoubleBuffer().put(values);
        return b.array();
    }

    /** The bytes a collective start hands the master: inline, or the spill file it names. */
    byte[] dataOf(SlaveRequest.StartCollective start) throws java.io.IOException {
        if (start.data() instanceof io.bdmpi.protocol.Payload.Spilled s) {
            return java.nio.file.Files.readAllBytes(master.spillDir().resolve(s.fileName()));
        }
        java.nio.ByteBuffer b = ((io.bdmpi.protocol.Payload.Inline) start.data()).bytes().duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** The only collective the slave has started so far. */
    SlaveRequest.StartCollective onlyStart() throws java.io.IOException {
        List<SlaveRequest.StartCollective> starts = requests(SlaveRequest.StartCollective.class);
        assertEquals(1, starts.size(), "collective starts: " + starts);
        return starts.get(0);
    }

    static int[] intsOf(java.nio.ByteBuffer bytes) {
        java.nio.IntBuffer view = bytes.duplicate().order(java.nio.ByteOrder.nativeOrder()).asIntBuffer();
        int[] out = new int[view.remaining()];
        view.get(out);
        return out;
    }

    @AfterEach
    void endMpi() throws Exception {
        if (!MPI.isFinalized()) {
            for (Comm c : PREDEFINED) {
                c.setErrhandler(MPI.ERRORS_ARE_FATAL);
            }
        }
        SlaveRuntime rt = Session.connection();
        if (rt != null) {
            rt.close();
        }
        Session.reset();
        master.close();
        assertEquals("[]", master.problems().toString(), "requests a correct slave never sends");
    }
}
