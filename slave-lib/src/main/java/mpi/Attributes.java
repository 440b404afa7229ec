package mpi;

import io.bdmpi.slave.SlaveRuntime;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The attributes cached on one communicator or datatype, and the process's keyvals.
 *
 * <p>As in Open MPI's Java bindings, a user value is serialized when it is set and a fresh copy is
 * deserialized by every get; there are no user copy or delete callbacks, and {@code dup} copies
 * every user attribute. Comm and Datatype keyvals are separate kinds: one made by
 * {@code Comm.createKeyval} is an {@code MPI.ERR_KEYVAL} error on a datatype, and the other way
 * round. The predefined keys ({@code MPI.TAG_UB} ... {@code MPI.UNIVERSE_SIZE}) are cached on
 * {@code MPI.COMM_WORLD} and copied by its {@code dup}, all but {@code MPI.LASTUSEDCODE}, as in
 * Open MPI; they cannot be set, deleted or freed.
 *
 * <p>Errors of the keyval calls go to {@code MPI.COMM_WORLD}'s handler, those of the attribute
 * calls to the object's (a communicator's own, a datatype's COMM_WORLD's).
 */
final class Attributes {

    /** What an attribute is cached on; keyvals of one kind are invalid on the other. */
    enum Kind { COMM, TYPE, WIN }

    /** Predefined keys, Open MPI's positions in its enum: MPI.TAG_UB is 0 ... MPI.UNIVERSE_SIZE is 6. */
    static final int TAG_UB = 0, HOST = 1, IO = 2, WTIME_IS_GLOBAL = 3, APPNUM = 4, LASTUSEDCODE = 5, UNIVERSE_SIZE = 6;
    /** The window keys (MPI.WIN_BASE ...): never valid on a communicator or datatype here. */
    static final int WIN_BASE = 7, WIN_SIZE = 8, WIN_DISP_UNIT = 9;
    /** The first keyval {@code createKeyval} hands out. */
    private static final int FIRST_USER_KEYVAL = 16;

    /** Live user keyvals and their kind; shared by the whole process, as MPI keyvals are. */
    private static final Map<Integer, Kind> KEYVALS = new HashMap<>();
    /**
     * Freed user keyvals and their kind. MPI frees a keyval only once no object caches a value
     * under it: until then the values stay readable and deletable, but none can be set. Keyvals are
     * never reused, so keeping freed ones costs an entry each and cannot mistake one for another.
     */
    private static final Map<Integer, Kind> FREED_KEYVALS = new HashMap<>();
    private static int nextKeyval = FIRST_USER_KEYVAL;

    private final Kind kind;
    /** The predefined keys this object carries: all of them on COMM_WORLD, all but LASTUSEDCODE on its dups. */
    private final Set<Integer> predefined;
    /** User attributes, serialized. */
    private final Map<Integer, byte[]> values = new LinkedHashMap<>();

    private Attributes(Kind kind, Set<Integer> predefined) {
        this.kind = kind;
        this.predefined = predefined;
    }

    /** The attributes of a new communicator: none. */
    static Attributes forComm() {
        return new Attributes(Kind.COMM, Set.of());
    }

    /** COMM_WORLD's: every predefined key. */
    static Attributes forWorld() {
        return new Attributes(Kind.COMM, Set.of(TAG_UB, HOST, IO, WTIME_IS_GLOBAL, APPNUM, LASTUSEDCODE, UNIVERSE_SIZE));
    }

    /** A window's user attributes (its predefined keys are answered by {@link Win} itself). */
    static Attributes forWin() {
        return new Attributes(Kind.WIN, Set.of());
    }

    /** A datatype's: none. */
    static Attributes forType() {
        return new Attributes(Kind.TYPE, Set.of());
    }

    /** The attributes a {@code dup} of this object starts with: every user one, and the inherited predefined ones. */
    synchronized Attributes copyForDup() {
        Set<Integer> inherited = new java.util.HashSet<>(predefined);
        inherited.remove(LASTUSEDCODE);
        Attributes copy = new Attributes(kind, Set.copyOf(inherited));
        copy.values.putAll(values);
        return copy;
    }

    // ---------------------------------------------------------------- keyvals

    /** A new keyval of {@code kind}. */
    static int createKeyval(Kind kind, String call) throws MPIException {
        Session.enter(call);
        synchronized (KEYVALS) {
            int k = nextKeyval++;
            KEYVALS.put(k, kind);
            return k;
        }
    }

