package mpi;

import io.bdmpi.protocol.ProtocolException;
import io.bdmpi.spill.SpillException;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/** Builds the MPI errors of this package and the one line a fatal error prints. */
final class Errors {

    private Errors() {
    }

    /**
     * The error for a failed exchange with the master. A spill failure (disk full) is the
     * program's problem to see; anything else means the master is gone or confused.
     */
    static MPIException transport(String call, IOException e) {
        if (e instanceof SpillException) {
            return MPIException.of(MPI.ERR_OTHER, call + ": " + e.getMessage());
        }
        if (e instanceof ProtocolException) {
            return MPIException.of(MPI.ERR_INTERN, call + ": protocol error with the bdmpi master: " + e.getMessage());
        }
        return MPIException.of(MPI.ERR_OTHER, call + ": lost connection to the bdmpi master: " + e.getMessage());
    }

    /** An MPI call that returns a value. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws MPIException;
    }

    /** Runs {@code call}, with an MPIException wrapped in a RuntimeException: the {@code clone()} of Open MPI's handles. */
    static <T> T unchecked(Call<T> call) {
        try {
            return call.run();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /**
     * The line a fatal error prints before it ends the job, e.g.
     * {@code bdmpi: rank 3: MPI_Recv: message of 400 bytes ... (MPI_ERR_TRUNCATE)}.
     */
    static String fatalLine(int worldRank, MPIException e) {
        return "bdmpi: rank " + worldRank + ": " + describe(e);
    }

    /** The error and its class, e.g. {@code MPI_Recv: message of 400 bytes ... (MPI_ERR_TRUNCATE)}. */
    static String describe(MPIException e) {
        return e.getMessage() + " (" + className(e.getErrorClass()) + ")";
    }

    /** The C name of an error class ({@code MPI_ERR_TRUNCATE}), or a description of an unknown one. */
    static String className(int errorClass) {
        String name = Names.BY_CLASS.get(errorClass);
        return name != null ? name : "MPI error class " + errorClass;
    }

    /** Read from {@link MPI}'s own fields on first use, so names and values cannot drift apart. */
    private static final class Names {
        static final Map<Integer, String> BY_CLASS = load();

        private static Map<Integer, String> load() {
            Map<Integer, String> names = new HashMap<>();
            for (Field f : MPI.class.getFields()) {
                boolean errorClass = f.getName().equals("SUCCESS")
                        || (f.getName().startsWith("ERR_") && !f.getName().equals("ERR_LASTCODE"));
                if (errorClass && f.getType() == int.class && Modifier.isStatic(f.getModifiers())) {
                    try {
                        names.put(f.getInt(null), "MPI_" + f.getName());
                    } catch (IllegalAccessException impossible) {
                        throw new IllegalStateException(impossible);
                    }
                }
            }
            return names;
        }
    }
}
