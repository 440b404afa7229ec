package mpi;

/**
 * Accessor of {@code MPI.DOUBLE_INT} pairs {double value; int index} in a byte buffer, for MINLOC and
 * MAXLOC: use the singleton {@code MPI.doubleInt}.
 */
public final class DoubleInt extends Struct {

    private final int valueOffset = addDouble();
    private final int indexOffset = addInt();

    DoubleInt() {
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
        public double getValue() {
            return getDouble(valueOffset);
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
        public void putValue(double value) {
            putDouble(valueOffset, value);
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
