package io.bdmpi.master.checkpoint;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.bdmpi.master.slaveio.WorkDirectory;
import io.bdmpi.master.store.StoredMessage;
import io.bdmpi.protocol.Payload;
import io.bdmpi.spill.SpillDirectory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A job's checkpoints in one directory. {@code checkpoint-N/} holds one part per node of the job
 * that took it: {@code part-K/} with the saved states of node K's ranks ({@code rank-R.state}), the
 * messages node K's master still buffered for them ({@code message-I}), and {@code manifest.json}
 * describing them, written last. Each node builds its part in {@code .incoming-N/part-K/} and
 * syncs it; once every node has, node 0 renames {@code .incoming-N/} to {@code checkpoint-N/}: that
 * rename is the commit, so every {@code checkpoint-N/} is complete, and a checkpoint cut short on
 * any node stays an {@code .incoming-N/} that is never read (and is removed at the next start).
 * Only the newest checkpoint is kept; an older one is renamed to {@code .discarded-checkpoint-N/}
 * before it is deleted.
 *
 * <p>On several nodes the directory is one that every master sees ({@link Sharing#SHARED}: a shared
 * file system, or one machine): node 0 checks at each commit that every node's part is there. A
 * {@linkplain Sharing#NODE_LOCAL node-local} directory holds this node's part and a buddy copy of
 * another node's ({@code part-K/} of the node K whose buddy this node is, received over MPI), so
 * that the loss of one node loses no part; each node commits its own directory when node 0 says
 * so. Without {@code --checkpoint-dir} each node keeps its part in its own work directory instead
 * ({@link Sharing#JOB}: gone with the job) and commits it likewise.
 *
 * <p>Used by the scheduler thread only. Files move between this directory and the job's spill
 * directory by rename or hard link where they share a file system (no copy of large states).
 */
public final class CheckpointStore {

    private static final String PREFIX = "checkpoint-";
    private static final String INCOMING = ".incoming-";
    private static final String PART = "part-";
    private static final String DISCARDED = ".discarded-";
    private static final String STAGING = ".staging-";
    private static final String MANIFEST = "manifest.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The names of a part's files: what a copy from another node may be called. */
    private static final Pattern PART_FILE = Pattern.compile("rank-\\d+\\.state|message-\\d+|" + Pattern.quote(MANIFEST));

    /**
     * One node's part of a checkpoint; the JSON of its {@code manifest.json}.
     *
     * @param worldSize the ranks of the whole job (every part says the same)
     * @param states    the saved states of the node's ranks
     * @param messages  the messages buffered for the node's ranks, in their mailboxes' order
     */
    public record Part(int sequence, int node, int nodes, int worldSize, List<StateFile> states, List<Message> messages) {
        /** The world ranks whose states this part holds. */
        public List<Integer> ranks() {
            return states.stream().map(StateFile::rank).toList();
        }
    }

    /** A rank's saved state: {@code file} is relative to the checkpoint's directory. */
    record StateFile(int rank, String file, long length) {
    }

    /** A message sent to {@code receiver} (world rank) and not yet received; {@code file} is relative to the checkpoint's directory. */
    record Message(int receiver, int commId, int source, int tag, int senderWorldRank, String file, long length) {
    }

    /** A committed checkpoint: every node's part. */
    public record Checkpoint(int sequence, int nodes, int worldSize, List<Part> parts) {
    }

    /** Who sees a checkpoint directory, which decides who checks and commits what. */
    public enum Sharing {
        /** Every master sees it: node 0 checks every part and its rename commits the checkpoint. */
        SHARED,
        /**
         * This node's own, kept after the job: it holds this node's part and a buddy copy of another
         * node's; each node commits its own directory.
         */
        NODE_LOCAL,
        /** This node's own in the job's work directory, gone with the job; each node commits its own. */
        JOB
    }

    private final Path dir;
    private final Path spillDir;
    private final Sharing sharing;
    private Checkpoint latest;

    /**
     * @param dir      where checkpoints live; created if missing
     * @param spillDir the job's spill directory, where members' states arrive and restored files go
     * @param sharing  who sees {@code dir}
     */
    public CheckpointStore(Path dir, Path spillDir, Sharing sharing) throws IOException {
        try {
            this.dir = Files.createDirectories(dir);
        } catch (FileSystemException e) {
            // Its message is a path only ("/proc/ck"): say what the path is and what went wrong.
            throw new IOException("cannot make the checkpoint directory " + dir + ": " + e.getFile() + ": " + why(e), e);
        }
        this.spillDir = spillDir;
        this.sharing = sharing;
        this.latest = findLatest();
    }

    private static String why(FileSystemException e) {
        if (e.getReason() != null) {
            return e.getReason();
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e instanceof FileAlreadyExistsException ? "a file of that name is in the way" : e.getClass().getSimpleName();
    }

    /**
     * The newest committed checkpoint in {@code dir} (read only: nothing is created or removed), or
     * null if it has none.
     *
     * @throws IOException when a checkpoint there cannot be read
     */
    public static Checkpoint latestIn(Path dir, Sharing sharing) throws IOException {
        return Files.isDirectory(dir) ? new CheckpointStore(dir, dir, sharing).latest() : null;
    }

    /**
     * Makes checkpoint {@code sequence}, which node 0 committed, the latest in the node-local
     * directory {@code dir} of a master that was lost before it heard so (its {@code .incoming-N/}
     * is complete: node 0 commits only then); nothing to do where it is already. For the master
     * of {@code dir}, before it goes on from that checkpoint after a lost node.
     *
     * @return the checkpoint as {@code dir} now holds it
     * @throws IOException when {@code dir} holds neither, or the disk fails
     */
    public static Checkpoint commitIn(Path dir, int sequence) throws IOException {
        CheckpointStore store = new CheckpointStore(dir, dir, Sharing.NODE_LOCAL);
        if (store.latest() == null || store.latest().sequence() != sequence) {
            if (!Files.isDirectory(dir.resolve(INCOMING + sequence))) {
                throw new IOException(dir + " holds neither checkpoint " + sequence + " nor its parts");
            }
            store.committed(sequence);
        }
        return store.latest();
    }

    /**
     * A part of a checkpoint that a node-local directory holds: its node's own or a buddy copy,
     * {@code committed} there, or written whole and waiting for the commit ({@code .incoming-N/}).
     *
     * @param committed whether the directory has committed it
     * @param part      its manifest
     */
    public record Held(boolean committed, Part part) {
    }

    /**
     * {@link #heldIn}, or nothing when {@code dir} cannot be read (said on stderr): a master that
     * cannot read its checkpoints is said to hold none, so that whoever plans from every master's
     * holdings need not wait for it.
     */
    public static List<Held> heldInOrNothing(Path dir) {
        try {
            return heldIn(dir);
        } catch (IOException e) {
            System.err.println("bdmpiexec: cannot read the checkpoints in " + dir + ": " + e.getMessage());
            return List.of();
        }
    }

    /**
     * What the node-local directory {@code dir} holds (read only: nothing is created or removed):
     * the parts of its newest committed checkpoint, and those of newer checkpoints written whole
     * (their manifest, written last, is there) but not committed here, as in the directory of a
     * master lost before it heard of a commit. Empty when {@code dir} does not exist. For a
     * relaunched master, which tells bdmpiexec so that the ranks go where their parts are.
     *
     * @throws IOException when a manifest cannot be read
     */
    public static List<Held> heldIn(Path dir) throws IOException {
        List<Held> held = new ArrayList<>();
        Checkpoint latest = latestIn(dir, Sharing.NODE_LOCAL);
        if (latest == null && !Files.isDirectory(dir)) {
            return held;
        }
        int committed = latest == null ? 0 : latest.sequence();
        if (latest != null) {
            latest.parts().forEach(p -> held.add(new Held(true, p)));
        }
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path incoming : (Iterable<Path>) entries.sorted()::iterator) {
                String name = incoming.getFileName().toString();
                if (!name.startsWith(INCOMING) || !name.substring(INCOMING.length()).matches("\\d+")
                        || Integer.parseInt(name.substring(INCOMING.length())) <= committed) {
                    continue;
                }
                try (Stream<Path> parts = Files.list(incoming)) {
                    for (Path part : (Iterable<Path>) parts.sorted()::iterator) {
                        Path manifest = part.resolve(MANIFEST);
                        if (part.getFileName().toString().startsWith(PART) && Files.isRegularFile(manifest)) {
                            held.add(new Held(false, readManifest(manifest)));
                        }
                    }
                }
            }
        }
        return held;
    }

    /** A part's manifest; one that is not a manifest (cut short, edited) is said to be damaged, by its path. */
    private static Part readManifest(Path manifest) throws IOException {
        try {
            return JSON.readValue(manifest.toFile(), Part.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException("the checkpoint manifest " + manifest + " is damaged: " + e.getOriginalMessage());
        }
    }

    /**
     * Readies the reading of manifests (in a fresh JVM, loading and setting up the JSON reader takes
     * about a second): for bdmpiexec, while the job runs, so that going on after a lost node does
     * not wait for it.
     */
    public static void prepareReading() {
        try {
            JSON.readValue("{\"sequence\":0,\"node\":0,\"nodes\":1,\"worldSize\":1,\"states\":[{\"rank\":0,\"file\":\"f\","
                    + "\"length\":0}],\"messages\":[{\"receiver\":0,\"commId\":0,\"source\":0,\"tag\":0,"
                    + "\"senderWorldRank\":0,\"file\":\"m\",\"length\":0}]}", Part.class);
        } catch (IOException e) {
            throw new IllegalStateException("the manifest reader cannot read a manifest", e);
        }
    }

    /** Whether every master of the job sees this directory. */
    public boolean shared() {
        return sharing == Sharing.SHARED;
    }

    /** Whether this directory is a node's own, kept after the job: its parts get buddy copies. */
    public boolean nodeLocal() {
        return sharing == Sharing.NODE_LOCAL;
    }

    /** The newest committed checkpoint, or null. */
    public Checkpoint latest() {
        return latest;
    }

    /** Where the checkpoints live. */
    public Path directory() {
        return dir;
    }

    /**
     * Writes and syncs this node's part of checkpoint {@code sequence}: {@code states} (world rank
     * to inline bytes or a spill file, which moves into the checkpoint) and the buffered messages.
     * Not yet a checkpoint: see {@link #commit} and {@link #committed}.
     *
     * @return the part's files, in {@link #partDir}, its manifest last
     */
    List<String> writePart(int sequence, int node, int nodes, int worldSize, Map<Integer, Payload> states,
                   List<StoredMessageFor> buffered) throws IOException {
        Path incoming = dir.resolve(INCOMING + sequence);
        Path part = incoming.resolve(PART + node);
        WorkDirectory.deleteTree(part);
        Files.createDirectories(part);
        String prefix = PART + node + "/";
        List<StateFile> stateFiles = new ArrayList<>(states.size());
        for (Map.Entry<Integer, Payload> e : states.entrySet()) {
            String name = "rank-" + e.getKey() + ".state";
            stateFiles.add(new StateFile(e.getKey(), prefix + name, store(e.getValue(), part.resolve(name), true)));
        }
        List<Message> messages = new ArrayList<>(buffered.size());
        for (StoredMessageFor b : buffered) {
            String name = "message-" + messages.size();
            StoredMessage m = b.message();
            long length = store(m.readPayload(), part.resolve(name), false);
            messages.add(new Message(b.receiver(), m.commId(), m.source(), m.tag(), m.senderWorldRank(), prefix + name, length));
        }
        Path manifestFile = part.resolve(MANIFEST);
        JSON.writeValue(manifestFile.toFile(), new Part(sequence, node, nodes, worldSize, stateFiles, messages));
        sync(manifestFile);
        sync(part);
        sync(incoming);
        sync(dir);
        List<String> files = new ArrayList<>();
        stateFiles.forEach(f -> files.add(f.file().substring(prefix.length())));
        messages.forEach(m -> files.add(m.file().substring(prefix.length())));
        files.add(MANIFEST);
        return files;
    }

    /** Where node {@code node}'s part of checkpoint {@code sequence} is written before the commit. */
    Path partDir(int sequence, int node) {
        return dir.resolve(INCOMING + sequence).resolve(PART + node);
    }

    /**
     * Stores one file of the buddy copy of node {@code node}'s part of checkpoint {@code sequence}
     * (received over MPI, in the order {@link #writePart} listed them) in this node's directory; the
     * manifest comes last, and with it the copy is synced whole.
     *
     * @return whether the copy is now complete and durable (this was its manifest)
     * @throws IOException when the name is not a part's file, or the disk fails
     */
    boolean writeBuddyFile(int sequence, int node, String name, Payload payload) throws IOException {
        if (!PART_FILE.matcher(name).matches()) {
            throw new IOException("node " + node + " sent a buddy copy file named '" + name + "', not a part's file");
        }
        Path part = Files.createDirectories(partDir(sequence, node));
        store(payload, part.resolve(name), true);
        if (!name.equals(MANIFEST)) {
            return false;
        }
        sync(part);
        sync(part.getParent());
        sync(dir);
        return true;
    }

    /**
     * Node 0, once every node's part of {@code sequence} is durable: makes it the checkpoint
     * (atomic rename) and deletes the previous one.
     *
     * @throws IOException when a part is missing from a shared directory (it is not shared), or the disk fails
     */
    void commit(int sequence, int nodes) throws IOException {
        Path incoming = dir.resolve(INCOMING + sequence);
        if (sharing == Sharing.SHARED) {
            for (int node = 0; node < nodes; node++) {
                if (!Files.isRegularFile(incoming.resolve(PART + node).resolve(MANIFEST))) {
                    throw new IOException("node " + node + "'s part is not in " + dir
                            + ": on several nodes --checkpoint-dir must be a directory every node sees");
                }
            }
        }
        Files.move(incoming, dir.resolve(PREFIX + sequence), StandardCopyOption.ATOMIC_MOVE);
        sync(dir);
        replaceLatest(sequence);
    }

    /**
     * Another node, told that node 0 committed {@code sequence}: in a directory of its own, commits
     * its own part likewise; in a shared one, node 0's rename has done it.
     */
    void committed(int sequence) throws IOException {
        Path incoming = dir.resolve(INCOMING + sequence);
        if (sharing != Sharing.SHARED && Files.isDirectory(incoming)) {
            Files.move(incoming, dir.resolve(PREFIX + sequence), StandardCopyOption.ATOMIC_MOVE);
            sync(dir);
        }
        replaceLatest(sequence);
    }

    private void replaceLatest(int sequence) throws IOException {
        Checkpoint previous = latest;
        latest = read(dir.resolve(PREFIX + sequence));
        if (previous != null && previous.sequence() != sequence) {
            discard(dir.resolve(PREFIX + previous.sequence()));
        }
    }

    /**
     * Deletes an old checkpoint: renamed out of the way first, so that a node that dies while
     * deleting it leaves a {@code .discarded-N} (removed at the next start), never a partial
     * {@code checkpoint-N}. On a shared directory another node may have discarded it already.
     */
    private void discard(Path checkpoint) throws IOException {
        Path discarded = dir.resolve(DISCARDED + checkpoint.getFileName());
        try {
            Files.move(checkpoint, discarded, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException gone) {
            return;
        }
        WorkDirectory.deleteTree(discarded);
    }

    /**
     * The files of part {@code part} of the latest checkpoint, {@code sequence}, as this directory
     * holds it, in the order a copy is written: states, messages, the manifest last. For a restart
     * on other nodes, whose master lacks the part.
     *
     * @throws IOException when the latest checkpoint is not {@code sequence} or lacks the part
     */
    public List<Path> partFiles(int sequence, int part) throws IOException {
        Path checkpoint = dir.resolve(PREFIX + sequence);
        Part held = latest == null || latest.sequence() != sequence ? null
                : latest.parts().stream().filter(p -> p.node() == part).findFirst().orElse(null);
        if (held == null) {
            throw new IOException(dir + " holds no part " + part + " of checkpoint " + sequence);
        }
        List<Path> files = new ArrayList<>();
        held.states().forEach(f -> files.add(checkpoint.resolve(f.file())));
        held.messages().forEach(m -> files.add(checkpoint.resolve(m.file())));
        files.add(checkpoint.resolve(PART + part).resolve(MANIFEST));
        return files;
    }

    /**
     * Where a file of part {@code part} of checkpoint {@code sequence} goes as it arrives from
     * another node for a restart: {@code .staging-N/part-K/}, read by the restore beside this
     * directory's own parts ({@link #includeStaged}) and removed once restored.
     *
     * @throws IOException when the name is not a part's file
     */
    public Path stagedFile(int sequence, int part, String name) throws IOException {
        if (!PART_FILE.matcher(name).matches()) {
            throw new IOException("a staged file named '" + name + "' is not a part's file");
        }
        return Files.createDirectories(dir.resolve(STAGING + sequence).resolve(PART + part)).resolve(name);
    }

    /** Whether {@code name} is the last file of a part, its manifest, after which the staged part is synced. */
    public static boolean isManifest(String name) {
        return MANIFEST.equals(name);
    }

    /** Syncs staged part {@code part} of checkpoint {@code sequence}, whose files are all written and synced. */
    public void syncStaged(int sequence, int part) throws IOException {
        Path staging = dir.resolve(STAGING + sequence);
        sync(staging.resolve(PART + part));
        sync(staging);
        sync(dir);
    }

    /**
     * Makes checkpoint {@code sequence} the latest as a restart reads it: this directory's own
     * parts of it (if it is its latest) and the parts staged from other nodes.
     *
     * @throws IOException when a staged manifest cannot be read, or the two hold no part at all
     */
    public void includeStaged(int sequence) throws IOException {
        List<Part> parts = new ArrayList<>();
        if (latest != null && latest.sequence() == sequence) {
            parts.addAll(latest.parts());
        }
        Path staging = dir.resolve(STAGING + sequence);
        if (Files.isDirectory(staging)) {
            try (Stream<Path> entries = Files.list(staging)) {
                for (Path p : (Iterable<Path>) entries::iterator) {
                    Part staged = readManifest(p.resolve(MANIFEST));
                    if (parts.stream().noneMatch(own -> own.node() == staged.node())) {
                        parts.add(staged);
                    }
                }
            }
        }
        if (parts.isEmpty()) {
            throw new IOException(dir + " holds no part of checkpoint " + sequence + ", nor was one staged");
        }
        parts.sort(Comparator.comparingInt(Part::node));
        latest = new Checkpoint(sequence, parts.get(0).nodes(), parts.get(0).worldSize(), List.copyOf(parts));
    }

    /** Removes the parts staged from other nodes for a restart (restored, or the job failed). */
    public void removeStaged() throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                if (p.getFileName().toString().startsWith(STAGING)) {
                    WorkDirectory.deleteTree(p);
                }
            }
        }
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
    String exportToSpill(String file, long length, String spillName) throws IOException {
        Path source = dir.resolve(PREFIX + latest.sequence()).resolve(file);
        if (!Files.exists(source)) {
            source = dir.resolve(STAGING + latest.sequence()).resolve(file); // a part staged from another node
        }
        if (!Files.isRegularFile(source)) {
            throw new IOException("checkpoint " + latest.sequence() + " in " + dir + " is damaged: it lacks " + file);
        }
        long size = Files.size(source);
        if (size != length) {
            throw new IOException("checkpoint " + latest.sequence() + " in " + dir + " is damaged: " + file + " has " + size
                    + " bytes where its manifest says " + length);
        }
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
        if (SpillDirectory.mayBeLonger(s.fileName())) {
            // It may be longer than the message, and a recycled one holds another message once its reader is done.
            copyPrefix(source, target, s.length());
        } else if (owned) {
            try {
                Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.copy(source, target); // another file system: moved by copy, so as not to pile up in the spill directory
                Files.delete(source);
            }
        } else {
            linkOrCopy(source, target);
        }
        sync(target);
        return s.length();
    }

    /** The committed checkpoint of the highest number, or null; {@code .incoming-N/} never counts. */
    private Checkpoint findLatest() throws IOException {
        Path best = null;
        int bestSequence = 0;
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith(PREFIX) && Files.isDirectory(p)) {
                    int sequence = Integer.parseInt(name.substring(PREFIX.length()));
                    if (sequence > bestSequence) {
                        best = p;
                        bestSequence = sequence;
                    }
                }
            }
        } catch (NumberFormatException e) {
            throw new IOException(dir + " holds a checkpoint directory that is not checkpoint-NUMBER: " + e.getMessage());
        }
        return best == null ? null : read(best);
    }

    /**
     * Reads every part's manifest of a committed checkpoint (in a directory of its own, this node's
     * part only, and the buddy copy it keeps of another's).
     */
    private Checkpoint read(Path checkpoint) throws IOException {
        List<Part> parts = new ArrayList<>();
        try (Stream<Path> entries = Files.list(checkpoint)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                if (p.getFileName().toString().startsWith(PART)) {
                    parts.add(readManifest(p.resolve(MANIFEST)));
                }
            }
        } catch (NoSuchFileException e) {
            throw new IOException("checkpoint " + checkpoint + " lacks " + e.getFile());
        }
        parts.sort(Comparator.comparingInt(Part::node));
        if (parts.isEmpty() || sharing == Sharing.SHARED && parts.size() != parts.get(0).nodes()) {
            throw new IOException(checkpoint + " has " + parts.size() + " parts where its nodes wrote "
                    + (parts.isEmpty() ? "some" : parts.get(0).nodes()));
        }
        Part first = parts.get(0);
        return new Checkpoint(first.sequence(), first.nodes(), first.worldSize(), List.copyOf(parts));
    }

    /**
     * Removes what a crash in the middle of a checkpoint left behind: checkpoints never committed,
     * older ones a node did not finish deleting, and parts staged for a restart that never restored.
     */
    public void removeIncomplete() throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith(INCOMING) || name.startsWith(DISCARDED) || name.startsWith(STAGING)) {
                    WorkDirectory.deleteTree(p);
                } else if (name.startsWith(PREFIX) && latest != null && !name.equals(PREFIX + latest.sequence())) {
                    discard(p);
                }
            }
        }
    }

    /** Copies the first {@code length} bytes of {@code source} to the new file {@code target}. */
    private static void copyPrefix(Path source, Path target, long length) throws IOException {
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long at = 0; at < length; ) {
                long n = in.transferTo(at, length - at, out);
                if (n <= 0) {
                    throw new IOException(source + " ends before byte " + length);
                }
                at += n;
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
