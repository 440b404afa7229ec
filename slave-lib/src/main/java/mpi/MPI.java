package mpi;

import io.bdmpi.slave.ProcessMemory;
import io.bdmpi.slave.SlaveEnvironment;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Entry point of the MPI API (Open MPI Java bindings), backed by the bdmpi master of this node.
 * Constants are {@code static final} but not compile-time constants, as in Open MPI.
 */
public final class MPI {

    public static final Intracomm COMM_WORLD;
    public static final Intracomm COMM_SELF;
    public static final Request REQUEST_NULL;

    public static final Datatype BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE, PACKED;

    public static final int ANY_SOURCE, ANY_TAG, PROC_NULL, ROOT, UNDEFINED;
    public static final int IDENT, CONGRUENT, SIMILAR, UNEQUAL;
    public static final int THREAD_SINGLE, THREAD_FUNNELED, THREAD_SERIALIZED, THREAD_MULTIPLE;
    public static final int BSEND_OVERHEAD;
    /** Largest tag accepted. */
    public static final int TAG_UB_VALUE;

    public static final int SUCCESS, ERR_BUFFER, ERR_COUNT, ERR_TYPE, ERR_TAG, ERR_COMM, ERR_RANK, ERR_REQUEST,
            ERR_ROOT, ERR_GROUP, ERR_OP, ERR_TOPOLOGY, ERR_DIMS, ERR_ARG, ERR_UNKNOWN, ERR_TRUNCATE, ERR_OTHER,
            ERR_INTERN, ERR_IN_STATUS, ERR_PENDING, ERR_PROC_ABORTED, ERR_LASTCODE;

    public static final Errhandler ERRORS_ARE_FATAL, ERRORS_ABORT, ERRORS_RETURN;

    static {
        ANY_SOURCE = -1;
        ANY_TAG = -1;
        PROC_NULL = -2;
        ROOT = -4;
        UNDEFINED = -32766;
        IDENT = 0;
        CONGRUENT = 1;
        SIMILAR = 2;
        UNEQUAL = 3;
        THREAD_SINGLE = 0;
        THREAD_FUNNELED = 1;
        THREAD_SERIALIZED = 2;
        THREAD_MULTIPLE = 3;
        BSEND_OVERHEAD = 128;
        TAG_UB_VALUE = 0x3fffffff;
        SUCCESS = 0;
        ERR_BUFFER = 1;
        ERR_COUNT = 2;
        ERR_TYPE = 3;
        ERR_TAG = 4;
        ERR_COMM = 5;
        ERR_RANK = 6;
        ERR_REQUEST = 7;
        ERR_ROOT = 8;
        ERR_GROUP = 9;
        ERR_OP = 10;
        ERR_TOPOLOGY = 11;
        ERR_DIMS = 12;
        ERR_ARG = 13;
        ERR_UNKNOWN = 14;
        ERR_TRUNCATE = 15;
        ERR_OTHER = 16;
        ERR_INTERN = 17;
        ERR_IN_STATUS = 18;
        ERR_PENDING = 19;
        ERR_PROC_ABORTED = 74;
        ERR_LASTCODE = 92;
        BYTE = new Datatype(Datatype.Base.BYTE, "MPI_BYTE");
        CHAR = new Datatype(Datatype.Base.CHAR, "MPI_CHAR");
        SHORT = new Datatype(Datatype.Base.SHORT, "MPI_SHORT");
        BOOLEAN = new Datatype(Datatype.Base.BOOLEAN, "MPI_BOOLEAN");
        INT = new Datatype(Datatype.Base.INT, "MPI_INT");
        LONG = new Datatype(Datatype.Base.LONG, "MPI_LONG");
        FLOAT = new Datatype(Datatype.Base.FLOAT, "MPI_FLOAT");
        DOUBLE = new Datatype(Datatype.Base.DOUBLE, "MPI_DOUBLE");
        PACKED = new Datatype(Datatype.Base.BYTE, "MPI_PACKED");
        ERRORS_ARE_FATAL = new Errhandler(true, "MPI_ERRORS_ARE_FATAL");
        ERRORS_ABORT = new Errhandler(true, "MPI_ERRORS_ABORT");
        ERRORS_RETURN = new Errhandler(false, "MPI_ERRORS_RETURN");
        COMM_WORLD = new Intracomm(io.bdmpi.protocol.Protocol.COMM_WORLD_ID, "MPI_COMM_WORLD");
        COMM_SELF = new Intracomm(io.bdmpi.protocol.Protocol.COMM_SELF_ID, "MPI_COMM_SELF");
        REQUEST_NULL = Request.nullRequest();
    }

