package mpi;

/**
 * Accessor of {@code MPI.FLOAT_INT} pairs {float value; int index} in a byte buffer, for MINLOC and
 * MAXLOC: use the singleton {@code MPI.floatInt}.
 */
public final class FloatInt extends Struct {

    private final int valueOffset = addFloat();
    private final int indexOffset = addInt();

    FloatInt() {
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
        public float getValue() {
            return getFloat(valueOffset);
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
        public void putValue(float value) {
            putFloat(valueOffset, value);
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
