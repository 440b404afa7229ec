package io.bdmpi.spill;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The job's directory of large messages. A slave's message is a <b>new</b> file, written once,
 * read once and deleted by its reader: truncating and reusing a file makes ext4 force its data to
 * disk, about ten times slower. A writer publishes the name only after the file is complete and
 * closed, so a reader never sees a partial message. The whole directory goes with the job's work
 * directory.
 *
 * <p>The exception are <b>recycled</b> files ({@link #isRecycled}): a master overwrites the cached
 * pages of a file a reader has finished with, never truncating it, instead of allocating a new one
 * per message (measured: 4 to 20 ms for 64 MiB instead of 30 to 120). Such a file may be longer
 * than the message in it; its reader maps only the message's bytes, leaves the name in place and
 * hands the file back to the master once it has unmapped it.
 *
 * <p>Thread-safe: names come from an atomic counter under a per-writer prefix.
 */
public final class SpillDirectory {

    /** Names of recycled files start with this; no writer's prefix does. */
    public static final String RECYCLED_PREFIX = "pool-";

    private final Path dir;
    private final String prefix;
    private final AtomicLong sequence = new AtomicLong();

    /**
     * @param dir    an existing directory
     * @param prefix makes this writer's names unique among all writers of the job (e.g. "r12-")
     */
    public SpillDirectory(Path dir, String prefix) {
        this.dir = dir;
        this.prefix = prefix;
    }

    /** Whether a message file is a recycled one, to be handed back to its master rather than deleted. */
    public static boolean isRecycled(String name) {
        return name.startsWith(RECYCLED_PREFIX);
    }

    /** The directory itself. */
    public Path path() {
        return dir;
    }

    /**
     * Writes the buffer's remaining bytes to a new file.
     *
     * @return the new file's name (not path), to be handed to the reader
     * @throws SpillException naming the directory and size when the write fails (e.g. disk full);
     *                        no file is left behind then
     */
    public String write(ByteBuffer data) throws SpillException {
        try (Writer w = newFile(data.remaining())) {
            w.write(data.duplicate());
            return w.finish();
        }
    }

    /** A new file to write a message of {@code length} bytes into, a piece at a time (see {@link Writer}). */
    public Writer newFile(long length) throws SpillException {
        return new Writer(dir.resolve(prefix + sequence.incrementAndGet()), length);
    }

    /**
     * A message file being written: {@link #finish} publishes it, closing it before that deletes
     * it (a failed or abandoned write leaves nothing behind).
     */
    public final class Writer implements AutoCloseable {

        private final Path file;
        private final long length;
        private final FileChannel channel;
        private boolean finished;

        private Writer(Path file, long length) throws SpillException {
            this.file = file;
            this.length = length;
            try {
                channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw failed(e);
            }
        }

        /** Appends the buffer's remaining bytes (its position advances to its limit). */
        public void write(ByteBuffer data) throws SpillException {
            try {
                while (data.hasRemaining()) {
                    channel.write(data);
                }
            } catch (IOException e) {
                throw failed(e);
            }
        }

        /** Closes the complete file. @return its name (not path), to be handed to the reader */
        public String finish() throws SpillException {
            try {
                channel.close();
            } catch (IOException e) {
                throw failed(e);
            }
            finished = true;
            return file.getFileName().toString();
        }

        private SpillException failed(IOException e) {
            return new SpillException("cannot write a message of " + length + " bytes to " + dir + ": " + e.getMessage(), e);
        }

        /** Deletes the file unless it was finished. */
        @Override
        public void close() {
            if (!finished) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // The file goes anyway.
                }
                deleteQuietly(file);
            }
        }
    }

    /**
     * Maps a message file read-only, and deletes its name unless it is {@linkplain #isRecycled
     * recycled}. The bytes stay readable through the mapping, without a copy, until the caller
     * unmaps it ({@link io.bdmpi.ooc.Unmapper}); then the kernel frees the pages of a deleted file.
     * A receiver copies them once, from the page cache into its own buffer: reading the file into a
     * buffer first would cost a second copy, and a buffer of the message's size allocated per
     * message its zeroing and page faults too. The caller hands a recycled file back only after
     * unmapping it, as its master overwrites it then.
     *
     * @param expectedLength the length the writer announced: a new file must have exactly this
     *                       length, a recycled one at least this
     * @return the mapping of the message's bytes, position 0, limit {@code expectedLength}
     * @throws SpillException when the file is missing or has a wrong length (a new file is deleted then too)
     */
    public MappedByteBuffer mapMessage(String name, long expectedLength) throws SpillException {
        Path file = dir.resolve(name);
        boolean recycled = isRecycled(name);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (recycled ? size < expectedLength : size != expectedLength) {
                throw new SpillException("spill file " + file + " has " + size + " bytes, expected " + expectedLength);
            }
            if (expectedLength > Integer.MAX_VALUE) {
                throw new SpillException("spill file " + file + " of " + size + " bytes exceeds the 2 GiB limit of one mapping");
            }
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, expectedLength);
        } catch (NoSuchFileException e) {
            throw new SpillException("spill file " + file + " is missing", e);
        } catch (SpillException e) {
            throw e;
        } catch (IOException e) {
            throw new SpillException("cannot read spill file " + file + ": " + e.getMessage(), e);
        } finally {
            if (!recycled) {
                deleteQuietly(file);
            }
        }
    }

    /**
     * Reads {@code length} bytes at {@code offset} of a file someone else owns (it is left in place)
     * into {@code dest}, from its position.
     *
     * @throws SpillException when the file is missing or shorter, or the range does not fit {@code dest}
     */
    public void readRange(String name, long offset, long length, ByteBuffer dest) throws SpillException {
        Path file = dir.resolve(name);
        if (length > dest.remaining()) {
            throw new SpillException(length + " bytes of spill file " + file + " do not fit a buffer of " + dest.remaining());
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer range = dest.duplicate();
            range.limit(range.position() + (int) length);
            long at = offset;
            while (range.hasRemaining()) {
                int n = ch.read(range, at);
                if (n < 0) {
                    throw new SpillException("spill file " + file + " ends before byte " + (offset + length));
                }
                at += n;
            }
            dest.position(range.position());
        } catch (NoSuchFileException e) {
            throw new SpillException("spill file " + file + " is missing", e);
        } catch (SpillException e) {
            throw e;
        } catch (IOException e) {
            throw new SpillException("cannot read spill file " + file + ": " + e.getMessage(), e);
        }
    }

    /** Deletes a message nobody will read (e.g. a received message that was cancelled). */
    public void discard(String name) {
        deleteQuietly(dir.resolve(name));
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // The job's work directory is removed at the end in any case.
        }
    }
}
