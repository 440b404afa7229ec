package mpi;

/**
 * The constructors of derived datatypes: argument checks and units (extents of the old type or
 * bytes), then the layout from {@link TypeMap}. Errors go to {@code MPI.COMM_WORLD}'s handler, as a
 * datatype has no handler of its own.
 */
final class DerivedTypes {

    private DerivedTypes() {
    }

    static Datatype contiguous(int count, Datatype old) throws MPIException {
        String call = "MPI_Type_contiguous";
        try {
            Session.enter(call);
            checkOld(call, old);
            checkCount(call, count, "count");
            return Datatype.derived(old.base, TypeMap.blocks(call, new int[] {count}, new long[] {0}, old.map));
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.handle(e);
        }
    }

    /** Vector ({@code bytes} false: stride in extents of {@code old}) or hvector (stride in bytes). */
    static Datatype vector(String call, int count, int blockLength, int stride, boolean bytes, Datatype old)
            throws MPIException {
        try {
            Session.enter(call);
            checkOld(call, old);
            checkCount(call, count, "count");
            checkCount(call, blockLength, "block length");
            int[] lengths = new int[count];
            long[] displs = new long[count];
            long unit = bytes ? 1 : old.map.extent;
            for (int i = 0; i < count; i++) {
                lengths[i] = blockLength;
                displs[i] = i * (long) stride * unit;
            }
            return Datatype.derived(old.base, TypeMap.blocks(call, lengths, displs, old.map));
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.handle(e);
        }
    }

    /** Indexed ({@code bytes} false: displacements in extents of {@code old}) or hindexed (in bytes). */
    static Datatype indexed(String call, int[] blockLengths, int[] displacements, boolean bytes, Datatype old)
            throws MPIException {
        try {
            Session.enter(call);
            checkOld(call, old);
            checkBlocks(call, blockLengths, displacements);
            long unit = bytes ? 1 : old.map.extent;
            return Datatype.derived(old.base, TypeMap.blocks(call, blockLengths, scaled(displacements,
                    blockLengths.length, unit), old.map));
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.handle(e);
        }
    }

    static Datatype struct(int[] blockLengths, int[] displacements, Datatype[] types) throws MPIException {
        String call = "MPI_Type_create_struct";
        try {
            Session.enter(call);
            checkBlocks(call, blockLengths, displacements);
            if (types == null || types.length < blockLengths.length) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + (types == null ? "null array of types"
                        : types.length + " types for " + blockLengths.length + " blocks"));
            }
            TypeMap[] maps = new TypeMap[blockLengths.length];
            for (int i = 0; i < maps.length; i++) {
                checkOld(call, types[i]);
                maps[i] = types[i].map;
            }
            return Datatype.derived(Datatype.Base.BYTE, TypeMap.struct(call, blockLengths,
                    scaled(displacements, blockLengths.length, 1), maps));
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.handle(e);
        }
    }

    static Datatype resized(Datatype old, int lb, int extent) throws MPIException {
        String call = "MPI_Type_create_resized";
        try {
            Session.enter(call);
            checkOld(call, old);
            return Datatype.derived(old.base, TypeMap.resized(call, old.map, lb, extent));
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.handle(e);
        }
    }

    private static void checkOld(String call, Datatype old) throws MPIException {
        if (old == null) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": null datatype");
        }
        if (old.isNull()) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + old + " is null or freed");
        }
    }

    private static void checkCount(String call, int n, String what) throws MPIException {
        if (n < 0) {
            throw MPIException.of(what.equals("count") ? MPI.ERR_COUNT : MPI.ERR_ARG, call + ": negative " + what + " " + n);
        }
    }

    private static void checkBlocks(String call, int[] blockLengths, int[] displacements) throws MPIException {
        if (blockLengths == null || displacements == null) {
            throw MPIException.of(MPI.ERR_ARG, call + ": null array of " + (blockLengths == null ? "block lengths"
                    : "displacements"));
        }
        if (displacements.length < blockLengths.length) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + displacements.length + " displacements for "
                    + blockLengths.length + " blocks");
        }
        for (int i = 0; i < blockLengths.length; i++) {
            checkCount(call, blockLengths[i], "block length");
        }
    }

    private static long[] scaled(int[] displacements, int n, long unit) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = displacements[i] * unit;
        }
        return out;
    }
}
