package io.bdmpi.master.store;

import io.bdmpi.protocol.Payload;
import net.openhft.chronicle.map.ChronicleMap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Buffered small messages off the master's heap, in a Chronicle Map persisted to a file of the
 * job's work directory (so it goes with it): however many messages wait, the heap and the
 * garbage collector do not see them. Messages larger than {@link #MAX_VALUE_BYTES} stay on the heap
 * (there are few of them: at most -im bytes each, and large ones go to spill files anyway).
 *
 * <p>Owned by the scheduler thread. Only the master uses Chronicle Map: opening one costs about a
 * second and 100 MB, which slaves must not pay.
 */
public final class ChronicleMessageStore implements MessageStore {

    /** Largest message kept off-heap. */
    static final int MAX_VALUE_BYTES = 4096;
    /** Messages the map is sized for; it grows up to {@link #MAX_BLOAT} times that. */
    static final long ENTRIES = 1L << 20;
    static final double AVERAGE_VALUE_BYTES = 64;
    static final double MAX_BLOAT = 16;

    private final ChronicleMap<Long, byte[]> map;
    private long nextKey;

    private ChronicleMessageStore(ChronicleMap<Long, byte[]> map) {
        this.map = map;
    }

    /** Creates the map in {@code file} (which must not exist), in the job's work directory. */
    public static ChronicleMessageStore create(Path file) throws IOException {
        // Chronicle would otherwise phone home (Google Analytics) and write ~/.chronicle.analytics.client.id.
        System.setProperty("chronicle.analytics.disable", "true");
        // Chronicle's "target" directory (made as /tmp/target unless a build directory is above the
        // working directory) and the JNA library it extracts (under ~/.cache/JNA) go with the job.
        String workDirectory = file.toAbsolutePath().getParent().toString();
        if (System.getProperty("project.build.directory") == null) {
            System.setProperty("project.build.directory", workDirectory);
        }
        if (System.getProperty("jna.tmpdir") == null) {
            System.setProperty("jna.tmpdir", workDirectory);
        }
        try {
            return new ChronicleMessageStore(ChronicleMap.of(Long.class, byte[].class)
                    .name("bdmpi-messages")
                    .entries(ENTRIES)
                    .averageValueSize(AVERAGE_VALUE_BYTES)
                    .maxBloatFactor(MAX_BLOAT)
                    .createPersistedTo(file.toFile()));
        } catch (RuntimeException | LinkageError e) {
            throw new IOException("cannot create the off-heap message store " + file + ": " + e
                    + " (on JDK 17 the master's JVM needs the options in bin/bdmpiexec)", e);
        }
    }

    @Override
    public StoredMessage keep(StoredMessage message) {
        if (!(message.payload() instanceof Payload.Inline inline) || inline.length() > MAX_VALUE_BYTES) {
            return message;
        }
        ByteBuffer bytes = inline.bytes();
        byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        long key = nextKey++;
        map.put(key, copy);
        return message.movedTo(new Entry(key, copy.length));
    }

    /** Messages now in the store. */
    long size() {
        return map.longSize();
    }

    @Override
    public void close() {
        map.close();
    }

    private final class Entry implements StoredMessage.Kept {
        private final long key;
        private final int length;

        Entry(long key, int length) {
            this.key = key;
            this.length = length;
        }

        @Override
        public long length() {
            return length;
        }

        @Override
        public ByteBuffer take() {
            return present(map.remove(key));
        }

        @Override
        public ByteBuffer read() {
            return present(map.get(key));
        }

        private ByteBuffer present(byte[] bytes) {
            if (bytes == null) {
                throw new IllegalStateException("message " + key + " is not in the off-heap store (taken twice?)");
            }
            return ByteBuffer.wrap(bytes);
        }
    }
}