    private static SlaveRuntime runtime;
    private static volatile boolean initialized;
    private static volatile boolean finalized;
    private static Thread mainThread;
    private static long startNs;

    private MPI() {
    }

    /**
     * Connects this process to its bdmpi master and waits until it may run.
     *
     * @return the arguments, unchanged (bdmpiexec passes the program's own arguments only)
     */
    public static synchronized String[] Init(String[] args) throws MPIException {
        if (initialized) {
            throw new MPIException("MPI is already initialized.");
        }
        if (finalized) {
            throw new MPIException("MPI is finalized.");
        }
        SlaveEnvironment env = SlaveEnvironment.fromVariables(System.getenv());
        if (env == null) {
            throw new MPIException("not started by bdmpiexec: run the program with bdmpiexec");
        }
        try {
            runtime = SlaveRuntime.connect(env);
        } catch (IOException e) {
            throw MPIException.of(ERR_OTHER, "MPI_Init: cannot reach the bdmpi master at " + env.socketPath() + ": " + e.getMessage());
        }
        mainThread = Thread.currentThread();
        startNs = System.nanoTime();
        initialized = true;
        return args;
    }

    /** As {@link #Init}; provides at most THREAD_SERIALIZED (calls from several threads, one at a time). */
    public static int InitThread(String[] args, int required) throws MPIException {
        Init(args);
        return Math.min(required, THREAD_SERIALIZED);
    }

    public static int queryThread() throws MPIException {
        check();
        return THREAD_SERIALIZED;
    }

    public static boolean isThreadMain() throws MPIException {
        check();
        return Thread.currentThread() == mainThread;
    }

    /** Tells the master this rank is done with MPI. */
    public static synchronized void Finalize() throws MPIException {
        check();
        runtime.enter("MPI_Finalize");
        try {
            runtime.finish(ProcessMemory.peakRssBytes());
        } catch (IOException e) {
            throw MPIException.of(ERR_OTHER, "MPI_Finalize: lost the bdmpi master: " + e.getMessage());
        } finally {
            finalized = true;
            initialized = false;
        }
    }

    public static boolean isInitialized() throws MPIException {
        return initialized || finalized;
    }

    public static boolean isFinalized() throws MPIException {
        return finalized;
    }

    /** Wall-clock seconds since an arbitrary origin. */
    public static double wtime() throws MPIException {
        check();
        return (System.nanoTime() - startNs) / 1e9;
    }

    public static double wtick() throws MPIException {
        check();
        return 1e-9;
    }

    public static String getProcessorName() throws MPIException {
        check();
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    public static String getLibVersion() {
        return "bdmpi-java 0.1.0";
    }

    /** Sends are always buffered by the master; an attached buffer is only kept for detach. */
    private static byte[] attached;

    public static void attachBuffer(byte[] buffer) throws MPIException {
        check();
        attached = buffer;
    }

    public static byte[] detachBuffer() throws MPIException {
        check();
        byte[] b = attached;
        attached = null;
        return b;
    }

    public static void pControl(int level, Object obj) {
    }

    // ---------------------------------------------------------------- buffers

    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asDoubleBuffer();
    }

    /** A view from element {@code offset} to capacity; clears {@code buf} first, as Open MPI does. */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return buf.clear().position(offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    /** A heap buffer over the array from {@code offset}: its {@code arrayOffset()} is {@code offset}. */
    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    // ---------------------------------------------------------------- internals

    /** The connection to the master; throws the Open MPI messages before Init and after Finalize. */
    static SlaveRuntime runtime() throws MPIException {
        check();
        return runtime;
    }

    private static void check() throws MPIException {
        if (finalized) {
            throw new MPIException("MPI is finalized.");
        }
        if (!initialized) {
            throw new MPIException("MPI is not initialized.");
        }
    }
}
