package io.bdmpi.examples.store;

import mpi.MPIException;
import mpi.OutOfCore;

/**
 * The {@code --style} option of the MPI applications: which {@link Storage} holds their data, the
 * BDMPI paper's three styles: {@code heap} (plain heap arrays), {@code mlock} (off-heap mapped
 * arrays, prefetched at resume: {@link MappedStorage}) and {@code ooc} (heap arrays saved before
 * each blocking call and loaded after it: {@link SavedStorage}).
 */
public final class Styles {

    /** The default style. */
    public static final String HEAP = "heap";
    /** Off-heap mapped arrays, read back in when the rank resumes. */
    public static final String MLOCK = "mlock";
    /** Heap arrays saved to disk around blocking calls. */
    public static final String OOC = "ooc";

    private Styles() {
    }

    /**
     * Opens the storage of style {@code name} for this rank (the file-backed styles keep their
     * files in the rank's {@link OutOfCore#store()}); an {@link IllegalArgumentException} names
     * the known styles.
     *
     * @throws MPIException if the rank's out-of-core store cannot be opened
     */
    public static Storage open(String name) throws MPIException {
        if (HEAP.equals(name)) {
            return HeapStorage.INSTANCE;
        }
        if (MLOCK.equals(name)) {
            return new MappedStorage(OutOfCore.store());
        }
        if (OOC.equals(name)) {
            return new SavedStorage(OutOfCore.store());
        }
        throw new IllegalArgumentException("unknown --style '" + name + "': use " + HEAP + ", " + MLOCK + " or " + OOC);
    }
}
