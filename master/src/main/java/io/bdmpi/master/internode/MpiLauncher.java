package io.bdmpi.master.internode;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The MPI launcher that starts the masters of a multi-node job, and its command line. It must
 * belong to the library the masters bind ({@link MpiAbi#choose}, from the same environment): with
 * both MPICH and Open MPI installed the plain {@code mpiexec} is whichever the system's alternative
 * names, so each library's own name comes first ({@code mpiexec.mpich}, {@code mpiexec.openmpi}),
 * and a launcher recognisably of the other library is refused. A launcher given with
 * {@code --mpiexec} or in {@value #MPIEXEC_VARIABLE} wins over the search.
 *
 * @param path     the launcher's path
 * @param abi      the ABI of the library the masters bind, which decides the options
 * @param exported the names of bdmpi's settings in the environment, passed on to remote masters
 */
public record MpiLauncher(String path, MpiAbi abi, List<String> exported) {

    /** Environment variable naming the launcher (a path or a command on PATH). */
    public static final String MPIEXEC_VARIABLE = "BDMPI_MPIEXEC";
    private static final List<String> MPICH_LAUNCHERS = List.of("mpiexec.mpich", "mpiexec.hydra", "mpiexec");
    private static final List<String> OPEN_MPI_LAUNCHERS = List.of("mpiexec.openmpi", "mpirun.openmpi", "mpiexec");

    /**
     * @param explicit the user's choice, or null
     * @param env      the environment the masters will get (their library is chosen from it)
     * @throws IllegalStateException naming what was looked for when there is no MPI library, no
     *                               launcher for it, or the launcher named belongs to the other library
     */
    public static MpiLauncher find(String explicit, Map<String, String> env) {
        MpiAbi.Choice library = MpiAbi.choose(env);
        List<String> exported = env.keySet().stream().filter(k -> k.startsWith("BDMPI_")).sorted().toList();
        String wanted = explicit != null && !explicit.isBlank() ? explicit : env.get(MPIEXEC_VARIABLE);
        if (wanted != null && !wanted.isBlank()) {
            String found = onPath(wanted, env);
            if (found == null) {
                throw new IllegalStateException("MPI launcher '" + wanted + "' not found or not executable");
            }
            MpiAbi of = launcherAbi(found);
            if (of != null && of != library.abi()) {
                throw new IllegalStateException("MPI launcher " + found + " belongs to " + of.displayName() + " but the masters bind "
                        + library.library() + " (" + library.abi().displayName() + "); name " + library.abi().displayName()
                        + "'s launcher, or set " + MpiAbi.ABI_VARIABLE + "=" + of.settingName() + " to use " + of.displayName());
            }
            return new MpiLauncher(found, library.abi(), exported);
        }
        List<String> candidates = library.abi() == MpiAbi.MPICH ? MPICH_LAUNCHERS : OPEN_MPI_LAUNCHERS;
        for (String name : candidates) {
            String found = onPath(name, env);
            if (found != null && (launcherAbi(found) == null || launcherAbi(found) == library.abi())) {
                return new MpiLauncher(found, library.abi(), exported);
            }
        }
        throw new IllegalStateException("several nodes need the MPI launcher of " + library.library() + " ("
                + library.abi().displayName() + ") and none was found (looked for " + candidates + " on PATH); install it"
                + " (Debian: apt-get install " + library.abi().debianPackage() + ") or name one with --mpiexec");
    }

    /**
     * The launcher and its options that start {@code processes} copies of the program that follows,
     * on the hosts given (a comma-separated list or a host file; both null: all on this machine).
     */
    public List<String> command(int processes, String hosts, Path hostFile) {
        List<String> cmd = new ArrayList<>(List.of(path, "-n", Integer.toString(processes)));
        if (abi == MpiAbi.MPICH) {
            if (hosts != null) {
                cmd.addAll(List.of("-hosts", hosts));
            } else if (hostFile != null) {
                cmd.addAll(List.of("-f", hostFile.toString()));
            }
            return cmd;
        }
        // Open MPI: more masters than cores is normal (they mostly wait); binding a master to one
        // core would pin its slaves there too; as root it wants to be told that this is meant.
        cmd.addAll(List.of("--oversubscribe", "--bind-to", "none"));
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.add("--allow-run-as-root");
        }
        if (hosts != null) {
            cmd.addAll(List.of("--host", hosts));
        } else if (hostFile != null) {
            cmd.addAll(List.of("--hostfile", hostFile.toString()));
        }
        for (String name : exported) {
            cmd.addAll(List.of("-x", name));
        }
        return cmd;
    }

    /** The library a launcher belongs to, from the name of the file it resolves to; null if not recognised. */
    static MpiAbi launcherAbi(String launcher) {
        String name;
        try {
            name = Path.of(launcher).toRealPath().getFileName().toString().toLowerCase(Locale.ROOT);
        } catch (IOException e) {
            return null;
        }
        if (name.contains("hydra") || name.contains("mpich")) {
            return MpiAbi.MPICH;
        }
        if (name.contains("orterun") || name.contains("prterun") || name.contains("openmpi")) {
            return MpiAbi.OPEN_MPI;
        }
        return null;
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
