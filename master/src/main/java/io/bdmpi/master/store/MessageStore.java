package io.bdmpi.master.store;

/**
 * Where the master keeps the bytes of buffered inline messages until their receivers take them.
 * Owned by the scheduler thread.
 */
public interface MessageStore extends AutoCloseable {

    /** The message as it is to wait in a mailbox: as it is, or with its bytes moved into this store. */
    StoredMessage keep(StoredMessage message);

    @Override
    default void close() {
    }

    /** Messages stay as they arrived, on the master's heap. */
    MessageStore ON_HEAP = message -> message;
}
