package io.bdmpi.master.observe;

import io.bdmpi.master.config.MasterContext;

import java.io.IOException;

/** The outputs made from a job's timeline once it has ended: {@code --trace} and {@code --report}. */
public final class TimelineOutputs {

    private TimelineOutputs() {
    }

    /**
     * Writes --trace and --report, if asked for, from the timeline the scheduler recorded; call
     * after the statistics were taken (which closes the timeline). Problems are reported on stderr:
     * the job's own outcome stands.
     */
    public static void write(MasterContext context, TimelineRecorder timeline, JobStats stats) {
        if (timeline == null) {
            return;
        }
        if (stats == null) {
            System.err.println("bdmpiexec: no timeline to write (the scheduler did not finish)");
            return;
        }
        if (context.traceFile() != null) {
            try {
                TraceWriter.write(timeline, 0, context.traceFile());
            } catch (IOException e) {
                System.err.println("bdmpiexec: cannot write the trace to " + context.traceFile() + ": " + e.getMessage());
            }
        }
        if (context.reportFile() != null) {
            try {
                HtmlReport.write(timeline, stats, context.reportFile());
            } catch (IOException e) {
                System.err.println("bdmpiexec: cannot write the report to " + context.reportFile() + ": " + e.getMessage());
            }
        }
    }
}
