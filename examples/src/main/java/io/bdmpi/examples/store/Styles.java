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

    /** The storage of style {@code name}; an {@link IllegalArgumentException} names the known ones. */
    public static Storage of(String name) {
        if (HEAP.equals(name)) {
            return HeapStorage.INSTANCE;
        }
        throw new IllegalArgumentException("unknown --style '" + name + "': only 'heap' is available"
                + " ('mlock' and 'ooc' need off-heap arrays, which this build does not have yet)");
    }
}
