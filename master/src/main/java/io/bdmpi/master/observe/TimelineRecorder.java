package io.bdmpi.master.observe;

import io.bdmpi.master.session.SlaveState;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Records every slave's state intervals (for {@code --trace} and {@code --report}). Called by
 * {@link io.bdmpi.master.scheduler.Scheduler#transition} on the scheduler thread, which owns it until {@link #jobEnded}.
 *
 * <p>Bounded memory however long the job: each interval is a fixed {@value #RECORD_BYTES}-byte
 * record in a 64 KiB buffer; a full buffer is handed to a writer thread that appends it to a spool
 * file in the job's work directory (so the scheduler thread never waits for the disk), and the
 * outputs are streamed from that file at the end. What stays in memory is one buffer or two and the
 * table of distinct blocking calls (operation, peer, tag, communicator: as many as the program
 * uses). Disk use is {@value #RECORD_BYTES} bytes per
 * interval (a million state changes: 26 MB), removed with the work directory.
 */
public final class TimelineRecorder implements JobTimeline, AutoCloseable {

    /** world rank (int), state (byte), start and end (long ns since the job's start), call id (int), reserved (byte). */
    static final int RECORD_BYTES = 4 + 1 + 8 + 8 + 4 + 1;
    private static final int BUFFER_BYTES = 64 * 1024;
    private static final SlaveState[] STATES = SlaveState.values();
    /** Where the deadlock-report text of a blocked collective starts listing the ranks it waits for. */
    private static final String COLLECTIVE_WAITS_FOR = ", which ranks";

    private final Path spool;
    private final FileChannel channel;
    private final ExecutorService writer;
    private final long startNs;
    private final int node;
    private final int[] worldRanks;
    private final SlaveState[] state;
    private final long[] sinceNs;
    private final int[] callOf;
    private final Map<String, Integer> callIds = new HashMap<>();
    private final List<String> calls = new ArrayList<>();
    private ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
    private volatile IOException writeFailure;
    private boolean ended;
    private long endNs;
    private long intervals;

    /**
     * @param spool      the file to append records to (in the work directory)
     * @param node       the node whose slaves these are
     * @param worldRanks the world rank of each of its slaves, by local index; all STARTING at {@code startNs}
     */
    public TimelineRecorder(Path spool, int node, int[] worldRanks, long startNs) throws IOException {
        int slaves = worldRanks.length;
        this.spool = spool;
        this.channel = FileChannel.open(spool, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "bdmpi-timeline-writer");
            t.setDaemon(true);
            return t;
        });
        this.startNs = startNs;
        this.node = node;
        this.worldRanks = worldRanks.clone();
        this.state = new SlaveState[slaves];
        this.sinceNs = new long[slaves];
        this.callOf = new int[slaves];
        Arrays.fill(state, SlaveState.STARTING);
        Arrays.fill(sinceNs, startNs);
        calls.add(null); // id 0: no call
    }

    /**
     * A slave changed state at {@code nowNs}: its interval in the old state ends.
     *
     * @param slave the slave's local index on this node
     *
     * @param waitingFor what it is blocked in, asked only when {@code to} is a blocked state or
     *                   RUNNABLE; for RUNNABLE, why it gave its slot up (a vain poll, the
     *                   quantum), or null when it was woken
     */
    public void transition(int slave, SlaveState to, long nowNs, Supplier<String> waitingFor) {
        if (ended) {
            return;
        }
        close(slave, nowNs);
        state[slave] = to;
        sinceNs[slave] = nowNs;
        String call = to.isBlocked() || to == SlaveState.RUNNABLE ? waitingFor.get() : null;
        callOf[slave] = call == null ? 0 : callId(call);
    }

    /** The job ended at {@code nowNs}: the open intervals end there, and nothing more is recorded. */
    public void jobEnded(long nowNs) {
        if (ended) {
            return;
        }
        for (int slave = 0; slave < state.length; slave++) {
            if (state[slave] != SlaveState.EXITED) {
                close(slave, nowNs);
            }
        }
        ended = true;
        endNs = nowNs - startNs;
        ByteBuffer last = buffer;
        buffer = null;
        writer.execute(() -> append(last));
    }

    /** Job length (ns) as recorded; valid after {@link #jobEnded}. */
    @Override
    public long durationNs() {
        return endNs;
    }

    /** This node's slaves, one track. */
    @Override
    public List<Track> tracks() {
        return List.of(new Track(node, null, worldRanks.clone(), null));
    }

    /** Intervals recorded. */
    @Override
    public long intervals() {
        return intervals;
    }

    /** The clock reading (this master's {@link System#nanoTime}) the recorded times count from. */
    long startNs() {
        return startNs;
    }

    /** The table of calls, by id (0: none). */
    List<String> calls() {
        return calls;
    }

    /**
     * Streams every interval to {@code sink}. Call after {@link #jobEnded} (on any thread that
     * saw it happen, e.g. through the stats future).
     *
     * @throws IOException if the spool could not be written or read
     */
    @Override
    public void forEach(IntervalSink sink) throws IOException {
        if (!ended) {
            throw new IllegalStateException("the job has not ended");
        }
        awaitWriter();
        if (writeFailure != null) {
            throw writeFailure;
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(spool), BUFFER_BYTES))) {
            while (true) {
                int rank;
                try {
                    rank = in.readInt();
                } catch (EOFException end) {
                    return;
                }
                SlaveState s = STATES[in.readByte()];
                long start = in.readLong();
                long end = in.readLong();
                String call = calls.get(in.readInt());
                in.readByte();
                sink.accept(new Interval(node, rank, s, start, end, call));
            }
        }
    }

    private void close(int slave, long nowNs) {
        if (buffer.remaining() < RECORD_BYTES) {
            ByteBuffer full = buffer;
            buffer = ByteBuffer.allocate(BUFFER_BYTES);
            writer.execute(() -> append(full));
        }
        buffer.putInt(worldRanks[slave]).put((byte) state[slave].ordinal()).putLong(sinceNs[slave] - startNs)
                .putLong(nowNs - startNs).putInt(callOf[slave]).put((byte) 0);
        intervals++;
    }

    /**
     * The id of a call's text, without the ranks a collective still waited for: those change at
     * every arrival and would make the table grow with the job's length.
     */
    private int callId(String description) {
        int which = description.indexOf(COLLECTIVE_WAITS_FOR);
        String call = which < 0 ? description : description.substring(0, which);
        return callIds.computeIfAbsent(call, c -> {
            calls.add(c);
            return calls.size() - 1;
        });
    }

    /** On the writer thread. */
    private void append(ByteBuffer full) {
        if (writeFailure != null) {
            return;
        }
        full.flip();
        try {
            while (full.hasRemaining()) {
                channel.write(full);
            }
        } catch (IOException e) {
            writeFailure = e;
        }
    }

    private void awaitWriter() throws IOException {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IOException("the timeline writer did not finish within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while finishing the timeline", e);
        }
    }

    @Override
    public void close() throws IOException {
        writer.shutdownNow();
        channel.close();
    }
}
