package mpi;

import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.slave.OwnProcess;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Entry point of the MPI API, source-compatible with Open MPI's Java bindings and backed by the
 * bdmpi master of this node: start-up and shut-down, constants, and buffer helpers.
 *
 * <p>The constants are {@code static final} but, as in Open MPI, not compile-time constants (they
 * are set in a static initializer), so programs cannot use them as {@code switch} labels. Their
 * values are Open MPI's.
 *
 * <p>Threads: MPI may be called from several threads one at a time ({@code THREAD_SERIALIZED}).
 */
public final class MPI {

    /** All ranks of the job. */
    public static final Intracomm COMM_WORLD;
    /** This rank alone. */
    public static final Intracomm COMM_SELF;
    /** The null request: complete, with an empty status. */
    public static final Request REQUEST_NULL;

    /** A basic datatype; the Java type a buffer for it must have is in {@link Datatype}. */
    public static final Datatype BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE, PACKED;
    /**
     * A {value; int index} pair for {@link #MINLOC} and {@link #MAXLOC}, laid out as the C struct:
     * byte-based, so held in a {@code byte[]} or (typically) a direct ByteBuffer and accessed
     * through {@link #int2}, {@link #shortInt}, {@link #longInt}, {@link #floatInt} and
     * {@link #doubleInt}. Extents in bytes: 8, 8, 16, 8, 16.
     */
    public static final Datatype INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT;
    /**
     * Complex numbers, C's {@code float _Complex} and {@code double _Complex}: base FLOAT or DOUBLE,
     * two elements (real, imaginary) per item, held in a {@code float[]}/FloatBuffer or
     * {@code double[]}/DoubleBuffer and viewed through {@link FloatComplex} and {@link DoubleComplex};
     * SUM and PROD reduce them.
     */
    public static final Datatype FLOAT_COMPLEX, DOUBLE_COMPLEX;
    /** The null datatype: using it in a call is an {@code ERR_TYPE} error; its {@code isNull()} is true. */
    public static final Datatype DATATYPE_NULL;
    /** Array orders and distributions of MPI's subarray and darray types (which Open MPI's Java bindings lack). */
    public static final int ORDER_C, ORDER_FORTRAN, DISTRIBUTE_BLOCK, DISTRIBUTE_CYCLIC, DISTRIBUTE_NONE,
            DISTRIBUTE_DFLT_DARG;
    /** Accessor of {@link #INT2} pairs in a byte buffer. */
    public static final Int2 int2;
    /** Accessor of {@link #SHORT_INT} pairs. */
    public static final ShortInt shortInt;
    /** Accessor of {@link #LONG_INT} pairs. */
    public static final LongInt longInt;
    /** Accessor of {@link #FLOAT_INT} pairs. */
    public static final FloatInt floatInt;
    /** Accessor of {@link #DOUBLE_INT} pairs. */
    public static final DoubleInt doubleInt;

    /**
     * The predefined reduction operators. {@code MINLOC} and {@code MAXLOC} take the pair types;
     * {@code REPLACE} and {@code NO_OP} exist for source compatibility (they belong to one-sided
     * accumulates) and are an {@code MPI.ERR_OP} error in every reduction here.
     */
    public static final Op MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MINLOC, MAXLOC, REPLACE, NO_OP;

    /** Wildcards and special ranks. */
    public static final int ANY_SOURCE, ANY_TAG, PROC_NULL, ROOT, UNDEFINED;
    /** Results of {@link Comm#compare}. */
    public static final int IDENT, CONGRUENT, SIMILAR, UNEQUAL;
    /** Thread support levels. */
    public static final int THREAD_SINGLE, THREAD_FUNNELED, THREAD_SERIALIZED, THREAD_MULTIPLE;
    /** Bytes a buffered send needs beyond its data in an attached buffer (bookkeeping only here). */
    public static final int BSEND_OVERHEAD;

