package io.bdmpi.tests.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.Phases;
import io.bdmpi.tests.support.Chromium;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --stats}, {@code --trace} and {@code --report} of a job of three nodes (masters on this
 * machine, over MPICH and over Open MPI), whose ranks work, pass small and spilled messages around a
 * ring that crosses every node, and wait in receives and barriers: bdmpiexec joins every node's
 * part into one file of each, on one clock, with one track per rank grouped by node, a per-node
 * summary and the job's total; the report renders in a real browser. Nothing of the parts is left.
 */
class SeveralNodesOutputsTest {

    private static final int NODES = 3;
    private static final int PER_NODE = 2;
    private static final int RANKS = NODES * PER_NODE;
    private static final int ROUNDS = 3;
    private static final int LARGE = 256 * 1024;
    /** Trace timestamps are microseconds with nanosecond fractions: allow rounding. */
    private static final double EPSILON_US = 0.01;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void traceReportAndStatsJoinEveryNode(MpiAbi library) throws IOException, InterruptedException {
        Path trace = dir.resolve("trace.json");
        Path report = dir.resolve("report.html");
        JobResult r = JobRunner.job(Phases.class).nodes(NODES).mpi(library).ranks(PER_NODE).running(1)
                .options("--trace", trace.toString(), "--report", report.toString())
                .args(ROUNDS, 100, LARGE).run();
        Stats stats = Expect.successfulRun(r, NODES, PER_NODE, 1);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of("report.html", "trace.json"), left.map(p -> p.getFileName().toString()).sorted().toList(),
                    "the nodes' parts are joined and removed");
        }
        assertEquals(RANKS, stats.total().slaves());
        assertEquals((long) RANKS * 2 * ROUNDS, stats.total().messages(), "every rank sends two messages a round");
        assertEquals((long) RANKS * ROUNDS * LARGE, stats.total().bytesSpilled());

        checkTrace(trace, stats);
        checkReport(report, stats);
    }

    /** One process per node named with its host, one track per rank under its node, intervals that tile each rank's life. */
    private static void checkTrace(Path trace, Stats stats) throws IOException {
        String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        JsonNode root = new ObjectMapper().readTree(trace.toFile());
        Map<Integer, String> processNames = new HashMap<>();
        Map<Integer, Integer> nodeOfTrack = new HashMap<>();
        Map<Integer, List<JsonNode>> byRank = new HashMap<>();
        for (JsonNode e : root.get("traceEvents")) {
            String ph = e.get("ph").asText();
            if (ph.equals("M") && e.get("name").asText().equals("process_name")) {
                processNames.put(e.get("pid").asInt(), e.get("args").get("name").asText());
            } else if (ph.equals("M") && e.get("name").asText().equals("thread_name")) {
                assertEquals("rank " + e.get("tid").asInt(), e.get("args").get("name").asText());
                nodeOfTrack.put(e.get("tid").asInt(), e.get("pid").asInt());
            } else if (ph.equals("X")) {
                int rank = e.get("tid").asInt();
                assertEquals(rank / PER_NODE, e.get("pid").asInt(), "rank " + rank + "'s intervals are under its node: " + e);
                byRank.computeIfAbsent(rank, k -> new ArrayList<>()).add(e);
            }
        }
        for (int n = 0; n < NODES; n++) {
            assertEquals("node " + n + " (host " + host + ")", processNames.get(n), "process of node " + n);
        }
        for (int rank = 0; rank < RANKS; rank++) {
            assertEquals(rank / PER_NODE, nodeOfTrack.get(rank), "track of rank " + rank + " under its node");
        }
        double end = 0;
        double firstStart = Double.MAX_VALUE;
        for (int rank = 0; rank < RANKS; rank++) {
            List<JsonNode> events = byRank.get(rank);
            events.sort(Comparator.comparingDouble(e -> e.get("ts").asDouble()));
            assertEquals("STARTING", events.get(0).get("cat").asText());
            assertEquals("FINALIZED", events.get(events.size() - 1).get("cat").asText());
            double at = events.get(0).get("ts").asDouble();
            assertTrue(at >= -EPSILON_US, "rank " + rank + " starts at " + at + " us, before the job");
            firstStart = Math.min(firstStart, at);
            double runUs = 0;
            int running = 0;
            for (JsonNode e : events) {
                assertEquals(at, e.get("ts").asDouble(), EPSILON_US, "rank " + rank + ": gap or overlap before " + e);
                at += e.get("dur").asDouble();
                if (e.get("cat").asText().equals("RUNNING")) {
                    runUs += e.get("dur").asDouble();
                    running++;
                }
            }
            end = Math.max(end, at);
            assertEquals(stats.rank(rank).resumes(), running, "rank " + rank + ": one RUNNING interval per resume");
            assertEquals(stats.rank(rank).runSeconds() * 1e6, runUs, 10, "RUNNING intervals of rank " + rank + " sum to its run time");
        }
        assertEquals(0, firstStart, EPSILON_US, "the job's clock starts with the earliest node");
        // Every node's master started within a few seconds of the others: their clocks were joined, not left apart.
        assertTrue(end < (stats.wallTimeSeconds() + 10) * 1e6, "the joined timeline ends at " + end + " us, wall time "
                + stats.wallTimeSeconds() + " s");
        assertEquals(RANKS, byRank.size(), "one track of intervals per rank");
    }

    /** Rows per rank grouped under node labels, a per-node table that agrees with the statistics, and pixels. */
    private void checkReport(Path report, Stats stats) throws IOException, InterruptedException {
        String html = Files.readString(report, StandardCharsets.UTF_8);
        assertFalse(html.contains("<script"), "the report must need no script");
        Path scratch = Files.createDirectories(dir.resolve("chromium"));
        String dom = Chromium.dumpDom(report, scratch);
        assertEquals(RANKS, count(dom, "<g class=\"row\" data-rank=\""), "one timeline row per rank");
        int lastY = -1;
        for (int rank = 0; rank < RANKS; rank++) {
            Matcher row = Pattern.compile("<g class=\"row\" data-rank=\"" + rank + "\" data-node=\"" + rank / PER_NODE
                    + "\"><text x=\"0\" y=\"(\\d+)\"").matcher(dom);
            assertTrue(row.find(), "row of rank " + rank + " under node " + rank / PER_NODE);
            int y = Integer.parseInt(row.group(1));
            assertTrue(y > lastY, "rows in rank order");
            lastY = y;
        }
        for (int n = 0; n < NODES; n++) {
            assertTrue(Pattern.compile("<text class=\"node\" data-node=\"" + n + "\" x=\"0\" y=\"\\d+\">node " + n
                    + " \\(host [^)]+\\)</text>").matcher(dom).find(), "label of node " + n);
            Matcher nodeRow = Pattern.compile("<tr data-node=\"" + n + "\"><td>" + n + "</td><td class=\"host\">[^<]+</td>"
                    + "<td>" + PER_NODE + "</td><td>1</td><td class=\"maxrunning\">1</td><td class=\"run\">([\\d.]+) s</td>")
                    .matcher(dom);
            assertTrue(nodeRow.find(), "summary row of node " + n);
            assertEquals(stats.nodes().get(n).runSeconds(), Double.parseDouble(nodeRow.group(1)), 0.0006);
        }
        assertTrue(dom.contains("<td id=\"nodecount\">" + NODES + "</td>"), "-nn in the summary");
        assertTrue(dom.contains("<td id=\"slaves\">" + RANKS + "</td>"), "all slaves in the summary");
        assertTrue(dom.contains("<td id=\"ondisk\">" + String.format(java.util.Locale.ROOT, "%.1f MiB",
                RANKS * ROUNDS * LARGE / 1048576.0)), "bytes through spill files, all nodes");
        for (int rank = 0; rank < RANKS; rank++) {
            assertTrue(Pattern.compile("<tr data-rank=\"" + rank + "\"><td>" + rank + "</td><td class=\"node\">" + rank / PER_NODE
                    + "</td>").matcher(dom).find(), "statistics row of rank " + rank + " names its node");
        }
        Path png = scratch.resolve("report.png");
        Chromium.screenshot(report, png, 1100, 1400, scratch);
        java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(png.toFile());
        boolean green = false;
        for (int y = 0; y < image.getHeight() && !green; y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                green |= (image.getRGB(x, y) & 0xffffff) == 0x2f9e44;
            }
        }
        assertTrue(green, "no RUNNING bar (#2f9e44) visible in the screenshot " + png);
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
