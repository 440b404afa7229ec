package io.bdmpi.master.internode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * Writes received data chunks into their files on its own thread, so the pump moves the next chunk
 * while this one goes to disk (measured: the pump doing both was the slowest stage of a large
 * transfer between nodes). At most {@link #QUEUED} chunks wait or are being written; a caller with
 * one more waits until one is done, so the disk, not memory, sets the pace of a stream.
 */
final class ChunkWriter implements AutoCloseable {

    /** Chunks waiting or being written at once: one on its way to disk, one next. */
    static final int QUEUED = 2;

    private final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final Semaphore room = new Semaphore(QUEUED);
    private final Thread thread;

    ChunkWriter() {
        thread = new Thread(this::run, "bdmpi-chunk-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Queues the buffer's remaining bytes to be written at {@code offset} of {@code file}, waiting
     * while {@link #QUEUED} chunks are ahead. {@code done} then runs on the writer thread with null,
     * or with the failure; the buffer is the caller's again from then on.
     */
    void write(FileChannel file, long offset, ByteBuffer bytes, Consumer<IOException> done) {
        room.acquireUninterruptibly();
        queue.add(() -> {
            IOException failure = null;
            try {
                for (long at = offset; bytes.hasRemaining(); ) {
                    at += file.write(bytes, at);
                }
            } catch (IOException e) {
                failure = e;
            } finally {
                room.release();
            }
            done.accept(failure);
        });
    }

    private void run() {
        try {
            while (true) {
                queue.take().run();
            }
        } catch (InterruptedException e) {
            // Closed: chunks still queued belong to a job that is ending; its work directory goes with it.
        }
    }

    /** Stops the thread; writes not yet made are dropped. */
    @Override
    public void close() {
        thread.interrupt();
    }
}
