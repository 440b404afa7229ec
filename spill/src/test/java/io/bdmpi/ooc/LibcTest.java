package io.bdmpi.ooc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The libc calls themselves, against what the kernel says: the page size, mincore's count of
 * resident pages page by page, errno in the errors of the calls that report it, and the calls
 * that take a file's path.
 */
class LibcTest {

    private static final int PAGES = 64;

    @TempDir
    Path dir;

    @Test
    void thePageSizeIsTheKernels() throws IOException {
        // The kernel's own answer, independent of libc: the KernelPageSize of any mapping.
        String smaps = Files.readString(Path.of("/proc/self/smaps"));
        int at = smaps.indexOf("KernelPageSize:");
        long kib = Long.parseLong(smaps.substring(at + "KernelPageSize:".length(), smaps.indexOf("kB", at)).trim());
        assertEquals(kib * 1024, Libc.pageSize());
    }

    @Test
    void mincoreCountsExactlyThePagesTouched() throws IOException {
        ScratchBuffer scratch = ScratchBuffer.allocate(PAGES * Libc.pageSize());
        ByteBuffer bytes = scratch.bytes();
        long base = Libc.address(bytes);
        long span = (long) PAGES * Libc.pageSize();
        assertEquals(0, Libc.residentPages(base, span), "a new buffer holds no page");
        int touched = 0;
        for (int page = 0; page < PAGES; page += 3) {
            bytes.put(page * Libc.pageSize() + 5, (byte) 1);
            touched++;
        }
        assertEquals(touched, Libc.residentPages(base, span), "every third page touched");
        assertEquals(1, Libc.residentPages(base + Libc.pageSize(), 3L * Libc.pageSize()), "pages 1 to 3: only 3 touched");
        assertEquals(0, Libc.residentPages(base + Libc.pageSize(), 2L * Libc.pageSize()), "pages 1 and 2: untouched");
        assertEquals(1, Libc.residentPages(base + 3L * Libc.pageSize(), 1), "one byte of page 3 counts its page");
        scratch.drop();
        assertEquals(0, Libc.residentPages(base, span), "dropped");
    }

    @Test
    void aFailedCallReportsItsErrno() throws IOException {
        ScratchBuffer scratch = ScratchBuffer.allocate(PAGES * Libc.pageSize());
        long base = Libc.address(scratch.bytes());
        // madvise and mincore take page-aligned addresses only: EINVAL (22) otherwise.
        IOException madvise = assertThrows(IOException.class, () -> Libc.madvise(base + 1, 4096, Libc.MADV_DONTNEED));
        assertEquals("madvise(4) of 4096 bytes failed: errno 22", madvise.getMessage());
        IOException mincore = assertThrows(IOException.class, () -> Libc.residentPages(base + 1, 4096));
        assertEquals("mincore of 4096 bytes failed: errno 22", mincore.getMessage());
        // Another failure, another errno: ENOMEM (12) for a range that is not mapped.
        IOException unmapped = assertThrows(IOException.class, () -> Libc.residentPages(Libc.pageSize(), 4096));
        assertEquals("mincore of 4096 bytes failed: errno 12", unmapped.getMessage());
    }

    @Test
    void aMissingFileIsReportedWithItsErrno() throws IOException {
        Path missing = dir.resolve("missing");
        IOException e = assertThrows(IOException.class, () -> Libc.dropCleanPages(missing, 0, 0));
        assertEquals("open " + missing + " failed: errno 2", e.getMessage());
        assertFalse(Libc.willNeed(missing, 1 << 20), "nothing to read ahead");
    }

    @Test
    void aFileIsDroppedFromThePageCacheAndReadBackByItsPath() throws Exception {
        // A name beyond ASCII: the path reaches open(2) encoded as the JDK encodes file names.
        Path file = Files.write(dir.resolve("données-ü"), new byte[PAGES * Libc.pageSize()]);
        try (var channel = java.nio.channels.FileChannel.open(file)) {
            channel.force(true); // written back: clean pages can be dropped
            var map = channel.map(java.nio.channels.FileChannel.MapMode.READ_ONLY, 0, channel.size());
            long base = Libc.address(map);
            long span = channel.size();
            Libc.dropCleanPages(file, 0, 0);
            assertEquals(0, Libc.residentPages(base, span), "dropped from the page cache");
            assertTrue(Libc.willNeed(file, span));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Libc.residentPages(base, span) < PAGES && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(PAGES, Libc.residentPages(base, span), "read back ahead of use");
        }
    }

    @Test
    void jffisNativeStubIsCopiedOnceIntoTheCache() throws IOException {
        Path cache = dir.resolve("cache");
        Path stubDir = Libc.nativeStubIn(cache).orElseThrow();
        assertTrue(stubDir.startsWith(cache), stubDir.toString());
        Path stub;
        try (var files = Files.list(stubDir)) {
            stub = files.filter(f -> f.getFileName().toString().startsWith("libjffi-")).findFirst().orElseThrow();
        }
        byte[] expected;
        try (var in = jffiStubResource()) {
            expected = in.readAllBytes();
        }
        assertArrayEquals(expected, Files.readAllBytes(stub), "a copy of jffi's own");
        var written = Files.getLastModifiedTime(stub);
        assertEquals(stubDir, Libc.nativeStubIn(cache).orElseThrow(), "the same directory again");
        assertEquals(written, Files.getLastModifiedTime(stub), "not written again");
        try (var files = Files.list(stubDir)) {
            assertEquals(1, files.count(), "no partial file left");
        }
        assertEquals("-Djffi.boot.library.path=" + stubDir, Libc.nativeStubOption(stubDir));
        assertTrue(Libc.nativeStubIn(null).isEmpty(), "no cache, no copy");
    }

    private static java.io.InputStream jffiStubResource() {
        String arch = System.getProperty("os.arch").equals("amd64") ? "x86_64" : System.getProperty("os.arch");
        return Libc.class.getClassLoader().getResourceAsStream("jni/" + arch + "-Linux/libjffi-1.2.so");
    }
}
