package io.bdmpi.ooc;

import java.io.IOException;
import java.nio.file.Path;

/** A {@code float} array of up to 2<sup>61</sup>-1 elements in a memory-mapped file; see {@link MappedArray}. */
public final class FloatArray extends MappedArray {

    FloatArray(String name, Path file, long length, Residency residency) throws IOException {
        super(name, file, length, 2, residency);
    }

    /** A read-only view of the {@code length} elements at byte {@code fileOffset} of {@code file}. */
    FloatArray(String name, Path file, long fileOffset, long length, Residency residency) throws IOException {
        super(name, file, fileOffset, true, length, 2, residency);
    }

    /** The element at {@code index}; throws {@link IndexOutOfBoundsException} outside [0, length). */
    public float get(long index) {
        return chunk(index).getFloat(offset(index));
    }

    /** Sets the element at {@code index}; throws {@link IndexOutOfBoundsException} outside [0, length). */
    public void set(long index, float value) {
        chunk(index).putFloat(offset(index), value);
    }
}
