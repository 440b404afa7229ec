package io.bdmpi.ooc;

import com.kenai.jffi.CallContext;
import com.kenai.jffi.CallingConvention;
import com.kenai.jffi.Invoker;
import com.kenai.jffi.LastError;
import com.kenai.jffi.Library;
import com.kenai.jffi.MemoryIO;
import com.kenai.jffi.Type;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The few libc calls that steer the residency of memory-mapped data, bound with jffi (the JDK
 * has no madvise, mlock or mincore; jnr-posix lacks them too). Linux only. Bound on first use, so
 * a slave that never uses off-heap arrays does not pay for them.
 */
public final class Libc {

    /** The system property from which jffi takes the directory of its native stub. */
    private static final String NATIVE_STUB_PATH = "jffi.boot.library.path";

    /** The kernel reads these pages ahead, asynchronously. */
    static final int MADV_WILLNEED = 3;
    /** Read ahead aggressively; pages behind may be dropped soon. */
    static final int MADV_SEQUENTIAL = 2;
    /** Back to the default read-ahead. */
    static final int MADV_NORMAL = 0;
    /** Drop the mapping's pages from this process; for a shared file mapping the data stays in the file/page cache. */
    static final int MADV_DONTNEED = 4;
    static final int MADV_HUGEPAGE = 14;
    /** Reclaim these pages now (Linux 5.4+): clean ones are freed, dirty ones written back first. Never loses data. */
    static final int MADV_PAGEOUT = 21;
    private static final int EINVAL = 22;
    private static final int O_RDONLY = 0;
    /** Drop these clean, unmapped pages of a file from the page cache. */
    private static final int POSIX_FADV_DONTNEED = 4;
    /** Read these pages of a file into the page cache, in the background. */
    private static final int POSIX_FADV_WILLNEED = 3;
    /**
     * Bytes per WILLNEED advice (madvise or fadvise): the kernel reads at most one read-ahead
     * window (the device's read_ahead_kb, often 128 KiB) per call, so a larger range is advised
     * in slices of that size.
     */
    static final long READ_AHEAD_SLICE = 128 << 10;

    /**
     * The calls, bound with jffi (jnr-ffi's native layer) directly: each is a libc symbol's address
     * and the call context jffi's generic invoker calls it with. jnr-ffi's {@code LibraryLoader}
     * would generate, load and verify a stub class with ASM, 0.25 to 0.3 s of a JVM's CPU (130 to
     * 165 ms on the binding thread, the rest mostly compiling the generator), for eight calls whose
     * arguments are all numbers but two; a call costs the same either way (jnr-ffi's stubs call
     * the same invoker). The calls whose callers report {@code errno} save it ({@link
     * #lastError}), as jnr-ffi's {@code @SaveError} did.
     */
    private static final class Calls {
        private final Invoker invoker = Invoker.getInstance();
        private final MemoryIO memory = MemoryIO.getInstance();
        private final Call mlock = Call.of("mlock", true, Type.POINTER, Type.ULONG);
        private final Call munlock = Call.of("munlock", true, Type.POINTER, Type.ULONG);
        private final Call madvise = Call.of("madvise", true, Type.POINTER, Type.ULONG, Type.SINT);
        private final Call mincore = Call.of("mincore", true, Type.POINTER, Type.ULONG, Type.POINTER);
        private final Call getpagesize = Call.of("getpagesize", false);
        private final Call open = Call.of("open", true, Type.POINTER, Type.SINT);
        /** Returns the error number itself (0 on success), not -1 and errno. */
        private final Call posixFadvise = Call.of("posix_fadvise", false, Type.SINT, Type.SINT64, Type.SINT64, Type.SINT);
        private final Call close = Call.of("close", false, Type.SINT);

        int mlock(long addr, long len) {
            return (int) invoker.invokeN2(mlock.context, mlock.address, addr, len);
        }

        int munlock(long addr, long len) {
            return (int) invoker.invokeN2(munlock.context, munlock.address, addr, len);
        }

        int madvise(long addr, long len, int advice) {
            return (int) invoker.invokeN3(madvise.context, madvise.address, addr, len, advice);
        }

