package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A view of one complex number of {@code MPI.FLOAT_COMPLEX} data: the real part at element
 * {@code 2*index} of a float buffer, the imaginary part at {@code 2*index+1}. Reads and writes go
 * straight through to the buffer (an array is wrapped, not copied) and leave its position alone.
 */
public final class FloatComplex {

    private final FloatBuffer buffer;
    private final int offset;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = 2 * index;
    }

    /**
     * A view of the first complex number of {@code buffer}.
     *
     * @param buffer the floats, real and imaginary parts alternating
     * @return the view
     */
    public static FloatComplex get(FloatBuffer buffer) {
        return get(buffer, 0);
    }

    /**
     * A view of complex number {@code index} of {@code buffer}.
     *
     * @param buffer the floats, real and imaginary parts alternating
     * @param index which complex number, from the buffer's start
     * @return the view
     */
    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    /**
     * A view of the first complex number of {@code array}.
     *
     * @param array the floats, real and imaginary parts alternating
     * @return the view, writing through to the array
     */
    public static FloatComplex get(float[] array) {
        return get(array, 0);
    }

    /**
     * A view of complex number {@code index} of {@code array}.
     *
     * @param array the floats, real and imaginary parts alternating
     * @param index which complex number
     * @return the view, writing through to the array
     */
    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    /**
     * A view of the first complex number of {@code buffer}, viewed as floats from its current
     * position in its byte order.
     *
     * @param buffer the bytes
     * @return the view
     */
    public static FloatComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    /**
     * A view of complex number {@code index} of {@code buffer}, viewed as floats from its current
     * position in its byte order.
     *
     * @param buffer the bytes
     * @param index which complex number
     * @return the view
     */
    public static FloatComplex get(ByteBuffer buffer, int index) {
        return new FloatComplex(buffer.asFloatBuffer(), index);
    }

    /**
     * The real part.
     *
     * @return the real part
     */
    public float getReal() {
        return buffer.get(offset);
    }

    /**
     * The imaginary part.
     *
     * @return the imaginary part
     */
    public float getImag() {
        return buffer.get(offset + 1);
    }

    /**
     * Sets the real part.
     *
     * @param real the real part
     */
    public void putReal(float real) {
        buffer.put(offset, real);
    }

    /**
     * Sets the imaginary part.
     *
     * @param imag the imaginary part
     */
    public void putImag(float imag) {
        buffer.put(offset + 1, imag);
    }

    /**
     * The buffer from this complex number on: the underlying buffer itself for index 0, else
     * {@code MPI.slice(buffer, 2 * index)}, which clears the underlying buffer's position and limit.
     *
     * @return the buffer
     */
    public FloatBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
