package io.bdmpi.master.observe;

import io.bdmpi.master.config.MasterContext;

import java.io.IOException;
import java.nio.file.Path;

/** The outputs made from a job's timeline once it has ended: {@code --trace} and {@code --report}. */
public final class TimelineOutputs {

    private TimelineOutputs() {
    }

    /**
     * Writes --trace and --report, if asked for, from the timeline the scheduler recorded; call
     * after the statistics were taken (which closes the timeline). On several nodes, writes this
     * node's part instead, which bdmpiexec joins ({@link TimelineParts}). Problems are reported on
     * stderr.
     *
     * @param node          this master's node
     * @param host          its host (several nodes)
     * @param clockOffsetNs bdmpiexec's clock less this master's (several nodes)
     * @return false if an output asked for was not written
     */
    public static boolean write(MasterContext context, TimelineRecorder timeline, JobStats stats, int node, String host,
                             long clockOffsetNs) {
        if (timeline == null) {
            return true;
        }
        if (stats == null) {
            System.err.println("bdmpiexec: no timeline to write (the scheduler did not finish)");
            return false;
        }
        if (context.nodes() > 1) {
            Path part = TimelineParts.partFile(context.traceFile() != null ? context.traceFile() : context.reportFile(), node);
            try {
                TimelineParts.writePart(part, timeline, stats, host, clockOffsetNs);
                return true;
            } catch (IOException e) {
                System.err.println("bdmpiexec: cannot write this node's timeline to " + part + ": " + why(e));
                return false;
            }
        }
        boolean written = true;
        if (context.traceFile() != null) {
            try {
                TraceWriter.write(timeline, context.traceFile());
            } catch (IOException e) {
                System.err.println("bdmpiexec: cannot write the trace to " + context.traceFile() + ": " + why(e));
                written = false;
            }
        }
        if (context.reportFile() != null) {
            try {
                HtmlReport.write(timeline, stats, context.reportFile());
            } catch (IOException e) {
                System.err.println("bdmpiexec: cannot write the report to " + context.reportFile() + ": " + why(e));
                written = false;
            }
        }
        return written;
    }

    /** What went wrong: the file system's words ({@code NoSuchFileException}'s message is only the path). */
    private static String why(IOException e) {
        return e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
                : e instanceof java.nio.file.NoSuchFileException ? "no such file or directory" : e.getMessage();
    }
}
