package mpi;

import io.bdmpi.slave.SlaveEnvironment;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;

/**
 * An open file (MPI-IO), as in Open MPI's Java bindings. Each rank does its own I/O through the
 * operating system, with positional reads and writes on its own channel; the collective calls do
 * the same, and a collective write then waits for every rank's part (a barrier). Errors throw {@link MPIException} by default
 * ({@code MPI.ERRORS_RETURN} is a file's default handler, as in MPI).
 *
 * <p>A view (see {@link #setView}) maps offsets in etypes onto the file's bytes; the individual
 * file pointer belongs to this object. The shared file pointer is kept by the master of the node
 * of the communicator's rank 0 (see {@link SharedPointer}), for ranks on any node. A file opened by
 * ranks on several nodes must be the same file on every node (see the constructor). The
 * nonblocking calls do their I/O before they return a completed request; a split collective's
 * Begin does the whole collective and its End returns the Status.
 */
public final class File {

    /** Bytes staged between a user buffer and the file per system call, at most. */
    private static final int CHUNK = 4 << 20;
    /** "external32" is big-endian: on such a machine it is the native bytes. */
    private static final boolean BIG_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;
    private static final int ACCESS_MODES = MPI.MODE_RDONLY | MPI.MODE_WRONLY | MPI.MODE_RDWR;
    private static final int ALL_MODES = ACCESS_MODES | MPI.MODE_CREATE | MPI.MODE_DELETE_ON_CLOSE
            | MPI.MODE_UNIQUE_OPEN | MPI.MODE_EXCL | MPI.MODE_APPEND | MPI.MODE_SEQUENTIAL;

    /** How an access finds its place in the view. */
    private enum Place { EXPLICIT, INDIVIDUAL, SHARED, ORDERED }

    /** What {@link #open} made, on every rank alike. */
    private record Opened(Comm comm, int rank, FileChannel channel, SharedPointer shared, long initial) {
    }

    private final String name;
    private final int amode;
    /** A private duplicate of the communicator, under ERRORS_RETURN: the file's collectives. */
    private final Comm comm;
    private final int rank;
    /** Null once closed. */
    private FileChannel channel;
    private final SharedPointer shared;
    private volatile Errhandler errhandler = Errhandler.RETURN;
    private final Map<String, String> hints;
    private FileView view = new FileView(0, MPI.BYTE, MPI.BYTE, "native");
    private ViewMap map = ViewMap.BYTES;
    /** Whether the view's data representation is "external32": elements are big-endian in the file. */
    private boolean external32;
    /** The individual file pointer, in etypes of the view. */
    private long position;
    private boolean atomic;
    /** The Status of a split collective begun and not ended yet. */
    private Status split;
    private ByteBuffer staging;

    /**
     * Opens a file, collectively over {@code comm} (MPI_File_open).
     *
     * @param comm     an intracommunicator; every member passes the same mode and a name of the same file
     * @param filename the file's path
     * @param amode    {@code MPI.MODE_*} flags combined with {@code |}
     * @throws MPIException ERR_NOT_SAME when the ranks pass different modes; ERR_AMODE for
     *                      a bad mode; ERR_BAD_FILE for no name, an invalid one or a directory;
     *                      ERR_NO_SUCH_FILE, ERR_FILE_EXISTS, ERR_ACCESS, ERR_READ_ONLY, ERR_FILE (on a communicator over several
     *                      nodes, a path that is not the same file on every node: missing there, or
     *                      of another inode or size) or ERR_IO when the file cannot be opened; the
     *                      same error on every rank
     */
    public File(Comm comm, String filename, int amode) throws MPIException {
        this(comm, filename, amode, MPI.INFO_NULL);
    }

