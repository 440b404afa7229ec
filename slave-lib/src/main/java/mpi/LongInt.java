package mpi;

/**
 * Accessor of {@code MPI.LONG_INT} pairs {long value; int index} in a byte buffer, for MINLOC and
 * MAXLOC: use the singleton {@code MPI.longInt}.
 */
public final class LongInt extends Struct {

    private final int valueOffset = addLong();
    private final int indexOffset = addInt();

    LongInt() {
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
        public long getValue() {
            return getLong(valueOffset);
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
        public void putValue(long value) {
            putLong(valueOffset, value);
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
