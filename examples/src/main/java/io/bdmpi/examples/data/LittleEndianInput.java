package io.bdmpi.examples.data;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/** Buffered little-endian sequential reads from a file channel, starting at a given offset. */
final class LittleEndianInput {

    private static final int BUFFER_BYTES = 1 << 20;

    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private long position;

    LittleEndianInput(FileChannel channel, long position) {
        this.channel = channel;
        this.position = position;
        buffer.limit(0);
    }

    int getInt() throws IOException {
        fill(Integer.BYTES);
        return buffer.getInt();
    }

    float getFloat() throws IOException {
        fill(Float.BYTES);
        return buffer.getFloat();
    }

    long getLong() throws IOException {
        fill(Long.BYTES);
        return buffer.getLong();
    }

    double getDouble() throws IOException {
        fill(Double.BYTES);
        return buffer.getDouble();
    }

    /** Reads the next {@code len} ints into {@code dst[0..len)}, in bulk. */
    void getInts(int[] dst, int len) throws IOException {
        for (int off = 0; off < len; ) {
            fill(Integer.BYTES);
            int n = Math.min(len - off, buffer.remaining() / Integer.BYTES);
            buffer.asIntBuffer().get(dst, off, n);
            buffer.position(buffer.position() + n * Integer.BYTES);
            off += n;
        }
    }

    /** Reads the next {@code len} longs into {@code dst[0..len)}, in bulk. */
    void getLongs(long[] dst, int len) throws IOException {
        for (int off = 0; off < len; ) {
            fill(Long.BYTES);
            int n = Math.min(len - off, buffer.remaining() / Long.BYTES);
            buffer.asLongBuffer().get(dst, off, n);
            buffer.position(buffer.position() + n * Long.BYTES);
            off += n;
        }
    }

    /** Reads the next {@code len} floats into {@code dst[0..len)}, in bulk. */
    void getFloats(float[] dst, int len) throws IOException {
        for (int off = 0; off < len; ) {
            fill(Float.BYTES);
            int n = Math.min(len - off, buffer.remaining() / Float.BYTES);
            buffer.asFloatBuffer().get(dst, off, n);
            buffer.position(buffer.position() + n * Float.BYTES);
            off += n;
        }
    }

    private void fill(int bytes) throws IOException {
        if (buffer.remaining() >= bytes) {
            return;
        }
        buffer.compact();
        while (buffer.position() < bytes) {
            int n = channel.read(buffer, position);
            if (n < 0) {
                throw new EOFException("file ends at byte " + position + ", before the data its header announces");
            }
            position += n;
        }
        buffer.flip();
    }
}
