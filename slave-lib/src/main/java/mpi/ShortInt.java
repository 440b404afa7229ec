package mpi;

/**
 * Accessor of {@code MPI.SHORT_INT} pairs {short value; int index} in a byte buffer, for MINLOC and
 * MAXLOC: use the singleton {@code MPI.shortInt}.
 */
public final class ShortInt extends Struct {

    private final int valueOffset = addShort();
    private final int indexOffset = addInt();

    ShortInt() {
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** A view of one pair. */
    public final class Data extends Struct.Data {

        /**
         * The value.
         *
         * @return the value
         */
        public short getValue() {
            return getShort(valueOffset);
        }

        /**
         * The index (usually the rank the value came from).
         *
         * @return the index
         */
        public int getIndex() {
            return getInt(indexOffset);
        }

        /**
         * Sets the value.
         *
         * @param value the new value
         */
        public void putValue(short value) {
            putShort(valueOffset, value);
        }

        /**
         * Sets the index.
         *
         * @param index the new index
         */
        public void putIndex(int index) {
            putInt(indexOffset, index);
        }
    }
}
