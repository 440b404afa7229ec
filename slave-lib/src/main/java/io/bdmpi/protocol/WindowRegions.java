package io.bdmpi.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory a rank has attached to a dynamic window, as a file its node's members and master
 * read: the regions in attach order, each at the displacement where the previous one ended (the
 * first at 0); a detached region stays as a hole, so the displacements of later ones do not move.
 * One line per region: {@code start bytes offset path}, or {@code start bytes -} for a hole. The
 * owner rewrites the whole file (a new file renamed over the old one) at each attach and detach,
 * so a reader sees one version or the next.
 */
public final class WindowRegions {

    /**
     * One attached region.
     *
     * @param start  its first displacement (byte) in the rank's part of the window
     * @param bytes  its size
     * @param path   the file holding its bytes (its public copy), or null once detached
     * @param offset where they start in that file
     */
    public record Region(int start, int bytes, String path, long offset) {

        /** Whether the bytes {@code [lo, hi)} lie in this region, which is still attached. */
        public boolean holds(long lo, long hi) {
            return path != null && lo >= start && hi <= (long) start + bytes;
        }
    }

    private WindowRegions() {
    }

    /** Writes the regions to {@code file}, replacing it whole. */
    public static void write(Path file, List<Region> regions) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Region r : regions) {
            text.append(r.start()).append(' ').append(r.bytes()).append(' ');
            text.append(r.path() == null ? "-" : r.offset() + " " + r.path()).append('\n');
        }
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.writeString(next, text, StandardCharsets.UTF_8);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Reads the regions a rank has attached; none when it has attached nothing yet.
     *
     * @throws IOException when the file cannot be read or is not such a list
     */
    public static List<Region> read(Path file) throws IOException {
        List<Region> regions = new ArrayList<>();
        if (!Files.exists(file)) {
            return regions;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.split(" ", 4);
            try {
                regions.add(f[2].equals("-") ? new Region(Integer.parseInt(f[0]), Integer.parseInt(f[1]), null, 0)
                        : new Region(Integer.parseInt(f[0]), Integer.parseInt(f[1]), f[3], Long.parseLong(f[2])));
            } catch (RuntimeException e) {
                throw new IOException("bad region \"" + line + "\" in " + file, e);
            }
        }
        return regions;
    }

    /** The attached region that holds the bytes {@code [lo, hi)}, or null. */
    public static Region find(List<Region> regions, long lo, long hi) {
        for (Region r : regions) {
            if (r.holds(lo, hi)) {
                return r;
            }
        }
        return null;
    }
}
