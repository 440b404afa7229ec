package io.bdmpi.ooc;

import java.io.IOException;
import java.nio.file.Path;

/** A {@code int} array of up to 2<sup>61</sup>-1 elements in a memory-mapped file; see {@link MappedArray}. */
public final class IntArray extends MappedArray {

    IntArray(String name, Path file, long length, Residency residency) throws IOException {
        super(name, file, length, 2, residency);
    }

    /** A read-only view of the {@code length} elements at byte {@code fileOffset} of {@code file}. */
    IntArray(String name, Path file, long fileOffset, long length, Residency residency) throws IOException {
        super(name, file, fileOffset, true, length, 2, residency);
    }

    /** The element at {@code index}; throws {@link IndexOutOfBoundsException} outside [0, length). */
    public int get(long index) {
        return chunk(index).getInt(offset(index));
    }

    /** Sets the element at {@code index}; throws {@link IndexOutOfBoundsException} outside [0, length). */
    public void set(long index, int value) {
        chunk(index).putInt(offset(index), value);
    }
}
