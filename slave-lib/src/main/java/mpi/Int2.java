package mpi;

/**
 * Accessor of {@code MPI.INT2} pairs {int value; int index} in a byte buffer, for MINLOC and
 * MAXLOC: use the singleton {@code MPI.int2}.
 */
public final class Int2 extends Struct {

    private final int valueOffset = addInt();
    private final int indexOffset = addInt();

    Int2() {
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
        public int getValue() {
            return getInt(valueOffset);
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
        public void putValue(int value) {
            putInt(valueOffset, value);
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
