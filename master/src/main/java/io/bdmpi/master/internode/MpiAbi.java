package io.bdmpi.master.internode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which MPI library the masters bind, and how it was chosen. Two ABIs exist in practice: MPICH's
 * (integer handles, a 5-int status) shared by MPICH, Intel MPI, MVAPICH and Cray MPICH, and Open
 * MPI's (handles are addresses of global objects, a 24-byte status).
 *
 * <p>Settings, read from the environment of the master (bdmpiexec passes its own through mpiexec):
 * {@value #LIBRARY_VARIABLE} names the library (a path or a soname), {@value #ABI_VARIABLE} forces
 * the ABI ({@code mpich} or {@code openmpi}). Without them the first library found of
 * {@link #MPICH_CANDIDATES} then {@link #OPEN_MPI_CANDIDATES} is used: MPICH when both are installed.
 */
public enum MpiAbi {
    /** MPICH's ABI: MPICH, Intel MPI, MVAPICH, Cray MPICH. */
    MPICH("MPICH", "mpich", "mpich"),
    /** Open MPI's ABI. */
    OPEN_MPI("Open MPI", "openmpi", "openmpi-bin");

    /** Environment variable naming the MPI library to load. */
    public static final String LIBRARY_VARIABLE = "BDMPI_MPI_LIBRARY";
    /** Environment variable forcing the ABI: mpich or openmpi. */
    public static final String ABI_VARIABLE = "BDMPI_MPI_ABI";

    static final List<String> MPICH_CANDIDATES = List.of("libmpich.so.12", "libmpi.so.12");
    static final List<String> OPEN_MPI_CANDIDATES = List.of("libmpi.so.40");
    private static final List<String> LIBRARY_DIRS = List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
            "/usr/lib64", "/usr/lib", "/usr/local/lib");

    private final String displayName;
    private final String settingName;
    private final String debianPackage;

    MpiAbi(String displayName, String settingName, String debianPackage) {
        this.displayName = displayName;
        this.settingName = settingName;
        this.debianPackage = debianPackage;
    }

    /** The name people know it by. */
    public String displayName() {
        return displayName;
    }

    /** Its value of {@value #ABI_VARIABLE}. */
    public String settingName() {
        return settingName;
    }

    /** The Debian package with its libmpi and launcher. */
    public String debianPackage() {
        return debianPackage;
    }

    /** A library to load and the ABI to speak to it. */
    public record Choice(MpiAbi abi, String library) {
    }

    /**
     * Chooses the library and ABI from the settings in {@code env} and the files present.
     *
     * @throws IllegalStateException with a message saying what was looked for when nothing fits
     */
    public static Choice choose(Map<String, String> env) {
        return choose(env, LIBRARY_DIRS);
    }

    /** {@link #choose(Map)}, looking for the libraries in {@code libraryDirs}. */
    static Choice choose(Map<String, String> env, List<String> libraryDirs) {
        String forcedAbi = env.get(ABI_VARIABLE);
        MpiAbi abi = forcedAbi == null || forcedAbi.isBlank() ? null : parse(forcedAbi);
        String library = env.get(LIBRARY_VARIABLE);
        if (library != null && !library.isBlank()) {
            if (library.contains("/") && !Files.isRegularFile(Path.of(library))) {
                throw new IllegalStateException(LIBRARY_VARIABLE + "=" + library + ": no such file");
            }
            return new Choice(abi != null ? abi : guessFromName(library), library);
        }
        for (MpiAbi candidate : values()) {
            String found = abi == null || abi == candidate ? find(candidate.libraries(), libraryDirs) : null;
            if (found != null) {
                return new Choice(candidate, found);
            }
        }
        if (abi != null) {
            throw new IllegalStateException(ABI_VARIABLE + "=" + forcedAbi + " asks for " + abi.displayName + ", whose library was"
                    + " not found (looked for " + abi.libraries() + " in " + libraryDirs + "); install it (Debian: apt-get"
                    + " install " + abi.debianPackage + ") or set " + LIBRARY_VARIABLE);
        }
        throw new IllegalStateException("no MPI library found (looked for " + MPICH_CANDIDATES + " and "
                + OPEN_MPI_CANDIDATES + " in " + libraryDirs + "); install MPICH (Debian: apt-get install mpich) or Open MPI"
                + " (apt-get install openmpi-bin), or set " + LIBRARY_VARIABLE);
    }

    private List<String> libraries() {
        return this == MPICH ? MPICH_CANDIDATES : OPEN_MPI_CANDIDATES;
    }

    static MpiAbi parse(String name) {
        switch (name.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "")) {
            case "mpich":
                return MPICH;
            case "openmpi":
            case "ompi":
                return OPEN_MPI;
            default:
                throw new IllegalStateException(ABI_VARIABLE + "=" + name + " must be mpich or openmpi");
        }
    }

    /** libmpi.so.40 and paths under an openmpi directory are Open MPI; everything else is taken as MPICH ABI. */
    private static MpiAbi guessFromName(String library) {
        return library.contains("openmpi") || library.endsWith("libmpi.so.40") ? OPEN_MPI : MPICH;
    }

    private static String find(List<String> names, List<String> libraryDirs) {
        for (String name : names) {
            for (String dir : libraryDirs) {
                Path p = Path.of(dir, name);
                if (Files.exists(p)) {
                    return p.toString();
                }
            }
        }
        return null;
    }
}
