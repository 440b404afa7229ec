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

    /**
     * Reads the remaining bytes of a buffer of the runtime in place ({@link SlaveRuntime#readInPlace}).
     * The runtime reuses or unmaps that buffer at its next request, and a program's
     * {@code Checkpointable.restore} may make MPI calls while it reads: the runtime then first
     * {@linkplain #detach detaches} the stream, which copies what is left to the heap.
     */
    public static final class Reading extends InputStream {

        private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

        private ByteBuffer bytes;

        Reading(ByteBuffer bytes) {
            this.bytes = bytes;
        }

        /** The buffer read so far is about to be reused: what is left of it is copied to the heap. */
        synchronized void detach() {
            if (bytes.hasRemaining()) {
                ByteBuffer copy = ByteBuffer.allocate(bytes.remaining());
                copy.put(bytes).flip();
                bytes = copy;
            }
        }

        @Override
        public synchronized int read() {
            return bytes.hasRemaining() ? bytes.get() & 0xFF : -1;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
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
        public synchronized long skip(long n) {
            int k = (int) Math.max(0, Math.min(n, bytes.remaining()));
            bytes.position(bytes.position() + k);
            return k;
        }

        @Override
        public synchronized int available() {
            return bytes.remaining();
        }

        /** Drops the buffer: nothing is left to copy when the runtime's next request comes. */
        @Override
        public synchronized void close() {
            bytes = NOTHING;
        }
    }
}
