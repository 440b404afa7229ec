package io.bdmpi.ooc;

import com.kenai.jffi.MemoryIO;
import jnr.ffi.LibraryLoader;
import jnr.ffi.annotations.Out;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.intptr_t;
import jnr.ffi.types.size_t;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The few libc calls that steer the residency of memory-mapped data, bound with jnr-ffi (the JDK
 * has no madvise, mlock or mincore; jnr-posix lacks them too). Linux only. Loaded on first use, so
 * a slave that never uses off-heap arrays does not pay for jnr-ffi.
 */
public final class Libc {

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

    /** The calls, as jnr-ffi binds them. */
    public interface Calls {
        @SaveError
        int mlock(@intptr_t long addr, @size_t long len);

        @SaveError
        int munlock(@intptr_t long addr, @size_t long len);

        @SaveError
        int madvise(@intptr_t long addr, @size_t long len, int advice);

        @SaveError
        int mincore(@intptr_t long addr, @size_t long len, @Out byte[] vec);

        int getpagesize();

        @SaveError
        int open(String path, int flags);

        /** Returns the error number itself (0 on success), not -1 and errno. */
        int posix_fadvise(int fd, long offset, long len, int advice);

        int close(int fd);
    }

    /**
     * Binding the calls costs a JVM some 0.25 s of CPU (jnr-ffi generates, loads and compiles its
     * stubs). Whoever comes first runs it: a thread of {@link #bindInBackground} or the first call.
     */
    private static final AtomicBoolean BACKGROUND_STARTED = new AtomicBoolean();
    private static final FutureTask<Calls> BINDING = new FutureTask<>(() -> LibraryLoader.create(Calls.class).load("c"));

    private static final class Holder {
        static final Calls CALLS = bound();
        static final jnr.ffi.Runtime RUNTIME = jnr.ffi.Runtime.getRuntime(CALLS);
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
        int errno = Holder.RUNTIME.getLastError();
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
            throw new IOException("open " + file + " failed: errno " + Holder.RUNTIME.getLastError());
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
        int err = Holder.CALLS.posix_fadvise(fd, offset, len, advice);
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
            throw new IOException(call + " of " + len + " bytes failed: errno " + Holder.RUNTIME.getLastError());
        }
    }

    /**
     * The class path entries jnr-ffi needs in a slave JVM (its jar, jffi with its native stub,
     * asm), found where this JVM loaded them from: a master adds them to its slaves' class path.
     */
    public static List<Path> classPathEntries() {
        List<Path> entries = new ArrayList<>();
        for (String name : List.of("jnr.ffi.LibraryLoader", "com.kenai.jffi.Foreign", "org.objectweb.asm.ClassVisitor",
                "org.objectweb.asm.commons.ClassRemapper", "org.objectweb.asm.tree.ClassNode",
                "org.objectweb.asm.tree.analysis.Analyzer", "org.objectweb.asm.util.CheckClassAdapter",
                "jnr.x86asm.Assembler", "jnr.a64asm.Assembler_A64")) {
            try {
                Class<?> c = Class.forName(name, false, Libc.class.getClassLoader());
                entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()));
            } catch (ClassNotFoundException | URISyntaxException | RuntimeException e) {
                throw new IllegalStateException("jnr-ffi is incomplete on this class path: " + name, e);
            }
        }
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        arch = arch.equals("amd64") ? "x86_64" : arch;
        URL stub = Libc.class.getClassLoader().getResource("jni/" + arch + "-Linux/libjffi-1.2.so");
        if (stub != null && stub.getProtocol().equals("jar")) {
            String file = stub.getPath();
            try {
                entries.add(Path.of(new URL(file.substring(0, file.indexOf("!/"))).toURI()));
            } catch (IOException | URISyntaxException e) {
                throw new IllegalStateException("cannot locate jffi's native stub: " + stub, e);
            }
        }
        return entries;
    }
}
