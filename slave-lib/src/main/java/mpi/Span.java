package mpi;

import io.bdmpi.slave.Outgoing;
import io.bdmpi.slave.Received;

import java.nio.ByteBuffer;

/**
 * {@code count} items of {@code type} in a user buffer, from item {@code offset} (counted in items
 * of {@code type} from the buffer's start, as MPI's displacements are): one block a collective
 * sends or receives.
 */
record Span(Object buf, int offset, int count, Datatype type) implements MessageSlot {

    @Override
    public Status take(String call, Received message) throws MPIException {
        return Comm.deliver(call, message, this);
    }

    /** Bytes of the span's items in a message. */
    int bytes() {
        return count * type.byteSize();
    }

    /**
     * Checks that the buffer holds the span.
     *
     * @param receive the span will be written
     * @throws MPIException as {@link BufferAccess#byteLength}
     */
    Span checked(String call, boolean receive) throws MPIException {
        BufferAccess.byteLength(call, buf, offset, count, type, receive);
        return this;
    }

    /** Writes the span's items at {@code dst}'s position, advancing it. */
    void packInto(ByteBuffer dst) {
        BufferAccess.pack(buf, offset, count, type, dst);
    }

    /** The spans' items, one part per span: what a call sends. */
    static Outgoing message(Span... spans) {
        return new Outgoing() {
            @Override
            public int parts() {
                return spans.length;
            }

            @Override
            public int itemBytes(int part) {
                return Math.max(1, spans[part].type.byteSize());
            }

            @Override
            public int items(int part) {
                return spans[part].type.byteSize() == 0 ? 0 : spans[part].count;
            }

            @Override
            public void pack(int part, int first, int count, ByteBuffer dst) {
                Span s = spans[part];
                BufferAccess.pack(s.buf, s.offset + first, count, s.type, dst);
            }
        };
    }

    /** Copies {@code src} (position to limit, no longer than the span) over the span's items. */
    void unpackFrom(ByteBuffer src) {
        BufferAccess.unpack(src, buf, offset, type);
    }
}
