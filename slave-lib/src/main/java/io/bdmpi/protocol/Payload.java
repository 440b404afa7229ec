package io.bdmpi.protocol;

import java.nio.ByteBuffer;

/**
 * The bytes of one message: either carried inline on the socket, or written by the sender to a new
 * file in the job's spill directory, of which only the name travels.
 */
public sealed interface Payload permits Payload.Inline, Payload.Spilled, Payload.Slice {

    /** Length of the message in bytes. */
    long length();

    /**
     * Bytes carried on the socket.
     *
     * @param bytes the message, from position to limit; the record takes no copy, so the owner must
     *              not change it while the record is in use
     */
    record Inline(ByteBuffer bytes) implements Payload {
        public Inline {
            if (bytes == null) {
                throw new IllegalArgumentException("inline payload needs a buffer");
            }
        }

        @Override
        public long length() {
            return bytes.remaining();
        }
    }

    /**
     * A message on disk: the receiver reads the file and deletes it.
     *
     * @param fileName name of the file inside the job's spill directory (no path separators)
     * @param length   exact length of the file in bytes
     */
    record Spilled(String fileName, long length) implements Payload {
        public Spilled {
            if (fileName == null || fileName.isEmpty() || fileName.contains("/")) {
                throw new IllegalArgumentException("bad spill file name: " + fileName);
            }
            if (length < 0) {
                throw new IllegalArgumentException("negative spill length: " + length);
            }
        }
    }

    /**
     * A range of a file in the spill directory that the master owns (a collective member's spilled
     * contribution): the slave reads it and leaves it; the master deletes the file once every
     * member it was handed to has moved on.
     */
    record Slice(String fileName, long offset, long length) implements Payload {
        public Slice {
            new Spilled(fileName, length);
            if (offset < 0) {
                throw new IllegalArgumentException("negative slice offset: " + offset);
            }
        }
    }
}
