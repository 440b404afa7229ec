package io.bdmpi.ooc;

import java.io.IOException;
import java.nio.file.Path;

/** A {@code long} array of up to 2<sup>60</sup>-1 elements in a memory-mapped file; see {@link MappedArray}. */
public final class LongArray extends MappedArray {

    LongArray(String name, Path file, long length, Residency residency) throws IOException {
        super(name, file, length, 3, residency);
    }

    /** The element at {@code index}; throws {@link IndexOutOfBoundsException} outside [0, length). */
    public long get(long index) {
        return chunk(index).getLong(offset(index));
    }

    /** Sets the element at {@code index}; throws {@link IndexOutOfBoundsException} outside [0, length). */
    public void set(long index, long value) {
        chunk(index).putLong(offset(index), value);
    }
}