    /**
     * Opens a file, collectively over {@code comm} (MPI_File_open), with hints.
     *
     * @param comm     an intracommunicator; every member passes the same mode and a name of the same file
     * @param filename the file's path
     * @param amode    {@code MPI.MODE_*} flags combined with {@code |}
     * @param info     hints, kept for {@link #getInfo()}
     * @throws MPIException as {@link #File(Comm, String, int)}
     */
    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        String call = "MPI_File_open";
        Session.enter(call);
        this.hints = new HashMap<>(Info.hintsOf(call, info));
        Opened o = open(call, comm, filename, amode);
        this.name = filename;
        this.amode = amode;
        this.comm = o.comm;
        this.rank = o.rank;
        this.channel = o.channel;
        this.shared = o.shared;
        this.position = o.initial;
    }

    // ---------------------------------------------------------------- opening and closing

    private static Opened open(String call, Comm user, String filename, int amode) throws MPIException {
        if (user == null || user.isNull()) {
            throw MPIException.of(MPI.ERR_COMM, call + ": " + (user == null ? "the communicator is Java null"
                    : "a null communicator (MPI.COMM_NULL, freed, or from a split with MPI.UNDEFINED) cannot open a file"));
        }
        if (user instanceof Intercomm) {
            throw MPIException.of(MPI.ERR_COMM, call + ": an intercommunicator cannot open a file");
        }
        SlaveEnvironment env = Session.runtime().environment();
        Comm comm = user.dupFor(call);
        comm.setErrhandler(MPI.ERRORS_RETURN);
        try {
            comm.describeAs("the file " + filename + " of " + call + " over " + user.name());
            // Checked together first, so that a rank that is wrong alone cannot leave the others waiting.
            // Not the names: MPI lets each rank name the same file its own way (another mount point).
            checkSame(call, comm, new long[] {amode}, "access modes");
            checkAmode(call, amode);
            return agree(call, comm, env, path(call, filename), amode);
        } catch (MPIException e) {
            comm.free();
            throw e;
        }
    }

    private static Path path(String call, String filename) throws MPIException {
        if (filename == null || filename.isEmpty()) {
            throw MPIException.of(MPI.ERR_BAD_FILE, call + ": no file name");
        }
        try {
            return Path.of(filename);
        } catch (java.nio.file.InvalidPathException e) {
            throw MPIException.of(MPI.ERR_BAD_FILE, call + ": invalid file name: " + e.getMessage());
        }
    }

    /**
     * Collective over {@code comm}: {@code MPI.ERR_NOT_SAME} on every rank unless every rank passed
     * the same {@code values}.
     */
    private static void checkSame(String call, Comm comm, long[] values, String what) throws MPIException {
        long[] bounds = new long[2 * values.length];
        for (int i = 0; i < values.length; i++) {
            bounds[2 * i] = values[i];
            bounds[2 * i + 1] = -values[i];
        }
        comm.allReduce(bounds, bounds.length, MPI.LONG, MPI.MIN);
        for (int i = 0; i < values.length; i++) {
            if (bounds[2 * i] != -bounds[2 * i + 1]) {
                throw MPIException.of(MPI.ERR_NOT_SAME, call + ": the ranks passed different " + what
                        + " (every rank of the communicator must pass the same)");
            }
        }
    }

    /**
     * The collective part of opening: rank 0 creates or checks the file, opens it and, under
     * {@code MODE_APPEND}, sets the shared pointer at its end; then every rank opens it (on a
     * communicator over several nodes, and checks that it is the file rank 0 opened), and all
     * agree on the outcome; a failure undoes what rank 0 made.
     */
    private static Opened agree(String call, Comm comm, SlaveEnvironment env, Path path, int amode)
            throws MPIException {
        int rank = comm.getRank();
        int[] nodes = {env.nodeId(), -env.nodeId()};
        comm.allReduce(nodes, 2, MPI.INT, MPI.MIN);
        boolean multiNode = nodes[0] != -nodes[1];
        boolean created = false;
        FileChannel channel = null;
        MPIException failure = null;
        // token (the shared pointer's key), error class, initial position, owner node, identity (2)
        long[] verdict = new long[6];
        if (rank == 0) {
            verdict[0] = new SecureRandom().nextLong();
            verdict[3] = env.nodeId();
            try {
                created = prepare(path, amode);
                channel = FileChannel.open(path, options(amode));
                verdict[2] = (amode & MPI.MODE_APPEND) != 0 ? channel.size() : 0;
                if (multiNode) {
                    long[] id = identity(path, channel);
                    verdict[4] = id[0];
                    verdict[5] = id[1];
                }
            } catch (IOException e) {
                failure = ioError(call, e);
                verdict[1] = failure.getErrorClass();
            }
        }
        comm.bcast(verdict, verdict.length, MPI.LONG, 0);
        SharedPointer shared = SharedPointer.kept(verdict[0], (int) verdict[3]);
        if (verdict[1] == 0 && rank != 0) {
            try {
                channel = FileChannel.open(path, options(amode));
                if (multiNode && !java.util.Arrays.equals(identity(path, channel), new long[] {verdict[4], verdict[5]})) {
                    failure = notVisible(call, path, env.nodeId(), "another file of that name");
                }
            } catch (NoSuchFileException e) {
                failure = multiNode ? notVisible(call, path, env.nodeId(), "no such file") : ioError(call, e);
            } catch (IOException e) {
                failure = ioError(call, e);
            }
        }
        if (rank == 0 && failure == null && verdict[2] != 0) {
            shared.set(call, verdict[2]);
        }
        int[] outcome = new int[2 * comm.getSize()];
        outcome[2 * rank] = failure == null ? 0 : failure.getErrorClass();
        outcome[2 * rank + 1] = env.nodeId();
        comm.allGather(outcome, 2, MPI.INT);
        for (int r = 0; r < outcome.length / 2; r++) {
            if (outcome[2 * r] != 0) {
                closeQuietly(channel);
                if (rank == 0) {
                    if (verdict[2] != 0) {
                        shared.free(call);
                    }
                    if (created) {
                        deleteQuietly(path);
                    }
                }
                throw failure != null ? failure : MPIException.of(outcome[2 * r], call + ": " + path
                        + (outcome[2 * r] == MPI.ERR_FILE && r > 0 ? " is not visible on node " + outcome[2 * r + 1]
                                                                + " (a node-local path? with several nodes every node must see the file)"
                                                                : " failed on rank " + r + " (node " + outcome[2 * r + 1]
                                                                  + "): " + Errors.className(outcome[2 * r])));
            }
        }
        if ((amode & MPI.MODE_DELETE_ON_CLOSE) != 0 && rank == 0) {
            // Every rank has it open: the name can go now, so nothing is left even if the job dies.
            deleteQuietly(path);
        }
        return new Opened(comm, rank, channel, shared, verdict[2]);
    }

    /**
     * Which file {@code channel} is, as every node can tell: its inode number and size. Not the
     * device: a network file system's device number differs from client to client.
     */
    private static long[] identity(Path path, FileChannel channel) throws IOException {
        return new long[] {((Number) Files.getAttribute(path, "unix:ino")).longValue(), channel.size()};
    }

    private static MPIException notVisible(String call, Path path, int node, String seen) {
        return MPIException.of(MPI.ERR_FILE, call + ": " + path + " is not visible on node " + node + " (" + seen
                + " there: a node-local path? with several nodes every node must see the file)");
    }

    private static void checkAmode(String call, int amode) throws MPIException {
        String problem = null;
        if (Integer.bitCount(amode & ACCESS_MODES) != 1) {
            problem = "exactly one of MODE_RDONLY, MODE_WRONLY and MODE_RDWR is required";
        } else if ((amode & MPI.MODE_RDONLY) != 0 && (amode & (MPI.MODE_CREATE | MPI.MODE_EXCL)) != 0) {
            problem = "MODE_RDONLY cannot go with MODE_CREATE or MODE_EXCL";
        } else if ((amode & MPI.MODE_RDWR) != 0 && (amode & MPI.MODE_SEQUENTIAL) != 0) {
            problem = "MODE_RDWR cannot go with MODE_SEQUENTIAL";
        } else if ((amode & ~ALL_MODES) != 0) {
            problem = "unknown mode bits " + (amode & ~ALL_MODES);
        }
        if (problem != null) {
            throw MPIException.of(MPI.ERR_AMODE, call + ": invalid access mode " + amode + ": " + problem);
        }
    }

    /** Creates the file as the mode asks; whether this call made it. */
    private static boolean prepare(Path path, int amode) throws IOException {
        boolean created = false;
        if ((amode & MPI.MODE_CREATE) != 0) {
            try {
                Files.createFile(path);
                created = true;
            } catch (FileAlreadyExistsException e) {
                if ((amode & MPI.MODE_EXCL) != 0) {
                    throw e;
                }
            }
        }
        if (Files.isDirectory(path)) {
            throw new IOException("Is a directory: " + path);
        }
        return created;
    }

    private static OpenOption[] options(int amode) {
        if ((amode & MPI.MODE_RDONLY) != 0) {
            return new OpenOption[] {StandardOpenOption.READ};
        }
        if ((amode & MPI.MODE_WRONLY) != 0) {
            return new OpenOption[] {StandardOpenOption.WRITE};
        }
        return new OpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE};
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // best effort: the work directory goes with the job
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException ignored) {
            // closing a channel that failed does not matter
        }
    }

    /**
     * The MPI error for a failed file operation: ERR_NO_SUCH_FILE, ERR_FILE_EXISTS, ERR_ACCESS,
     * ERR_READ_ONLY, ERR_NO_SPACE, ERR_QUOTA, ERR_BAD_FILE (a directory) or ERR_IO.
     */
    static MPIException ioError(String call, IOException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        // The system's own words (strerror), without the file name that the message starts with.
        String reason = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : message;
        int errorClass = MPI.ERR_IO;
        if (e instanceof NoSuchFileException) {
            errorClass = MPI.ERR_NO_SUCH_FILE;
            message = "no such file: " + message;
        } else if (e instanceof FileAlreadyExistsException) {
            errorClass = MPI.ERR_FILE_EXISTS;
            message = "file exists: " + message;
        } else if (e instanceof AccessDeniedException) {
            errorClass = MPI.ERR_ACCESS;
            message = "permission denied: " + message;
        } else if (reason.contains("Read-only file system")) {
            errorClass = MPI.ERR_READ_ONLY;
        } else if (reason.contains("No space left")) {
            errorClass = MPI.ERR_NO_SPACE;
        } else if (reason.contains("quota")) {
            errorClass = MPI.ERR_QUOTA;
        } else if (reason.contains("Is a directory") || reason.contains("Not a directory")
                || reason.contains("File name too long") || reason.contains("Too many levels of symbolic links")) {
            errorClass = MPI.ERR_BAD_FILE;
        }
        return MPIException.of(errorClass, call + ": " + message);
    }

    /**
     * Closes the file, collectively (MPI_File_close); deletes it if it was opened with
     * {@code MPI.MODE_DELETE_ON_CLOSE} (its name is gone as soon as every rank has opened it).
     *
     * @throws MPIException ERR_FILE on a closed file; ERR_IO
     */
    public void close() throws MPIException {
        String call = "MPI_File_close";
        try {
            checkOpen(call);
            FileChannel ch = channel;
            channel = null;
            ch.close();
            comm.barrier();
            if (rank == 0) {
                shared.free(call);
            }
            comm.free();
        } catch (IOException e) {
            throw handle(ioError(call, e));
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Deletes a file (MPI_File_delete); not collective.
     *
     * @param filename the file's path
     * @throws MPIException ERR_NO_SUCH_FILE for a missing file, ERR_BAD_FILE for a directory,
     *                      ERR_ACCESS, ERR_IO
     */
    public static void delete(String filename) throws MPIException {
        delete(filename, MPI.INFO_NULL);
    }

    /**
     * Deletes a file (MPI_File_delete) with hints; not collective.
     *
     * @param filename the file's path
     * @param info     hints (none are used)
     * @throws MPIException as {@link #delete(String)}
     */
    public static void delete(String filename, Info info) throws MPIException {
        String call = "MPI_File_delete";
        Session.enter(call);
        Info.hintsOf(call, info);
        if (filename == null || filename.isEmpty()) {
            throw MPIException.of(MPI.ERR_BAD_FILE, call + ": no file name");
        }
        Path path = Path.of(filename);
        try {
            if (Files.isDirectory(path)) {
                throw new IOException("Is a directory: " + path);
            }
            Files.delete(path);
        } catch (IOException e) {
            throw ioError(call, e);
        }
    }

    // ---------------------------------------------------------------- file-level calls

    /**
     * Truncates or extends the file to {@code size} bytes, collectively (MPI_File_set_size).
     *
     * @param size the new size in bytes
     * @throws MPIException ERR_ARG for a negative size; ERR_READ_ONLY on a read-only file; ERR_IO
     */
    public void setSize(long size) throws MPIException {
        resize("MPI_File_set_size", size, false);
    }

    /**
     * Reserves storage for the first {@code size} bytes, collectively (MPI_File_preallocate): the
     * file grows to at least {@code size} bytes, written as zeros.
     *
     * @param size bytes to reserve
     * @throws MPIException as {@link #setSize}
     */
    public void preallocate(long size) throws MPIException {
        resize("MPI_File_preallocate", size, true);
    }

    private void resize(String call, long size, boolean reserve) throws MPIException {
        try {
            checkOpen(call);
            if (size < 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": negative size " + size);
            }
            if ((amode & MPI.MODE_RDONLY) != 0) {
                throw MPIException.of(MPI.ERR_READ_ONLY, call + ": " + name + " is open read-only");
            }
            comm.barrier();
            int[] outcome = {0};
            MPIException failure = null;
            if (rank == 0) {
                try {
                    long current = channel.size();
                    if (reserve) {
                        fillZeros(current, size);
                    } else if (size < current) {
                        channel.truncate(size);
                    } else if (size > current) {
                        channel.write(ByteBuffer.allocate(1), size - 1);
                    }
                } catch (IOException e) {
                    failure = ioError(call, e);
                    outcome[0] = failure.getErrorClass();
                }
            }
            comm.bcast(outcome, 1, MPI.INT, 0);
            if (outcome[0] != 0) {
                throw failure != null ? failure
                                      : MPIException.of(outcome[0], call + ": failed on rank 0: " + Errors.className(outcome[0]));
            }
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    private void fillZeros(long from, long to) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect((int) Math.min(CHUNK, Math.max(1, to - from)));
        for (long at = from; at < to; ) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), to - at));
            at += channel.write(zeros, at);
        }
    }

    /**
     * The file's size.
     *
     * @return bytes
     * @throws MPIException ERR_FILE on a closed file; ERR_IO
     */
    public long getSize() throws MPIException {
        String call = "MPI_File_get_size";
        try {
            checkOpen(call);
            return channel.size();
        } catch (IOException e) {
            throw handle(ioError(call, e));
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * The group of the communicator that opened the file.
     *
     * @return a new group
     * @throws MPIException ERR_FILE on a closed file
     */
    public Group getGroup() throws MPIException {
        String call = "MPI_File_get_group";
        try {
            checkOpen(call);
            return comm.getGroup();
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * The access mode the file was opened with.
     *
     * @return the {@code MPI.MODE_*} flags
     * @throws MPIException ERR_FILE on a closed file
     */
    public int getAMode() throws MPIException {
        try {
            checkOpen("MPI_File_get_amode");
            return amode;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Adds hints, collectively (MPI_File_set_info); they are kept, and none changes what the calls do.
     *
     * @param info hints
     * @throws MPIException ERR_FILE on a closed file
     */
    public void setInfo(Info info) throws MPIException {
        String call = "MPI_File_set_info";
        try {
            checkOpen(call);
            hints.putAll(Info.hintsOf(call, info));
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * The hints given at open and since.
     *
     * @return a new Info the caller frees
     * @throws MPIException ERR_FILE on a closed file
     */
    public Info getInfo() throws MPIException {
        try {
            checkOpen("MPI_File_get_info");
            return Info.withHints(Map.copyOf(hints));
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Sets the view, collectively (MPI_File_set_view); both file pointers go back to 0.
     *
     * @param disp     bytes from the file's start, or {@code MPI.DISPLACEMENT_CURRENT} (the shared
     *                 pointer's position) for a {@code MODE_SEQUENTIAL} file
     * @param etype    the unit of offsets
     * @param filetype the visible pattern, tiled from {@code disp}; made of whole etypes, with
     *                 non-negative, increasing displacements
     * @param datarep  {@code "native"} or {@code "internal"} (the same bytes), or {@code "external32"}
     *                 (every basic element big-endian in the file, converted on each read and write;
     *                 its sizes are Java's, so extents do not change)
     * @throws MPIException ERR_ARG for a bad displacement; ERR_TYPE for a bad etype or filetype;
     *                      ERR_UNSUPPORTED_DATAREP for an unknown name, or for {@code "external32"} with a
     *                      pair or complex type (an access with one raises it too)
     */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep) throws MPIException {
        setView(disp, etype, filetype, datarep, MPI.INFO_NULL);
    }

    /**
     * Sets the view with hints, collectively (MPI_File_set_view).
     *
     * @param disp     as {@link #setView(long, Datatype, Datatype, String)}
     * @param etype    the unit of offsets
     * @param filetype the visible pattern
     * @param datarep  {@code "native"}, {@code "internal"} or {@code "external32"}
     * @param info     hints, kept for {@link #getInfo()}
     * @throws MPIException as {@link #setView(long, Datatype, Datatype, String)}
     */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info) throws MPIException {
        String call = "MPI_File_set_view";
        try {
            checkOpen(call);
            Datatype.checkUsable(call, etype);
            Datatype.checkUsable(call, filetype);
            boolean external = "external32".equals(datarep);
            if (!external && !"native".equals(datarep) && !"internal".equals(datarep)) {
                throw MPIException.of(MPI.ERR_UNSUPPORTED_DATAREP, call + ": data representation \"" + datarep
                        + "\" is not supported (use \"native\", \"internal\" or \"external32\")");
            }
            if (external) {
                checkExternal(call, etype);
                checkExternal(call, filetype);
            }
            long start = disp;
            if (disp == MPI.DISPLACEMENT_CURRENT && (amode & MPI.MODE_SEQUENTIAL) != 0) {
                // Where the pointer is once every rank's shared accesses before this call are done.
                long[] at = {0};
                comm.barrier();
                if (rank == 0) {
                    at[0] = map.fileByte(shared.get(call) * map.etypeSize);
                }
                comm.bcast(at, 1, MPI.LONG, 0);
                start = at[0];
            } else if (disp < 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": invalid displacement " + disp);
            }
            checkFiletype(call, etype.map, filetype.map);
            hints.putAll(Info.hintsOf(call, info));
            shared.setAll(call, comm, rank, old -> 0);
            map = new ViewMap(start, etype.map.size, filetype.map);
            view = new FileView(start, etype, filetype, datarep);
            external32 = external;
            position = 0;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * "external32" changes each basic element's byte order on its own (its sizes are Java's): a
     * pair or complex type, whose parts would swap as one, is refused.
     */
    private static void checkExternal(String call, Datatype type) throws MPIException {
        if (!type.map.byteSwappable()) {
            throw MPIException.of(MPI.ERR_UNSUPPORTED_DATAREP, call + ": \"external32\" converts types made of BYTE, CHAR,"
                    + " SHORT, BOOLEAN, INT, LONG, FLOAT and DOUBLE; not " + type);
        }
    }

    private static void checkFiletype(String call, TypeMap etype, TypeMap filetype) throws MPIException {
        String problem = null;
        if (etype.size == 0) {
            problem = "the etype holds no data";
        } else if (filetype.size == 0 || filetype.extent <= 0) {
            problem = "the filetype holds no data";
        } else if (filetype.size % etype.size != 0) {
            problem = "the filetype's " + filetype.size + " bytes are not whole etypes of " + etype.size;
        } else {
            for (int s = 0; s < filetype.segments() && problem == null; s++) {
                long previousEnd = s == 0 ? 0 : filetype.offset(s - 1) + filetype.length(s - 1);
                if (filetype.offset(s) < previousEnd) {
                    problem = "the filetype's displacements are negative or decreasing";
                }
            }
        }
        if (problem != null) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + problem);
        }
    }

    /**
     * The arguments of the last {@code setView}, or (0, BYTE, BYTE, "native"); a Java-side record.
     *
     * @return the view
     */
    public FileView getView() {
        return view;
    }

    /**
     * The extent of {@code type} in the file's data representation, in base units (as
     * {@link Datatype#getExtent()}; every representation here has Java's sizes, so it is the memory layout).
     *
     * @param type a datatype
     * @return the extent in base units
     * @throws MPIException ERR_FILE on a closed file; ERR_TYPE for a freed type
     */
    public int getTypeExtent(Datatype type) throws MPIException {
        String call = "MPI_File_get_type_extent";
        try {
            checkOpen(call);
            Datatype.checkUsable(call, type);
            return type.getExtent();
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Sets atomic mode, collectively (MPI_File_set_atomicity): in it each access holds an
     * exclusive (write) or shared (read) lock on the file bytes it spans.
     *
     * @param atomicity whether accesses are atomic
     * @throws MPIException ERR_FILE on a closed file
     */
    public void setAtomicity(boolean atomicity) throws MPIException {
        String call = "MPI_File_set_atomicity";
        try {
            checkOpen(call);
            comm.barrier();
            atomic = atomicity;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Whether accesses are atomic.
     *
     * @return the mode set by {@link #setAtomicity}, false at first
     * @throws MPIException ERR_FILE on a closed file
     */
    public boolean getAtomicity() throws MPIException {
        try {
            checkOpen("MPI_File_get_atomicity");
            return atomic;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Pushes written data to storage, collectively (MPI_File_sync).
     *
     * @throws MPIException ERR_FILE on a closed file; ERR_IO
     */
    public void sync() throws MPIException {
        String call = "MPI_File_sync";
        try {
            checkOpen(call);
            channel.force(true);
            comm.barrier();
        } catch (IOException e) {
            throw handle(ioError(call, e));
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Sets the error handler of this file.
     *
     * @param errhandler {@code MPI.ERRORS_RETURN} (the default for files), {@code MPI.ERRORS_ARE_FATAL} or
     *                   {@code MPI.ERRORS_ABORT}
     * @throws MPIException ERR_ARG for null
     */
    public void setErrhandler(Errhandler errhandler) throws MPIException {
        Session.enter("MPI_File_set_errhandler");
        if (errhandler == null) {
            throw handle(MPIException.of(MPI.ERR_ARG, "MPI_File_set_errhandler: null error handler"));
        }
        this.errhandler = errhandler;
    }

    /**
     * The error handler of this file.
     *
     * @return the handler
     * @throws MPIException if MPI is not running
     */
    public Errhandler getErrhandler() throws MPIException {
        Session.enter("MPI_File_get_errhandler");
        return errhandler;
    }

    /**
     * Runs this file's error handler on {@code errorCode}: under {@code MPI.ERRORS_RETURN} it
     * returns normally, as in Open MPI.
     *
     * @param errorCode an error class
     * @throws MPIException never under ERRORS_RETURN; a fatal handler ends the job
     */
    public void callErrhandler(int errorCode) throws MPIException {
        handle(MPIException.of(errorCode, "MPI_File_call_errhandler: error code " + errorCode + " on " + name));
    }

    // ---------------------------------------------------------------- pointers

    /**
     * Moves the individual file pointer (MPI_File_seek).
     *
     * @param offset etypes
     * @param whence {@code MPI.SEEK_SET}, {@code SEEK_CUR} or {@code SEEK_END}
     * @throws MPIException ERR_ARG for a bad whence or a negative result; ERR_UNSUPPORTED_OPERATION on
     *                      a {@code MODE_SEQUENTIAL} file
     */
    public void seek(long offset, int whence) throws MPIException {
        String call = "MPI_File_seek";
        try {
            checkOpen(call);
            checkNotSequential(call);
            position = seekTarget(call, position, offset, whence);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    private long seekTarget(String call, long current, long offset, int whence) throws MPIException {
        return checkPosition(call, target(call, current, offset, whence));
    }

    /** Where a seek goes, negative or not. */
    private long target(String call, long current, long offset, int whence) throws MPIException {
        long target;
        if (whence == MPI.SEEK_SET) {
            target = offset;
        } else if (whence == MPI.SEEK_CUR) {
            target = current + offset;
        } else if (whence == MPI.SEEK_END) {
            target = endOfFile(call) + offset;
        } else {
            throw MPIException.of(MPI.ERR_ARG, call + ": invalid whence " + whence
                    + " (use MPI.SEEK_SET, MPI.SEEK_CUR or MPI.SEEK_END)");
        }
        return target;
    }

    private static long checkPosition(String call, long target) throws MPIException {
        if (target < 0) {
            throw MPIException.of(MPI.ERR_ARG, call + ": the position would be negative (" + target + ")");
        }
        return target;
    }

    /** The end of the file in etypes of the view (a partly covered etype counts). */
    private long endOfFile(String call) throws MPIException {
        try {
            return (map.visibleBefore(channel.size()) + map.etypeSize - 1) / map.etypeSize;
        } catch (IOException e) {
            throw ioError(call, e);
        }
    }

    /**
     * The individual file pointer.
     *
     * @return etypes from the view's start
     * @throws MPIException ERR_FILE on a closed file
     */
    public long getPosition() throws MPIException {
        try {
            checkOpen("MPI_File_get_position");
            return position;
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * The absolute byte position of a view-relative offset.
     *
     * @param offset etypes from the view's start
     * @return bytes from the file's start
     * @throws MPIException ERR_ARG for a negative offset
     */
    public long getByteOffset(long offset) throws MPIException {
        String call = "MPI_File_get_byte_offset";
        try {
            checkOpen(call);
            return map.fileByte(streamByte(call, checkOffset(call, offset), 1));
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Moves the shared file pointer, collectively; every rank passes the same values
     * (MPI_File_seek_shared).
     *
     * @param offset etypes
     * @param whence {@code MPI.SEEK_SET}, {@code SEEK_CUR} or {@code SEEK_END}
     * @throws MPIException ERR_ARG for a bad whence or a negative result; ERR_NOT_SAME when the ranks
     *                      pass different values
     */
    public void seekShared(long offset, int whence) throws MPIException {
        String call = "MPI_File_seek_shared";
        try {
            checkOpen(call);
            checkSame(call, comm, new long[] {offset, whence}, "offsets or whences");
            seekTarget(call, 0, whence == MPI.SEEK_SET ? offset : Math.max(0, offset), whence);
            MPIException[] failure = {null};
            // Rank 0 alone finds the target; every rank learns it, so that all fail alike.
            long target = shared.setAll(call, comm, rank, current -> {
                try {
                    return target(call, current, offset, whence);
                } catch (MPIException e) {
                    failure[0] = e;
                    return Long.MIN_VALUE;
                }
            });
            if (failure[0] != null) {
                throw failure[0];
            }
            if (target == Long.MIN_VALUE) {
                throw MPIException.of(MPI.ERR_IO, call + ": rank 0 could not find the end of " + name);
            }
            checkPosition(call, target);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * The shared file pointer.
     *
     * @return etypes from the view's start
     * @throws MPIException ERR_FILE on a closed file; ERR_IO
     */
    public long getPositionShared() throws MPIException {
        String call = "MPI_File_get_position_shared";
        try {
            checkOpen(call);
            return shared.get(call);
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    // ---------------------------------------------------------------- the one access path

    /**
     * Reads or writes {@code count} items of {@code type} at the place {@code place} gives. A
     * collective write returns once every rank's part is in the file (a barrier), so a read by
     * any rank after it sees the data, as with Open MPI's two-phase collective I/O.
     *
     * @param collective a collective call of the communicator that opened the file
     * @param offset     etypes, for an explicit offset
     */
    private Status access(String call, Place place, boolean collective, long offset, Object buf, int count,
                          Datatype type, boolean write)
            throws MPIException {
        try {
            checkOpen(call);
            if (write && (amode & MPI.MODE_RDONLY) != 0) {
                throw MPIException.of(MPI.ERR_READ_ONLY, call + ": " + name + " is open read-only");
            }
            if (!write && (amode & MPI.MODE_WRONLY) != 0) {
                throw MPIException.of(MPI.ERR_ACCESS, call + ": " + name + " is open write-only");
            }
            if (place == Place.EXPLICIT || place == Place.INDIVIDUAL) {
                checkNotSequential(call);
            }
            if (type == MPI.OBJECT) {
                // A message carries objects serialized; a file has no place for their lengths and classes.
                throw MPIException.of(MPI.ERR_TYPE, call + ": MPI.OBJECT items cannot be read from or written to a file;"
                        + " serialize them into a byte[] and write that");
            }
            int bytes = BufferAccess.byteLength(call, buf, count, type, !write);
            if (external32) {
                checkExternal(call, type);
            }
            if (bytes % map.etypeSize != 0) {
                throw MPIException.of(MPI.ERR_TYPE, call + ": " + count + " items of " + type + " are not whole etypes of "
                        + map.etypeSize + " bytes");
            }
            long etypes = bytes / map.etypeSize;
            long start = switch (place) {
                case EXPLICIT -> checkOffset(call, offset);
                case INDIVIDUAL -> position;
                case SHARED -> shared.fetchAdd(call, etypes);
                case ORDERED -> shared.ordered(call, comm, rank, etypes);
            };
            long moved = transfer(streamByte(call, start, bytes), buf, count, type, bytes, write);
            if (place == Place.INDIVIDUAL) {
                position = start + moved / map.etypeSize;
            }
            if (collective && write) {
                comm.barrier();
            }
            return Status.received(MPI.ANY_SOURCE, MPI.ANY_TAG, moved);
        } catch (IOException e) {
            throw handle(ioError(call, e));
        } catch (MPIException e) {
            throw handle(e);
        }
    }

    /**
     * Moves the {@code bytes} bytes of {@code count} items between {@code buf} and the view's
     * stream from byte {@code streamPos}, through a staging buffer of at most {@link #CHUNK}
     * bytes (whole items) at a time; under atomic mode holding a lock on the file bytes spanned.
     *
     * @return bytes moved: fewer than {@code bytes} when a read reaches the end of the file
     */
    private long transfer(long streamPos, Object buf, int count, Datatype type, int bytes, boolean write)
            throws IOException {
        if (bytes == 0) {
            return 0;
        }
        FileLock lock = null;
        if (atomic) {
            long first = map.fileByte(streamPos);
            lock = channel.lock(first, map.fileByte(streamPos + bytes - 1) + 1 - first, !write);
        }
        try {
            ByteBuffer direct = external32 && !BIG_ENDIAN ? null : directBytes(buf, type);
            if (direct != null) {
                // The user's own memory is the I/O buffer: no staging copy.
                return map.forEachRange(streamPos, bytes, write ? writeFrom(direct) : readInto(direct));
            }
            int itemBytes = type.byteSize();
            int perChunk = Math.max(1, CHUNK / itemBytes);
            long moved = 0;
            for (int item = 0; item < count; item += perChunk) {
                int length = Math.min(perChunk, count - item) * itemBytes;
                ByteBuffer stage = stage(length);
                long got;
                if (write) {
                    BufferAccess.pack(buf, item, length / itemBytes, type, stage);
                    if (external32 && !BIG_ENDIAN) {
                        type.map.swapElements(stage, 0, length);
                    }
                    got = map.forEachRange(streamPos + moved, length, writeFrom(stage));
                } else {
                    got = map.forEachRange(streamPos + moved, length, readInto(stage));
                    if (external32 && !BIG_ENDIAN) {
                        type.map.swapElements(stage, 0, (int) got);
                    }
                    BufferAccess.unpack(stage.position(0).limit((int) got), buf, item, type);
                }
                moved += got;
                if (got < length) {
                    break;
                }
            }
            return moved;
        } finally {
            if (lock != null) {
                lock.release();
            }
        }
    }

    /** Writes the access's bytes {@code [off, off + len)}, taken from {@code src}, at each file range. */
    private ViewMap.Range writeFrom(ByteBuffer src) {
        return (pos, off, len) -> {
            ByteBuffer part = src.slice(off, len);
            while (part.hasRemaining()) {
                channel.write(part, pos + part.position());
            }
            return len;
        };
    }

    /** Reads each file range into the access's bytes {@code [off, off + len)} of {@code dst}, until the file ends. */
    private ViewMap.Range readInto(ByteBuffer dst) {
        return (pos, off, len) -> {
            ByteBuffer part = dst.slice(off, len);
            while (part.hasRemaining() && channel.read(part, pos + part.position()) >= 0) {
                // until the range is full or the file ends
            }
            return part.position();
        };
    }

    /**
     * The bytes of {@code buf} from its start when they can be the I/O buffer themselves: a direct
     * ByteBuffer holding a contiguous type. Null otherwise (the data is staged).
     */
    private static ByteBuffer directBytes(Object buf, Datatype type) {
        return buf instanceof ByteBuffer b && b.isDirect() && type.map.dense() ? b.duplicate().clear() : null;
    }

    /** An empty staging buffer of {@code length} bytes: the file's own direct one when it fits. */
    private ByteBuffer stage(int length) {
        if (length > CHUNK) {
            return ByteBuffer.allocate(length);
        }
        if (staging == null) {
            staging = ByteBuffer.allocateDirect(CHUNK);
        }
        return staging.clear().limit(length);
    }

    private void checkOpen(String call) throws MPIException {
        Session.enter(call);
        if (channel == null) {
            throw MPIException.of(MPI.ERR_FILE, call + ": " + name + " is closed");
        }
    }

    private void checkNotSequential(String call) throws MPIException {
        if ((amode & MPI.MODE_SEQUENTIAL) != 0) {
            throw MPIException.of(MPI.ERR_UNSUPPORTED_OPERATION, call + ": " + name
                    + " was opened with MODE_SEQUENTIAL: only the shared file pointer may be used");
        }
    }

    private static long checkOffset(String call, long offset) throws MPIException {
        if (offset < 0) {
            throw MPIException.of(MPI.ERR_ARG, call + ": negative offset " + offset);
        }
        return offset;
    }

    /**
     * The stream byte of {@code etypes} etypes of the view, checked so that the {@code bytes} from
     * it lie at file positions a {@code long} holds.
     *
     * @throws MPIException ERR_ARG past that
     */
    private long streamByte(String call, long etypes, long bytes) throws MPIException {
        try {
            long p = Math.multiplyExact(etypes, (long) map.etypeSize);
            if (map.reaches(Math.addExact(p, bytes))) {
                return p;
            }
        } catch (ArithmeticException e) {
            // past any file position, as below
        }
        throw MPIException.of(MPI.ERR_ARG, call + ": offset " + etypes + " (in etypes of the view) lies past the"
                + " largest position of a file, 2^63 - 1 bytes");
    }

    private MPIException handle(MPIException e) {
        return errhandler.apply(e);
    }

    // ---------------------------------------------------------------- data access

    /**
     * Reads at an explicit offset (MPI_File_read_at).
     *
     * @param offset etypes from the view's start
     * @param buf   where the data goes: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items read (fewer at the end of the file)
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_ACCESS for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_at", Place.EXPLICIT, false, offset, buf, count, type, false);
    }

    /**
     * Collectively, reads at an explicit offset (MPI_File_read_at_all).
     *
     * @param offset etypes from the view's start
     * @param buf   where the data goes: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items read (fewer at the end of the file)
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_ACCESS for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status readAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_at_all", Place.EXPLICIT, true, offset, buf, count, type, false);
    }

    /**
     * Nonblocking: reads at an explicit offset (MPI_File_iread_at); the I/O is done before the call returns a completed request.
     *
     * @param offset etypes from the view's start
     * @param buf   a direct Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return a completed request whose Status counts the items read
     * @throws MPIException as the blocking call
     */
    public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        Comm.requireDirect(buf);
        return Request.completed(null, access("MPI_File_iread_at", Place.EXPLICIT, false, offset, buf, count, type, false), null);
    }

    /**
     * Nonblocking collective: reads at an explicit offset (MPI_File_iread_at_all); the I/O is done before the call returns a completed request.
     *
     * @param offset etypes from the view's start
     * @param buf   a direct Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return a completed request whose Status counts the items read
     * @throws MPIException as the blocking call
     */
    public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        Comm.requireDirect(buf);
        return Request.completed(null, access("MPI_File_iread_at_all", Place.EXPLICIT, true, offset, buf, count, type, false), null);
    }

    /**
     * Begins a split collective: reads at an explicit offset (MPI_File_read_at_all_begin). The whole collective is done here; its
     * Status waits for {@link #readAtAllEnd}.
     *
     * @param offset etypes from the view's start
     * @param buf   an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @throws MPIException as the blocking collective; ERR_IO when a split collective is already under way
     */
    public void readAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        String call = "MPI_File_read_at_all_begin";
        checkNoSplit(call);
        split = access(call, Place.EXPLICIT, true, offset, buf, count, type, false);
    }

    /**
     * Ends the split collective begun by {@link #readAtAllBegin} (MPI_File_read_at_all_end).
     *
     * @param buf the buffer given to Begin (not used)
     * @return the collective's Status
     * @throws MPIException ERR_IO when no split collective was begun
     */
    public Status readAtAllEnd(Object buf) throws MPIException {
        return endSplit("MPI_File_read_at_all_end");
    }

    /**
     * Writes at an explicit offset (MPI_File_write_at).
     *
     * @param offset etypes from the view's start
     * @param buf   the data: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items written
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_READ_ONLY for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_at", Place.EXPLICIT, false, offset, buf, count, type, true);
    }

    /**
     * Collectively, writes at an explicit offset (MPI_File_write_at_all).
     *
     * @param offset etypes from the view's start
     * @param buf   the data: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items written
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_READ_ONLY for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status writeAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_at_all", Place.EXPLICIT, true, offset, buf, count, type, true);
    }

    /**
     * Nonblocking: writes at an explicit offset (MPI_File_iwrite_at); the I/O is done before the call returns a completed request.
     *
     * @param offset etypes from the view's start
     * @param buf   a direct Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return a completed request whose Status counts the items written
     * @throws MPIException as the blocking call
     */
    public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        Comm.requireDirect(buf);
        return Request.completed(null, access("MPI_File_iwrite_at", Place.EXPLICIT, false, offset, buf, count, type, true), null);
    }

    /**
     * Nonblocking collective: writes at an explicit offset (MPI_File_iwrite_at_all); the I/O is done before the call returns a completed request.
     *
     * @param offset etypes from the view's start
     * @param buf   a direct Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return a completed request whose Status counts the items written
     * @throws MPIException as the blocking call
     */
    public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        Comm.requireDirect(buf);
        return Request.completed(null, access("MPI_File_iwrite_at_all", Place.EXPLICIT, true, offset, buf, count, type, true), null);
    }

    /**
     * Begins a split collective: writes at an explicit offset (MPI_File_write_at_all_begin). The whole collective is done here; its
     * Status waits for {@link #writeAtAllEnd}.
     *
     * @param offset etypes from the view's start
     * @param buf   an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @throws MPIException as the blocking collective; ERR_IO when a split collective is already under way
     */
    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        String call = "MPI_File_write_at_all_begin";
        checkNoSplit(call);
        split = access(call, Place.EXPLICIT, true, offset, buf, count, type, true);
    }

    /**
     * Ends the split collective begun by {@link #writeAtAllBegin} (MPI_File_write_at_all_end).
     *
     * @param buf the buffer given to Begin (not used)
     * @return the collective's Status
     * @throws MPIException ERR_IO when no split collective was begun
     */
    public Status writeAtAllEnd(Object buf) throws MPIException {
        return endSplit("MPI_File_write_at_all_end");
    }

    /**
     * Reads at the individual file pointer, moving it (MPI_File_read).
     *
     * @param buf   where the data goes: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items read (fewer at the end of the file)
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_ACCESS for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status read(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read", Place.INDIVIDUAL, false, 0, buf, count, type, false);
    }

    /**
     * Collectively, reads at the individual file pointer, moving it (MPI_File_read_all).
     *
     * @param buf   where the data goes: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items read (fewer at the end of the file)
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_ACCESS for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status readAll(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_all", Place.INDIVIDUAL, true, 0, buf, count, type, false);
    }

    /**
     * Nonblocking: reads at the individual file pointer, moving it (MPI_File_iread); the I/O is done before the call returns a completed request.
     *
     * @param buf   a direct Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return a completed request whose Status counts the items read
     * @throws MPIException as the blocking call
     */
    public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
        Comm.requireDirect(buf);
        return Request.completed(null, access("MPI_File_iread", Place.INDIVIDUAL, false, 0, buf, count, type, false), null);
    }

    /**
     * Nonblocking collective: reads at the individual file pointer, moving it (MPI_File_iread_all); the I/O is done before the call returns a completed request.
     *
     * @param buf   a direct Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return a completed request whose Status counts the items read
     * @throws MPIException as the blocking call
     */
    public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
        Comm.requireDirect(buf);
        return Request.completed(null, access("MPI_File_iread_all", Place.INDIVIDUAL, true, 0, buf, count, type, false), null);
    }

    /**
     * Begins a split collective: reads at the individual file pointer, moving it (MPI_File_read_all_begin). The whole collective is done here; its
     * Status waits for {@link #readAllEnd}.
     *
     * @param buf   an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @throws MPIException as the blocking collective; ERR_IO when a split collective is already under way
     */
    public void readAllBegin(Object buf, int count, Datatype type) throws MPIException {
        String call = "MPI_File_read_all_begin";
        checkNoSplit(call);
        split = access(call, Place.INDIVIDUAL, true, 0, buf, count, type, false);
    }

    /**
     * Ends the split collective begun by {@link #readAllBegin} (MPI_File_read_all_end).
     *
     * @param buf the buffer given to Begin (not used)
     * @return the collective's Status
     * @throws MPIException ERR_IO when no split collective was begun
     */
    public Status readAllEnd(Object buf) throws MPIException {
        return endSplit("MPI_File_read_all_end");
    }

    /**
     * Writes at the individual file pointer, moving it (MPI_File_write).
     *
     * @param buf   the data: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items written
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_READ_ONLY for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status write(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write", Place.INDIVIDUAL, false, 0, buf, count, type, true);
    }

    /**
     * Collectively, writes at the individual file pointer, moving it (MPI_File_write_all).
     *
     * @param buf   the data: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items written
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_READ_ONLY for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_all", Place.INDIVIDUAL, true, 0, buf, count, type, true);
    }

    /**
     * Nonblocking: writes at the individual file pointer, moving it (MPI_File_iwrite); the I/O is done before the call returns a completed request.
     *
     * @param buf   a direct Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return a completed request whose Status counts the items written
     * @throws MPIException as the blocking call
     */
    public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
        Comm.requireDirect(buf);
        return Request.completed(null, access("MPI_File_iwrite", Place.INDIVIDUAL, false, 0, buf, count, type, true), null);
    }

    /**
     * Nonblocking collective: writes at the individual file pointer, moving it (MPI_File_iwrite_all); the I/O is done before the call returns a completed request.
     *
     * @param buf   a direct Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return a completed request whose Status counts the items written
     * @throws MPIException as the blocking call
     */
    public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
        Comm.requireDirect(buf);
        return Request.completed(null, access("MPI_File_iwrite_all", Place.INDIVIDUAL, true, 0, buf, count, type, true), null);
    }

    /**
     * Begins a split collective: writes at the individual file pointer, moving it (MPI_File_write_all_begin). The whole collective is done here; its
     * Status waits for {@link #writeAllEnd}.
     *
     * @param buf   an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @throws MPIException as the blocking collective; ERR_IO when a split collective is already under way
     */
    public void writeAllBegin(Object buf, int count, Datatype type) throws MPIException {
        String call = "MPI_File_write_all_begin";
        checkNoSplit(call);
        split = access(call, Place.INDIVIDUAL, true, 0, buf, count, type, true);
    }

    /**
     * Ends the split collective begun by {@link #writeAllBegin} (MPI_File_write_all_end).
     *
     * @param buf the buffer given to Begin (not used)
     * @return the collective's Status
     * @throws MPIException ERR_IO when no split collective was begun
     */
    public Status writeAllEnd(Object buf) throws MPIException {
        return endSplit("MPI_File_write_all_end");
    }

    /**
     * Reads at the shared file pointer, moving it, by a fetch-and-add at the master that keeps it (MPI_File_read_shared).
     *
     * @param buf   where the data goes: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items read (fewer at the end of the file)
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_ACCESS for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status readShared(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_shared", Place.SHARED, false, 0, buf, count, type, false);
    }

    /**
     * Collectively, in rank order, reads at the shared file pointer, moving it past every rank's part (MPI_File_read_ordered).
     *
     * @param buf   where the data goes: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items read (fewer at the end of the file)
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_ACCESS for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_ordered", Place.ORDERED, true, 0, buf, count, type, false);
    }

    /**
     * Nonblocking: reads at the shared file pointer, moving it (MPI_File_iread_shared); the I/O is done before the call returns a completed request.
     *
     * @param buf   a direct Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return a completed request whose Status counts the items read
     * @throws MPIException as the blocking call
     */
    public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
        Comm.requireDirect(buf);
        return Request.completed(null, access("MPI_File_iread_shared", Place.SHARED, false, 0, buf, count, type, false), null);
    }

    /**
     * Begins a split collective: in rank order, reads at the shared file pointer, moving it (MPI_File_read_ordered_begin). The whole collective is done here; its
     * Status waits for {@link #readOrderedEnd}.
     *
     * @param buf   an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @throws MPIException as the blocking collective; ERR_IO when a split collective is already under way
     */
    public void readOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        String call = "MPI_File_read_ordered_begin";
        checkNoSplit(call);
        split = access(call, Place.ORDERED, true, 0, buf, count, type, false);
    }

    /**
     * Ends the split collective begun by {@link #readOrderedBegin} (MPI_File_read_ordered_end).
     *
     * @param buf the buffer given to Begin (not used)
     * @return the collective's Status
     * @throws MPIException ERR_IO when no split collective was begun
     */
    public Status readOrderedEnd(Object buf) throws MPIException {
        return endSplit("MPI_File_read_ordered_end");
    }

    /**
     * Writes at the shared file pointer, moving it, by a fetch-and-add at the master that keeps it (MPI_File_write_shared).
     *
     * @param buf   the data: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items written
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_READ_ONLY for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_shared", Place.SHARED, false, 0, buf, count, type, true);
    }

    /**
     * Collectively, in rank order, writes at the shared file pointer, moving it past every rank's part (MPI_File_write_ordered).
     *
     * @param buf   the data: an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return the Status: {@code getCount(type)} items written
     * @throws MPIException see {@link File}: ERR_FILE on a closed file, ERR_READ_ONLY for the wrong mode,
     *                      ERR_ARG, ERR_TYPE, ERR_COUNT, ERR_BUFFER for bad arguments, ERR_IO
     */
    public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_ordered", Place.ORDERED, true, 0, buf, count, type, true);
    }

    /**
     * Nonblocking: writes at the shared file pointer, moving it (MPI_File_iwrite_shared); the I/O is done before the call returns a completed request.
     *
     * @param buf   a direct Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @return a completed request whose Status counts the items written
     * @throws MPIException as the blocking call
     */
    public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
        Comm.requireDirect(buf);
        return Request.completed(null, access("MPI_File_iwrite_shared", Place.SHARED, false, 0, buf, count, type, true), null);
    }

    /**
     * Begins a split collective: in rank order, writes at the shared file pointer, moving it (MPI_File_write_ordered_begin). The whole collective is done here; its
     * Status waits for {@link #writeOrderedEnd}.
     *
     * @param buf   an array or Buffer
     * @param count items of {@code type}
     * @param type  the items' datatype
     * @throws MPIException as the blocking collective; ERR_IO when a split collective is already under way
     */
    public void writeOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        String call = "MPI_File_write_ordered_begin";
        checkNoSplit(call);
        split = access(call, Place.ORDERED, true, 0, buf, count, type, true);
    }

    /**
     * Ends the split collective begun by {@link #writeOrderedBegin} (MPI_File_write_ordered_end).
     *
     * @param buf the buffer given to Begin (not used)
     * @return the collective's Status
     * @throws MPIException ERR_IO when no split collective was begun
     */
    public Status writeOrderedEnd(Object buf) throws MPIException {
        return endSplit("MPI_File_write_ordered_end");
    }

    private void checkNoSplit(String call) throws MPIException {
        if (split != null) {
            throw handle(MPIException.of(MPI.ERR_IO, call + ": a split collective on " + name + " is already under way"));
        }
    }

    private Status endSplit(String call) throws MPIException {
        try {
            checkOpen(call);
            if (split == null) {
                throw MPIException.of(MPI.ERR_IO, call + ": no split collective on " + name + " was begun");
            }
            Status s = split;
            split = null;
            return s;
        } catch (MPIException e) {
            throw handle(e);
        }
    }
}
