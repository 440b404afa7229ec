package io.bdmpi.master.internode;

import com.kenai.jffi.Library;
import com.kenai.jffi.MemoryIO;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.mapper.FromNativeContext;
import jnr.ffi.mapper.FromNativeType;
import jnr.ffi.mapper.SignatureType;
import jnr.ffi.mapper.SignatureTypeMapper;
import jnr.ffi.mapper.ToNativeContext;
import jnr.ffi.mapper.ToNativeConverter;
import jnr.ffi.mapper.ToNativeType;
import jnr.ffi.mapper.ToNativeTypes;

import java.lang.annotation.Annotation;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The system's MPI library as the masters use it: the few calls they make, for either ABI (MPICH's
 * or Open MPI's, see {@link MpiConventions}), with communicators and requests as Java ints of
 * bdmpi's own (slot numbers, see {@link HandleSlots}) and every error turned into an
 * {@link MpiException}. The constants below are bdmpi's; they are translated to the library's.
 *
 * <p>Not thread-safe, on purpose: one thread at a time calls it, the {@link Pump} decides which
 * ({@code MPI_THREAD_SERIALIZED} when the library provides it, else only the pump thread).
 * Buffers handed to {@link #isend} and {@link #irecv} must be direct and must stay untouched until
 * {@link #test} reports their request complete.
 */
public final class MpiLibrary {

    /** {@code MPI_COMM_WORLD}. */
    public static final int COMM_WORLD = 0;
    /** {@code MPI_COMM_NULL}: what a split with {@link #UNDEFINED} colour returns. */
    public static final int COMM_NULL = -1;
    /** {@code MPI_UNDEFINED}: the split colour of a process that wants no new communicator. */
    public static final int UNDEFINED = -32766;
    /** {@code MPI_ANY_SOURCE}. */
    public static final int ANY_SOURCE = -2;
    /** {@code MPI_ANY_TAG}. */
    public static final int ANY_TAG = -1;
    static final int THREAD_FUNNELED = 1;
    /** Any thread may call, one at a time: what {@link #init} asks for. */
    static final int THREAD_SERIALIZED = 2;
    private static final int SUCCESS = 0;
    private static final int MAX_ERROR_STRING = 1024;
    /** Slots first made for requests in flight; they grow as needed. */
    private static final int REQUEST_SLOTS = 64;
    private static final int COMM_SLOTS = 8;

    private final MpiFunctions mpi;
    private final MpiConventions abi;
    private final Runtime runtime;
    private final String library;
    private final Pointer scratch;
    private final Pointer status;
    private final HandleSlots comms;
    private final HandleSlots requests;

    private MpiLibrary(MpiFunctions mpi, MpiConventions abi, String library) {
        this.mpi = mpi;
        this.abi = abi;
        this.runtime = Runtime.getRuntime(mpi);
        this.library = library;
        this.scratch = Memory.allocateDirect(runtime, 8);
        this.status = Memory.allocateDirect(runtime, abi.statusBytes());
        this.comms = new HandleSlots(runtime, abi.handleBytes(), COMM_SLOTS);
        this.requests = new HandleSlots(runtime, abi.handleBytes(), REQUEST_SLOTS);
        comms.put(comms.claim(), abi.commWorld()); // the first slot: COMM_WORLD
    }

    /**
     * Loads the library chosen by {@link MpiAbi#choose} and binds it with its ABI's conventions.
     *
     * @throws IllegalStateException when the library cannot be loaded or does not have the ABI chosen
     */
    public static MpiLibrary load(MpiAbi.Choice choice) {
        keepUcxOffJvmSignals();
        // Global symbols: the library's own plugins (Open MPI's MCA components, network providers)
        // resolve against it, and fail to load if it was opened RTLD_LOCAL.
        Library library = Library.getCachedInstance(choice.library(), Library.GLOBAL | Library.LAZY);
        if (library == null) {
            throw new IllegalStateException("cannot load the MPI library " + choice.library() + ": " + Library.getLastError());
        }
        int addressBytes = Runtime.getSystemRuntime().addressSize();
        MpiConventions abi = choice.abi() == MpiAbi.MPICH ? new MpichConventions()
                : new OpenMpiConventions(library, choice.library(), addressBytes);
        LibraryLoader<MpiFunctions> loader = LibraryLoader.create(MpiFunctions.class).failImmediately();
        if (abi.handleBytes() == Integer.BYTES) {
            loader.mapper(new IntHandles());
        } else if (abi.handleBytes() != Long.BYTES) {
            throw new IllegalStateException("MPI handles of " + abi.handleBytes() + " bytes are not supported");
        }
        return new MpiLibrary(loader.load(choice.library()), abi, choice.library());
    }

    /**
     * Passes the {@link MpiFunctions.Handle} parameters as C {@code int}s (MPICH's handles). Without
     * it they go as 64-bit values, Open MPI's addresses on a 64-bit system.
     */
    private static final class IntHandles implements SignatureTypeMapper {
        private static final ToNativeType NARROW = ToNativeTypes.create(new ToNativeConverter<Long, Integer>() {
            @Override
            public Integer toNative(Long handle, ToNativeContext context) {
                return Math.toIntExact(handle);
            }

            @Override
            public Class<Integer> nativeType() {
                return Integer.class;
            }
        });

        @Override
        public FromNativeType getFromNativeType(SignatureType type, FromNativeContext context) {
            return null;
        }

        @Override
        public ToNativeType getToNativeType(SignatureType type, ToNativeContext context) {
            for (Annotation a : type.getAnnotations()) {
                if (a instanceof MpiFunctions.Handle) {
                    return NARROW;
                }
            }
            return null;
        }
    }

    /** The C library's setenv, to set variables the MPI library reads at init. */
    public interface LibC {
        int setenv(String name, String value, int overwrite);
    }

    /**
     * UCX (MPICH's network layer on many systems) catches SIGSEGV and SIGBUS to print backtraces;
     * the JVM uses those signals itself (null checks, safepoints), so UCX would kill the master. Its
     * handlers are switched off unless the user set these variables.
     */
    private static void keepUcxOffJvmSignals() {
        LibC libc = LibraryLoader.create(LibC.class).load("c");
        libc.setenv("UCX_ERROR_SIGNALS", "", 0);
        libc.setenv("UCX_HANDLE_ERRORS", "none", 0);
    }

    /** The library's path or name, for messages. */
    public String library() {
        return library;
    }

    /**
     * MPI_Init_thread(SERIALIZED); errors on COMM_WORLD are returned (not fatal) from then on.
     *
     * @return whether other threads than this one may call MPI, one at a time (the library
     *         provides {@code MPI_THREAD_SERIALIZED}); when not, only this thread may
     * @throws MpiException when the library does not provide even {@code MPI_THREAD_FUNNELED}
     */
    public boolean init() {
        check(mpi.MPI_Init_thread(null, null, THREAD_SERIALIZED, scratch), "MPI_Init_thread");
        int provided = scratch.getInt(0);
        if (provided < THREAD_FUNNELED) {
            throw new MpiException("MPI_Init_thread: the library provides thread level " + provided
                    + ", bdmpi needs MPI_THREAD_FUNNELED");
        }
        check(mpi.MPI_Comm_set_errhandler(abi.commWorld(), abi.errorsReturn()), "MPI_Comm_set_errhandler");
        return provided >= THREAD_SERIALIZED;
    }

    public boolean isInitialized() {
        check(mpi.MPI_Initialized(scratch), "MPI_Initialized");
        return scratch.getInt(0) != 0;
    }

    public boolean isFinalized() {
        check(mpi.MPI_Finalized(scratch), "MPI_Finalized");
        return scratch.getInt(0) != 0;
    }

    public void finish() {
        check(mpi.MPI_Finalize(), "MPI_Finalize");
    }

    /** Ends every process of the job; returns only if the library failed to. */
    public void abort(int errorCode) {
        mpi.MPI_Abort(abi.commWorld(), errorCode);
    }

    public int rank(int comm) {
        check(mpi.MPI_Comm_rank(comms.get(comm), scratch), "MPI_Comm_rank");
        return scratch.getInt(0);
    }

    public int size(int comm) {
        check(mpi.MPI_Comm_size(comms.get(comm), scratch), "MPI_Comm_size");
        return scratch.getInt(0);
    }

    /** MPI_Comm_split; {@link #COMM_NULL} for a caller of colour {@link #UNDEFINED}. Collective over {@code comm}. */
    public int split(int comm, int color, int key) {
        int made = claim(comms, "MPI_Comm_split",
                slot -> mpi.MPI_Comm_split(comms.get(comm), color == UNDEFINED ? abi.undefined() : color, key, slot));
        if (comms.get(made) == abi.commNull()) {
            comms.release(made);
            return COMM_NULL;
        }
        check(mpi.MPI_Comm_set_errhandler(comms.get(made), abi.errorsReturn()), "MPI_Comm_set_errhandler");
        return made;
    }

    /** MPI_Comm_free of a communicator {@link #split} made. */
    public void free(int comm) {
        if (comm == COMM_WORLD) {
            throw new IllegalArgumentException("MPI_COMM_WORLD cannot be freed");
        }
        check(mpi.MPI_Comm_free(comms.address(comm)), "MPI_Comm_free");
        comms.release(comm);
    }

    /** Starts sending the buffer's remaining bytes; returns the request. */
    public int isend(ByteBuffer buffer, int dest, int tag, int comm) {
        return claim(requests, "MPI_Isend", r -> mpi.MPI_Isend(address(buffer), buffer.remaining(), abi.byteType(), dest, tag,
                comms.get(comm), r));
    }

    /** Starts receiving into the buffer's remaining bytes; returns the request. */
    public int irecv(ByteBuffer buffer, int source, int tag, int comm) {
        return claim(requests, "MPI_Irecv", r -> mpi.MPI_Irecv(address(buffer), buffer.remaining(), abi.byteType(), source(source),
                tag(tag), comms.get(comm), r));
    }

    /** MPI_Ibarrier; returns the request. */
    public int ibarrier(int comm) {
        return claim(requests, "MPI_Ibarrier", r -> mpi.MPI_Ibarrier(comms.get(comm), r));
    }

    /** A message that {@link #iprobe} found: its envelope and length in bytes. */
    public record Probed(int source, int tag, int count) {
    }

    /** MPI_Iprobe; null when no matching message has arrived. */
    public Probed iprobe(int source, int tag, int comm) {
        check(mpi.MPI_Iprobe(source(source), tag(tag), comms.get(comm), scratch, status), "MPI_Iprobe");
        if (scratch.getInt(0) == 0) {
            return null;
        }
        check(mpi.MPI_Get_count(status, abi.byteType(), scratch), "MPI_Get_count");
        return new Probed(status.getInt(abi.statusSourceOffset()), status.getInt(abi.statusTagOffset()), scratch.getInt(0));
    }

    /** MPI_Test: whether the request has completed (it is then freed by the library). */
    public boolean test(int request) {
        check(mpi.MPI_Test(requests.address(request), scratch, status), "MPI_Test");
        boolean done = scratch.getInt(0) != 0;
        if (done) {
            requests.release(request);
        }
        return done;
    }

    /** MPI_Cancel: asks for the request to end; {@link #test} still has to see it complete. */
    public void cancel(int request) {
        check(mpi.MPI_Cancel(requests.address(request)), "MPI_Cancel");
    }

    /** A call that makes a handle (a request, a communicator) and writes it to the address given. */
    private interface Maker {
        int call(Pointer handle);
    }

    /** Makes a handle into a new slot of {@code slots}; returns the slot, or frees it if the call fails. */
    private int claim(HandleSlots slots, String name, Maker maker) {
        int slot = slots.claim();
        try {
            check(maker.call(slots.address(slot)), name);
        } catch (RuntimeException e) {
            slots.release(slot);
            throw e;
        }
        return slot;
    }

    private int source(int source) {
        return source == ANY_SOURCE ? abi.anySource() : source;
    }

    private int tag(int tag) {
        return tag == ANY_TAG ? abi.anyTag() : tag;
    }

    private Pointer address(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("MPI needs a direct buffer (its address must not move)");
        }
        return Pointer.wrap(runtime, MemoryIO.getInstance().getDirectBufferAddress(buffer) + buffer.position());
    }

    private void check(int code, String call) {
        if (code != SUCCESS) {
            throw new MpiException(call + " failed: " + errorString(code) + " (" + library + ")");
        }
    }

    private String errorString(int code) {
        Pointer text = Memory.allocateDirect(runtime, MAX_ERROR_STRING);
        Pointer length = Memory.allocateDirect(runtime, Integer.BYTES);
        if (mpi.MPI_Error_string(code, text, length) != SUCCESS) {
            return "error " + code;
        }
        byte[] bytes = new byte[Math.min(length.getInt(0), MAX_ERROR_STRING)];
        text.get(0, bytes, 0, bytes.length);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
