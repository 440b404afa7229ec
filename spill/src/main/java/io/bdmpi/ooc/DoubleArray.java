package io.bdmpi.ooc;

import java.io.IOException;
import java.nio.file.Path;

/** A {@code double} array of up to 2<sup>60</sup>-1 elements in a memory-mapped file; see {@link MappedArray}. */
public final class DoubleArray extends MappedArray {

    DoubleArray(String name, Path file, long length, Residency residency) throws IOException {
        super(name, file, length, 3, residency);
    }

    /** The element at {@code index}; throws {@link IndexOutOfBoundsException} outside [0, length). */
    public double get(long index) {
        return chunk(index).getDouble(offset(index));
    }

    /** Sets the element at {@code index}; throws {@link IndexOutOfBoundsException} outside [0, length). */
    public void set(long index, double value) {
        chunk(index).putDouble(offset(index), value);
    }
}