    /** Error classes, as {@link MPIException#getErrorClass()} and {@link Status#getError()} report them. */
    public static final int SUCCESS, ERR_BUFFER, ERR_COUNT, ERR_TYPE, ERR_TAG, ERR_COMM, ERR_RANK, ERR_REQUEST,
            ERR_ROOT, ERR_GROUP, ERR_OP, ERR_TOPOLOGY, ERR_DIMS, ERR_ARG, ERR_UNKNOWN, ERR_TRUNCATE, ERR_OTHER,
            ERR_INTERN, ERR_IN_STATUS, ERR_PENDING;
    /** Error classes of I/O ({@link File}), one-sided, info and process management. */
    public static final int ERR_ACCESS, ERR_AMODE, ERR_ASSERT, ERR_BAD_FILE, ERR_BASE, ERR_CONVERSION, ERR_DISP,
            ERR_DUP_DATAREP, ERR_FILE_EXISTS, ERR_FILE_IN_USE, ERR_FILE, ERR_INFO_KEY, ERR_INFO_NOKEY,
            ERR_INFO_VALUE, ERR_INFO, ERR_IO, ERR_KEYVAL, ERR_LOCKTYPE, ERR_NAME, ERR_NO_MEM, ERR_NOT_SAME,
            ERR_NO_SPACE, ERR_NO_SUCH_FILE, ERR_PORT, ERR_QUOTA, ERR_READ_ONLY, ERR_RMA_CONFLICT, ERR_RMA_SYNC,
            ERR_SERVICE, ERR_SIZE, ERR_SPAWN, ERR_UNSUPPORTED_DATAREP, ERR_UNSUPPORTED_OPERATION, ERR_WIN;
    /**
     * MPI-3's one-sided error classes that Open MPI's Java bindings lack (Open MPI's C values): an
     * access past the target's part of a window, an attach or detach that cannot be done, a call
     * that does not fit the window's flavor, and memory that cannot be shared.
     */
    public static final int ERR_RMA_RANGE, ERR_RMA_ATTACH, ERR_RMA_FLAVOR, ERR_RMA_SHARED;
    /** More error classes; {@code ERR_LASTCODE} is the largest predefined error code. */
    public static final int ERR_PROC_ABORTED, ERR_SYSRESOURCE, ERR_LASTCODE;

    /** Error handlers for {@link Comm#setErrhandler}; {@code ERRORS_ARE_FATAL} is the default. */
    public static final Errhandler ERRORS_ARE_FATAL, ERRORS_ABORT, ERRORS_RETURN;

    /** Largest valid tag (MPI_TAG_UB); not part of Open MPI's Java API, which reads it with getAttr. */
    static final int TAG_UB_VALUE;

    // ---------------------------------------------------------------- groups, info, attributes, environment

    /** The group with no processes. */
    public static final Group GROUP_EMPTY;
    /** "No hints": {@link Info#isNull()} is true. */
    public static final Info INFO_NULL;
    /** The read-only hints describing the launch ({@code command}, {@code maxprocs}, ...), filled in once MPI runs. */
    public static final Info INFO_ENV;
    /** Results of {@link Comm#getTopology()}: a cartesian grid, a graph, a distributed graph. */
    public static final int CART, GRAPH, DIST_GRAPH;
    /** The invalid keyval. */
    public static final int KEYVAL_INVALID;
    /**
     * Predefined attribute keys for {@link Comm#getAttr} on {@code COMM_WORLD}: the largest tag, the
     * host rank, the I/O rank, whether wtime is global, the program's number in the launch, the
     * largest error code, the number of process slots.
     */
    public static final int TAG_UB, HOST, IO, WTIME_IS_GLOBAL, APPNUM, LASTUSEDCODE, UNIVERSE_SIZE;
    /** Window attribute keys for {@link Win#getAttr}: the base address, the size and the displacement unit, in bytes. */
    public static final int WIN_BASE, WIN_SIZE, WIN_DISP_UNIT;
    /** The version of the MPI standard followed, 3.1 as Open MPI 5's: as {@link #getVersion()} reports it. */
    public static final int VERSION, SUBVERSION;
    /** String limits, Open MPI's: names, port names, data representations, info keys and values (each with C's terminator). */
    public static final int MAX_OBJECT_NAME, MAX_PORT_NAME, MAX_DATAREP_STRING, MAX_INFO_KEY, MAX_INFO_VAL;
    /** File access modes, the displacement of {@code MODE_SEQUENTIAL} views and seek origins, for {@link File}. */
    public static final int MODE_CREATE, MODE_RDONLY, MODE_WRONLY, MODE_RDWR, MODE_DELETE_ON_CLOSE, MODE_UNIQUE_OPEN,
            MODE_EXCL, MODE_APPEND, MODE_SEQUENTIAL, DISPLACEMENT_CURRENT, SEEK_SET, SEEK_CUR, SEEK_END;
    /** One-sided assertions ({@link Win#fence}, {@link Win#post}, {@link Win#start}, {@link Win#lock}) and lock types. */
    public static final int MODE_NOCHECK, MODE_NOPRECEDE, MODE_NOPUT, MODE_NOSTORE, MODE_NOSUCCEED, LOCK_EXCLUSIVE,
            LOCK_SHARED;

