package io.bdmpi.master.internode;

import com.kenai.jffi.Library;
import com.kenai.jffi.MemoryIO;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The system's MPI library as the masters use it: the few calls of an MPICH-ABI {@code libmpi},
 * with handles as Java ints and every error turned into an {@link MpiException}.
 *
 * <p>Not thread-safe, on purpose: only the {@link Pump} thread calls it ({@code MPI_THREAD_FUNNELED}).
 * Buffers handed to {@link #isend} and {@link #irecv} must be direct and must stay untouched until
 * {@link #test} reports their request complete.
 */
public final class MpiLibrary {

    /** {@code MPI_COMM_WORLD} of the MPICH ABI. */
    public static final int COMM_WORLD = 0x44000000;
    /** {@code MPI_COMM_NULL}: what a split with {@link #UNDEFINED} colour returns. */
    public static final int COMM_NULL = 0x04000000;
    /** {@code MPI_UNDEFINED}: the split colour of a process that wants no new communicator. */
    public static final int UNDEFINED = -32766;
    /** {@code MPI_ANY_SOURCE} of the MPICH ABI. */
    public static final int ANY_SOURCE = -2;
    /** {@code MPI_ANY_TAG}. */
    public static final int ANY_TAG = -1;
    static final int BYTE = 0x4c00010d;
    static final int REQUEST_NULL = 0x2c000000;
    static final int ERRORS_RETURN = 0x54000001;
    static final int THREAD_FUNNELED = 1;
    private static final int SUCCESS = 0;
    /** MPI_Status: count_lo, count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR. */
    private static final int STATUS_BYTES = 5 * Integer.BYTES;
    private static final int STATUS_SOURCE = 8;
    private static final int STATUS_TAG = 12;
    private static final int MAX_ERROR_STRING = 1024;

    private final MpichFunctions mpi;
    private final Runtime runtime;
    private final String library;
    private final Pointer scratch;
    private final Pointer status;
    private final Pointer request;

    private MpiLibrary(MpichFunctions mpi, String library) {
        this.mpi = mpi;
        this.runtime = Runtime.getRuntime(mpi);
        this.library = library;
        this.scratch = Memory.allocateDirect(runtime, 8);
        this.status = Memory.allocateDirect(runtime, STATUS_BYTES);
        this.request = Memory.allocateDirect(runtime, 8);
    }

    /**
     * Loads the library chosen by {@link MpiAbi#choose}.
     *
     * @throws IllegalStateException when the library cannot be loaded or speaks an ABI not bound yet
     */
    public static MpiLibrary load(MpiAbi.Choice choice) {
        if (choice.abi() != MpiAbi.MPICH) {
            throw new IllegalStateException("the MPI library " + choice.library() + " has Open MPI's ABI, which bdmpi does"
                    + " not bind yet; install MPICH (Debian: apt-get install mpich) or set " + MpiAbi.LIBRARY_VARIABLE
                    + " to an MPICH-ABI library");
        }
        keepUcxOffJvmSignals();
        // Global symbols: the library's own plugins (network providers) resolve against it.
        if (Library.getCachedInstance(choice.library(), Library.GLOBAL | Library.LAZY) == null) {
            throw new IllegalStateException("cannot load the MPI library " + choice.library() + ": " + Library.getLastError());
        }
        MpichFunctions f = LibraryLoader.create(MpichFunctions.class).failImmediately().load(choice.library());
        return new MpiLibrary(f, choice.library());
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

    /** MPI_Init_thread(FUNNELED); errors on COMM_WORLD are returned (not fatal) from then on. */
    public void init() {
        check(mpi.MPI_Init_thread(null, null, THREAD_FUNNELED, scratch), "MPI_Init_thread");
        int provided = scratch.getInt(0);
        if (provided < THREAD_FUNNELED) {
            throw new MpiException("MPI_Init_thread: the library provides thread level " + provided
                    + ", bdmpi needs MPI_THREAD_FUNNELED");
        }
        check(mpi.MPI_Comm_set_errhandler(COMM_WORLD, ERRORS_RETURN), "MPI_Comm_set_errhandler");
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
        mpi.MPI_Abort(COMM_WORLD, errorCode);
    }

    public int rank(int comm) {
        check(mpi.MPI_Comm_rank(comm, scratch), "MPI_Comm_rank");
        return scratch.getInt(0);
    }

    public int size(int comm) {
        check(mpi.MPI_Comm_size(comm, scratch), "MPI_Comm_size");
        return scratch.getInt(0);
    }

    /** MPI_Comm_split; {@link #COMM_NULL} for a caller of colour {@link #UNDEFINED}. Collective over {@code comm}. */
    public int split(int comm, int color, int key) {
        check(mpi.MPI_Comm_split(comm, color, key, scratch), "MPI_Comm_split");
        int made = scratch.getInt(0);
        if (made != COMM_NULL) {
            check(mpi.MPI_Comm_set_errhandler(made, ERRORS_RETURN), "MPI_Comm_set_errhandler");
        }
        return made;
    }

    public void free(int comm) {
        scratch.putInt(0, comm);
        check(mpi.MPI_Comm_free(scratch), "MPI_Comm_free");
    }

    /** Starts sending the buffer's remaining bytes; returns the request. */
    public int isend(ByteBuffer buffer, int dest, int tag, int comm) {
        check(mpi.MPI_Isend(address(buffer), buffer.remaining(), BYTE, dest, tag, comm, request), "MPI_Isend");
        return request.getInt(0);
    }

    /** Starts receiving into the buffer's remaining bytes; returns the request. */
    public int irecv(ByteBuffer buffer, int source, int tag, int comm) {
        check(mpi.MPI_Irecv(address(buffer), buffer.remaining(), BYTE, source, tag, comm, request), "MPI_Irecv");
        return request.getInt(0);
    }

    /** MPI_Ibarrier; returns the request. */
    public int ibarrier(int comm) {
        check(mpi.MPI_Ibarrier(comm, request), "MPI_Ibarrier");
        return request.getInt(0);
    }

    /** A message that {@link #iprobe} found: its envelope and length in bytes. */
    public record Probed(int source, int tag, int count) {
    }

    /** MPI_Iprobe; null when no matching message has arrived. */
    public Probed iprobe(int source, int tag, int comm) {
        check(mpi.MPI_Iprobe(source, tag, comm, scratch, status), "MPI_Iprobe");
        if (scratch.getInt(0) == 0) {
            return null;
        }
        check(mpi.MPI_Get_count(status, BYTE, scratch), "MPI_Get_count");
        return new Probed(status.getInt(STATUS_SOURCE), status.getInt(STATUS_TAG), scratch.getInt(0));
    }

    /** MPI_Test: whether the request has completed (it is then freed by the library). */
    public boolean test(int req) {
        request.putInt(0, req);
        check(mpi.MPI_Test(request, scratch, status), "MPI_Test");
        return scratch.getInt(0) != 0;
    }

    /** MPI_Cancel: asks for the request to end; {@link #test} still has to see it complete. */
    public void cancel(int req) {
        request.putInt(0, req);
        check(mpi.MPI_Cancel(request), "MPI_Cancel");
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
