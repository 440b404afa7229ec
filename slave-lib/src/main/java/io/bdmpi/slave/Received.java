package io.bdmpi.slave;

import io.bdmpi.protocol.Payload;
import io.bdmpi.spill.SpillException;

import java.nio.ByteBuffer;

/**
 * A message handed to one of this slave's receives. Its bytes are fetched once, by {@link #data()};
 * for a spilled message that reads and deletes the file.
 */
public final class Received implements Completed {

    private final SlaveRuntime runtime;
    private final long requestId;
    private final int source;
    private final int tag;
    private final Payload payload;
    private boolean consumed;

    Received(SlaveRuntime runtime, long requestId, int source, int tag, Payload payload) {
        this.runtime = runtime;
        this.requestId = requestId;
        this.source = source;
        this.tag = tag;
        this.payload = payload;
    }

    /** Id of the posted receive this message matched. */
    @Override
    public long requestId() {
        return requestId;
    }

    /** Sender's rank in the communicator. */
    public int source() {
        return source;
    }

    /** The message's actual tag. */
    public int tag() {
        return tag;
    }

    /** Length of the message in bytes. */
    public long length() {
        return payload.length();
    }

    /**
     * The message's bytes, position 0 to limit = length, in native byte order. For a spilled
     * message the buffer is a read-only mapping of its file (whose name is gone already): valid
     * only until the next {@code data()} call of any message of this slave, or its next request to
     * the master, which unmap it. May be called once.
     */
    public ByteBuffer data() throws SpillException {
        if (consumed) {
            throw new IllegalStateException("message data already taken");
        }
        consumed = true;
        if (payload instanceof Payload.Inline in) {
            return in.bytes().duplicate().order(java.nio.ByteOrder.nativeOrder());
        }
        return runtime.readSpilled((Payload.Spilled) payload);
    }

    /** Drops the message without reading it (its spill file, if any, is deleted). */
    public void discard() {
        if (!consumed) {
            consumed = true;
            if (payload instanceof Payload.Spilled s) {
                runtime.discardSpilled(s);
            }
        }
    }
}
