package io.bdmpi.tests.programs;

import io.bdmpi.master.config.MasterContext;
import io.bdmpi.spill.SpillDirectory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * What the test programs see of their node's spill directory ({@code BDMPI_SPILL_DIR}): message
 * files, a master's recycled files ({@code pool-*}) and its slaves' directories of returned files
 * ({@code sent-*}).
 */
final class SpillListing {

    /** What a master keeps of idle recycled files, and of returned ones, at most, by default (a constant: no master class is loaded). */
    static final long KEPT_MAX_BYTES = MasterContext.RECYCLED_SPILL_BYTES_DEFAULT;

    private SpillListing() {
    }

    /** This rank's node's spill directory, as its master set it. */
    static Path spillDir() {
        String dir = System.getenv("BDMPI_SPILL_DIR");
        Check.that(dir != null, "BDMPI_SPILL_DIR is not set: not started by a bdmpi master?");
        return Path.of(dir);
    }

    /** The names in {@code dir} that {@code which} accepts, sorted. */
    static List<String> names(Path dir, Predicate<String> which) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(which).sorted().toList();
        }
    }

    /** The files in the slaves' directories of returned files (one taken back while listed is left out). */
    static List<Path> returnedFiles(Path spill) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String d : names(spill, n -> n.startsWith(SpillDirectory.RETURNED_PREFIX))) {
            File[] in = spill.resolve(d).toFile().listFiles();
            Check.that(in != null, spill.resolve(d) + " is not a directory");
            for (File f : in) {
                files.add(f.toPath());
            }
        }
        return files;
    }

    /**
     * Checks that {@code spill} holds no message's file, only recycled files and directories of
     * returned ones, each kind within {@link #KEPT_MAX_BYTES}. A file sent to another node goes
     * once its master has seen the transfer end, which no barrier orders: it gets {@code graceMs}.
     */
    static void expectNoMessageFiles(Path spill, long graceMs, String when) throws IOException {
        long deadline = System.currentTimeMillis() + graceMs;
        List<String> messageFiles = names(spill, SpillListing::isMessageFile);
        while (!messageFiles.isEmpty() && System.currentTimeMillis() < deadline) {
            sleep(20);
            messageFiles = names(spill, SpillListing::isMessageFile);
        }
        Check.that(messageFiles.isEmpty(), messageFiles.size() + " message file(s) left in " + spill + " " + when
                + ": " + messageFiles);
        long recycled = names(spill, SpillDirectory::isRecycled).stream()
                .mapToLong(n -> spill.resolve(n).toFile().length()).sum();
        Check.that(recycled <= KEPT_MAX_BYTES, recycled + " bytes of pool-* files kept " + when);
        long returned = bytes(returnedFiles(spill));
        Check.that(returned <= KEPT_MAX_BYTES, returned + " bytes of files in sent-* directories kept " + when);
    }

    static long bytes(List<Path> files) {
        return files.stream().mapToLong(p -> p.toFile().length()).sum();
    }

    private static boolean isMessageFile(String name) {
        return !SpillDirectory.isRecycled(name) && !name.startsWith(SpillDirectory.RETURNED_PREFIX);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
