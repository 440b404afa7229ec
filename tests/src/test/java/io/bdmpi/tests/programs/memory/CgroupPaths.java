package io.bdmpi.tests.programs.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The memory cgroups of this machine as the tests see them: v1 memory hierarchy, else cgroup v2. */
public final class CgroupPaths {

    private static final Path V1 = Path.of("/sys/fs/cgroup/memory");
    private static final Path V2 = Path.of("/sys/fs/cgroup");

    private CgroupPaths() {
    }

    /** This process's memory cgroup path, as in /proc/self/cgroup. */
    public static String own() throws IOException {
        String v2 = null;
        for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
            String[] f = line.split(":", 3);
            if (List.of(f[1].split(",")).contains("memory")) {
                return f[2];
            }
            if (f[0].equals("0") && f[1].isEmpty()) {
                v2 = f[2];
            }
        }
        return v2;
    }

    /** Whether a cgroup of this path exists. */
    public static boolean exists(String cgroup) {
        return Files.isDirectory(dir(cgroup));
    }

    /** Names of the child cgroups of a cgroup, sorted. */
    public static List<String> children(String cgroup) throws IOException {
        try (Stream<Path> s = Files.list(dir(cgroup))) {
            return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static Path dir(String cgroup) {
        Path root = Files.isDirectory(V1) ? V1 : V2;
        String rel = cgroup.replaceFirst("^/+", "");
        return rel.isEmpty() ? root : root.resolve(rel);
    }
}
