package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A view of one complex number of {@code MPI.DOUBLE_COMPLEX} data: the real part at element
 * {@code 2*index} of a double buffer, the imaginary part at {@code 2*index+1}. Reads and writes go
 * straight through to the buffer (an array is wrapped, not copied) and leave its position alone.
 */
public final class DoubleComplex {

    private final DoubleBuffer buffer;
    private final int offset;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = 2 * index;
    }

    /**
     * A view of the first complex number of {@code buffer}.
     *
     * @param buffer the doubles, real and imaginary parts alternating
     * @return the view
     */
    public static DoubleComplex get(DoubleBuffer buffer) {
        return get(buffer, 0);
    }

    /**
     * A view of complex number {@code index} of {@code buffer}.
     *
     * @param buffer the doubles, real and imaginary parts alternating
     * @param index which complex number, from the buffer's start
     * @return the view
     */
    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    /**
     * A view of the first complex number of {@code array}.
     *
     * @param array the doubles, real and imaginary parts alternating
     * @return the view, writing through to the array
     */
    public static DoubleComplex get(double[] array) {
        return get(array, 0);
    }

    /**
     * A view of complex number {@code index} of {@code array}.
     *
     * @param array the doubles, real and imaginary parts alternating
     * @param index which complex number
     * @return the view, writing through to the array
     */
    public static DoubleComplex get(double[] array, int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    /**
     * A view of the first complex number of {@code buffer}, viewed as doubles from its current
     * position in its byte order.
     *
     * @param buffer the bytes
     * @return the view
     */
    public static DoubleComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    /**
     * A view of complex number {@code index} of {@code buffer}, viewed as doubles from its current
     * position in its byte order.
     *
     * @param buffer the bytes
     * @param index which complex number
     * @return the view
     */
    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return new DoubleComplex(buffer.asDoubleBuffer(), index);
    }

    /**
     * The real part.
     *
     * @return the real part
     */
    public double getReal() {
        return buffer.get(offset);
    }

    /**
     * The imaginary part.
     *
     * @return the imaginary part
     */
    public double getImag() {
        return buffer.get(offset + 1);
    }

    /**
     * Sets the real part.
     *
     * @param real the real part
     */
    public void putReal(double real) {
        buffer.put(offset, real);
    }

    /**
     * Sets the imaginary part.
     *
     * @param imag the imaginary part
     */
    public void putImag(double imag) {
        buffer.put(offset + 1, imag);
    }

    /**
     * The buffer from this complex number on: the underlying buffer itself for index 0, else
     * {@code MPI.slice(buffer, 2 * index)}, which clears the underlying buffer's position and limit.
     *
     * @return the buffer
     */
    public DoubleBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
