package io.bdmpi.examples.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/** Buffered little-endian writes to a file channel, appended at its current position. */
final class LittleEndianOutput {

    private static final int BUFFER_BYTES = 1 << 20;

    private final FileChannel channel;
    private final ByteBuffer buffer;

    LittleEndianOutput(FileChannel channel) {
        this(channel, BUFFER_BYTES);
    }

    LittleEndianOutput(FileChannel channel, int bufferBytes) {
        this.channel = channel;
        this.buffer = ByteBuffer.allocate(bufferBytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    void putInt(int v) throws IOException {
        room(Integer.BYTES);
        buffer.putInt(v);
    }

    void putFloat(float v) throws IOException {
        room(Float.BYTES);
        buffer.putFloat(v);
    }

    void putLong(long v) throws IOException {
        room(Long.BYTES);
        buffer.putLong(v);
    }

    void putDouble(double v) throws IOException {
        room(Double.BYTES);
        buffer.putDouble(v);
    }

    /** Writes out everything buffered. */
    void flush() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    private void room(int bytes) throws IOException {
        if (buffer.remaining() < bytes) {
            flush();
        }
    }
}