    /** Frees a keyval of {@code kind}; values cached with it stay readable and deletable until deleted or their object goes. */
    static void freeKeyval(Kind kind, int keyval, String call) throws MPIException {
        Session.enter(call);
        synchronized (KEYVALS) {
            if (KEYVALS.get(keyval) != kind) {
                throw MPI.COMM_WORLD.handle(invalidKeyval(call, keyval, kind));
            }
            KEYVALS.remove(keyval);
            FREED_KEYVALS.put(keyval, kind);
        }
    }

    private static MPIException invalidKeyval(String call, int keyval, Kind kind) {
        String what = keyval >= TAG_UB && keyval <= WIN_DISP_UNIT ? " (a predefined key)"
                : FREED_KEYVALS.get(keyval) == kind ? " (it has been freed)" : "";
        String object = kind == Kind.COMM ? "communicator" : kind == Kind.TYPE ? "datatype" : "window";
        return MPIException.of(MPI.ERR_KEYVAL, call + ": invalid " + object + " keyval " + keyval + what);
    }

    // ---------------------------------------------------------------- values

    /**
     * Caches a serialized copy of {@code value} under a user keyval.
     *
     * @throws MPIException ERR_KEYVAL for a predefined or invalid keyval, ERR_ARG when the value cannot be
     *                      serialized; not passed to any handler yet
     */
    void set(String call, int keyval, Object value) throws MPIException {
        checkUserKeyval(call, keyval, false);
        byte[] bytes;
        try (ByteArrayOutputStream out = new ByteArrayOutputStream(); ObjectOutputStream o = new ObjectOutputStream(out)) {
            o.writeObject(value);
            o.flush();
            bytes = out.toByteArray();
        } catch (IOException e) {
            throw MPIException.of(MPI.ERR_ARG, call + ": the value cannot be serialized: " + e);
        }
        synchronized (this) {
            values.put(keyval, bytes);
        }
    }

    /**
     * A fresh copy of the value under {@code keyval}, or null when none is cached; a predefined
     * key's value as Open MPI gives it ({@code Integer}, or {@code Boolean} for WTIME_IS_GLOBAL).
     *
     * @throws MPIException ERR_KEYVAL for an invalid keyval, ERR_OTHER when the value cannot be read back;
     *                      not passed to any handler yet
     */
    Object get(String call, SlaveRuntime rt, int keyval) throws MPIException {
        if (kind == Kind.COMM && keyval >= TAG_UB && keyval <= UNIVERSE_SIZE) {
            return predefined.contains(keyval) ? predefinedValue(keyval, rt) : null;
        }
        checkUserKeyval(call, keyval, true);
        byte[] bytes;
        synchronized (this) {
            bytes = values.get(keyval);
        }
        if (bytes == null) {
            return null;
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw MPIException.of(MPI.ERR_OTHER, call + ": the value cannot be deserialized: " + e);
        }
    }

    /**
     * Removes the value under a user keyval.
     *
     * @throws MPIException ERR_KEYVAL for a predefined or invalid keyval; not passed to any handler yet
     */
    void delete(String call, int keyval) throws MPIException {
        checkUserKeyval(call, keyval, true);
        synchronized (this) {
            values.remove(keyval);
        }
    }

    /** @param freedToo whether a freed keyval of this kind will do: to read or delete a value cached before the free */
    private void checkUserKeyval(String call, int keyval, boolean freedToo) throws MPIException {
        synchronized (KEYVALS) {
            if (KEYVALS.get(keyval) != kind && !(freedToo && FREED_KEYVALS.get(keyval) == kind)) {
                throw invalidKeyval(call, keyval, kind);
            }
        }
    }

    /** Open MPI's values, for this runtime: see MPI.TAG_UB and the other keys. */
    private static Object predefinedValue(int keyval, SlaveRuntime rt) {
        switch (keyval) {
            case TAG_UB:
                return MPI.TAG_UB_VALUE;
            case HOST:
                return MPI.PROC_NULL;
            case IO:
                return MPI.ANY_SOURCE;
            case WTIME_IS_GLOBAL:
                return Boolean.FALSE;
            case APPNUM:
                return 0;
            case LASTUSEDCODE:
                return MPI.ERR_LASTCODE;
            default:
                return rt.environment().worldSize();
        }
    }
}
