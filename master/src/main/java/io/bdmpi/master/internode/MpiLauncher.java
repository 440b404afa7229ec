package io.bdmpi.master.internode;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Finds the MPI launcher that starts the masters of a multi-node job. It must belong to the
 * library the masters bind: with several MPIs installed the plain {@code mpiexec} may be another
 * one's, so MPICH's own name comes first. A path given with {@code --mpiexec} or in
 * {@value #MPIEXEC_VARIABLE} wins.
 */
public final class MpiLauncher {

    /** Environment variable naming the launcher (a path or a command on PATH). */
    public static final String MPIEXEC_VARIABLE = "BDMPI_MPIEXEC";
    static final List<String> CANDIDATES = List.of("mpiexec.mpich", "mpiexec.hydra", "mpiexec");

    private MpiLauncher() {
    }

    /**
     * @param explicit the user's choice, or null
     * @throws IllegalStateException naming what was looked for when there is none
     */
    public static String find(String explicit, Map<String, String> env) {
        String wanted = explicit != null && !explicit.isBlank() ? explicit : env.get(MPIEXEC_VARIABLE);
        if (wanted != null && !wanted.isBlank()) {
            String found = onPath(wanted, env);
            if (found == null) {
                throw new IllegalStateException("MPI launcher '" + wanted + "' not found or not executable");
            }
            return found;
        }
        for (String name : CANDIDATES) {
            String found = onPath(name, env);
            if (found != null) {
                return found;
            }
        }
        throw new IllegalStateException("several nodes need an MPI launcher and none was found (looked for " + CANDIDATES
                + " on PATH); install MPICH (Debian: apt-get install mpich) or name one with --mpiexec");
    }

    private static String onPath(String name, Map<String, String> env) {
        if (name.contains(File.separator)) {
            return Files.isExecutable(Path.of(name)) ? name : null;
        }
        String path = env.getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
