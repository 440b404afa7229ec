package io.bdmpi.master.observe;

import io.bdmpi.master.session.SlaveState;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --report FILE.html}: one self-contained page (inline CSS and SVG, no script, nothing
 * fetched) showing at a glance where the time went: every slave's states over time as an SVG
 * timeline, the key statistics, and a hint on whether {@code -nr} looked right. With several nodes
 * ({@link TimelineParts}) the summary holds the job's totals, a table has one row per node, and the
 * timeline's rows are grouped under each node's name; a node without data says why.
 *
 * <p>The timeline has a fixed number of columns ({@value #COLUMNS}); each column of a slave shows
 * the state it spent most of that slice of time in, so the page stays small however long the job
 * and however many state changes (the exact intervals are in {@code --trace}). Building it takes
 * about 22 KB of memory per slave (800 columns of 7 state times), once, after the job: it is meant
 * for up to a few thousand slaves per node.
 */
final class HtmlReport {

    static final int COLUMNS = 800;
    private static final int LABEL_WIDTH = 64;
    private static final int ROW_HEIGHT = 14;
    private static final int ROW_GAP = 3;
    private static final int AXIS_HEIGHT = 28;
    /** Share of slave time spent RUNNABLE above which more -nr is suggested. */
    private static final double RUNNABLE_HINT_SHARE = 0.25;

    /** Colour of each state; EXITED has none (nothing is drawn after a slave's end). */
    static final Map<SlaveState, String> COLOURS = new EnumMap<>(Map.of(
            SlaveState.STARTING, "#b0b0b0",
            SlaveState.RUNNABLE, "#f0b429",
            SlaveState.RUNNING, "#2f9e44",
            SlaveState.RBLOCKED, "#3b6fd8",
            SlaveState.CBLOCKED, "#9c5bd8",
            SlaveState.FINALIZED, "#dedede"));

    private static final Map<SlaveState, String> MEANING = new EnumMap<>(Map.of(
            SlaveState.STARTING, "starting (JVM start-up until MPI.Init)",
            SlaveState.RUNNABLE, "runnable (waiting for a running slot)",
            SlaveState.RUNNING, "running",
            SlaveState.RBLOCKED, "blocked in a receive, probe or wait",
            SlaveState.CBLOCKED, "blocked in a collective",
            SlaveState.FINALIZED, "finalized"));

    private HtmlReport() {
    }

    static void write(JobTimeline timeline, JobStats stats, Path file) throws IOException {
        List<JobTimeline.Track> tracks = timeline.tracks();
        Map<Integer, Integer> rowOf = new HashMap<>();
        for (JobTimeline.Track t : tracks) {
            for (int rank : t.ranks()) {
                rowOf.put(rank, rowOf.size());
            }
        }
        double duration = Math.max(1, timeline.durationNs());
        float[][][] time = new float[rowOf.size()][COLUMNS][SlaveState.values().length];
        timeline.forEach(i -> spread(time[rowOf.get(i.rank())], i, duration));
        boolean several = tracks.size() > 1;
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            JobStats.Node node = several ? stats.total() : stats.nodes().get(0);
            w.write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>bdmpiexec report</title>\n");
            w.write("<style>\nbody{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}\n"
                    + "h1{font-size:20px;margin:0 0 12px}h2{font-size:16px;margin:24px 0 8px}\n"
                    + "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right;border-bottom:1px solid #e4e4e4}\n"
                    + "th{background:#f3f3f3}#summary td:first-child,#nodes td:nth-child(2){text-align:left;color:#555}\n"
                    + ".legend span{display:inline-block;margin-right:16px}.legend i{display:inline-block;width:12px;height:12px;"
                    + "margin-right:5px;vertical-align:-1px}\n.hint{background:#fff8e1;border-left:4px solid #f0b429;padding:8px 12px;max-width:900px}\n"
                    + ".failed{color:#b00020}\nsvg text{font:11px system-ui,sans-serif;fill:#333}\nsvg text.node{font-weight:bold}\n"
                    + "svg text.failed{fill:#b00020}\n</style></head><body>\n");
            w.write("<h1>bdmpiexec report</h1>\n");
            summary(w, stats, node, tracks.size());
            w.write("<p class=\"hint\" id=\"hint\">" + escape(hint(stats, node)) + "</p>\n");
            if (several) {
                w.write("<h2>Nodes</h2>\n");
                nodeTable(w, stats, tracks);
            }
            w.write("<h2>Timeline</h2>\n<div class=\"legend\">");
            for (Map.Entry<SlaveState, String> e : COLOURS.entrySet()) {
                w.write("<span><i style=\"background:" + e.getValue() + "\"></i>" + escape(MEANING.get(e.getKey())) + "</span>");
            }
            w.write("</div>\n");
            timelineSvg(w, time, tracks, several, timeline.durationNs());
            w.write("<h2>Slaves</h2>\n");
            slaveTable(w, stats);
            w.write("</body></html>\n");
        }
    }

    /** Adds an interval's time to the columns it overlaps. */
    private static void spread(float[][] columns, JobTimeline.Interval i, double duration) {
        double perColumn = duration / COLUMNS;
        int s = i.state().ordinal();
        int first = (int) Math.min(COLUMNS - 1, i.startNs() / perColumn);
        int last = (int) Math.min(COLUMNS - 1, i.endNs() / perColumn);
        for (int c = first; c <= last; c++) {
            double from = Math.max(i.startNs(), c * perColumn);
            double to = Math.min(i.endNs(), (c + 1) * perColumn);
            if (to > from) {
                columns[c][s] += (float) (to - from);
            }
        }
    }

    /** The job's key numbers; with several nodes, summed over them. */
    private static void summary(Writer w, JobStats stats, JobStats.Node node, int nodes) throws IOException {
        String all = nodes > 1 ? ", all nodes" : "";
        w.write("<table id=\"summary\">\n");
        row(w, "wall", "Wall time", seconds(stats.wallTimeSeconds()));
        row(w, "exit", "Exit code", Integer.toString(stats.exitCode()));
        if (stats.failure() != null) {
            w.write("<tr><td>Failure</td><td id=\"failure\" class=\"failed\">" + escape(stats.failure()) + "</td></tr>\n");
        }
        if (nodes > 1) {
            row(w, "nodecount", "Nodes (-nn)", Integer.toString(nodes));
        }
        row(w, "slaves", nodes > 1 ? "Slaves (-ns" + all + ")" : "Slaves (-ns)", Integer.toString(node.slaves()));
        row(w, "nrunning", "Running at once allowed (-nr" + all + ")", node.runningAuto()
                ? "auto, at most " + node.running() + " (" + node.nrunningChanges().size() + " changes)"
                : Integer.toString(node.running()));
        row(w, "maxrunning", "Most running at once", Integer.toString(node.maxRunning()));
        row(w, "run", "Slave time running (sum)", seconds(node.runSeconds()));
        row(w, "runnable", "Slave time runnable, waiting for a slot (sum)", seconds(node.runnableSeconds()));
        row(w, "blocked", "Slave time blocked in MPI calls (sum)", seconds(node.blockedSeconds()));
        row(w, "messages", "Messages sent", Long.toString(node.messages()));
        row(w, "inmemory", "Bytes sent through master memory", ProgressReporter.bytes(node.bytesInline()));
        row(w, "ondisk", "Bytes sent through spill files", ProgressReporter.bytes(node.bytesSpilled())
                + " (" + node.spillFiles() + " files)");
        w.write("</table>\n");
    }

    /** One row per node: its host, -ns, -nr, where its slaves' time went and its traffic; a node without data says why. */
    private static void nodeTable(Writer w, JobStats stats, List<JobTimeline.Track> tracks) throws IOException {
        w.write("<table id=\"nodes\"><tr><th>node</th><th>host</th><th>slaves</th><th>-nr</th><th>most running</th>"
                + "<th>running</th><th>runnable</th><th>blocked</th><th>messages</th><th>bytes via memory</th>"
                + "<th>bytes via disk</th></tr>\n");
        Map<Integer, JobStats.Node> byNode = new HashMap<>();
        stats.nodes().forEach(n -> byNode.put(n.node(), n));
        for (JobTimeline.Track t : tracks) {
            JobStats.Node n = byNode.get(t.node());
            String host = t.host() == null ? "" : t.host();
            w.write("<tr data-node=\"" + t.node() + "\"><td>" + t.node() + "</td><td class=\"host\">" + escape(host) + "</td>");
            if (n == null || t.missing() != null) {
                w.write("<td colspan=\"9\" class=\"failed missing\">no data: " + escape(t.missing() == null ? "no statistics"
                        : t.missing()) + "</td></tr>\n");
                continue;
            }
            w.write("<td>" + n.slaves() + "</td><td>" + (n.runningAuto() ? "auto, at most " + n.running() : n.running())
                    + "</td><td class=\"maxrunning\">" + n.maxRunning() + "</td><td class=\"run\">" + seconds(n.runSeconds())
                    + "</td><td class=\"runnable\">" + seconds(n.runnableSeconds()) + "</td><td class=\"blocked\">"
                    + seconds(n.blockedSeconds()) + "</td><td>" + n.messages() + "</td><td>" + ProgressReporter.bytes(n.bytesInline())
                    + "</td><td>" + ProgressReporter.bytes(n.bytesSpilled()) + "</td></tr>\n");
        }
        w.write("</table>\n");
    }

    private static void row(Writer w, String id, String label, String value) throws IOException {
        w.write("<tr><td>" + escape(label) + "</td><td id=\"" + id + "\">" + escape(value) + "</td></tr>\n");
    }

    /** Whether -nr looked right, from where the slaves' time went. */
    static String hint(JobStats stats, JobStats.Node node) {
        double total = node.runSeconds() + node.runnableSeconds() + node.blockedSeconds();
        if (total <= 0) {
            return "No slave time was recorded.";
        }
        double runnableShare = node.runnableSeconds() / total;
        int cores = Runtime.getRuntime().availableProcessors();
        if (node.maxRunning() < node.running()) {
            return String.format(Locale.ROOT, "At most %d of the %d allowed slaves ever ran at once: -nr %d would have "
                    + "done the same with less memory.", node.maxRunning(), node.running(), node.maxRunning());
        }
        if (runnableShare > RUNNABLE_HINT_SHARE) {
            return String.format(Locale.ROOT, "Slaves spent %.0f%% of their time runnable, waiting for one of the %d running "
                    + "slots: a larger -nr may shorten the job if memory allows (and up to the %d cores here).",
                    100 * runnableShare, node.running(), cores);
        }
        if (node.blockedSeconds() > node.runSeconds()) {
            return String.format(Locale.ROOT, "Slaves spent most of their time (%.0f%%) blocked in MPI calls, waiting for "
                    + "each other: the job is bound by communication and synchronisation; more -nr would help little.",
                    100 * node.blockedSeconds() / total);
        }
        return String.format(Locale.ROOT, "-nr %d looks right: slaves waited for a running slot only %.0f%% of their time.",
                node.running(), 100 * runnableShare);
    }

    /** One row per slave, grouped by node under a node's label when there are several; a node without data says why. */
    private static void timelineSvg(Writer w, float[][][] time, List<JobTimeline.Track> tracks, boolean labelNodes,
                                    long durationNs) throws IOException {
        int rows = time.length + (labelNodes ? tracks.size() : 0);
        int width = LABEL_WIDTH + COLUMNS + 20;
        int height = rows * (ROW_HEIGHT + ROW_GAP) + AXIS_HEIGHT;
        w.write("<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height
                + "\" viewBox=\"0 0 " + width + " " + height + "\">\n");
        SlaveState[] states = SlaveState.values();
        int line = 0;
        int row = 0;
        for (JobTimeline.Track track : tracks) {
            if (labelNodes) {
                int y = line++ * (ROW_HEIGHT + ROW_GAP);
                String label = track.missing() == null ? track.label() : track.label() + ": no data (" + track.missing() + ")";
                w.write("<text class=\"node" + (track.missing() == null ? "" : " failed") + "\" data-node=\"" + track.node()
                        + "\" x=\"0\" y=\"" + (y + ROW_HEIGHT - 3) + "\">" + escape(label) + "</text>\n");
            }
            for (int rank : track.ranks()) {
                int y = line++ * (ROW_HEIGHT + ROW_GAP);
                float[][] columns = time[row++];
                w.write("<g class=\"row\" data-rank=\"" + rank + "\"" + (labelNodes ? " data-node=\"" + track.node() + "\"" : "")
                        + "><text x=\"0\" y=\"" + (y + ROW_HEIGHT - 3) + "\">rank " + rank + "</text>");
                int runStart = 0;
                int runState = dominant(columns[0]);
                for (int c = 1; c <= COLUMNS; c++) {
                    int s = c < COLUMNS ? dominant(columns[c]) : -2;
                    if (s != runState) {
                        if (runState >= 0 && COLOURS.containsKey(states[runState])) {
                            w.write("<rect class=\"" + states[runState].name() + "\" x=\"" + (LABEL_WIDTH + runStart) + "\" y=\""
                                    + y + "\" width=\"" + (c - runStart) + "\" height=\"" + ROW_HEIGHT + "\" fill=\""
                                    + COLOURS.get(states[runState]) + "\"><title>rank " + rank + ": " + states[runState].name()
                                    + "</title></rect>");
                        }
                        runStart = c;
                        runState = s;
                    }
                }
                w.write("</g>\n");
            }
        }
        axis(w, rows * (ROW_HEIGHT + ROW_GAP), durationNs / 1e9);
        w.write("</svg>\n");
    }

    /** The state with most time in a column, or -1 for none (the slave had ended). */
    private static int dominant(float[] column) {
        int best = -1;
        float most = 0;
        for (int s = 0; s < column.length; s++) {
            if (column[s] > most) {
                most = column[s];
                best = s;
            }
        }
        return best;
    }

    private static void axis(Writer w, int y, double seconds) throws IOException {
        double step = niceStep(seconds / 8);
        w.write("<g id=\"axis\"><line x1=\"" + LABEL_WIDTH + "\" y1=\"" + (y + 2) + "\" x2=\"" + (LABEL_WIDTH + COLUMNS) + "\" y2=\""
                + (y + 2) + "\" stroke=\"#555\"/>");
        for (double t = 0; t <= seconds + 1e-9; t += step) {
            double x = LABEL_WIDTH + (seconds <= 0 ? 0 : t / seconds * COLUMNS);
            w.write(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\"/>"
                    + "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s s</text>",
                    x, y + 2, x, y + 7, x, y + 20, trim(t)));
        }
        w.write("</g>\n");
    }

    /** 1, 2 or 5 times a power of ten, at least {@code rough}. */
    static double niceStep(double rough) {
        if (rough <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(rough)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= rough) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String trim(double t) {
        String s = String.format(Locale.ROOT, "%.3f", t);
        return s.replaceAll("\\.?0+$", "");
    }

    private static void slaveTable(Writer w, JobStats stats) throws IOException {
        w.write("<table id=\"slaves\"><tr><th>rank</th><th>node</th><th>pid</th><th>exit</th><th>running</th><th>runnable</th>"
                + "<th>blocked</th><th>resumes</th><th>messages sent</th><th>bytes via memory</th><th>bytes via disk</th>"
                + "<th>peak RSS</th></tr>\n");
        List<JobStats.Slave> slaves = stats.slaves();
        for (JobStats.Slave s : slaves) {
            w.write("<tr data-rank=\"" + s.rank() + "\"><td>" + s.rank() + "</td><td class=\"node\">" + s.node() + "</td><td>" + s.pid() + "</td><td class=\"exit\">"
                    + s.exitCode() + "</td><td class=\"run\">" + seconds(s.runSeconds()) + "</td><td class=\"runnable\">"
                    + seconds(s.runnableSeconds()) + "</td><td class=\"blocked\">" + seconds(s.blockedSeconds())
                    + "</td><td class=\"resumes\">" + s.resumes() + "</td><td>" + s.messagesSent() + "</td><td class=\"inmemory\">"
                    + ProgressReporter.bytes(s.bytesSentInline()) + "</td><td class=\"ondisk\">"
                    + ProgressReporter.bytes(s.bytesSentSpilled()) + "</td><td>" + ProgressReporter.bytes(s.peakRssBytes())
                    + "</td></tr>\n");
        }
        w.write("</table>\n");
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f s", s);
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
