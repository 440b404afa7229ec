package io.bdmpi.examples.store;

/**
 * The {@code --style} option of the MPI applications: which {@link Storage} holds their data.
 * Only {@code heap} exists so far; {@code mlock} (off-heap mapped arrays, prefetched at resume)
 * and {@code ooc} (saved before each blocking call, loaded after) plug in here as further
 * implementations once the spill module offers mapped arrays and save/load.
 */
public final class Styles {

    /** The default style. */
    public static final String HEAP = "heap";

    private Styles() {
    }

    /**
     * Opens the storage of style {@code name} for rank {@code rank} (which a file-backed style
     * uses to name its files); an {@link IllegalArgumentException} names the known styles.
     */
    public static Storage open(String name, int rank) {
        if (HEAP.equals(name)) {
            return HeapStorage.INSTANCE;
        }
        throw new IllegalArgumentException("unknown --style '" + name + "': only 'heap' is available"
                + " ('mlock' and 'ooc' need off-heap arrays, which this build does not have yet)");
    }
}
