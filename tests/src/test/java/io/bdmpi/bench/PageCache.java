package io.bdmpi.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Empties the page cache before a timed read, so that a read measures the disk and not memory:
 * as root, {@code sync} and then {@code 3 > /proc/sys/vm/drop_caches} (every clean page goes);
 * otherwise {@code dd iflag=nocache count=0} on the one file (the kernel drops its clean pages
 * only, which is enough once the file is synced). The same call serves the baseline and bdmpi.
 */
final class PageCache {

    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    private PageCache() {
    }

    /**
     * Drops the cached pages of {@code file} (and, as root, of every file).
     *
     * @return how: "drop_caches" or "dd iflag=nocache"
     */
    static String drop(Path file) throws IOException, InterruptedException {
        run("sync");
        if (Files.isWritable(DROP_CACHES)) {
            Files.writeString(DROP_CACHES, "3\n", StandardCharsets.US_ASCII);
            return "drop_caches";
        }
        run("dd", "if=" + file, "iflag=nocache", "count=0", "status=none");
        return "dd iflag=nocache";
    }

    private static void run(String... command) throws IOException, InterruptedException {
        if (new ProcessBuilder(command).inheritIO().start().waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed");
        }
    }
}
