package io.bdmpi.spill;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
 * <p>A writer may also <b>take back</b> its own files ({@link #messageFile}): a master that has
 * sent a message to another node moves its file into the writer's directory of returned files
 * ({@link #returnedPath}) instead of deleting it, and the writer moves one back under a new name
 * marked {@link #REUSED_SUFFIX} and overwrites its cached pages with its next message (64 MiB:
 * 12.9 ms instead of 19.6 for a new file and 3.1 to delete it, on the reference VM). Such a file
 * too may be longer than its message; its reader deletes it as any writer's file. Renames are
 * atomic, so a file is either taken back by its writer or deleted by its master, never both.
 *
 * <p>Thread-safe: names come from an atomic counter under a per-writer prefix.
 */
public final class SpillDirectory {

    /** Names of recycled files start with this; no writer's prefix does. */
    public static final String RECYCLED_PREFIX = "pool-";
    /** Names of the directories of files a master returned to their writer: this, then the writer's prefix. */
    public static final String RETURNED_PREFIX = "sent-";
    /** Names of files a writer took back end with this: they may be longer than their message. */
    public static final String REUSED_SUFFIX = "+";

    private final Path dir;
    private final String prefix;
    private final AtomicLong sequence = new AtomicLong();
    /** Where this writer's files come back, if it takes them back; else null. */
    private final Path returned;

    /**
     * @param dir    an existing directory
     * @param prefix makes this writer's names unique among all writers of the job (e.g. "r12-")
     */
    public SpillDirectory(Path dir, String prefix) {
        this(dir, prefix, false);
    }

    /**
     * @param prefix   as above, ending with '-' (no other '-' after the writer's own part)
     * @param takeBack whether {@link #messageFile} looks for files of this writer that a master
     *                 returned (a directory read each time, or a failed open when there is none)
     */
    public SpillDirectory(Path dir, String prefix, boolean takeBack) {
        this.dir = dir;
        this.prefix = prefix;
        this.returned = takeBack ? dir.resolve(RETURNED_PREFIX + prefix) : null;
    }

    /** Whether a message file is a recycled one, to be handed back to its master rather than deleted. */
    public static boolean isRecycled(String name) {
        return name.startsWith(RECYCLED_PREFIX);
    }

    /** Whether a message file may be longer than its message: a recycled one, or one its writer took back. */
    public static boolean mayBeLonger(String name) {
        return isRecycled(name) || name.endsWith(REUSED_SUFFIX);
    }

    /**
     * Where a master puts the file {@code name} of a writer once it has sent its message to another
     * node, for the writer to take back: the directory of its writer's prefix (the name up to its
     * last '-'), which the caller creates.
     */
    public static Path returnedPath(Path dir, String name) {
        return dir.resolve(RETURNED_PREFIX + name.substring(0, name.lastIndexOf('-') + 1)).resolve(name);
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
        return new Writer(dir.resolve(prefix + sequence.incrementAndGet()), length, false);
    }

    /**
     * A file to write a message of {@code length} bytes into: one of this writer's files that a
     * master returned, taken back under a new name (overwritten from its start, never truncated),
     * else a new file.
     */
    public Writer messageFile(long length) throws SpillException {
        Path file = dir.resolve(prefix + sequence.incrementAndGet());
        if (returned != null) {
            Path reused = file.resolveSibling(file.getFileName() + REUSED_SUFFIX);
            try (DirectoryStream<Path> files = Files.newDirectoryStream(returned)) {
                for (Path f : files) {
                    try {
                        Files.move(f, reused, StandardCopyOption.ATOMIC_MOVE);
                        return new Writer(reused, length, true);
                    } catch (IOException deletedMeanwhile) {
                        // Its master deleted it (over its bound): look at the next.
                    }
                }
            } catch (IOException | DirectoryIteratorException noneReturned) {
                // A new file, then.
            }
        }
        return new Writer(file, length, false);
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

        /** @param reused an existing file taken back, overwritten in place (truncating would make ext4 force it to disk) */
        private Writer(Path file, long length, boolean reused) throws SpillException {
            this.file = file;
            this.length = length;
            try {
                channel = reused ? FileChannel.open(file, StandardOpenOption.WRITE)
                        : FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (IOException e) {
                if (reused) {
                    deleteQuietly(file); // taken back, so nobody else would
                }
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
     *                       length, a recycled or reused one ({@link #mayBeLonger}) at least this
     * @return the mapping of the message's bytes, position 0, limit {@code expectedLength}
     * @throws SpillException when the file is missing or has a wrong length (a new file is deleted then too)
     */
    public MappedByteBuffer mapMessage(String name, long expectedLength) throws SpillException {
        Path file = dir.resolve(name);
        boolean recycled = isRecycled(name);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (mayBeLonger(name) ? size < expectedLength : size != expectedLength) {
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
