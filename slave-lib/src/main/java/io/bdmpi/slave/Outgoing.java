package io.bdmpi.slave;

import java.nio.ByteBuffer;

/**
 * The bytes a call sends, as parts made of whole items, which the runtime packs where the message
 * goes: all into one buffer when it goes to the master inline, a bounded chunk at a time into a
 * new spill file when it is larger. A buffer of the whole message would be zeroed, faulted in and
 * freed again at every large send (tens of MB per rank and iteration for PageRank's exchange).
 */
public interface Outgoing {

    /** Number of parts. */
    int parts();

    /** Bytes of one item of part {@code part} (at least 1). */
    int itemBytes(int part);

    /** Items in part {@code part}. */
    int items(int part);

    /** Packs items {@code first .. first+count-1} of part {@code part} at {@code dst}'s position, advancing it. */
    void pack(int part, int first, int count, ByteBuffer dst);

    /** Bytes of the whole message. */
    default long length() {
        long bytes = 0;
        for (int p = 0; p < parts(); p++) {
            bytes += (long) itemBytes(p) * items(p);
        }
        return bytes;
    }

    /** The remaining bytes of {@code data} (not modified), as one part of bytes. */
    static Outgoing of(ByteBuffer data) {
        ByteBuffer bytes = data.slice();
        return new Outgoing() {
            @Override
            public int parts() {
                return 1;
            }

            @Override
            public int itemBytes(int part) {
                return 1;
            }

            @Override
            public int items(int part) {
                return bytes.remaining();
            }

            @Override
            public void pack(int part, int first, int count, ByteBuffer dst) {
                dst.put(bytes.duplicate().position(first).limit(first + count));
            }
        };
    }
}
