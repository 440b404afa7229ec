package io.bdmpi.slave;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * The streams a rank's checkpointed state is written to and read from without a copy of the whole
 * state on the way: a state of tens of MiB was copied once more at a checkpoint
 * ({@code toByteArray}) and at a restore (the piece into an array), in a slave that runs under
 * {@code -nr} while its node's other ranks wait for their turn.
 */
public final class StateStreams {

    private StateStreams() {
    }

    /** What {@code save} writes, kept in a growing array that {@link #bytes()} views as it is. */
    public static final class Saved extends ByteArrayOutputStream {

        /** The bytes written so far, not copied (the stream must not be written to while they are used). */
        public ByteBuffer bytes() {
            return ByteBuffer.wrap(buf, 0, count);
        }
    }

    /** Reads the remaining bytes of {@code bytes}, advancing its position. */
    public static InputStream reading(ByteBuffer bytes) {
        return new InputStream() {
            @Override
            public int read() {
                return bytes.hasRemaining() ? bytes.get() & 0xFF : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (len == 0) {
                    return 0;
                }
                if (!bytes.hasRemaining()) {
                    return -1;
                }
                int n = Math.min(len, bytes.remaining());
                bytes.get(b, off, n);
                return n;
            }

            @Override
            public long skip(long n) {
                int k = (int) Math.max(0, Math.min(n, bytes.remaining()));
                bytes.position(bytes.position() + k);
                return k;
            }

            @Override
            public int available() {
                return bytes.remaining();
            }
        };
    }
}
