package mpi;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.ByteArray;
import io.bdmpi.ooc.Libc;
import io.bdmpi.ooc.Residency;
import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.Reduction;
import io.bdmpi.protocol.RmaRequest;
import io.bdmpi.slave.SlaveEnvironment;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.Buffer;
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
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A window of memory that the members of a communicator read and write in each other's
 * memory (one-sided communication, MPI's RMA), as in Open MPI's Java bindings.
 *
 * <p><b>Where the memory is.</b> Each member's part (its segment) is a shared mapping of a file
 * in its node's work directory, mapped by every member of that node: a put, get or accumulate on
 * a member of the origin's node is a copy between the origin's buffer and the target's mapping,
 * done by the origin and complete when the call returns. On a member of another node, the
 * origin's master sends the operation (the origin's packed data and the target's byte ranges) to
 * the master of the target's node, which maps the target's part and applies it, and the origin is
 * parked until the answer is back: complete at the target when the call returns too. A segment
 * the library makes (allocated and shared windows, and the public copy of a window over a plain
 * buffer) is an off-heap byte array of its owner's {@link OutOfCore} store: released when the
 * owner parks in a blocking call, and brought back page by page as it is touched (residency
 * {@code LAZY}; the info key {@code bdmpi_residency} chooses another). A window created over a
 * buffer that already is such a mapping (a view of an off-heap array) is used in place. Window
 * files go with the job.
 *
 * <p><b>Windows over the program's buffer.</b> A window created over any other direct buffer
 * follows MPI's separate memory model: the buffer is the private copy and the mapping the public
 * one. Others' updates of the public copy are copied into the buffer at this rank's next
 * synchronization ({@code fence}, {@code waitFor}, {@code test}, {@code sync}, {@code lock},
 * {@code unlock}, {@code lockAll} or {@code unlockAll}); the buffer is copied into the public copy
 * at creation and at the synchronizations after which no other rank is accessing it
 * ({@code fence}, {@code post}, {@code sync}, and {@code unlock} of an exclusive lock on its own
 * rank), when no update from others came in. As MPI requires for this model, the program does
 * not store into the buffer during an epoch in which others update it.
 *
 * <p><b>Synchronization.</b> {@code fence} is a barrier of the window's members. Post, start,
 * complete and wait are messages between the pairs. {@code lock} asks the master of the target's
 * node, which owns the window locks of its node's members: a rank waiting for a lock is parked
 * like in any blocking call, so a lock held by a parked rank never stops a node, and the deadlock
 * detection sees the waiters. Accumulates ({@code accumulate}, {@code getAccumulate},
 * {@code fetchAndOp}, {@code compareAndSwap}) are atomic per target with every predefined
 * operator, and with each other, from whichever node.
 *
 * <p><b>Differences.</b> Every buffer must be direct ({@code IllegalArgumentException} for the
 * origin, {@code MPI.ERR_BUFFER} for result and compare buffers, which Open MPI does not check).
 * A flavor other than {@code FLAVOR_PRIVATE} and {@code FLAVOR_SHARED} is {@code MPI.ERR_ARG}
 * (Open MPI silently makes no window). A rank's segment holds at most 1 GiB
 * ({@code MPI.ERR_SIZE}). {@link #sharedQuery} of a member of another node is
 * {@code MPI.ERR_RMA_SHARED}: only one node's parts are shared memory. A dynamic window's
 * displacements ({@link #Win(Info, Comm)}, {@link #attach}) are byte offsets into the
 * concatenation of the target's attached regions, not addresses, which Java cannot name.
 * {@link #sharedQuery} (MPI_Win_shared_query, missing from Open MPI's Java bindings) is an
 * extension.
 */
public final class Win implements Freeable {

    /** The null window handle (a Java literal that nothing uses, as in Open MPI). */
    public static final int WIN_NULL = 0;
    /** {@link #Win(int, int, Info, Comm, Buffer, int)}: memory for this rank alone to expose (MPI_Win_allocate). */
    public static final int FLAVOR_PRIVATE = 0;
    /** {@link #Win(int, int, Info, Comm, Buffer, int)}: memory the members share (MPI_Win_allocate_shared). */
    public static final int FLAVOR_SHARED = 1;

    /** Info key choosing the residency of the segments the library makes ({@code lazy}, {@code none}, {@code willneed}, ...). */
    static final String RESIDENCY_KEY = "bdmpi_residency";
    /** Largest segment of one rank, in bytes: one mapping of an off-heap array. */
    static final long MAX_SEGMENT_BYTES = io.bdmpi.ooc.MappedArray.CHUNK_BYTES;

    private static final int TAG_POST = 1;
    private static final int TAG_COMPLETE = 2;
    /** A tag no message of the window's communicator carries: polled while an atomic lock is held elsewhere. */
    private static final int TAG_NONE = 3;
    private static final int LOCK_NOCHECK = 4;
    /** Largest piece of an operation on another node's member: one message between the masters. */
    private static final int REMOTE_PIECE_BYTES = 1 << 20;
    private static final ByteBuffer NOTHING = ByteBuffer.allocateDirect(0);

    private enum Flavor { CREATE, ALLOCATE, SHARED, DYNAMIC }

    private final Flavor flavor;
    /** The window's own communicator (a dup, ERRORS_RETURN); its id names the window to the master. */
    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final WinMemory memory;
    /** The program's buffer of a window over one that is not a mapping (the private copy), else null. */
    private final Buffer privateCopy;
    /** Whether some member keeps a private copy: a fence then reconciles between two barriers. */
    private final boolean anyPrivateCopy;
    /** A dynamic window's attached memory, or null for the other flavors. */
    private final WinRegions regions;
    /** This rank's off-heap array holding its segment, deleted with the window, or null. */
    private final String arrayName;
    private final Path controlFile;
    /** World rank to window rank. */
    private final Map<Integer, Integer> rankOfWorld = new HashMap<>();
    private final long baseAddress;

    private final Attributes attributes = Attributes.forWin();
    private volatile Errhandler errhandler = Errhandler.FATAL;
    private volatile String name = "";
    private Info info;
    private boolean freed;

    // Epochs (MPI_ERR_RMA_SYNC when a call does not fit them).
    /** Between fences (a fence without MODE_NOSUCCEED opened one). */
    private boolean fenceEpoch;
    /** The targets of the access epoch start opened, or null. */
    private int[] started;
    /** The origins of the exposure epoch post opened, and their completion messages, or null. */
    private int[] posted;
    private Request[] completions;
    /** Per member: the node it runs on. */
    private final int[] nodeOf;
    /** Per target: 0, or the lock type held (with {@link #LOCK_NOCHECK} when the master was not asked). */
    private final int[] locks;
    private int lockedTargets;
    private boolean lockAll;

    private ByteBuffer stagingA = ByteBuffer.allocateDirect(256).order(ByteOrder.nativeOrder());
    private ByteBuffer stagingB = ByteBuffer.allocateDirect(256).order(ByteOrder.nativeOrder());

    // ================================================================ creation

    /**
     * Creates a window over this rank's {@code base} (MPI_Win_create), collective over
     * {@code comm}.
     *
     * @param base     the memory to expose: a direct buffer, used from its base address
     * @param size     size of the window, in elements of {@code base}'s type
     * @param dispUnit the target displacement unit, in elements of {@code base}'s type
     * @param info     hints ({@code MPI.INFO_NULL} for none)
     * @param comm     the intracommunicator whose members share the window
     * @throws MPIException ERR_SIZE, ERR_DISP, ERR_COMM, ERR_NO_MEM (the window's files cannot be made)
     * @throws IllegalArgumentException if {@code base} is not direct
     */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        this(Flavor.CREATE, checkDirect(base, "base"), size, dispUnit, info, comm);
    }

    /**
     * Creates a window over new memory (MPI_Win_allocate or MPI_Win_allocate_shared),
     * collective over {@code comm}. The memory starts as zeros; {@link #sharedQuery} gives a view
     * of it. As in Open MPI, the memory's native address is written into the first 8 bytes of
     * {@code base} when it is a direct ByteBuffer or LongBuffer with room for it.
     *
     * @param size     size of this rank's part, in elements of {@code base}'s type
     * @param dispUnit the target displacement unit, in elements of {@code base}'s type
     * @param info     hints ({@code MPI.INFO_NULL} for none)
     * @param comm     the intracommunicator whose members share the window
     * @param base     a direct buffer whose type scales {@code size} and {@code dispUnit}
     * @param flavor   {@link #FLAVOR_PRIVATE} or {@link #FLAVOR_SHARED}
     * @throws MPIException ERR_ARG for another flavor; as {@link #Win(Buffer, int, int, Info, Comm)}
     * @throws IllegalArgumentException if {@code base} is not direct
     */
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
        this(flavor == FLAVOR_PRIVATE ? Flavor.ALLOCATE : flavor == FLAVOR_SHARED ? Flavor.SHARED : null,
                checkDirect(base, "base"), size, dispUnit, info, comm);
    }

    /**
     * Creates a dynamic window (MPI_Win_create_dynamic), collective over {@code comm}: a window
     * with no memory until each rank {@link #attach}es some; its displacements are byte offsets
     * into a rank's attached regions (see {@link #attach}).
     *
     * @param info hints ({@code MPI.INFO_NULL} for none)
     * @param comm the intracommunicator whose members share the window
     * @throws MPIException as {@link #Win(Buffer, int, int, Info, Comm)}
     */
    public Win(Info info, Comm comm) throws MPIException {
        this(Flavor.DYNAMIC, null, 0, 1, info, comm);
    }

    private Win(Flavor flavor, Buffer base, int size, int dispUnit, Info info, Comm user) throws MPIException {
        String call = flavor == Flavor.DYNAMIC ? "MPI_Win_create_dynamic" : flavor == Flavor.CREATE ? "MPI_Win_create"
                : flavor == Flavor.SHARED ? "MPI_Win_allocate_shared" : "MPI_Win_allocate";
        if (user == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_COMM, call + ": null communicator"));
        }
        SlaveRuntime rt = user.enter(call);
        int element = base == null ? 1 : elementBytes(base);
        long bytes = (long) size * element;
        MPIException bad = null;
        if (flavor == null) {
            bad = MPIException.of(MPI.ERR_ARG, "MPI_Win_allocate: flavor must be Win.FLAVOR_PRIVATE or Win.FLAVOR_SHARED");
        } else if (user.isInter()) {
            bad = MPIException.of(MPI.ERR_COMM, call + ": a window needs an intracommunicator");
        } else if (size < 0) {
            bad = MPIException.of(MPI.ERR_SIZE, call + ": negative size " + size);
        } else if (bytes > MAX_SEGMENT_BYTES) {
            bad = MPIException.of(MPI.ERR_SIZE, call + ": " + bytes + " bytes; a rank's part of a window holds at most "
                    + MAX_SEGMENT_BYTES + " bytes here");
        } else if (dispUnit <= 0) {
            bad = MPIException.of(MPI.ERR_DISP, call + ": displacement unit " + dispUnit + " is not positive");
        } else if (flavor == Flavor.CREATE && bytes > (long) base.capacity() * element) {
            bad = MPIException.of(MPI.ERR_SIZE, call + ": size " + size + " is larger than the buffer (" + base.capacity()
                    + " elements)");
        }
        if (bad != null) {
            throw user.handle(bad);
        }
        this.flavor = flavor;
        SlaveEnvironment env = rt.environment();
        Intracomm c = user.dupFor(call);
        c.setErrhandler(MPI.ERRORS_RETURN);
        c.describeAs("the window of " + call + " over " + user.name());
        this.comm = c;
        this.rank = c.getRank();
        this.size = c.getSize();
        this.locks = new int[this.size];
        this.nodeOf = new int[this.size];
        this.info = info == null || info.isNull() ? new Info() : info.dup();
        int[] world = c.getGroup().worldRanks();
        for (int r = 0; r < world.length; r++) {
            rankOfWorld.put(world[r], r);
        }
        Setup setup;
        Residency regionResidency;
        try {
            setup = setUp(call, env, base, (int) bytes, dispUnit * element);
            // A dynamic window's regions take their residency from the window's info, which
            // setUp checked with the others' (a bad value fails every member).
            regionResidency = flavor == Flavor.DYNAMIC ? residency(call) : null;
        } catch (MPIException e) {
            c.free();
            throw user.handle(e);
        }
        this.memory = setup.memory;
        this.privateCopy = setup.privateCopy;
        // A dynamic window's regions may have private copies, attached at any time.
        this.anyPrivateCopy = setup.anyPrivateCopy || flavor == Flavor.DYNAMIC;
        this.arrayName = setup.arrayName;
        this.controlFile = setup.controlFile;
        this.baseAddress = setup.baseAddress;
        if (privateCopy != null) {
            copy(privateCopy, ownMemory(call), (int) bytes);
        }
        if (flavor == Flavor.ALLOCATE || flavor == Flavor.SHARED) {
            writeAddress(base, baseAddress);
        }
        WinRegions dynamic = null;
        if (flavor == Flavor.DYNAMIC) {
            Path[] files = new Path[this.size];
            for (int r = 0; r < this.size; r++) {
                Path control = Path.of(memory.segment(r).control());
                files[r] = control.resolveSibling(control.getFileName().toString().replace(".control", "-r" + r + ".regions"));
            }
            String prefix = controlFile.getFileName().toString().replace(".control", "-a");
            dynamic = new WinRegions(files, rank, prefix, regionResidency);
        }
        this.regions = dynamic;
        try {
            c.barrier(); // every member mapped and published before any access
        } catch (MPIException e) {
            throw user.handle(e);
        }
    }

    private record Setup(WinMemory memory, Buffer privateCopy, boolean anyPrivateCopy, String arrayName,
                         Path controlFile, long baseAddress) {
    }

    /**
     * The collective part of creation: the members learn each other's nodes, the lowest member of
     * each node makes the node's control file, each makes or finds its segment, and all exchange where the segments are. A
     * failure anywhere fails every member, and what was made is removed.
     */
    private Setup setUp(String call, SlaveEnvironment env, Buffer base, int bytes, int dispUnitBytes) throws MPIException {
        nodeOf[rank] = env.nodeId();
        comm.allGather(nodeOf, 1, MPI.INT);
        long[] token = new long[1];
        if (rank == 0) {
            token[0] = new SecureRandom().nextLong() & Long.MAX_VALUE;
        }
        comm.bcast(token, 1, MPI.LONG, 0);
        // Each node's lowest member makes the node's control file, in the node's work directory.
        Path control = controlPath(env, token[0]);
        int[] made = {0};
        if (isNodeLeader()) {
            try {
                WinMemory.createControl(control, size);
            } catch (IOException e) {
                made[0] = 1;
            }
        }
        comm.allReduce(made, 1, MPI.INT, MPI.MAX);
        if (made[0] != 0) {
            if (isNodeLeader()) {
                deleteQuietly(control);
            }
            throw MPIException.of(MPI.ERR_NO_MEM, call + ": cannot make the window's control file " + control
                    + " (on this node or another)");
        }
        String array = null;
        Buffer privateBuffer = null;
        ByteBuffer own = null;
        WinMemory.Segment mine = new WinMemory.Segment("", 0, 0, dispUnitBytes, control.toString());
        long address = 0;
        String failure = null;
        try {
            ArrayStore store = Session.runtime().arrays();
            ArrayStore.Location in = base != null && flavor == Flavor.CREATE ? store.locate(base, bytes) : null;
            if (flavor == Flavor.DYNAMIC) {
                residency(call);
            }
            if (bytes == 0) {
                address = base != null && flavor == Flavor.CREATE ? Libc.address(base) : 0;
            } else if (in != null) {
                mine = new WinMemory.Segment(in.file().toString(), in.offset(), bytes, dispUnitBytes,
                        control.toString());
                address = Libc.address(base);
            } else {
                array = "win-" + Long.toHexString(token[0]);
                ByteArray a = store.bytes(array, bytes, residency(call));
                own = WinMemory.view(a);
                mine = new WinMemory.Segment(a.file().toString(), 0, bytes, dispUnitBytes, control.toString());
                if (flavor == Flavor.CREATE) {
                    privateBuffer = base;
                    address = Libc.address(base);
                } else {
                    address = Libc.address(own);
                }
            }
        } catch (IOException | MPIException e) {
            failure = e.getMessage();
        }
        int[] outcome = {failure == null ? 0 : 1, privateBuffer == null ? 0 : 1};
        comm.allReduce(outcome, 2, MPI.INT, MPI.MAX);
        String[] all = outcome[0] == 0 ? allGather(mine.encode()) : null;
        WinMemory mem = null;
        if (all != null) {
            WinMemory.Segment[] segments = new WinMemory.Segment[size];
            for (int r = 0; r < size; r++) {
                segments[r] = WinMemory.Segment.decode(all[r]);
            }
            try {
                mem = new WinMemory(control, segments, rank, own);
            } catch (IOException e) {
                failure = e.toString();
            }
        }
        int[] mapped = {failure == null ? 0 : 1};
        comm.allReduce(mapped, 1, MPI.INT, MPI.MAX);
        if (mapped[0] != 0) {
            if (mem != null) {
                mem.close();
            }
            deleteArray(array);
            comm.barrier();
            if (isNodeLeader()) {
                deleteQuietly(control);
            }
            throw MPIException.of(MPI.ERR_NO_MEM, call + ": cannot make the window's memory"
                    + (failure != null ? ": " + failure : " on another member"));
        }
        return new Setup(mem, privateBuffer, outcome[1] != 0, array, control, address);
    }

    /** Whether this rank is the lowest member on its node: the one that makes and removes the node's control file. */
    private boolean isNodeLeader() {
        for (int r = 0; r < rank; r++) {
            if (nodeOf[r] == nodeOf[rank]) {
                return false;
            }
        }
        return true;
    }

    /** Whether window rank {@code target} runs on another node: its part is reached through the masters. */
    private boolean remote(int target) {
        return nodeOf[target] != nodeOf[rank];
    }

    private Residency residency(String call) throws MPIException {
        String value = info.get(RESIDENCY_KEY);
        if (value == null) {
            return Residency.LAZY;
        }
        try {
            return Residency.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw MPIException.of(MPI.ERR_INFO_VALUE, call + ": " + RESIDENCY_KEY + " must be one of lazy, none, willneed,"
                    + " sequential, mlock, not " + value);
        }
    }

    private static Path controlPath(SlaveEnvironment env, long token) {
        return env.spillDir().resolve("win-" + Long.toHexString(token) + ".control");
    }

    /** Every member's string, in rank order. */
    private String[] allGather(String mine) throws MPIException {
        byte[] bytes = mine.getBytes(StandardCharsets.UTF_8);
        int[] lengths = new int[size];
        lengths[rank] = bytes.length;
        comm.allGather(lengths, 1, MPI.INT);
        int[] displs = new int[size];
        int total = 0;
        for (int r = 0; r < size; r++) {
            displs[r] = total;
            total += lengths[r];
        }
        byte[] all = new byte[total];
        System.arraycopy(bytes, 0, all, displs[rank], bytes.length);
        comm.allGatherv(all, lengths, displs, MPI.BYTE);
        String[] out = new String[size];
        for (int r = 0; r < size; r++) {
            out[r] = new String(all, displs[r], lengths[r], StandardCharsets.UTF_8);
        }
        return out;
    }

    private static Buffer checkDirect(Buffer b, String what) {
        if (b == null || !b.isDirect()) {
            throw new IllegalArgumentException("The " + what + " buffer must be direct.");
        }
        return b;
    }

    /** Bytes of one element of a buffer's type: the unit of a window's size and displacement unit. */
    private static int elementBytes(Buffer b) {
        if (b instanceof ByteBuffer) {
            return 1;
        }
        if (b instanceof CharBuffer || b instanceof ShortBuffer) {
            return 2;
        }
        if (b instanceof IntBuffer || b instanceof FloatBuffer) {
            return 4;
        }
        if (b instanceof LongBuffer || b instanceof DoubleBuffer) {
            return 8;
        }
        throw new IllegalArgumentException("unsupported buffer type " + b.getClass().getName());
    }

    private static void writeAddress(Buffer base, long address) {
        if (base instanceof ByteBuffer b && b.capacity() >= Long.BYTES && !b.isReadOnly()) {
            b.duplicate().order(ByteOrder.nativeOrder()).putLong(0, address);
        } else if (base instanceof LongBuffer l && l.capacity() >= 1 && !l.isReadOnly()) {
            l.put(0, address);
        }
    }

    // ================================================================ data movement

    /**
     * Writes {@code orgCount} items of {@code orgType} from {@code origin} into rank
     * {@code targetRank}'s part of the window, at {@code targetDisp} displacement units, as
     * {@code targetCount} items of {@code targetType} (MPI_Put).
     *
     * @param origin      the data (a direct buffer, from its base)
     * @param orgCount    items at the origin
     * @param orgType     their type
     * @param targetRank  rank in the window's group
     * @param targetDisp  where at the target, in its displacement units
     * @param targetCount items at the target
     * @param targetType  their type
     * @throws MPIException ERR_RMA_SYNC outside an access epoch to the target, ERR_RANK, ERR_DISP,
     *                      ERR_RMA_RANGE past the target's part, ERR_TYPE, ERR_COUNT, ERR_BUFFER; ERR_WIN
     *                      when the master of the target's node cannot apply it
     * @throws IllegalArgumentException if {@code origin} is not direct, or the types have different base types
     */
    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
                    Datatype targetType) throws MPIException {
        String call = "MPI_Put";
        Session.enter(call);
        checkDirect(origin, "origin");
        checkSameBase(orgType, targetType);
        try {
            if (!checkAccess(call, targetRank)) {
                return;
            }
            doPut(call, origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Reads {@code targetCount} items of {@code targetType} at {@code targetDisp} of rank
     * {@code targetRank}'s part into {@code origin}, as {@code orgCount} items of {@code orgType}
     * (MPI_Get).
     *
     * @param origin      where the data lands (a direct buffer, from its base)
     * @param orgCount    items at the origin
     * @param orgType     their type
     * @param targetRank  rank in the window's group
     * @param targetDisp  where at the target, in its displacement units
     * @param targetCount items at the target
     * @param targetType  their type
     * @throws MPIException as {@link #put}
     * @throws IllegalArgumentException as {@link #put}
     */
    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
                    Datatype targetType) throws MPIException {
        String call = "MPI_Get";
        Session.enter(call);
        checkDirect(origin, "origin");
        checkSameBase(orgType, targetType);
        try {
            if (!checkAccess(call, targetRank)) {
                return;
            }
            doGet(call, origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Combines {@code origin}'s items into the target's with {@code op}, atomically per target
     * (MPI_Accumulate). {@code MPI.REPLACE} stores them; {@code MPI.NO_OP} changes nothing.
     *
     * @param origin      the data (a direct buffer, from its base)
     * @param orgCount    items at the origin
     * @param orgType     their type
     * @param targetRank  rank in the window's group
     * @param targetDisp  where at the target, in its displacement units
     * @param targetCount items at the target
     * @param targetType  their type
     * @param op          a predefined operator
     * @throws MPIException ERR_OP for a user-defined operator or one that does not apply to the
     *                      type; as {@link #put}
     * @throws IllegalArgumentException as {@link #put}
     */
    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                           int targetCount, Datatype targetType, Op op) throws MPIException {
        String call = "MPI_Accumulate";
        Session.enter(call);
        checkDirect(origin, "origin");
        checkSameBase(orgType, targetType);
        try {
            if (!checkAccess(call, targetRank)) {
                return;
            }
            doAccumulate(call, origin, orgCount, orgType, null, 0, null, targetRank, targetDisp, targetCount,
                    targetType, op);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Returns the target's items in {@code resultAddr} and combines {@code origin}'s into them
     * with {@code op}, atomically (MPI_Get_accumulate); with {@code MPI.NO_OP} an atomic read.
     *
     * @param origin      the data (a direct buffer; ignored with {@code MPI.NO_OP})
     * @param orgCount    items at the origin
     * @param orgType     their type
     * @param resultAddr  where the target's previous items land (a direct buffer)
     * @param resultCount items of the result
     * @param resultType  their type
     * @param targetRank  rank in the window's group
     * @param targetDisp  where at the target, in its displacement units
     * @param targetCount items at the target
     * @param targetType  their type
     * @param op          a predefined operator
     * @throws MPIException as {@link #accumulate}; ERR_BUFFER for a result buffer that is not direct
     * @throws IllegalArgumentException as {@link #put}
     */
    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
                              Datatype resultType, int targetRank, int targetDisp, int targetCount,
                              Datatype targetType, Op op) throws MPIException {
        String call = "MPI_Get_accumulate";
        Session.enter(call);
        if (op != MPI.NO_OP) {
            checkDirect(origin, "origin");
            checkSameBase(orgType, targetType);
        }
        try {
            if (!checkAccess(call, targetRank)) {
                return;
            }
            doAccumulate(call, origin, orgCount, orgType, resultAddr, resultCount, resultType, targetRank, targetDisp,
                    targetCount, targetType, op);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Returns one element of {@code dataType} of the target in {@code resultAddr} and combines
     * {@code origin}'s into it with {@code op}, atomically (MPI_Fetch_and_op).
     *
     * @param origin     the operand (a direct buffer; ignored with {@code MPI.NO_OP})
     * @param resultAddr where the previous value lands (a direct buffer)
     * @param dataType   a predefined type
     * @param targetRank rank in the window's group
     * @param targetDisp where at the target, in its displacement units
     * @param op         a predefined operator
     * @throws MPIException as {@link #getAccumulate}; ERR_TYPE for a type that is not one predefined element
     * @throws IllegalArgumentException as {@link #put}
     */
    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, int targetDisp, Op op)
            throws MPIException {
        String call = "MPI_Fetch_and_op";
        Session.enter(call);
        if (op != MPI.NO_OP) {
            checkDirect(origin, "origin");
        }
        try {
            if (!checkAccess(call, targetRank)) {
                return;
            }
            checkSingleElement(call, dataType);
            if (!addedInPlace(call, origin, resultAddr, dataType, targetRank, targetDisp, op)) {
                doAccumulate(call, origin, 1, dataType, resultAddr, 1, dataType, targetRank, targetDisp, 1, dataType, op);
            }
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * The fast path of the commonest fetchAndOp, a counter: {@code MPI.SUM} of one {@code LONG} or
     * {@code INT} from a buffer of that type, added in place in the target's mapping under its
     * atomic lock, with none of the general path's packing and staging. Returns false, having
     * done nothing, for any other case.
     */
    private boolean addedInPlace(String call, Buffer origin, Buffer result, Datatype type, int target, int disp, Op op)
            throws MPIException {
        boolean isLong = type == MPI.LONG && origin instanceof LongBuffer && result instanceof LongBuffer;
        boolean isInt = type == MPI.INT && origin instanceof IntBuffer && result instanceof IntBuffer;
        if (remote(target) || op != MPI.SUM || !(isLong || isInt) || !result.isDirect() || result.isReadOnly()
                || origin.capacity() < 1 || result.capacity() < 1) {
            return false;
        }
        ByteBuffer at = targetView(call, target, disp, 1, type);
        memory.lockAtomic(target, this::stalled);
        try {
            if (isLong) {
                long old = at.getLong(0);
                at.putLong(0, old + ((LongBuffer) origin).get(0));
                ((LongBuffer) result).put(0, old);
            } else {
                int old = at.getInt(0);
                at.putInt(0, old + ((IntBuffer) origin).get(0));
                ((IntBuffer) result).put(0, old);
            }
            updated(target);
        } finally {
            memory.unlockAtomic(target);
        }
        return true;
    }

    /**
     * Replaces one element of the target with {@code origin}'s if it equals {@code compareAddr}'s,
     * atomically, and returns its previous value in {@code resultAddr} (MPI_Compare_and_swap).
     *
     * @param origin      the new value (a direct buffer)
     * @param compareAddr the value compared with (a direct buffer)
     * @param resultAddr  where the previous value lands (a direct buffer)
     * @param targetType  a predefined type
     * @param targetRank  rank in the window's group
     * @param targetDisp  where at the target, in its displacement units
     * @throws MPIException ERR_BUFFER for buffers that are not direct; as {@link #put}
     */
    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype targetType,
                               int targetRank, int targetDisp) throws MPIException {
        String call = "MPI_Compare_and_swap";
        Session.enter(call);
        try {
            if (!checkAccess(call, targetRank)) {
                return;
            }
            direct(call, origin, "origin");
            direct(call, compareAddr, "compare");
            direct(call, resultAddr, "result");
            checkSingleElement(call, targetType);
            int n = BufferAccess.byteLength(call, origin, 1, targetType, false);
            BufferAccess.byteLength(call, compareAddr, 1, targetType, false);
            BufferAccess.byteLength(call, resultAddr, 1, targetType, true);
            if (remote(targetRank)) {
                int[] ranges = ranges(call, targetRank, targetDisp, 1, targetType);
                ByteBuffer both = staging(call, 2 * n, true);
                BufferAccess.pack(origin, 1, targetType, both);
                BufferAccess.pack(compareAddr, 1, targetType, both);
                BufferAccess.unpack(remoteOp(call, RmaRequest.Kind.COMPARE_AND_SWAP, targetRank, ranges, both.flip(),
                        (byte) 0, targetType.element), resultAddr, targetType);
                return;
            }
            ByteBuffer target = targetView(call, targetRank, targetDisp, 1, targetType);
            memory.lockAtomic(targetRank, this::stalled);
            try {
                ByteBuffer old = target.duplicate().limit(n);
                ByteBuffer expected = staging(call, n, true);
                BufferAccess.pack(compareAddr, 1, targetType, expected);
                expected.flip();
                boolean equal = old.equals(expected);
                BufferAccess.unpack(old, resultAddr, targetType);
                if (equal) {
                    BufferAccess.pack(origin, 1, targetType, target.duplicate());
                    updated(targetRank);
                }
            } finally {
                memory.unlockAtomic(targetRank);
            }
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * As {@link #put}, returning a request (MPI_Rput); only inside a lock epoch. The put is done
     * when this returns, so the request is complete.
     *
     * @param origin_addr      the data
     * @param origin_count     items at the origin
     * @param origin_datatype  their type
     * @param target_rank      rank in the window's group
     * @param target_disp      where at the target
     * @param target_count     items at the target
     * @param target_datatype  their type
     * @return a complete request
     * @throws MPIException ERR_RMA_SYNC outside a lock epoch to the target; as {@link #put}
     */
    public final Request rPut(Buffer origin_addr, int origin_count, Datatype origin_datatype, int target_rank,
                              int target_disp, int target_count, Datatype target_datatype) throws MPIException {
        checkLocked("MPI_Rput", target_rank);
        put(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype);
        return Request.completed(comm, Status.empty(), null);
    }

    /**
     * As {@link #get}, returning a request (MPI_Rget); only inside a lock epoch.
     *
     * @param origin      where the data lands
     * @param orgCount    items at the origin
     * @param orgType     their type
     * @param targetRank  rank in the window's group
     * @param targetDisp  where at the target
     * @param targetCount items at the target
     * @param targetType  their type
     * @return a complete request: the data is in {@code origin}
     * @throws MPIException as {@link #rPut}
     */
    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                              int targetCount, Datatype targetType) throws MPIException {
        checkLocked("MPI_Rget", targetRank);
        get(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
        return Request.completed(comm, Status.empty(), null);
    }

    /**
     * As {@link #accumulate}, returning a request (MPI_Raccumulate); only inside a lock epoch.
     *
     * @param origin      the data
     * @param orgCount    items at the origin
     * @param orgType     their type
     * @param targetRank  rank in the window's group
     * @param targetDisp  where at the target
     * @param targetCount items at the target
     * @param targetType  their type
     * @param op          a predefined operator
     * @return a complete request
     * @throws MPIException as {@link #rPut} and {@link #accumulate}
     */
    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                               int targetCount, Datatype targetType, Op op) throws MPIException {
        checkLocked("MPI_Raccumulate", targetRank);
        accumulate(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, op);
        return Request.completed(comm, Status.empty(), null);
    }

    /**
     * As {@link #getAccumulate}, returning a request (MPI_Rget_accumulate); only inside a lock epoch.
     *
     * @param origin      the data
     * @param orgCount    items at the origin
     * @param orgType     their type
     * @param resultAddr  where the previous items land
     * @param resultCount items of the result
     * @param resultType  their type
     * @param targetRank  rank in the window's group
     * @param targetDisp  where at the target
     * @param targetCount items at the target
     * @param targetType  their type
     * @param op          a predefined operator
     * @return a complete request: the result is in {@code resultAddr}
     * @throws MPIException as {@link #rPut} and {@link #getAccumulate}
     */
    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
                                  Datatype resultType, int targetRank, int targetDisp, int targetCount,
                                  Datatype targetType, Op op) throws MPIException {
        checkLocked("MPI_Rget_accumulate", targetRank);
        getAccumulate(origin, orgCount, orgType, resultAddr, resultCount, resultType, targetRank, targetDisp,
                targetCount, targetType, op);
        return Request.completed(comm, Status.empty(), null);
    }

    private void doPut(String call, Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                       int targetCount, Datatype targetType) throws MPIException {
        int n = matchingBytes(call, origin, orgCount, orgType, targetCount, targetType, false);
        if (remote(targetRank)) {
            int[] ranges = ranges(call, targetRank, targetDisp, targetCount, targetType);
            if (n > 0) {
                ByteBuffer st = staging(call, n, true);
                BufferAccess.pack(origin, orgCount, orgType, st);
                remoteOp(call, RmaRequest.Kind.PUT, targetRank, ranges, st.flip(), (byte) 0, ElementType.NONE);
            }
            return;
        }
        ByteBuffer target = targetView(call, targetRank, targetDisp, targetCount, targetType);
        if (n == 0) {
            return;
        }
        if (targetType.map.dense()) {
            BufferAccess.pack(origin, orgCount, orgType, target);
        } else {
            ByteBuffer st = staging(call, n, true);
            BufferAccess.pack(origin, orgCount, orgType, st);
            BufferAccess.unpack(st.flip(), target, targetType);
        }
        updated(targetRank);
    }

    private void doGet(String call, Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                       int targetCount, Datatype targetType) throws MPIException {
        int n = matchingBytes(call, origin, orgCount, orgType, targetCount, targetType, true);
        if (remote(targetRank)) {
            int[] ranges = ranges(call, targetRank, targetDisp, targetCount, targetType);
            if (n > 0) {
                BufferAccess.unpack(remoteOp(call, RmaRequest.Kind.GET, targetRank, ranges, NOTHING, (byte) 0,
                        ElementType.NONE), origin, orgType);
            }
            return;
        }
        ByteBuffer target = targetView(call, targetRank, targetDisp, targetCount, targetType);
        if (n == 0) {
            return;
        }
        BufferAccess.unpack(read(call, target, targetCount, targetType, n, true), origin, orgType);
    }

    /** The packed bytes of {@code count} items of {@code type} at the start of {@code target}, limited to them. */
    private ByteBuffer read(String call, ByteBuffer target, int count, Datatype type, int n, boolean first)
            throws MPIException {
        if (type.map.dense()) {
            return target.duplicate().limit(n);
        }
        ByteBuffer st = staging(call, n, first);
        BufferAccess.pack(target, count, type, st);
        return st.flip();
    }

    /**
     * An accumulate, with a result ({@code result} not null) or without; under the target's atomic
     * lock, so it is atomic with every other accumulate on the target.
     */
    private void doAccumulate(String call, Buffer origin, int orgCount, Datatype orgType, Buffer result,
                              int resultCount, Datatype resultType, int targetRank, int targetDisp, int targetCount,
                              Datatype targetType, Op op) throws MPIException {
        if (op == null) {
            throw MPIException.of(MPI.ERR_OP, call + ": null operator");
        }
        Datatype.checkUsable(call, targetType);
        boolean noOp = op == MPI.NO_OP;
        boolean replace = op == MPI.REPLACE;
        ReduceOp wire = noOp || replace ? null : op.wireFor(call, targetType);
        if (wire == ReduceOp.USER) {
            throw MPIException.of(MPI.ERR_OP, call + ": a user-defined operator cannot be used in one-sided"
                    + " communication (MPI allows the predefined ones only)");
        }
        int n = noOp ? BufferAccess.messageBytes(call, targetCount, targetType)
                     : matchingBytes(call, origin, orgCount, orgType, targetCount, targetType, false);
        if (!noOp && (replace ? orgType.base != targetType.base : orgType.element != targetType.element)) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + orgType + " and " + targetType
                    + " are not made of the same predefined type");
        }
        if (result != null || resultType != null) {
            direct(call, result, "result");
            int r = BufferAccess.byteLength(call, result, resultCount, resultType, true);
            if (r != n) {
                throw MPIException.of(MPI.ERR_TYPE, call + ": the result (" + resultCount + " of " + resultType
                        + ") does not match the target data (" + targetCount + " of " + targetType + ")");
            }
        }
        if (remote(targetRank)) {
            int[] ranges = ranges(call, targetRank, targetDisp, targetCount, targetType);
            if (n == 0) {
                return;
            }
            ByteBuffer data = NOTHING;
            if (!noOp) {
                data = staging(call, n, true);
                BufferAccess.pack(origin, orgCount, orgType, data);
                data.flip();
            }
            byte code = noOp ? RmaRequest.NO_OP : replace ? RmaRequest.REPLACE : wire.code;
            ElementType element = targetType.element == null ? ElementType.NONE : targetType.element;
            ByteBuffer before = remoteOp(call, result != null ? RmaRequest.Kind.GET_ACCUMULATE : RmaRequest.Kind.ACCUMULATE,
                    targetRank, ranges, data, code, element);
            if (result != null) {
                BufferAccess.unpack(before, result, resultType);
            }
            return;
        }
        ByteBuffer target = targetView(call, targetRank, targetDisp, targetCount, targetType);
        if (n == 0) {
            return;
        }
        memory.lockAtomic(targetRank, this::stalled);
        try {
            if (result != null) {
                BufferAccess.unpack(read(call, target, targetCount, targetType, n, true), result, resultType);
            }
            if (noOp) {
                return;
            }
            if (replace) {
                doPut(call, origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
                return;
            }
            ByteBuffer acc = staging(call, n, true);
            BufferAccess.pack(target, targetCount, targetType, acc);
            acc.flip();
            ByteBuffer next = staging(call, n, false);
            BufferAccess.pack(origin, orgCount, orgType, next);
            next.flip();
            Reduction.combine(wire, targetType.element, acc, next, n / targetType.element.size);
            BufferAccess.unpack(acc, target, targetType);
            updated(targetRank);
        } finally {
            memory.unlockAtomic(targetRank);
        }
    }

    /** Checks both sides and that they carry the same number of bytes; returns it. */
    private static int matchingBytes(String call, Buffer origin, int orgCount, Datatype orgType, int targetCount,
                                     Datatype targetType, boolean originReceives) throws MPIException {
        int n = BufferAccess.byteLength(call, origin, orgCount, orgType, originReceives);
        int t = BufferAccess.messageBytes(call, targetCount, targetType);
        if (n != t) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": the origin's " + orgCount + " of " + orgType + " (" + n
                    + " bytes) do not match the target's " + targetCount + " of " + targetType + " (" + t + " bytes)");
        }
        return n;
    }

    /** The target's memory from {@code disp} units on, after checking that {@code count} items fit. */
    private ByteBuffer targetView(String call, int target, int disp, int count, Datatype type) throws MPIException {
        long start = checkRange(call, target, disp, count, type);
        try {
            if (regions != null) {
                long end = count == 0 ? start : start + (long) (count - 1) * type.map.extent + type.map.trueUb;
                ByteBuffer v = regions.view(target, start, end);
                if (v == null) {
                    throw MPIException.of(MPI.ERR_RMA_RANGE, call + ": bytes " + start + " to " + end + " of rank "
                            + target + " lie in no region attached to the dynamic window");
                }
                return v;
            }
            ByteBuffer m = memory.memory(target);
            return m.position((int) Math.min(start, m.capacity())).slice().order(ByteOrder.nativeOrder());
        } catch (IOException e) {
            throw MPIException.of(MPI.ERR_WIN, call + ": cannot map rank " + target + "'s part of the window: " + e);
        }
    }

    /**
     * Checks that {@code count} items of {@code type} at {@code disp} units fit the target's part
     * (for a dynamic window, only that they start at or after displacement 0: which region holds
     * them is found later); returns the first byte.
     */
    private long checkRange(String call, int target, int disp, int count, Datatype type) throws MPIException {
        Datatype.checkUsable(call, type);
        if (disp < 0) {
            throw MPIException.of(MPI.ERR_DISP, call + ": negative target displacement " + disp);
        }
        WinMemory.Segment s = memory.segment(target);
        long start = (long) disp * s.dispUnit();
        if (count > 0) {
            TypeMap map = type.map;
            long first = start + map.trueLb;
            long end = start + (long) (count - 1) * map.extent + map.trueUb;
            if (map.trueLb < 0 || first < 0 || regions == null && end > s.bytes()) {
                throw MPIException.of(MPI.ERR_RMA_RANGE, call + ": " + count + " of " + type + " at displacement " + disp
                        + " (byte " + start + ") reach past rank " + target + "'s " + s.bytes() + " bytes of the window");
            }
        }
        return start;
    }

    /**
     * The bytes of the target's part that {@code count} items of {@code type} at {@code disp} units
     * cover, in the order of the packed data, as (offset, length) pairs, adjacent runs merged: what
     * the target's master needs to apply an operation without knowing the datatype.
     */
    private int[] ranges(String call, int target, int disp, int count, Datatype type) throws MPIException {
        long start = checkRange(call, target, disp, count, type);
        TypeMap map = type.map;
        int[] out = new int[8];
        int n = 0;
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < map.segments(); j++) {
                int at = (int) (start + (long) i * map.extent + map.offset(j));
                int length = map.length(j);
                if (length == 0) {
                    continue;
                }
                if (n > 0 && out[n - 2] + out[n - 1] == at) {
                    out[n - 1] += length;
                } else {
                    if (n == out.length) {
                        out = java.util.Arrays.copyOf(out, 2 * n);
                    }
                    out[n++] = at;
                    out[n++] = length;
                }
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /**
     * Has the master of the target's node apply an operation to its part, in pieces of at most
     * {@link #REMOTE_PIECE_BYTES} (cut between elements; MPI makes accumulates atomic per element),
     * and waits, parked, for each: the operation is complete at the target when this returns.
     *
     * @param data the packed origin data from its position: the ranges' bytes, or none (get, a
     *             NO_OP accumulate), or the new value then the compared one (compare-and-swap)
     * @return the target's bytes before the operation, packed, for the kinds that return them; else null
     */
    private ByteBuffer remoteOp(String call, RmaRequest.Kind kind, int target, int[] ranges, ByteBuffer data, byte op,
                                ElementType element) throws MPIException {
        WinMemory.Segment s = memory.segment(target);
        int total = 0;
        for (int i = 1; i < ranges.length; i += 2) {
            total += ranges[i];
        }
        ByteBuffer result = kind.returnsData() ? staging(call, total, false) : null;
        int unit = Math.max(1, element.size);
        int limit = kind == RmaRequest.Kind.COMPARE_AND_SWAP ? total : REMOTE_PIECE_BYTES - REMOTE_PIECE_BYTES % unit;
        boolean carriesData = data.remaining() > 0;
        int done = 0;
        int r = 0;
        int inRange = 0;
        while (done < total) {
            int[] piece = new int[8];
            int p = 0;
            int bytes = 0;
            while (bytes < limit && r < ranges.length) {
                int take = Math.min(ranges[r + 1] - inRange, limit - bytes);
                if (p == piece.length) {
                    piece = java.util.Arrays.copyOf(piece, 2 * p);
                }
                piece[p++] = ranges[r] + inRange;
                piece[p++] = take;
                bytes += take;
                inRange += take;
                if (inRange == ranges[r + 1]) {
                    r += 2;
                    inRange = 0;
                }
            }
            ByteBuffer slice = !carriesData ? NOTHING : kind == RmaRequest.Kind.COMPARE_AND_SWAP ? data
                    : data.duplicate().position(data.position() + done).limit(data.position() + done + bytes);
            RmaRequest request = regions != null
                    ? new RmaRequest(kind, nodeOf[target], regions.file(target).toString(), RmaRequest.DYNAMIC, 0,
                            s.control(), target, true, op, element, java.util.Arrays.copyOf(piece, p), slice)
                    : new RmaRequest(kind, nodeOf[target], s.path(), s.offset(), s.bytes(), s.control(), target,
                            anyPrivateCopy, op, element, java.util.Arrays.copyOf(piece, p), slice);
            MasterReply.RmaResult answer;
            try {
                answer = Session.runtime().winRma(request);
            } catch (IOException e) {
                throw Errors.transport(call, e);
            }
            if (answer.outcome() == RmaRequest.Outcome.OUT_OF_RANGE) {
                throw MPIException.of(MPI.ERR_RMA_RANGE, call + ": rank " + target + " (node " + nodeOf[target] + "): "
                        + answer.error());
            }
            if (answer.outcome() != RmaRequest.Outcome.APPLIED) {
                throw MPIException.of(MPI.ERR_WIN, call + ": node " + nodeOf[target] + " could not apply the operation to"
                        + " rank " + target + "'s part of the window: " + answer.error());
            }
            if (result != null) {
                if (answer.data().remaining() != bytes) {
                    throw MPIException.of(MPI.ERR_INTERN, call + ": node " + nodeOf[target] + " returned "
                            + answer.data().remaining() + " bytes for " + bytes);
                }
                result.put(answer.data());
            }
            done += bytes;
        }
        return result == null ? null : result.flip();
    }

    private ByteBuffer staging(String call, int bytes, boolean first) {
        ByteBuffer b = first ? stagingA : stagingB;
        if (b.capacity() < bytes) {
            b = ByteBuffer.allocateDirect(Math.max(bytes, 2 * b.capacity())).order(ByteOrder.nativeOrder());
            if (first) {
                stagingA = b;
            } else {
                stagingB = b;
            }
        }
        return b.clear().limit(bytes);
    }

    /**
     * A wait for another rank's atomic lock lasts: poll the master (finding nothing), which lets
     * this rank's slot go to a rank waiting for one, maybe the holder.
     */
    private void stalled() {
        try {
            comm.iProbe(MPI.ANY_SOURCE, TAG_NONE);
        } catch (MPIException e) {
            // The job is ending; the lock wait ends with it.
        }
    }

    private void updated(int target) {
        if (anyPrivateCopy) {
            memory.markUpdated(target);
        }
    }

    private static void checkSameBase(Datatype a, Datatype b) {
        if (a != null && b != null && a.base != b.base) {
            throw new IllegalArgumentException("Both datatype arguments must be constructed from the same predefined datatype");
        }
    }

    /** fetchAndOp and compareAndSwap act on one element of a predefined type, as MPI says. */
    private static void checkSingleElement(String call, Datatype type) throws MPIException {
        Datatype.checkUsable(call, type);
        if (type.map.segments() != 1 || type.element == null || type.element.isPair()) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + type + " is not a predefined single-element type");
        }
    }

    private static void direct(String call, Buffer b, String what) throws MPIException {
        if (b == null || !b.isDirect()) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": the " + what + " buffer must be a direct buffer");
        }
    }

    // ================================================================ epochs

    /**
     * Checks the window, the rank, and that an access epoch to it is open.
     *
     * @return false for {@code MPI.PROC_NULL}, a valid target of every call that makes it do nothing
     */
    private boolean checkAccess(String call, int target) throws MPIException {
        checkOpen(call);
        if (target == MPI.PROC_NULL) {
            return false;
        }
        checkRank(call, target);
        if (!fenceEpoch && !lockAll && locks[target] == 0 && !contains(started, target)) {
            throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": no access epoch to rank " + target
                    + " is open (call fence, start, lock or lockAll first)");
        }
        return true;
    }

    private void checkLocked(String call, int target) throws MPIException {
        try {
            checkOpen(call);
            if (target == MPI.PROC_NULL) {
                return;
            }
            checkRank(call, target);
            if (!lockAll && locks[target] == 0) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": request-based operations need a lock epoch"
                        + " (lock or lockAll) on rank " + target);
            }
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    private void checkRank(String call, int target) throws MPIException {
        if (target < 0 || target >= size) {
            throw MPIException.of(MPI.ERR_RANK, call + ": rank " + target + " is not in the window's group of " + size);
        }
    }

    private void checkOpen(String call) throws MPIException {
        if (freed) {
            throw MPIException.of(MPI.ERR_WIN, call + ": the window has been freed");
        }
    }

    private static void checkAssert(String call, int assertion, int allowed) throws MPIException {
        if ((assertion & ~allowed) != 0) {
            throw MPIException.of(MPI.ERR_ASSERT, call + ": assertion " + assertion + " has bits this call does not take"
                    + " (it takes " + allowed + ")");
        }
    }

    private static boolean contains(int[] ranks, int r) {
        if (ranks != null) {
            for (int x : ranks) {
                if (x == r) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Closes the current active-target epoch and opens the next (MPI_Win_fence), collective over the
     * window's group: when it returns, every member's operations of the epoch are complete and
     * visible.
     *
     * @param assertion 0 or {@code MPI.MODE_NOSTORE | MODE_NOPUT | MODE_NOPRECEDE | MODE_NOSUCCEED};
     *                  {@code MODE_NOSUCCEED} opens no new epoch
     * @throws MPIException ERR_ASSERT for other bits; ERR_RMA_SYNC inside a lock or post/start epoch
     */
    public void fence(int assertion) throws MPIException {
        String call = "MPI_Win_fence";
        Session.enter(call);
        try {
            checkOpen(call);
            checkAssert(call, assertion, MPI.MODE_NOSTORE | MPI.MODE_NOPUT | MPI.MODE_NOPRECEDE | MPI.MODE_NOSUCCEED);
            if (lockAll || lockedTargets > 0 || started != null || posted != null) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": a lock, start or post epoch is open");
            }
            VarHandle.fullFence();
            comm.barrier();
            if (anyPrivateCopy) {
                reconcile(call, true);
                comm.barrier();
            }
            fenceEpoch = (assertion & MPI.MODE_NOSUCCEED) == 0;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Opens an access epoch to the members of {@code group} (MPI_Win_start): waits until each has
     * posted an exposure epoch for this rank.
     *
     * @param group     targets, a subgroup of the window's group
     * @param assertion 0 or {@code MPI.MODE_NOCHECK}
     * @throws MPIException ERR_RMA_SYNC if an access epoch is open; ERR_GROUP; ERR_ASSERT
     */
    public void start(Group group, int assertion) throws MPIException {
        String call = "MPI_Win_start";
        Session.enter(call);
        try {
            checkOpen(call);
            checkAssert(call, assertion, MPI.MODE_NOCHECK);
            if (started != null || lockAll || lockedTargets > 0) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": an access epoch is already open");
            }
            int[] targets = ranksOf(call, group);
            fenceEpoch = false;
            for (int t : targets) {
                comm.recv(NOTHING, 0, MPI.BYTE, t, TAG_POST);
            }
            started = targets;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Closes the access epoch of {@link #start} (MPI_Win_complete): this rank's operations are
     * complete, and each target learns so.
     *
     * @throws MPIException ERR_RMA_SYNC without a start
     */
    public void complete() throws MPIException {
        String call = "MPI_Win_complete";
        Session.enter(call);
        try {
            checkOpen(call);
            if (started == null) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": no start epoch is open");
            }
            VarHandle.fullFence();
            for (int t : started) {
                comm.send(NOTHING, 0, MPI.BYTE, t, TAG_COMPLETE);
            }
            started = null;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Opens an exposure epoch for the members of {@code group} (MPI_Win_post); does not wait.
     *
     * @param group     origins, a subgroup of the window's group
     * @param assertion 0 or {@code MPI.MODE_NOCHECK | MODE_NOSTORE | MODE_NOPUT}
     * @throws MPIException ERR_RMA_SYNC if an exposure epoch is open; ERR_GROUP; ERR_ASSERT
     */
    public void post(Group group, int assertion) throws MPIException {
        String call = "MPI_Win_post";
        Session.enter(call);
        try {
            checkOpen(call);
            checkAssert(call, assertion, MPI.MODE_NOCHECK | MPI.MODE_NOSTORE | MPI.MODE_NOPUT);
            if (posted != null) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": an exposure epoch is already open");
            }
            int[] origins = ranksOf(call, group);
            if (keepsPrivateCopy()) {
                reconcile(call, true);
            }
            fenceEpoch = false;
            Request[] done = new Request[origins.length];
            for (int i = 0; i < origins.length; i++) {
                done[i] = comm.iRecv(NOTHING, 0, MPI.BYTE, origins[i], TAG_COMPLETE);
            }
            VarHandle.fullFence();
            for (int o : origins) {
                comm.send(NOTHING, 0, MPI.BYTE, o, TAG_POST);
            }
            posted = origins;
            completions = done;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Closes the exposure epoch of {@link #post} (MPI_Win_wait): waits until every origin has
     * completed its access epoch.
     *
     * @throws MPIException ERR_RMA_SYNC without a post
     */
    public void waitFor() throws MPIException {
        String call = "MPI_Win_wait";
        Session.enter(call);
        try {
            checkPosted(call);
            Request.waitAll(completions);
            endExposure(call);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * As {@link #waitFor}, without waiting (MPI_Win_test).
     *
     * @return true if the exposure epoch has ended
     * @throws MPIException ERR_RMA_SYNC without a post
     */
    public boolean test() throws MPIException {
        String call = "MPI_Win_test";
        Session.enter(call);
        try {
            checkPosted(call);
            if (!Request.testAll(completions)) {
                return false;
            }
            endExposure(call);
            return true;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    private void checkPosted(String call) throws MPIException {
        checkOpen(call);
        if (posted == null) {
            throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": no post epoch is open");
        }
    }

    private void endExposure(String call) throws MPIException {
        posted = null;
        completions = null;
        VarHandle.fullFence();
        if (keepsPrivateCopy()) {
            reconcile(call, false);
        }
    }

    /**
     * Opens a passive-target epoch on rank {@code rank} (MPI_Win_lock): waits, parked, until this
     * rank holds the target's lock, which the master of the target's node grants.
     *
     * @param lockType  {@code MPI.LOCK_EXCLUSIVE} or {@code MPI.LOCK_SHARED}
     * @param rank      the target
     * @param assertion 0 or {@code MPI.MODE_NOCHECK} (no other rank locks the target meanwhile:
     *                  the master is not asked)
     * @throws MPIException ERR_LOCKTYPE, ERR_RANK, ERR_ASSERT; ERR_RMA_SYNC if the target is already
     *                      locked by this rank, or inside lockAll
     */
    public void lock(int lockType, int rank, int assertion) throws MPIException {
        String call = "MPI_Win_lock";
        SlaveRuntime rt = Session.enter(call);
        try {
            checkOpen(call);
            if (lockType != MPI.LOCK_EXCLUSIVE && lockType != MPI.LOCK_SHARED) {
                throw MPIException.of(MPI.ERR_LOCKTYPE, call + ": lock type " + lockType
                        + " is neither MPI.LOCK_EXCLUSIVE nor MPI.LOCK_SHARED");
            }
            checkAssert(call, assertion, MPI.MODE_NOCHECK);
            if (rank == MPI.PROC_NULL) {
                return;
            }
            checkRank(call, rank);
            if (lockAll || locks[rank] != 0) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": rank " + rank + " is already locked by this rank");
            }
            acquire(call, rt, rank, lockType == MPI.LOCK_EXCLUSIVE, (assertion & MPI.MODE_NOCHECK) != 0);
            locks[rank] = lockType | ((assertion & MPI.MODE_NOCHECK) != 0 ? LOCK_NOCHECK : 0);
            lockedTargets++;
            if (rank == this.rank && keepsPrivateCopy()) {
                reconcile(call, false);
            }
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Closes the passive-target epoch on rank {@code rank} (MPI_Win_unlock): its operations are
     * complete at the target, and the lock is released.
     *
     * @param rank the target
     * @throws MPIException ERR_RMA_SYNC if this rank does not hold the target's lock; ERR_RANK
     */
    public void unlock(int rank) throws MPIException {
        String call = "MPI_Win_unlock";
        SlaveRuntime rt = Session.enter(call);
        try {
            checkOpen(call);
            if (rank == MPI.PROC_NULL) {
                return;
            }
            checkRank(call, rank);
            if (lockAll || locks[rank] == 0) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": rank " + rank + " is not locked by this rank");
            }
            if (rank == this.rank && keepsPrivateCopy()) {
                reconcile(call, (locks[rank] & MPI.LOCK_EXCLUSIVE) != 0);
            }
            release(call, rt, rank, (locks[rank] & LOCK_NOCHECK) != 0);
            locks[rank] = 0;
            lockedTargets--;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Opens a passive-target epoch on every member with a shared lock (MPI_Win_lock_all).
     *
     * @param assertion 0 or {@code MPI.MODE_NOCHECK}
     * @throws MPIException ERR_RMA_SYNC if a lock epoch is open; ERR_ASSERT
     */
    public void lockAll(int assertion) throws MPIException {
        String call = "MPI_Win_lock_all";
        SlaveRuntime rt = Session.enter(call);
        try {
            checkOpen(call);
            checkAssert(call, assertion, MPI.MODE_NOCHECK);
            if (lockAll || lockedTargets > 0) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": a lock epoch is already open");
            }
            boolean noCheck = (assertion & MPI.MODE_NOCHECK) != 0;
            // In rank order, as every lockAll does: two of them never wait for each other.
            for (int r = 0; r < size; r++) {
                acquire(call, rt, r, false, noCheck);
                locks[r] = MPI.LOCK_SHARED | (noCheck ? LOCK_NOCHECK : 0);
            }
            lockAll = true;
            if (keepsPrivateCopy()) {
                reconcile(call, false);
            }
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Closes the epoch of {@link #lockAll} (MPI_Win_unlock_all).
     *
     * @throws MPIException ERR_RMA_SYNC without a lockAll
     */
    public void unlockAll() throws MPIException {
        String call = "MPI_Win_unlock_all";
        SlaveRuntime rt = Session.enter(call);
        try {
            checkOpen(call);
            if (!lockAll) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": no lockAll epoch is open");
            }
            if (keepsPrivateCopy()) {
                reconcile(call, false);
            }
            for (int r = 0; r < size; r++) {
                release(call, rt, r, (locks[r] & LOCK_NOCHECK) != 0);
                locks[r] = 0;
            }
            lockAll = false;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    private void acquire(String call, SlaveRuntime rt, int target, boolean exclusive, boolean noCheck)
            throws MPIException {
        if (!noCheck) {
            try {
                rt.winLock(comm.commId, target, exclusive, nodeOf[target]);
            } catch (IOException e) {
                throw Errors.transport(call, e);
            }
        }
    }

    private void release(String call, SlaveRuntime rt, int target, boolean noCheck) throws MPIException {
        VarHandle.fullFence();
        if (!noCheck) {
            try {
                rt.winUnlock(comm.commId, target, nodeOf[target]);
            } catch (IOException e) {
                throw Errors.transport(call, e);
            }
        }
    }

    /**
     * Completes this rank's operations to {@code targetRank} at origin and target (MPI_Win_flush).
     * Operations here are complete at the target when they return (on another node too: the
     * origin waits for the target's master to apply each), so this only orders memory.
     *
     * @param targetRank the target
     * @throws MPIException ERR_RMA_SYNC outside a lock epoch on the target; ERR_RANK
     */
    public void flush(int targetRank) throws MPIException {
        flushing("MPI_Win_flush", targetRank);
    }

    /**
     * As {@link #flush} for every target (MPI_Win_flush_all).
     *
     * @throws MPIException ERR_RMA_SYNC outside a lock epoch
     */
    public void flushAll() throws MPIException {
        flushing("MPI_Win_flush_all", -1);
    }

    /**
     * Completes this rank's operations to {@code targetRank} at the origin (MPI_Win_flush_local).
     *
     * @param targetRank the target
     * @throws MPIException as {@link #flush}
     */
    public void flushLocal(int targetRank) throws MPIException {
        flushing("MPI_Win_flush_local", targetRank);
    }

    /**
     * As {@link #flushLocal} for every target (MPI_Win_flush_local_all).
     *
     * @throws MPIException as {@link #flushAll}
     */
    public void flushLocalAll() throws MPIException {
        flushing("MPI_Win_flush_local_all", -1);
    }

    private void flushing(String call, int target) throws MPIException {
        Session.enter(call);
        try {
            checkOpen(call);
            if (target == MPI.PROC_NULL) {
                return;
            }
            if (target >= 0 || target < -1) {
                checkRank(call, target);
            }
            boolean inEpoch = lockAll || (target == -1 ? lockedTargets > 0 : locks[target] != 0);
            if (!inEpoch) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": no lock epoch is open"
                        + (target >= 0 ? " on rank " + target : ""));
            }
            VarHandle.fullFence();
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Reconciles the public and private copies of this rank's part (MPI_Win_sync): for a window
     * over the program's own buffer, updates by others are copied into the buffer, or else the
     * buffer into the public copy; for the others, a memory barrier.
     *
     * @throws MPIException ERR_WIN for a freed window
     */
    public void sync() throws MPIException {
        String call = "MPI_Win_sync";
        Session.enter(call);
        try {
            checkOpen(call);
            VarHandle.fullFence();
            if (keepsPrivateCopy()) {
                reconcile(call, true);
            }
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * One synchronization of a window over the program's buffer: the public copy goes into the
     * buffer if others changed it since the last one; else, if {@code publish}, the buffer goes
     * into the public copy. Only the calls after which no other rank can be accessing this part
     * publish (fence, post, sync, the end of an exclusive lock on itself): elsewhere a copy of
     * the whole buffer could overwrite another rank's concurrent put.
     */
    private void reconcile(String call, boolean publish) throws MPIException {
        if (regions != null) {
            regions.reconcile(memory.takeUpdated(), publish);
            return;
        }
        if (privateCopy == null) {
            return;
        }
        ByteBuffer pub = ownMemory(call);
        if (memory.takeUpdated()) {
            BufferAccess.unpack(pub, privateCopy, MPI.BYTE);
        } else if (publish) {
            copy(privateCopy, pub, pub.capacity());
        }
    }

    /** Whether this rank's part has a private copy to reconcile at synchronizations (a plain buffer). */
    private boolean keepsPrivateCopy() {
        return privateCopy != null || regions != null && regions.keepsPrivateCopies();
    }

    private ByteBuffer ownMemory(String call) throws MPIException {
        try {
            return memory.memory(rank);
        } catch (IOException e) {
            throw MPIException.of(MPI.ERR_WIN, call + ": cannot map this rank's part of the window: " + e);
        }
    }

    private static void copy(Buffer from, ByteBuffer to, int bytes) {
        BufferAccess.pack(from, bytes, MPI.BYTE, to.duplicate().clear());
    }

    private int[] ranksOf(String call, Group group) throws MPIException {
        if (group == null) {
            throw MPIException.of(MPI.ERR_GROUP, call + ": null group");
        }
        int[] world = group.worldRanks();
        int[] ranks = new int[world.length];
        for (int i = 0; i < world.length; i++) {
            Integer r = rankOfWorld.get(world[i]);
            if (r == null) {
                throw MPIException.of(MPI.ERR_GROUP, call + ": the group holds a process outside the window's group");
            }
            ranks[i] = r;
        }
        return ranks;
    }

    // ================================================================ BDMPI extension: shared memory

    /**
     * A view of rank {@code rank}'s part of the window (MPI_Win_shared_query, which Open MPI's Java
     * bindings lack): every part is shared memory here, so loads and stores through the view reach
     * the window directly, subject to the window's synchronization as MPI defines it for shared
     * windows. For a window over the program's buffer the view is the public copy.
     *
     * @param rank a rank of the window's group
     * @return a native-order view of the part, position 0, capacity its size in bytes
     * @throws MPIException ERR_RANK; ERR_RMA_FLAVOR for a dynamic window; ERR_RMA_SHARED for a rank
     *                      of another node; ERR_WIN
     */
    public ByteBuffer sharedQuery(int rank) throws MPIException {
        String call = "MPI_Win_shared_query";
        Session.enter(call);
        try {
            checkOpen(call);
            checkRank(call, rank);
            if (flavor == Flavor.DYNAMIC) {
                throw MPIException.of(MPI.ERR_RMA_FLAVOR, call + ": a dynamic window has no shared parts");
            }
            if (remote(rank)) {
                throw MPIException.of(MPI.ERR_RMA_SHARED, call + ": rank " + rank + " of the window runs on node "
                        + nodeOf[rank] + " and this rank on node " + nodeOf[this.rank] + ": only the parts of the ranks"
                        + " of one node are shared memory (use put, get and the accumulates for the others)");
            }
            return memory.memory(rank);
        } catch (IOException e) {
            throw handle(MPIException.of(MPI.ERR_WIN, call + ": cannot map rank " + rank + "'s part: " + e));
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Attaches memory to a dynamic window (MPI_Win_attach); local. Java programs cannot name
     * addresses, so a dynamic window's target displacements here are byte offsets (displacement
     * unit 1) into the concatenation of the target's attached regions in attach order: the first
     * region starts at 0, each next one where the previous ended, and a detached region leaves a
     * hole (the later ones do not move). Open MPI uses absolute addresses instead. An access must
     * lie in one attached region ({@code MPI.ERR_RMA_RANGE} otherwise), and the others see a
     * region from their synchronization with this rank after the attach on. The memory follows
     * the model of a window over the program's buffer: a plain direct buffer is copied into its
     * public copy now and at the synchronizations, a mapping of an off-heap array is used in place.
     *
     * @param base the memory (a direct buffer), from its base
     * @param size its size in elements of its type
     * @throws MPIException ERR_RMA_FLAVOR for a window that is not dynamic; ERR_RMA_ATTACH for a
     *                      buffer attached already; ERR_SIZE for a negative size, more than the
     *                      buffer or more than 1 GiB; ERR_NO_MEM when its public copy cannot be made
     * @throws IllegalArgumentException if {@code base} is not direct
     */
    public void attach(Buffer base, int size) throws MPIException {
        String call = "MPI_Win_attach";
        Session.enter(call);
        checkDirect(base, "base");
        try {
            checkDynamic(call);
            long bytes = (long) size * elementBytes(base);
            if (size < 0 || size > base.capacity() || bytes > MAX_SEGMENT_BYTES) {
                throw MPIException.of(MPI.ERR_SIZE, call + ": size " + size + " of a buffer of " + base.capacity()
                        + " elements (at most " + MAX_SEGMENT_BYTES + " bytes per region)");
            }
            regions.attach(call, base, (int) bytes);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Detaches memory from a dynamic window (MPI_Win_detach); local: its displacements become a
     * hole (see {@link #attach}).
     *
     * @param base the memory, as attached
     * @throws MPIException ERR_RMA_FLAVOR for a window that is not dynamic; ERR_RMA_ATTACH for a
     *                      buffer that is not attached
     * @throws IllegalArgumentException if {@code base} is not direct
     */
    public void detach(Buffer base) throws MPIException {
        String call = "MPI_Win_detach";
        Session.enter(call);
        checkDirect(base, "base");
        try {
            checkDynamic(call);
            regions.detach(call, base);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    private void checkDynamic(String call) throws MPIException {
        checkOpen(call);
        if (flavor != Flavor.DYNAMIC) {
            throw MPIException.of(MPI.ERR_RMA_FLAVOR, call + ": the window is not dynamic");
        }
    }

    // ================================================================ management

    /**
     * The group of the window's communicator.
     *
     * @return a new group
     * @throws MPIException ERR_WIN for a freed window
     */
    public Group getGroup() throws MPIException {
        String call = "MPI_Win_get_group";
        Session.enter(call);
        try {
            checkOpen(call);
            return comm.getGroup();
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * A window attribute: {@code MPI.WIN_BASE} (a {@code Long}, the address of this rank's part),
     * {@code MPI.WIN_SIZE} and {@code MPI.WIN_DISP_UNIT} ({@code Integer}s, in bytes), or the
     * value under a user key (a fresh copy; null when none is set).
     *
     * @param keyval the key
     * @return the value, or null
     * @throws MPIException ERR_KEYVAL for a key that is no window key
     */
    public Object getAttr(int keyval) throws MPIException {
        String call = "MPI_Win_get_attr";
        SlaveRuntime rt = Session.enter(call);
        try {
            checkOpen(call);
            if (keyval == MPI.WIN_BASE) {
                return baseAddress;
            }
            if (keyval == MPI.WIN_SIZE) {
                return memory.segment(rank).bytes();
            }
            if (keyval == MPI.WIN_DISP_UNIT) {
                return memory.segment(rank).dispUnit();
            }
            return attributes.get(call, rt, keyval);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * A new window keyval (MPI_Win_create_keyval).
     *
     * @return the key
     * @throws MPIException if MPI is not running
     */
    public static int createKeyval() throws MPIException {
        return Attributes.createKeyval(Attributes.Kind.WIN, "MPI_Win_create_keyval");
    }

    /**
     * Frees a window keyval (MPI_Win_free_keyval). As in MPI, values cached with it stay: they can
     * still be read and deleted, but no value can be set with it any more.
     *
     * @param keyval the key
     * @throws MPIException ERR_KEYVAL for a key that is not a window keyval
     */
    public static void freeKeyval(int keyval) throws MPIException {
        Attributes.freeKeyval(Attributes.Kind.WIN, keyval, "MPI_Win_free_keyval");
    }

    /**
     * Caches a serialized copy of {@code value} on this window (MPI_Win_set_attr).
     *
     * @param keyval a key from {@link #createKeyval}
     * @param value  a Serializable value
     * @throws MPIException ERR_KEYVAL; ERR_ARG when the value cannot be serialized
     */
    public void setAttr(int keyval, Object value) throws MPIException {
        String call = "MPI_Win_set_attr";
        Session.enter(call);
        try {
            checkOpen(call);
            attributes.set(call, keyval, value);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Removes the value under {@code keyval} (MPI_Win_delete_attr).
     *
     * @param keyval a key from {@link #createKeyval}
     * @throws MPIException ERR_KEYVAL
     */
    public void deleteAttr(int keyval) throws MPIException {
        String call = "MPI_Win_delete_attr";
        Session.enter(call);
        try {
            checkOpen(call);
            attributes.delete(call, keyval);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Names the window.
     *
     * @param name the name; cut to {@code MPI.MAX_OBJECT_NAME - 1} characters
     * @throws MPIException ERR_ARG for null
     */
    public void setName(String name) throws MPIException {
        String call = "MPI_Win_set_name";
        Session.enter(call);
        if (name == null) {
            throw handle(MPIException.of(MPI.ERR_ARG, call + ": null name"));
        }
        this.name = name.length() < MPI.MAX_OBJECT_NAME ? name : name.substring(0, MPI.MAX_OBJECT_NAME - 1);
    }

    /**
     * The window's name ("" until set).
     *
     * @return the name
     * @throws MPIException if MPI is not running
     */
    public String getName() throws MPIException {
        Session.enter("MPI_Win_get_name");
        return name;
    }

    /**
     * Replaces the window's hints (MPI_Win_set_info).
     *
     * @param info the hints
     * @throws MPIException ERR_INFO for null
     */
    public void setInfo(Info info) throws MPIException {
        String call = "MPI_Win_set_info";
        Session.enter(call);
        if (info == null) {
            throw handle(MPIException.of(MPI.ERR_INFO, call + ": null info"));
        }
        this.info = info.isNull() ? new Info() : info.dup();
    }

    /**
     * The window's hints (MPI_Win_get_info).
     *
     * @return a new Info holding them
     * @throws MPIException if MPI is not running
     */
    public Info getInfo() throws MPIException {
        Session.enter("MPI_Win_get_info");
        return info.dup();
    }

    /**
     * Sets the window's error handler.
     *
     * @param errhandler {@code MPI.ERRORS_ARE_FATAL} (the default), {@code MPI.ERRORS_ABORT} or {@code MPI.ERRORS_RETURN}
     * @throws MPIException ERR_ARG for null
     */
    public void setErrhandler(Errhandler errhandler) throws MPIException {
        Session.enter("MPI_Win_set_errhandler");
        if (errhandler == null) {
            throw handle(MPIException.of(MPI.ERR_ARG, "MPI_Win_set_errhandler: null error handler"));
        }
        this.errhandler = errhandler;
    }

    /**
     * The window's error handler.
     *
     * @return the handler
     * @throws MPIException if MPI is not running
     */
    public Errhandler getErrhandler() throws MPIException {
        Session.enter("MPI_Win_get_errhandler");
        return errhandler;
    }

    /**
     * Runs the window's error handler on {@code errorCode}; under {@code MPI.ERRORS_RETURN} it
     * returns normally, as in Open MPI.
     *
     * @param errorCode an error class
     * @throws MPIException never under ERRORS_RETURN; a fatal handler ends the job
     */
    public void callErrhandler(int errorCode) throws MPIException {
        handle(MPIException.of(errorCode, "MPI_Win_call_errhandler: error code " + errorCode + " on window " + name));
    }

    /**
     * Frees the window (MPI_Win_free), collective over its group: every member's operations are
     * complete, and the window's files are removed.
     *
     * @throws MPIException ERR_RMA_SYNC while a lock, start or post epoch is open; ERR_WIN if freed
     */
    @Override
    public void free() throws MPIException {
        String call = "MPI_Win_free";
        Session.enter(call);
        try {
            checkOpen(call);
            if (lockAll || lockedTargets > 0 || started != null || posted != null) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": a lock, start or post epoch is open");
            }
            VarHandle.fullFence();
            comm.barrier(); // nobody uses any part any more
            freed = true;
            if (regions != null) {
                regions.close();
            }
            memory.close();
            deleteArray(arrayName);
            comm.barrier();
            if (isNodeLeader()) {
                deleteQuietly(controlFile);
            }
            comm.free();
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    private static void deleteArray(String array) {
        if (array != null) {
            try {
                Session.runtime().arrays().delete(array);
            } catch (IOException | MPIException e) {
                // Its file goes with the job's work directory.
            }
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // It goes with the job's work directory.
        }
    }

    private MPIException handle(MPIException e) {
        return errhandler.apply(e);
    }

    @Override
    public String toString() {
        return "Win[" + (name.isEmpty() ? flavor.name().toLowerCase(Locale.ROOT) : name) + ", " + size + " members]";
    }
}
