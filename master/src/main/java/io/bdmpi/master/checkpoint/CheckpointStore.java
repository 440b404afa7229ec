package io.bdmpi.master.checkpoint;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.bdmpi.master.slaveio.WorkDirectory;
import io.bdmpi.master.store.StoredMessage;
import io.bdmpi.protocol.Payload;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A job's checkpoints in one directory: {@code checkpoint-N/} holds each rank's saved state
 * ({@code rank-R.state}), the messages the master still buffered ({@code message-K}), and
 * {@code manifest.json} describing them. A checkpoint is built in {@code .incoming-N/}, synced,
 * and renamed into place, so every {@code checkpoint-N/} is complete: a job that dies while
 * writing one still has the previous one. Only the newest is kept.
 *
 * <p>Used by the scheduler thread only. Files move between this directory and the job's spill
 * directory by rename or hard link where they share a file system (no copy of large states).
 */
public final class CheckpointStore {

    private static final String PREFIX = "checkpoint-";
    private static final String INCOMING = ".incoming-";
    private static final String MANIFEST = "manifest.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a checkpoint holds; the JSON of {@code manifest.json}. */
    public record Manifest(int sequence, int ranks, List<StateFile> states, List<Message> messages) {
    }

    /** A rank's saved state. */
    record StateFile(int rank, String file, long length) {
    }

    /** A message sent to {@code receiver} (world rank) and not yet received, in its mailbox's order. */
    record Message(int receiver, int commId, int source, int tag, int senderWorldRank, String file, long length) {
    }

    private final Path dir;
    private final Path spillDir;
    private Manifest latest;

    /**
     * @param dir      where checkpoints live; created if missing
     * @param spillDir the job's spill directory, where members' states arrive and restored files go
     */
    public CheckpointStore(Path dir, Path spillDir) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.spillDir = spillDir;
        this.latest = findLatest();
    }

    /** The newest complete checkpoint, or null. */
    public Manifest latest() {
        return latest;
    }

    Path directory() {
        return dir;
    }

    /**
     * Writes a checkpoint of {@code states} (index = world rank; inline bytes or spill files, which
     * move into the checkpoint) and of the buffered messages, then makes it the latest.
     */
    Manifest write(List<Payload> states, List<StoredMessageFor> buffered) throws IOException {
        int sequence = latest == null ? 1 : latest.sequence() + 1;
        Path incoming = dir.resolve(INCOMING + sequence);
        WorkDirectory.deleteTree(incoming);
        Files.createDirectory(incoming);
        List<StateFile> stateFiles = new ArrayList<>(states.size());
        for (int rank = 0; rank < states.size(); rank++) {
            String name = "rank-" + rank + ".state";
            stateFiles.add(new StateFile(rank, name, store(states.get(rank), incoming.resolve(name), true)));
        }
        List<Message> messages = new ArrayList<>(buffered.size());
        for (StoredMessageFor b : buffered) {
            String name = "message-" + messages.size();
            StoredMessage m = b.message();
            long length = store(m.payload(), incoming.resolve(name), false);
            messages.add(new Message(b.receiver(), m.commId(), m.source(), m.tag(), m.senderWorldRank(), name, length));
        }
        Manifest manifest = new Manifest(sequence, states.size(), stateFiles, messages);
        Path manifestFile = incoming.resolve(MANIFEST);
        JSON.writeValue(manifestFile.toFile(), manifest);
        sync(manifestFile);
        sync(incoming);
        Files.move(incoming, dir.resolve(PREFIX + sequence), StandardCopyOption.ATOMIC_MOVE);
        sync(dir);
        Manifest previous = latest;
        latest = manifest;
        if (previous != null) {
            WorkDirectory.deleteTree(dir.resolve(PREFIX + previous.sequence()));
        }
        return manifest;
    }

    /** A buffered message and the world rank it waits for. */
    record StoredMessageFor(int receiver, StoredMessage message) {
    }

    /**
     * Puts a file of the latest checkpoint into the spill directory under a new name (a hard
     * link, or a copy across file systems), for a slave to read.
     *
     * @return the name in the spill directory
     */
    String exportToSpill(String file, String spillName) throws IOException {
        Path source = dir.resolve(PREFIX + latest.sequence()).resolve(file);
        linkOrCopy(source, spillDir.resolve(spillName));
        return spillName;
    }

    /** Stores one payload as {@code target}: inline bytes are written, a spill file is moved (state) or linked (message). */
    private long store(Payload p, Path target, boolean owned) throws IOException {
        if (p instanceof Payload.Inline in) {
            ByteBuffer bytes = in.bytes().duplicate();
            long length = bytes.remaining();
            try (FileChannel ch = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                while (bytes.hasRemaining()) {
                    ch.write(bytes);
                }
                ch.force(false);
            }
            return length;
        }
        if (!(p instanceof Payload.Spilled s)) {
            throw new IOException("cannot checkpoint a " + p.getClass().getSimpleName() + " payload");
        }
        Path source = spillDir.resolve(s.fileName());
        if (owned) {
            try {
                Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.copy(source, target);
            }
        } else {
            linkOrCopy(source, target);
        }
        sync(target);
        return s.length();
    }

    private Manifest findLatest() throws IOException {
        Manifest best = null;
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith(PREFIX) && Files.isRegularFile(p.resolve(MANIFEST))) {
                    Manifest m = JSON.readValue(p.resolve(MANIFEST).toFile(), Manifest.class);
                    if (best == null || m.sequence() > best.sequence()) {
                        best = m;
                    }
                }
            }
        }
        return best;
    }

    /** Removes what a crash in the middle of a checkpoint left behind. */
    public void removeIncomplete() throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                if (p.getFileName().toString().startsWith(INCOMING)) {
                    WorkDirectory.deleteTree(p);
                }
            }
        }
    }

    /** A hard link where the file system allows it: a message's file is then never copied. */
    private static void linkOrCopy(Path source, Path target) throws IOException {
        try {
            Files.createLink(target, source);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (UnsupportedOperationException | IOException e) {
            Files.copy(source, target);
        }
    }

    private static void sync(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
