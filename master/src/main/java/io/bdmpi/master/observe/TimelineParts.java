package io.bdmpi.master.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.bdmpi.master.session.SlaveState;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The timelines of a job of several nodes, joined: each master writes its part next to the output
 * ({@link #writePart}), and bdmpiexec joins them into one {@code --trace} and one {@code --report}
 * ({@link #join}), as it joins the statistics.
 *
 * <p>Clocks: each master measured, when it connected to bdmpiexec, the offset of bdmpiexec's
 * clock to its own (see {@code io.bdmpi.master.control.LauncherLink#clockOffsetNanos}) and writes
 * its start on bdmpiexec's clock; the join puts every node on that one clock and counts from the
 * earliest start. Masters on one machine share a clock (the offset is then what it measured, a
 * few microseconds off at most); on several hosts the error is at most half the round trip of the
 * best of the probes.
 *
 * <p>A part: magic, node, host, start (ns, bdmpiexec's clock), length (ns), intervals, the node's
 * statistics (JSON), its slaves' world ranks, its table of calls, then the intervals as
 * {@link TimelineRecorder} spools them, with world ranks.
 */
public final class TimelineParts implements JobTimeline {

    private static final int MAGIC = 0x42544c31;
    private static final SlaveState[] STATES = SlaveState.values();

    /** What a part's header says. */
    private record Part(int node, String host, long startNs, long durationNs, long intervals, JobStats stats, int[] ranks,
                        List<String> calls, Path file) {
    }

    private final List<Track> tracks;
    private final List<Part> parts;
    private final long originNs;
    private final long durationNs;

    private TimelineParts(List<Track> tracks, List<Part> parts) {
        this.tracks = tracks;
        this.parts = parts;
        this.originNs = parts.stream().mapToLong(Part::startNs).min().orElse(0);
        this.durationNs = parts.stream().mapToLong(p -> p.startNs() + p.durationNs()).max().orElse(0) - originNs;
    }

    /**
     * Where the master of {@code node} writes its part for {@code output} (the trace, else the report).
     *
     * @param output the joined output's path
     * @param node   the node
     * @return the part's path, next to the output
     */
    public static Path partFile(Path output, int node) {
        return output.resolveSibling(output.getFileName() + ".node" + node + ".timeline");
    }

    /**
     * Writes this node's part (master side, after the job).
     *
     * @param file          where ({@link #partFile})
     * @param timeline      the node's timeline, ended
     * @param stats         the node's statistics
     * @param host          the master's host, or null when not known
     * @param clockOffsetNs bdmpiexec's clock less this master's
     * @throws IOException if it cannot be written
     */
    static void writePart(Path file, TimelineRecorder timeline, JobStats stats, String host, long clockOffsetNs)
            throws IOException {
        byte[] json = new ObjectMapper().writeValueAsBytes(stats);
        int[] ranks = timeline.tracks().get(0).ranks();
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
            out.writeInt(MAGIC);
            out.writeInt(timeline.tracks().get(0).node());
            out.writeUTF(host == null ? "" : host);
            out.writeLong(timeline.startNs() + clockOffsetNs);
            out.writeLong(timeline.durationNs());
            out.writeLong(timeline.intervals());
            out.writeInt(json.length);
            out.write(json);
            out.writeInt(ranks.length);
            for (int r : ranks) {
                out.writeInt(r);
            }
            List<String> calls = timeline.calls();
            out.writeInt(calls.size());
            for (String c : calls) {
                out.writeUTF(c == null ? "" : c);
            }
            java.util.Map<String, Integer> ids = new java.util.HashMap<>();
            for (int id = 1; id < calls.size(); id++) {
                ids.put(calls.get(id), id);
            }
            timeline.forEach(i -> {
                out.writeInt(i.rank());
                out.writeByte(i.state().ordinal());
                out.writeLong(i.startNs());
                out.writeLong(i.endNs());
                out.writeInt(i.call() == null ? 0 : ids.get(i.call()));
            });
        }
    }

    /**
     * Joins the nodes' parts into {@code trace} and {@code report} (either may be null) and removes
     * the parts. A node without a readable part (its master was lost) keeps a track that says so.
     * So does the lost node whatever it wrote ({@link JobStats#partOfTheRecord}).
     *
     * @param trace    --trace, or null
     * @param report   --report, or null
     * @param nodes    -nn
     * @param exitCode the job's exit code, as bdmpiexec saw it
     * @param failure  bdmpiexec's own reason for the failure (a lost node), which comes first; or null
     * @param lostNode the node bdmpiexec named lost, or {@link JobStats#NO_LOST_NODE}
     * @throws IOException if a part cannot be read or an output written
     */
    public static void join(Path trace, Path report, int nodes, int exitCode, String failure, int lostNode)
            throws IOException {
        Path output = trace != null ? trace : report;
        List<Track> tracks = new ArrayList<>();
        List<Part> parts = new ArrayList<>();
        List<JobStats> stats = new ArrayList<>();
        List<Integer> missing = new ArrayList<>();
        try {
            for (int n = 0; n < nodes; n++) {
                Path file = partFile(output, n);
                Part p = null;
                String why = n == lostNode ? failure : "its master ended without writing its timeline";
                try {
                    p = JobStats.partOfTheRecord(file, n, lostNode) ? readHeader(file, null) : null;
                } catch (IOException unreadable) {
                    why = "its timeline is unreadable (its master was ended while writing it)";
                }
                if (p == null) {
                    missing.add(n);
                    tracks.add(new Track(n, null, new int[0], why));
                    continue;
                }
                parts.add(p);
                stats.add(p.stats());
                tracks.add(new Track(n, p.host(), p.ranks(), null));
            }
            TimelineParts joined = new TimelineParts(tracks, parts);
            if (trace != null) {
                TraceWriter.write(joined, trace);
            }
            if (report != null) {
                HtmlReport.write(joined, JobStats.join(stats, missing, exitCode, failure), report);
            }
        } finally {
            for (int n = 0; n < nodes; n++) {
                Files.deleteIfExists(partFile(output, n));
            }
        }
    }

    /** Reads a part's header; with {@code in}, from that stream (left at the first interval). */
    private static Part readHeader(Path file, DataInputStream in) throws IOException {
        if (in == null) {
            try (DataInputStream own = open(file)) {
                return readHeader(file, own);
            }
        }
        if (in.readInt() != MAGIC) {
            throw new IOException(file + " is not a timeline part");
        }
        int node = in.readInt();
        String host = in.readUTF();
        host = host.isEmpty() ? null : host;
        long start = in.readLong();
        long duration = in.readLong();
        long intervals = in.readLong();
        byte[] json = new byte[in.readInt()];
        in.readFully(json);
        int[] ranks = new int[in.readInt()];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = in.readInt();
        }
        int count = in.readInt();
        List<String> calls = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String c = in.readUTF();
            calls.add(i == 0 ? null : c);
        }
        return new Part(node, host, start, duration, intervals, new ObjectMapper().readValue(json, JobStats.class), ranks, calls,
                file);
    }

    private static DataInputStream open(Path file) throws IOException {
        return new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
    }

    @Override
    public List<Track> tracks() {
        return tracks;
    }

    @Override
    public long durationNs() {
        return durationNs;
    }

    @Override
    public long intervals() {
        return parts.stream().mapToLong(Part::intervals).sum();
    }

    /** Node by node, each interval moved onto the job's clock. */
    @Override
    public void forEach(IntervalSink sink) throws IOException {
        for (Part p : parts) {
            long shift = p.startNs() - originNs;
            try (DataInputStream in = open(p.file())) {
                readHeader(p.file(), in);
                while (true) {
                    Interval i;
                    try {
                        int rank = in.readInt();
                        SlaveState s = STATES[in.readByte()];
                        long start = in.readLong();
                        long end = in.readLong();
                        i = new Interval(p.node(), rank, s, start + shift, end + shift, p.calls().get(in.readInt()));
                    } catch (EOFException end) {
                        break; // the end, or a part cut short when its master was ended: what came whole counts
                    }
                    sink.accept(i);
                }
            }
        }
    }
}
