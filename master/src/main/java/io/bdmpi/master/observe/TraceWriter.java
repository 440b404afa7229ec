package io.bdmpi.master.observe;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes a {@link JobTimeline}'s intervals as a Chrome trace-event JSON file ({@code --trace}),
 * which Perfetto (ui.perfetto.dev) and chrome://tracing open: one process per node ({@code pid} =
 * node, named "node N" or "node N (host H)"; a node without data says why), one track per slave
 * ({@code tid} = world rank, named "rank R"), one complete event ({@code "ph":"X"}) per interval,
 * named after the state, or for a blocked slave after the MPI call it waits in. Timestamps are
 * microseconds since the job's start. Streamed: memory does not grow with the length of the job.
 */
final class TraceWriter {

    private static final String WAITING_FOR = "waiting for ";

    private TraceWriter() {
    }

    static void write(JobTimeline timeline, Path file) throws IOException {
        try (JsonGenerator g = new JsonFactory().createGenerator(file.toFile(), JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("displayTimeUnit", "ms");
            g.writeArrayFieldStart("traceEvents");
            for (JobTimeline.Track track : timeline.tracks()) {
                int node = track.node();
                metadata(g, "process_name", node, -1, track.missing() == null ? track.label()
                        : track.label() + ": no data (" + track.missing() + ")");
                metadata(g, "process_sort_index", node, -1, null);
                for (int rank : track.ranks()) {
                    metadata(g, "thread_name", node, rank, "rank " + rank);
                    metadata(g, "thread_sort_index", node, rank, null);
                }
            }
            timeline.forEach(i -> {
                g.writeStartObject();
                g.writeStringField("name", name(i));
                g.writeStringField("cat", i.state().name());
                g.writeStringField("ph", "X");
                g.writeNumberField("ts", i.startNs() / 1e3);
                g.writeNumberField("dur", (i.endNs() - i.startNs()) / 1e3);
                g.writeNumberField("pid", i.node());
                g.writeNumberField("tid", i.rank());
                g.writeObjectFieldStart("args");
                g.writeStringField("state", i.state().name());
                if (i.call() != null) {
                    g.writeStringField("call", i.call());
                }
                g.writeEndObject();
                g.writeEndObject();
            });
            g.writeEndArray();
            g.writeObjectFieldStart("otherData");
            g.writeStringField("producer", "bdmpiexec");
            g.writeNumberField("intervals", timeline.intervals());
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    /**
     * A blocked interval is named after its call ("receive(source=1, tag=7, comm=COMM_WORLD)",
     * "MPI_Barrier() on COMM_WORLD"), others after the state.
     */
    static String name(JobTimeline.Interval i) {
        if (i.call() == null) {
            return i.state().name();
        }
        return i.call().startsWith(WAITING_FOR) ? i.call().substring(WAITING_FOR.length()) : i.call();
    }

    private static void metadata(JsonGenerator g, String name, int pid, int tid, String value) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("ph", "M");
        g.writeNumberField("pid", pid);
        if (tid >= 0) {
            g.writeNumberField("tid", tid);
        }
        g.writeObjectFieldStart("args");
        if (value != null) {
            g.writeStringField("name", value);
        } else {
            g.writeNumberField("sort_index", tid >= 0 ? tid : pid);
        }
        g.writeEndObject();
        g.writeEndObject();
    }
}
