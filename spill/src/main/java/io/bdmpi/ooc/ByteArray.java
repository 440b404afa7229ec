package io.bdmpi.ooc;

import java.io.IOException;
import java.nio.file.Path;

/** A {@code byte} array of up to 2<sup>63</sup>-1 elements in a memory-mapped file; see {@link MappedArray}. */
public final class ByteArray extends MappedArray {

    ByteArray(String name, Path file, long length, Residency residency) throws IOException {
        super(name, file, length, 0, residency);
    }

    /** The element at {@code index}; throws {@link IndexOutOfBoundsException} outside [0, length). */
    public byte get(long index) {
        return chunk(index).get(offset(index));
    }

    /** Sets the element at {@code index}; throws {@link IndexOutOfBoundsException} outside [0, length). */
    public void set(long index, byte value) {
        chunk(index).put(offset(index), value);
    }
}
