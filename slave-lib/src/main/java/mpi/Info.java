package mpi;

import io.bdmpi.slave.SlaveRuntime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hints: an ordered set of (key, value) strings, as MPI_Info. Keys keep the order in which they
 * were first set. Nothing here acts on a hint: bdmpi keeps them for {@link Comm#getInfo()} and
 * the program.
 *
 * <p>{@code MPI.INFO_NULL} is the null object ("no hints"); {@code MPI.INFO_ENV} is the read-only
 * object describing the launch ({@code command}, {@code argv}, {@code maxprocs}, {@code host},
 * {@code arch}, {@code wdir}, {@code thread_level}), filled in once MPI is running. Errors go to
 * {@code MPI.COMM_WORLD}'s handler.
 */
public final class Info implements Freeable, Cloneable {

    private enum Kind { USER, NULL, ENV }

    private final Kind kind;
    private final Map<String, String> entries = new LinkedHashMap<>();
    private boolean freed;

    /**
     * A new, empty info object.
     *
     * @throws MPIException if MPI is not running
     */
    public Info() throws MPIException {
        this(Kind.USER);
        Session.enter("MPI_Info_create");
    }

    private Info(Kind kind) {
        this.kind = kind;
    }

    /** {@code MPI.INFO_NULL}. */
    static Info nullInfo() {
        return new Info(Kind.NULL);
    }

    /** {@code MPI.INFO_ENV}. */
    static Info env() {
        return new Info(Kind.ENV);
    }

    /** A new info object holding {@code entries}, without the Init check (the caller made it). */
    private static Info of(Map<String, String> entries) {
        Info i = new Info(Kind.USER);
        i.entries.putAll(entries);
        return i;
    }

    /**
     * Adds a key or replaces its value.
     *
     * @param key a non-empty key shorter than {@code MPI.MAX_INFO_KEY}
     * @param value a non-empty value shorter than {@code MPI.MAX_INFO_VAL}
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} ERR_INFO_KEY or ERR_INFO_VALUE
     *                      for a bad key or value, ERR_INFO for a null, freed or read-only object
     */
    public void set(String key, String value) throws MPIException {
        String call = "MPI_Info_set";
        writable(call);
        checkKey(call, key);
        if (value == null || value.isEmpty() || value.length() >= MPI.MAX_INFO_VAL) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_INFO_VALUE, call + ": invalid value for key " + key
                    + " (a value is 1 to " + (MPI.MAX_INFO_VAL - 1) + " characters)"));
        }
        entries.put(key, value);
    }

    /**
     * The value of a key.
     *
     * @param key the key
     * @return its value, or null when the key is absent
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} ERR_INFO_KEY for a bad key,
     *                      ERR_INFO for a null or freed object
     */
    public String get(String key) throws MPIException {
        String call = "MPI_Info_get";
        Map<String, String> m = readable(call);
        checkKey(call, key);
        return m.get(key);
    }

    /**
     * Removes a key.
     *
     * @param key the key
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} ERR_INFO_NOKEY when the key
     *                      is absent, ERR_INFO_KEY for a bad key, ERR_INFO for a null, freed or read-only object
     */
    public void delete(String key) throws MPIException {
        String call = "MPI_Info_delete";
        writable(call);
        checkKey(call, key);
        if (entries.remove(key) == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_INFO_NOKEY, call + ": no key " + key));
        }
    }

    /**
     * Number of keys.
     *
     * @return the number of keys
     * @throws MPIException if MPI is not running; ERR_INFO for a null or freed object under {@code MPI.ERRORS_RETURN}
     */
    public int size() throws MPIException {
        return readable("MPI_Info_get_nkeys").size();
    }

    /**
     * The {@code i}-th key, in the order keys were first set.
     *
     * @param i from 0 to {@code size() - 1}
     * @return the key
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} ERR_ARG for a negative
     *                      {@code i}, ERR_INFO_KEY for {@code i >= size()}, ERR_INFO for a null or freed object
     */
    public String getKey(int i) throws MPIException {
        String call = "MPI_Info_get_nthkey";
        List<String> keys = new ArrayList<>(readable(call).keySet());
        if (i < 0 || i >= keys.size()) {
            throw MPI.COMM_WORLD.handle(MPIException.of(i < 0 ? MPI.ERR_ARG : MPI.ERR_INFO_KEY,
                    call + ": no key number " + i + " among " + keys.size()));
        }
        return keys.get(i);
    }

    /**
     * An independent copy (of {@code MPI.INFO_ENV} too).
     *
     * @return the copy
     * @throws MPIException if MPI is not running; ERR_INFO for a null or freed object under {@code MPI.ERRORS_RETURN}
     */
    public Info dup() throws MPIException {
        return of(readable("MPI_Info_dup"));
    }

    /**
     * As {@link #dup()}, with an error wrapped in a RuntimeException.
     *
     * @return the copy
     */
    @Override
    public Info clone() {
        return Errors.unchecked(this::dup);
    }

    /**
     * Frees the object: it becomes null ({@link #isNull()}).
     *
     * @throws MPIException if MPI is not running; ERR_INFO for a null, freed or predefined object under
     *                      {@code MPI.ERRORS_RETURN}
     */
    @Override
    public void free() throws MPIException {
        writable("MPI_Info_free");
        freed = true;
        entries.clear();
    }

    /**
     * Whether this is {@code MPI.INFO_NULL} or a freed object.
     *
     * @return whether the object is null
     */
    public boolean isNull() {
        return kind == Kind.NULL || freed;
    }

    // ---------------------------------------------------------------- shared with Comm

    /**
     * A copy of the hints of {@code info}, for a communicator to keep: empty for {@code MPI.INFO_NULL}.
     *
     * @throws MPIException ERR_INFO for a freed object, through COMM_WORLD's handler; NullPointerException
     *                      for a Java null, as in Open MPI
     */
    static Map<String, String> hintsOf(String call, Info info) throws MPIException {
        if (info.kind == Kind.NULL) {
            return Map.of();
        }
        return Map.copyOf(info.readable(call));
    }

    /** A new info object with {@code hints}, for {@code getInfo}. */
    static Info withHints(Map<String, String> hints) {
        return of(hints);
    }

    // ---------------------------------------------------------------- internals

    private void writable(String call) throws MPIException {
        readable(call);
        if (kind == Kind.ENV) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_INFO, call + ": MPI.INFO_ENV is read-only"));
        }
    }

    /** Empties MPI.INFO_ENV, to be filled again at its next use: for a new MPI life in unit tests (Session.reset). */
    void forgetEnvironment() {
        if (kind == Kind.ENV) {
            entries.clear();
        }
    }

    /** The entries, once checked: MPI runs, the object is live. */
    private Map<String, String> readable(String call) throws MPIException {
        SlaveRuntime rt = Session.enter(call);
        if (isNull()) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_INFO, call + ": " + (freed ? "freed" : "MPI.INFO_NULL")
                    + " info object"));
        }
        if (kind == Kind.ENV && entries.isEmpty()) {
            entries.putAll(launch(rt));
        }
        return entries;
    }

    private static void checkKey(String call, String key) throws MPIException {
        if (key == null || key.isEmpty() || key.length() >= MPI.MAX_INFO_KEY) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_INFO_KEY, call + ": invalid key " + key
                    + " (a key is 1 to " + (MPI.MAX_INFO_KEY - 1) + " characters)"));
        }
    }

    /** INFO_ENV's entries: the standard keys that bdmpi knows. */
    private static Map<String, String> launch(SlaveRuntime rt) throws MPIException {
        Map<String, String> m = new LinkedHashMap<>();
        String[] command = System.getProperty("sun.java.command", "").trim().split("\\s+", 2);
        if (!command[0].isEmpty()) {
            m.put("command", command[0]);
        }
        if (command.length > 1) {
            m.put("argv", command[1]);
        }
        m.put("maxprocs", Integer.toString(rt.environment().worldSize()));
        m.put("host", MPI.getProcessorName());
        m.put("arch", System.getProperty("os.arch"));
        m.put("wdir", System.getProperty("user.dir"));
        m.put("thread_level", threadLevelName(Session.requiredThreadLevel())); // as MPI says: what was asked for
        m.replaceAll((k, v) -> v.length() < MPI.MAX_INFO_VAL ? v : v.substring(0, MPI.MAX_INFO_VAL - 1));
        return m;
    }

    private static String threadLevelName(int level) {
        return new String[] {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                "MPI_THREAD_MULTIPLE"}[level];
    }
}
