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