    static {
        ANY_SOURCE = Protocol.ANY_SOURCE;
        ANY_TAG = Protocol.ANY_TAG;
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
        ERR_ACCESS = 20;
        ERR_AMODE = 21;
        ERR_ASSERT = 22;
        ERR_BAD_FILE = 23;
        ERR_BASE = 24;
        ERR_CONVERSION = 25;
        ERR_DISP = 26;
        ERR_DUP_DATAREP = 27;
        ERR_FILE_EXISTS = 28;
        ERR_FILE_IN_USE = 29;
        ERR_FILE = 30;
        ERR_INFO_KEY = 31;
        ERR_INFO_NOKEY = 32;
        ERR_INFO_VALUE = 33;
        ERR_INFO = 34;
        ERR_IO = 35;
        ERR_KEYVAL = 36;
        ERR_LOCKTYPE = 37;
        ERR_NAME = 38;
        ERR_NO_MEM = 39;
        ERR_NOT_SAME = 40;
        ERR_NO_SPACE = 41;
        ERR_NO_SUCH_FILE = 42;
        ERR_PORT = 43;
        ERR_QUOTA = 44;
        ERR_READ_ONLY = 45;
        ERR_RMA_CONFLICT = 46;
        ERR_RMA_SYNC = 47;
        ERR_SERVICE = 48;
        ERR_SIZE = 49;
        ERR_SPAWN = 50;
        ERR_UNSUPPORTED_DATAREP = 51;
        ERR_UNSUPPORTED_OPERATION = 52;
        ERR_WIN = 53;
        ERR_RMA_RANGE = 68;
        ERR_RMA_ATTACH = 69;
        ERR_RMA_FLAVOR = 70;
        ERR_RMA_SHARED = 71;
        ERR_PROC_ABORTED = 74;
        ERR_SYSRESOURCE = -2;
        ERR_LASTCODE = 92;

        BYTE = Datatype.basic(Datatype.Base.BYTE, ElementType.BYTE, "MPI_BYTE");
        CHAR = Datatype.basic(Datatype.Base.CHAR, ElementType.CHAR, "MPI_CHAR");
        SHORT = Datatype.basic(Datatype.Base.SHORT, ElementType.SHORT, "MPI_SHORT");
        BOOLEAN = Datatype.basic(Datatype.Base.BOOLEAN, ElementType.BOOLEAN, "MPI_BOOLEAN");
        INT = Datatype.basic(Datatype.Base.INT, ElementType.INT, "MPI_INT");
        LONG = Datatype.basic(Datatype.Base.LONG, ElementType.LONG, "MPI_LONG");
        FLOAT = Datatype.basic(Datatype.Base.FLOAT, ElementType.FLOAT, "MPI_FLOAT");
        DOUBLE = Datatype.basic(Datatype.Base.DOUBLE, ElementType.DOUBLE, "MPI_DOUBLE");
        // Packed bytes have no element type: no operator reduces them.
        PACKED = Datatype.basic(Datatype.Base.BYTE, null, "MPI_PACKED");
        INT2 = Datatype.pair(ElementType.INT2, 4, 4, "MPI_2INT");
        SHORT_INT = Datatype.pair(ElementType.SHORT_INT, 2, 4, "MPI_SHORT_INT");
        LONG_INT = Datatype.pair(ElementType.LONG_INT, 8, 8, "MPI_LONG_INT");
        FLOAT_INT = Datatype.pair(ElementType.FLOAT_INT, 4, 4, "MPI_FLOAT_INT");
        DOUBLE_INT = Datatype.pair(ElementType.DOUBLE_INT, 8, 8, "MPI_DOUBLE_INT");
        FLOAT_COMPLEX = Datatype.composite(Datatype.Base.FLOAT, 2, ElementType.FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX");
        DOUBLE_COMPLEX = Datatype.composite(Datatype.Base.DOUBLE, 2, ElementType.DOUBLE_COMPLEX,
                "MPI_C_DOUBLE_COMPLEX");
        DATATYPE_NULL = Datatype.nullType();
        ORDER_C = 0;
        ORDER_FORTRAN = 1;
        DISTRIBUTE_BLOCK = 0;
        DISTRIBUTE_CYCLIC = 1;
        DISTRIBUTE_NONE = 2;
        DISTRIBUTE_DFLT_DARG = -1;
        int2 = new Int2();
        shortInt = new ShortInt();
        longInt = new LongInt();
        floatInt = new FloatInt();
        doubleInt = new DoubleInt();

        MAX = Op.predefined(ReduceOp.MAX, "MPI_MAX");
        MIN = Op.predefined(ReduceOp.MIN, "MPI_MIN");
        SUM = Op.predefined(ReduceOp.SUM, "MPI_SUM");
        PROD = Op.predefined(ReduceOp.PROD, "MPI_PROD");
        LAND = Op.predefined(ReduceOp.LAND, "MPI_LAND");
        BAND = Op.predefined(ReduceOp.BAND, "MPI_BAND");
        LOR = Op.predefined(ReduceOp.LOR, "MPI_LOR");
        BOR = Op.predefined(ReduceOp.BOR, "MPI_BOR");
        LXOR = Op.predefined(ReduceOp.LXOR, "MPI_LXOR");
        BXOR = Op.predefined(ReduceOp.BXOR, "MPI_BXOR");
        MINLOC = Op.predefined(ReduceOp.MINLOC, "MPI_MINLOC");
        MAXLOC = Op.predefined(ReduceOp.MAXLOC, "MPI_MAXLOC");
        REPLACE = Op.predefined(null, "MPI_REPLACE");
        NO_OP = Op.predefined(null, "MPI_NO_OP");

        ERRORS_ARE_FATAL = Errhandler.FATAL;
        ERRORS_ABORT = Errhandler.ABORT;
        ERRORS_RETURN = Errhandler.RETURN;

        GROUP_EMPTY = new Group(new int[0]);
        INFO_NULL = Info.nullInfo();
        INFO_ENV = Info.env();
        CART = 1;
        GRAPH = 2;
        DIST_GRAPH = 3;
        KEYVAL_INVALID = -1;
        TAG_UB = Attributes.TAG_UB;
        HOST = Attributes.HOST;
        IO = Attributes.IO;
        WTIME_IS_GLOBAL = Attributes.WTIME_IS_GLOBAL;
        APPNUM = Attributes.APPNUM;
        LASTUSEDCODE = Attributes.LASTUSEDCODE;
        UNIVERSE_SIZE = Attributes.UNIVERSE_SIZE;
        WIN_BASE = Attributes.WIN_BASE;
        WIN_SIZE = Attributes.WIN_SIZE;
        WIN_DISP_UNIT = Attributes.WIN_DISP_UNIT;
        VERSION = 3;
        SUBVERSION = 1;
        MAX_OBJECT_NAME = 64;
        MAX_PORT_NAME = 1024;
        MAX_DATAREP_STRING = 128;
        MAX_INFO_KEY = 36;
        MAX_INFO_VAL = 256;
        MODE_CREATE = 1;
        MODE_RDONLY = 2;
        MODE_WRONLY = 4;
        MODE_RDWR = 8;
        MODE_DELETE_ON_CLOSE = 16;
        MODE_UNIQUE_OPEN = 32;
        MODE_EXCL = 64;
        MODE_APPEND = 128;
        MODE_SEQUENTIAL = 256;
        DISPLACEMENT_CURRENT = -54278278;
        SEEK_SET = 600;
        SEEK_CUR = 602;
        SEEK_END = 604;
        MODE_NOCHECK = 1;
        MODE_NOPRECEDE = 2;
        MODE_NOPUT = 4;
        MODE_NOSTORE = 8;
        MODE_NOSUCCEED = 16;
        LOCK_EXCLUSIVE = 1;
        LOCK_SHARED = 2;

        COMM_WORLD = new Intracomm(Protocol.COMM_WORLD_ID, "MPI_COMM_WORLD");
        COMM_SELF = new Intracomm(Protocol.COMM_SELF_ID, 0, 1, "MPI_COMM_SELF");
        REQUEST_NULL = Request.nullRequest();
    }

    private static final long ORIGIN_NS = System.nanoTime();

    private MPI() {
    }

    // ---------------------------------------------------------------- life cycle

    /**
     * Connects this process to its bdmpi master and waits until the master lets it run.
     *
     * @param args the program's arguments
     * @return {@code args}, unchanged: bdmpiexec passes the program only its own arguments
     * @throws MPIException when MPI was initialized before, when the process was not started by
     *                      bdmpiexec, or when the master cannot be reached
     */
    public static String[] Init(String[] args) throws MPIException {
        init(System.getenv(), THREAD_SINGLE);
        return args;
    }

    /**
     * As {@link #Init}, asking for a level of thread support.
     *
     * @param args the program's arguments
     * @param required the level asked for: {@code THREAD_SINGLE} to {@code THREAD_MULTIPLE}
     * @return the level provided: {@code required}, but at most {@code THREAD_SERIALIZED}
     *         (several threads may call MPI, one at a time)
     * @throws MPIException when MPI was initialized before, when the process was not started by bdmpiexec, or
     *                      when the master cannot be reached
     */
    public static int InitThread(String[] args, int required) throws MPIException {
        return init(System.getenv(), required);
    }

    /**
     * Init with the process's variables given, so tests and the slaves' class-data training
     * ({@code io.bdmpi.slave.ClassDataTraining}, by reflection) can point it at a stand-in master.
     */
    static synchronized int init(Map<String, String> variables, int requiredThreadLevel) throws MPIException {
        Session.checkNotStarted();
        SlaveEnvironment env;
        try {
            env = SlaveEnvironment.fromVariables(variables);
        } catch (IllegalStateException e) {
            throw new MPIException(e.getMessage());
        }
        if (env == null) {
            throw new MPIException("not started by bdmpiexec: run the program with bdmpiexec");
        }
        SlaveRuntime rt;
        try {
            rt = SlaveRuntime.connect(env);
        } catch (IOException e) {
            throw MPIException.of(ERR_OTHER,
                    "MPI_Init: cannot reach the bdmpi master at " + env.socketPath() + ": " + e.getMessage());
        }
        int provided = Math.max(THREAD_SINGLE, Math.min(requiredThreadLevel, THREAD_SERIALIZED));
        Session.start(rt, provided, Math.max(THREAD_SINGLE, Math.min(requiredThreadLevel, THREAD_MULTIPLE)));
        return provided;
    }

    /**
     * The thread level provided by {@code Init} ({@code THREAD_SINGLE}) or {@code InitThread}.
     *
     * @return the thread level provided
     * @throws MPIException if MPI is not running
     */
    public static int queryThread() throws MPIException {
        Session.enter("MPI_Query_thread");
        return Session.threadLevel();
    }

    /**
     * Whether the calling thread is the one that initialized MPI.
     *
     * @return whether this thread initialized MPI
     * @throws MPIException if MPI is not running
     */
    public static boolean isThreadMain() throws MPIException {
        Session.enter("MPI_Is_thread_main");
        return Thread.currentThread() == Session.mainThread();
    }

    /**
     * Tells the master this rank is done with MPI. Every later MPI call throws "MPI is finalized.".
     * A lost master is an error of COMM_WORLD's handler.
     *
     * @throws MPIException if MPI is not running, or the master is lost, under {@code MPI.ERRORS_RETURN} on
     *                      {@code COMM_WORLD}
     */
    public static void Finalize() throws MPIException {
        SlaveRuntime rt = Session.enter("MPI_Finalize");
        Session.finish();
        try {
            rt.finish(OwnProcess.peakRssBytes());
        } catch (IOException e) {
            throw COMM_WORLD.handle(Errors.transport("MPI_Finalize", e));
        }
    }

    /**
     * Whether {@code Init} has succeeded; stays true after {@code Finalize}. Usable at any time.
     *
     * @return whether {@code Init} has succeeded
     * @throws MPIException never here; declared as in Open MPI
     */
    public static boolean isInitialized() throws MPIException {
        return Session.initialized();
    }

    /**
     * Whether {@code Finalize} has been called. Usable at any time.
     *
     * @return whether {@code Finalize} has been called
     * @throws MPIException never here; declared as in Open MPI
     */
    public static boolean isFinalized() throws MPIException {
        return Session.finalized();
    }

    /**
     * Wall-clock seconds since an arbitrary origin, fixed for the process (monotonic).
     *
     * @return the time in seconds
     * @throws MPIException if MPI is not running
     */
    public static double wtime() throws MPIException {
        Session.runtime();
        return (System.nanoTime() - ORIGIN_NS) / 1e9;
    }

    /**
     * Resolution of {@link #wtime()} in seconds.
     *
     * @return the resolution in seconds (one nanosecond)
     * @throws MPIException if MPI is not running
     */
    public static double wtick() throws MPIException {
        Session.runtime();
        return 1e-9;
    }

    /**
     * The host name of this node.
     *
     * @return the host name
     * @throws MPIException if MPI is not running
     */
    public static String getProcessorName() throws MPIException {
        Session.enter("MPI_Get_processor_name");
        try {
            // The kernel's name, as gethostname(2): InetAddress would also ask DNS, which can stall.
            return Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).trim();
        } catch (IOException | RuntimeException notLinux) {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                return "localhost";
            }
        }
    }

    /**
     * The version of the MPI standard this API follows (that of Open MPI 5's bindings). Usable at
     * any time, before {@code Init} and after {@code Finalize} too.
     *
     * @return the version, {@code VERSION}.{@code SUBVERSION}: 3.1
     */
    public static Version getVersion() {
        return new Version(VERSION, SUBVERSION);
    }

    /**
     * The name and version of this library, such as
     * {@code bdmpi-java 0.1.0 (Open MPI Java bindings API, MPI 3.1)}. Usable at any time, before
     * {@code Init} and after {@code Finalize} too.
     *
     * @return the library's name and version
     */
    public static String getLibVersion() {
        return "bdmpi-java " + Version.project() + " (Open MPI Java bindings API, MPI " + VERSION + "." + SUBVERSION + ")";
    }

    /**
     * Attaches {@code buffer} as this process's space for buffered sends ({@code bSend},
     * {@code ibSend}, started {@code bSendInit} requests). Each such send needs at least its data's
     * bytes plus {@link #BSEND_OVERHEAD} of it, else it is an {@code ERR_BUFFER} error; as the
     * master owns every message once its send returns, no message holds space after that, and the
     * array's contents are never touched.
     *
     * @param buffer the space
     * @throws MPIException if MPI is not running; ERR_BUFFER for a null buffer or when one is attached
     *                      already, under {@code MPI.ERRORS_RETURN} on {@code COMM_WORLD}
     */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        BsendSpace.attach(buffer);
    }

    /**
     * Detaches the buffer given to {@link #attachBuffer}: at once, as no message holds space in it.
     *
     * @return the same array
     * @throws MPIException if MPI is not running; ERR_BUFFER when none is attached, under
     *                      {@code MPI.ERRORS_RETURN} on {@code COMM_WORLD}
     */
    public static byte[] detachBuffer() throws MPIException {
        return BsendSpace.detach();
    }

    /**
     * Profiling control: does nothing.
     *
     * @param level ignored
     * @param obj ignored
     */
    public static void pControl(int level, Object obj) {
    }

    // ---------------------------------------------------------------- buffers

    /**
     * A direct ByteBuffer of {@code capacity} bytes in native byte order.
     *
     * @param capacity the number of elements
     * @return the buffer
     */
    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    /**
     * A direct CharBuffer of {@code capacity} chars over native-order memory.
     *
     * @param capacity the number of elements
     * @return the buffer
     */
    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asCharBuffer();
    }

    /**
     * A direct ShortBuffer of {@code capacity} shorts over native-order memory.
     *
     * @param capacity the number of elements
     * @return the buffer
     */
    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asShortBuffer();
    }

    /**
     * A direct IntBuffer of {@code capacity} ints over native-order memory.
     *
     * @param capacity the number of elements
     * @return the buffer
     */
    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asIntBuffer();
    }

    /**
     * A direct LongBuffer of {@code capacity} longs over native-order memory.
     *
     * @param capacity the number of elements
     * @return the buffer
     */
    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asLongBuffer();
    }

    /**
     * A direct FloatBuffer of {@code capacity} floats over native-order memory.
     *
     * @param capacity the number of elements
     * @return the buffer
     */
    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asFloatBuffer();
    }

    /**
     * A direct DoubleBuffer of {@code capacity} doubles over native-order memory.
     *
     * @param capacity the number of elements
     * @return the buffer
     */
    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asDoubleBuffer();
    }

    /**
     * A view of {@code buf} from byte {@code offset} to its capacity, in native order. As in Open
     * MPI, {@code buf} is cleared first and left positioned at {@code offset}: its limit becomes
     * its capacity, whatever it was.
     *
     * @param buf the buffer, cleared and positioned at {@code offset}
     * @param offset the first element of the view
     * @return the view
     */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return buf.clear().position(offset).slice().order(ByteOrder.nativeOrder());
    }

    /**
     * A view from char {@code offset} to capacity; {@code buf} is cleared, then positioned at {@code offset}.
     *
     * @param buf the buffer, cleared and positioned at {@code offset}
     * @param offset the first element of the view
     * @return the view
     */
    public static CharBuffer slice(CharBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    /**
     * A view from short {@code offset} to capacity; {@code buf} is cleared, then positioned at {@code offset}.
     *
     * @param buf the buffer, cleared and positioned at {@code offset}
     * @param offset the first element of the view
     * @return the view
     */
    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    /**
     * A view from int {@code offset} to capacity; {@code buf} is cleared, then positioned at {@code offset}.
     *
     * @param buf the buffer, cleared and positioned at {@code offset}
     * @param offset the first element of the view
     * @return the view
     */
    public static IntBuffer slice(IntBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    /**
     * A view from long {@code offset} to capacity; {@code buf} is cleared, then positioned at {@code offset}.
     *
     * @param buf the buffer, cleared and positioned at {@code offset}
     * @param offset the first element of the view
     * @return the view
     */
    public static LongBuffer slice(LongBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    /**
     * A view from float {@code offset} to capacity; {@code buf} is cleared, then positioned at {@code offset}.
     *
     * @param buf the buffer, cleared and positioned at {@code offset}
     * @param offset the first element of the view
     * @return the view
     */
    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    /**
     * A view from double {@code offset} to capacity; {@code buf} is cleared, then positioned at {@code offset}.
     *
     * @param buf the buffer, cleared and positioned at {@code offset}
     * @param offset the first element of the view
     * @return the view
     */
    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    /**
     * A heap buffer over the array from {@code offset} to its end: {@code arrayOffset()} is {@code offset}.
     *
     * @param buf the array
     * @param offset the first element of the view
     * @return the view
     */
    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    /**
     * A heap buffer over the array from {@code offset}: {@code arrayOffset()} is {@code offset}.
     *
     * @param buf the array
     * @param offset the first element of the view
     * @return the view
     */
    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A heap buffer over the array from {@code offset}: {@code arrayOffset()} is {@code offset}.
     *
     * @param buf the array
     * @param offset the first element of the view
     * @return the view
     */
    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A heap buffer over the array from {@code offset}: {@code arrayOffset()} is {@code offset}.
     *
     * @param buf the array
     * @param offset the first element of the view
     * @return the view
     */
    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A heap buffer over the array from {@code offset}: {@code arrayOffset()} is {@code offset}.
     *
     * @param buf the array
     * @param offset the first element of the view
     * @return the view
     */
    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A heap buffer over the array from {@code offset}: {@code arrayOffset()} is {@code offset}.
     *
     * @param buf the array
     * @param offset the first element of the view
     * @return the view
     */
    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A heap buffer over the array from {@code offset}: {@code arrayOffset()} is {@code offset}.
     *
     * @param buf the array
     * @param offset the first element of the view
     * @return the view
     */
    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters

    // Constants keep Open MPI's values (Open MPI programs rely on them; mpiJava programs use names).

    /** mpiJava 1.2: the null communicator ({@code Split} with {@code UNDEFINED} returns it). */
    public static final Intracomm COMM_NULL = Intracomm.nullComm();
    /** mpiJava 1.2: the null group. */
    public static final Group GROUP_NULL = Group.nullGroup();
    /** mpiJava 1.2: an empty status (source {@code ANY_SOURCE}, tag {@code ANY_TAG}, count 0). */
    public static final Status EMPTY_STATUS = Status.empty();
    /** mpiJava 1.2: the null datatype, {@link #DATATYPE_NULL}. */
    public static final Datatype NULL = DATATYPE_NULL;
    /** mpiJava 1.2: serialized objects: {@code Object[]} buffers, each element Java-serialized on its own. */
    public static final Datatype OBJECT = Datatype.marker("MPI_OBJECT");
    /** mpiJava 1.2: the lower-bound marker of {@link Datatype#Struct}. */
    public static final Datatype LB = Datatype.marker("MPI_LB");
    /** mpiJava 1.2: the upper-bound marker of {@link Datatype#Struct}. */
    public static final Datatype UB = Datatype.marker("MPI_UB");
    /** mpiJava 1.2: two shorts (value, index) in a {@code short[]}, for MINLOC and MAXLOC. */
    public static final Datatype SHORT2 = Datatype.two(SHORT, "MPI_SHORT2");
    /** mpiJava 1.2: two longs (value, index) in a {@code long[]}, for MINLOC and MAXLOC. */
    public static final Datatype LONG2 = Datatype.two(LONG, "MPI_LONG2");
    /** mpiJava 1.2: two floats (value, index) in a {@code float[]}, for MINLOC and MAXLOC. */
    public static final Datatype FLOAT2 = Datatype.two(FLOAT, "MPI_FLOAT2");
    /** mpiJava 1.2: two doubles (value, index) in a {@code double[]}, for MINLOC and MAXLOC. */
    public static final Datatype DOUBLE2 = Datatype.two(DOUBLE, "MPI_DOUBLE2");

    /**
     * mpiJava 1.2: as {@link #wtime}.
     *
     * @return seconds since an arbitrary time
     * @throws MPIException as {@link #wtime}
     */
    public static double Wtime() throws MPIException {
        return wtime();
    }

    /**
     * mpiJava 1.2: as {@link #wtick}.
     *
     * @return the resolution of {@link #Wtime}, in seconds
     * @throws MPIException as {@link #wtick}
     */
    public static double Wtick() throws MPIException {
        return wtick();
    }

    /**
     * mpiJava 1.2: as {@link #getProcessorName}.
     *
     * @return the node's name
     * @throws MPIException as {@link #getProcessorName}
     */
    public static String Get_processor_name() throws MPIException {
        return getProcessorName();
    }

    /**
     * mpiJava 1.2: as {@link #isInitialized}.
     *
     * @return whether {@code Init} has been called
     * @throws MPIException as {@link #isInitialized}
     */
    public static boolean Initialized() throws MPIException {
        return isInitialized();
    }

    /**
     * mpiJava 1.2 (the specification's form): as {@link #attachBuffer}.
     *
     * @param buffer the space for buffered sends
     * @throws MPIException as {@link #attachBuffer}
     */
    public static void Buffer_attach(byte[] buffer) throws MPIException {
        attachBuffer(buffer);
    }

    /**
     * MPJ Express's form: attaches {@code buffer.capacity()} bytes of space, as {@link #attachBuffer}
     * (the master buffers every message, so the space is only counted, never written).
     *
     * @param buffer the space for buffered sends
     * @throws MPIException as {@link #attachBuffer}
     */
    public static void Buffer_attach(ByteBuffer buffer) throws MPIException {
        attachBuffer(buffer == null ? null : new byte[buffer.capacity()]);
    }

    /**
     * mpiJava 1.2: as {@link #detachBuffer} (MPJ Express's {@code void} form compiles against it too).
     *
     * @return the array attached
     * @throws MPIException as {@link #detachBuffer}
     */
    public static byte[] Buffer_detach() throws MPIException {
        return detachBuffer();
    }

    /**
     * mpiJava 1.2: sets the error handler of {@code COMM_WORLD}, which also takes the errors of
     * calls without a communicator (mpiJava's handler is global).
     *
     * @param errhandler the handler
     * @throws MPIException as {@link Comm#setErrhandler}
     */
    public static void Errorhandler_set(Errhandler errhandler) throws MPIException {
        COMM_WORLD.setErrhandler(errhandler);
    }

    /**
     * mpiJava 1.2: the error handler of {@code COMM_WORLD}.
     *
     * @return the handler
     * @throws MPIException as {@link Comm#getErrhandler}
     */
    public static Errhandler Errorhandler_get() throws MPIException {
        return COMM_WORLD.getErrhandler();
    }

    /**
     * MPJ Express: as {@link #InitThread}, returning the program's arguments.
     *
     * @param required the thread level wanted
     * @param provided ignored (MPJ Express's signature); ask {@link #queryThread} for the level given
     * @param argv the program's arguments
     * @return the program's arguments
     * @throws MPIException as {@link #InitThread}
     */
    public static String[] initThread(int required, int provided, String[] argv) throws MPIException {
        InitThread(argv, required);
        return argv;
    }

    /**
     * MPJ Express: as {@link #isThreadMain}.
     *
     * @return whether this is the thread that initialized MPI
     * @throws MPIException as {@link #isThreadMain}
     */
    public static boolean isMainThread() throws MPIException {
        return isThreadMain();
    }
}