        /** mincore into {@code vec} (one byte per page, at least {@code len / page size} bytes), through native memory. */
        int mincore(long addr, long len, byte[] vec) {
            int pages = (int) ((len + pageSize() - 1) / pageSize());
            if (vec.length < pages) {
                throw new IllegalArgumentException("mincore of " + pages + " pages into " + vec.length + " bytes");
            }
            long nativeVec = memory.allocateMemory(pages, false);
            if (nativeVec == 0) {
                throw new OutOfMemoryError("mincore: no native memory for " + pages + " bytes");
            }
            try {
                int rc = (int) invoker.invokeN3(mincore.context, mincore.address, addr, len, nativeVec);
                if (rc == 0) {
                    memory.getByteArray(nativeVec, vec, 0, pages);
                }
                return rc;
            } finally {
                memory.freeMemory(nativeVec);
            }
        }

        int getpagesize() {
            return (int) invoker.invokeN0(getpagesize.context, getpagesize.address);
        }

        /** open(2) of a path, encoded as the JDK encodes file names. */
        int open(String path, int flags) {
            byte[] bytes = path.getBytes(FILE_NAMES);
            long cPath = memory.allocateMemory(bytes.length + 1, false);
            if (cPath == 0) {
                throw new OutOfMemoryError("open: no native memory for a path of " + bytes.length + " bytes");
            }
            try {
                memory.putZeroTerminatedByteArray(cPath, bytes, 0, bytes.length);
                return (int) invoker.invokeN2(open.context, open.address, cPath, flags);
            } finally {
                memory.freeMemory(cPath);
            }
        }

        int posixFadvise(int fd, long offset, long len, int advice) {
            return (int) invoker.invokeN4(posixFadvise.context, posixFadvise.address, fd, offset, len, advice);
        }

        int close(int fd) {
            return (int) invoker.invokeN1(close.context, close.address, fd);
        }

        /** The {@code errno} the last call of this thread that saves it left. */
        int lastError() {
            return LastError.getInstance().get();
        }
    }

    /** A libc function returning an int: its address and how jffi calls it. */
    private record Call(long address, CallContext context) {
        static Call of(String symbol, boolean savesErrno, Type... parameters) {
            // The process's own symbols: the JVM is linked with libc, whichever it is.
            long address = Library.getDefault().getSymbolAddress(symbol);
            if (address == 0) {
                throw new UnsatisfiedLinkError("libc has no " + symbol + ": " + Library.getLastError());
            }
            return new Call(address, CallContext.getCallContext(Type.SINT, parameters, CallingConvention.DEFAULT, savesErrno));
        }
    }

    /** How the JDK encodes file names for the kernel (what {@code Path} hands to open(2)). */
    private static final Charset FILE_NAMES = fileNameCharset();

