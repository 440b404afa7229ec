package mpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongUnaryOperator;

/**
 * The shared file pointer of one open file, in etypes of the view. On a communicator whose
 * members are all on one node it is 8 bytes in a small file of the job's work directory (removed
 * with the job), read and moved under an exclusive lock, so any rank may move it at any time. On a
 * communicator that spans nodes each rank keeps a replica that only collective calls move, all
 * ranks alike; the non-collective shared-pointer calls are refused there.
 */
final class SharedPointer {

        /** The pointer's file, or null for a replica. */
    private final FileChannel channel;
    private long replica;

    private SharedPointer(FileChannel channel, long replica) {
        this.channel = channel;
        this.replica = replica;
    }

    /** Creates the pointer's file at {@code path} holding {@code initial} (done once, by rank 0). */
    static void create(Path path, long initial) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(Long.BYTES).putLong(0, initial));
        }
    }

    /** The pointer kept in the file at {@code path}. */
    static SharedPointer onFile(Path path) throws IOException {
        return new SharedPointer(FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE), 0);
    }

    /** A replica starting at {@code initial}, moved by collective calls only. */
    static SharedPointer replica(long initial) {
        return new SharedPointer(null, initial);
    }

    /**
     * Moves the pointer by {@code delta} and returns where it was: what a non-collective
     * shared-pointer access does.
     *
     * @throws MPIException ERR_UNSUPPORTED_OPERATION on a file opened across nodes; ERR_IO
     */
    long fetchAdd(String call, long delta) throws MPIException {
        if (channel == null) {
            throw MPIException.of(MPI.ERR_UNSUPPORTED_OPERATION, call + ": the shared file pointer of a file opened"
                    + " on a communicator that spans several nodes needs the master, which does not keep it yet;"
                    + " use the ordered (collective) calls or explicit offsets");
        }
        try (FileLock ignored = channel.lock()) {
            long old = read();
            write(old + delta);
            return old;
        } catch (IOException e) {
            throw File.ioError(call, e);
        }
    }

    /** The pointer's value. */
    long get(String call) throws MPIException {
        if (channel == null) {
            return replica;
        }
        try (FileLock ignored = channel.lock()) {
            return read();
        } catch (IOException e) {
            throw File.ioError(call, e);
        }
    }

    /**
     * Collective over {@code comm}: once every rank is done with the pointer, sets it to
     * {@code move} of its value, and returns when every rank sees the new value.
     */
    void setAll(String call, Comm comm, int rank, LongUnaryOperator move) throws MPIException {
        if (channel == null) {
            replica = move.applyAsLong(replica);
            return;
        }
        comm.barrier();
        if (rank == 0) {
            try (FileLock ignored = channel.lock()) {
                write(move.applyAsLong(read()));
            } catch (IOException e) {
                throw File.ioError(call, e);
            }
        }
        comm.barrier();
    }

    /**
     * Collective over {@code comm}: reserves {@code mine} etypes for this rank after those of the
     * lower ranks, moves the pointer past all of them, and returns where this rank's part starts.
     */
    long ordered(String call, Comm comm, int rank, long mine) throws MPIException {
        long[] counts = new long[comm.getSize()];
        counts[rank] = mine;
        comm.allGather(counts, 1, MPI.LONG);
        long before = 0;
        long total = 0;
        for (int r = 0; r < counts.length; r++) {
            before += r < rank ? counts[r] : 0;
            total += counts[r];
        }
        long[] base = {replica};
        if (channel == null) {
            replica += total;
        } else {
            if (rank == 0) {
                base[0] = fetchAdd(call, total);
            }
            comm.bcast(base, 1, MPI.LONG, 0);
        }
        return base[0] + before;
    }

    /** Closes this rank's handle (rank 0 removes the pointer's file once every rank has closed). */
    void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }

    private long read() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(Long.BYTES);
        while (b.hasRemaining() && channel.read(b, b.position()) >= 0) {
            // until 8 bytes
        }
        return b.getLong(0);
    }

    private void write(long value) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(Long.BYTES).putLong(0, value);
        while (b.hasRemaining()) {
            channel.write(b, b.position());
        }
    }
}