    private static Charset fileNameCharset() {
        String name = System.getProperty("sun.jnu.encoding");
        try {
            return name == null ? Charset.defaultCharset() : Charset.forName(name);
        } catch (IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }

    /**
     * Binding the calls costs a JVM about 40 ms of CPU: jffi's classes and native library, the
     * symbols' look-ups and call contexts, the first call.
     * Whoever comes first runs it: a thread of {@link #bindInBackground} or the first call.
     */
    private static final AtomicBoolean BACKGROUND_STARTED = new AtomicBoolean();
    private static final FutureTask<Calls> BINDING = new FutureTask<>(Calls::new);

    private static final class Holder {
        static final Calls CALLS = bound();
        static final int PAGE_SIZE = CALLS.getpagesize();
    }

    private Libc() {
    }

    /**
     * Starts binding the calls on a daemon thread of its own, for a process that will need them
     * soon (a rank that opened its {@link ArrayStore} releases its arrays at its first park): it
     * then binds on a core the rank's own work leaves idle, not on the rank's path. Once only.
     */
    static void bindInBackground() {
        if (BACKGROUND_STARTED.compareAndSet(false, true)) {
            Thread t = new Thread(BINDING, "bdmpi-libc-binding");
            t.setDaemon(true);
            t.start();
        }
    }

    /** The bound calls: binds them here unless another thread is at it, then waits for it. */
    private static Calls bound() {
        BINDING.run(); // returns at once if the background thread has started it
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return BINDING.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("binding libc failed", cause);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static int pageSize() {
        return Holder.PAGE_SIZE;
    }

    /** The start of the page that holds {@code address}: the kernel's calls take whole pages. */
    static long pageStart(long address) {
        return address & -(long) pageSize();
    }

    /** The native address of a direct buffer of any element type (its base, ignoring position). */
    public static long address(java.nio.Buffer direct) {
        return MemoryIO.getInstance().getDirectBufferAddress(direct);
    }

    static void mlock(long addr, long len) throws IOException {
        check(Holder.CALLS.mlock(addr, len), "mlock", len);
    }

    static void munlock(long addr, long len) throws IOException {
        check(Holder.CALLS.munlock(addr, len), "munlock", len);
    }

    static void madvise(long addr, long len, int advice) throws IOException {
        check(Holder.CALLS.madvise(addr, len, advice), "madvise(" + advice + ")", len);
    }

    /**
     * {@code madvise(MADV_PAGEOUT)}; false (nothing done) on a kernel without it.
     */
    static boolean pageOut(long addr, long len) throws IOException {
        if (Holder.CALLS.madvise(addr, len, MADV_PAGEOUT) == 0) {
            return true;
        }
        int errno = Holder.CALLS.lastError();
        if (errno == EINVAL) {
            return false;
        }
        throw new IOException("madvise(MADV_PAGEOUT) of " + len + " bytes failed: errno " + errno);
    }

    /**
     * Drops a file's clean pages that no process maps from the page cache ({@code posix_fadvise
     * DONTNEED}): what {@code MADV_PAGEOUT} does not reach, e.g. pages read ahead but never touched;
     * the {@code length} bytes from {@code offset}, or to the end of the file if {@code length} is 0.
     */
    static void dropCleanPages(Path file, long offset, long length) throws IOException {
        if (!withOpenFile(file, fd -> advise(fd, file, offset, length, POSIX_FADV_DONTNEED))) {
            throw new IOException("open " + file + " failed: errno " + Holder.CALLS.lastError());
        }
    }

    /**
     * Starts reading the first {@code bytes} of a file into the page cache ({@code posix_fadvise
     * WILLNEED}, which queues the reads and returns), in slices of {@link #READ_AHEAD_SLICE}.
     * False if the file could not be opened (e.g. deleted meanwhile).
     */
    static boolean willNeed(Path file, long bytes) throws IOException {
        return willNeed(file, 0, bytes);
    }

    /** As {@link #willNeed(Path, long)}, for the {@code length} bytes at {@code offset}. */
    public static boolean willNeed(Path file, long offset, long length) throws IOException {
        return withOpenFile(file, fd -> {
            for (long at = 0; at < length; at += READ_AHEAD_SLICE) {
                advise(fd, file, offset + at, Math.min(READ_AHEAD_SLICE, length - at), POSIX_FADV_WILLNEED);
            }
        });
    }

    /** Something done with a file descriptor. */
    private interface FdAction {
        void run(int fd) throws IOException;
    }

    /** Runs {@code action} on the file opened read-only; false if it could not be opened. */
    private static boolean withOpenFile(Path file, FdAction action) throws IOException {
        int fd = Holder.CALLS.open(file.toString(), O_RDONLY);
        if (fd < 0) {
            return false;
        }
        try {
            action.run(fd);
            return true;
        } finally {
            Holder.CALLS.close(fd);
        }
    }

    /** {@code posix_fadvise} of {@code len} bytes from {@code offset} (0: to the end). */
    private static void advise(int fd, Path file, long offset, long len, int advice) throws IOException {
        int err = Holder.CALLS.posixFadvise(fd, offset, len, advice);
        if (err != 0) {
            throw new IOException("posix_fadvise(" + advice + ") of " + file + " failed: errno " + err);
        }
    }

    /** How many pages of {@code [addr, addr+len)} are in memory (page cache, for file mappings). */
    static long residentPages(long addr, long len) throws IOException {
        int page = pageSize();
        long pages = (len + page - 1) / page;
        long resident = 0;
        // mincore fills one byte per page: ask in slices, so a huge region needs no huge vector.
        int slicePages = (int) Math.min(1 << 16, pages);
        byte[] vec = new byte[slicePages];
        for (long p = 0; p < pages; p += slicePages) {
            int n = (int) Math.min(slicePages, pages - p);
            check(Holder.CALLS.mincore(addr + p * page, (long) n * page, vec), "mincore", (long) n * page);
            for (int i = 0; i < n; i++) {
                resident += vec[i] & 1;
            }
        }
        return resident;
    }

    private static void check(int rc, String call, long len) throws IOException {
        if (rc != 0) {
            throw new IOException(call + " of " + len + " bytes failed: errno " + Holder.CALLS.lastError());
        }
    }

    /**
     * The class path entries these calls need in a slave JVM (jffi's jar and its native stub),
     * found where this JVM loaded them from: a master adds them to its slaves' class path.
     */
    public static List<Path> classPathEntries() {
        List<Path> entries = new ArrayList<>();
        try {
            Class<?> c = Class.forName("com.kenai.jffi.Foreign", false, Libc.class.getClassLoader());
            entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (ClassNotFoundException | URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("jffi is missing from this class path", e);
        }
        URL stub = nativeStub();
        if (stub != null && stub.getProtocol().equals("jar")) {
            try {
                entries.add(jarOf(stub));
            } catch (IOException | URISyntaxException e) {
                throw new IllegalStateException("cannot locate jffi's native stub: " + stub, e);
            }
        }
        return entries;
    }

    /**
     * The JVM option that has jffi load its native stub from {@code dir} (as {@link
     * #nativeStubIn} leaves it) rather than extract it from its jar into a temporary file of its
     * own, which cost every slave that binds libc some 15 ms of CPU and a private copy of the
     * library's pages; loaded from one file, they are shared by all slaves of the node. jffi
     * still extracts its own if the file is missing.
     */
    public static String nativeStubOption(Path dir) {
        return "-D" + NATIVE_STUB_PATH + "=" + dir;
    }

    /**
     * Has this JVM's jffi load its native stub from {@code dir}, as {@link #nativeStubOption} has
     * a new JVM's, unless this JVM was given a path of its own. Takes effect only before libc's
     * first use here. No temporary copy of the library is then made, so none can be left behind.
     */
    public static void loadNativeStubFrom(Path dir) {
        if (System.getProperty(NATIVE_STUB_PATH) == null) {
            System.setProperty(NATIVE_STUB_PATH, dir.toString());
        }
    }

    /**
     * jffi's native stub, copied from its jar into a directory of {@code cacheDir} named after the
     * jar (its size and time: another jffi gets another directory), unless a copy is there
     * already; written to a temporary name and moved, so that masters starting at once on a node
     * never see half a library.
     *
     * @return the directory holding the stub, or empty if jffi's stub is not in a jar on this
     *         class path or cannot be copied (slaves then extract it themselves)
     */
    public static Optional<Path> nativeStubIn(Path cacheDir) {
        URL stub = nativeStub();
        if (cacheDir == null || stub == null || !stub.getProtocol().equals("jar")) {
            return Optional.empty();
        }
        try {
            Path jar = jarOf(stub);
            String name = stub.getPath().substring(stub.getPath().lastIndexOf('/') + 1);
            Path dir = cacheDir.resolve("jffi-" + Files.size(jar) + "-" + Files.getLastModifiedTime(jar).toMillis());
            Path target = dir.resolve(name);
            if (Files.isRegularFile(target)) {
                return Optional.of(dir);
            }
            Files.createDirectories(dir);
            Path partial = Files.createTempFile(dir, name, ".partial");
            URLConnection connection = stub.openConnection();
            connection.setUseCaches(false); // else the JDK keeps the jar open for later use
            try (InputStream in = connection.getInputStream()) {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(partial);
            }
            return Optional.of(dir);
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The jar file a {@code jar:file:...!/entry} URL points into. */
    private static Path jarOf(URL entry) throws IOException, URISyntaxException {
        String file = entry.getPath();
        return Path.of(new URL(file.substring(0, file.indexOf("!/"))).toURI());
    }

    /** Where this JVM finds jffi's native stub for this machine, or null. */
    private static URL nativeStub() {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        arch = arch.equals("amd64") ? "x86_64" : arch;
        return Libc.class.getClassLoader().getResource("jni/" + arch + "-Linux/libjffi-1.2.so");
    }
}
