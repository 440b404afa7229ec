package io.bdmpi.tests.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bdmpi.tests.programs.Phases;
import io.bdmpi.tests.support.Chromium;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One real job (ranks that work, exchange small and spilled messages, and wait in receives and
 * barriers) with {@code --stats}, {@code --trace} and {@code --report}; each test checks one output.
 */
class AfterTheRunTest {

    private static final int RANKS = 4;
    private static final int RUNNING = 2;
    private static final int ROUNDS = 4;
    private static final int LARGE = 256 * 1024;
    /** Trace timestamps are microseconds with nanosecond fractions: allow rounding. */
    private static final double EPSILON_US = 0.01;

    @TempDir
    static Path dir;

    private static JobResult result;
    private static Stats stats;
    private static Path trace;
    private static Path report;

    @BeforeAll
    static void runJob() {
        trace = dir.resolve("trace.json");
        report = dir.resolve("report.html");
        result = JobRunner.job(Phases.class).ranks(RANKS).running(RUNNING)
                .options("--trace", trace.toString(), "--report", report.toString())
                .args(ROUNDS, 150, LARGE).run();
        stats = Expect.successfulRun(result, RANKS, RUNNING);
    }

    @Test
    void statsPerSlaveAndNodeSums() {
        Stats.Node node = stats.node0();
        assertEquals(RUNNING, node.maxRunning(), "4 ranks, -nr 2, all working at first: 2 ran at once");
        double run = 0, blocked = 0, runnable = 0;
        long resumes = 0, rss = 0, spilled = 0, inline = 0;
        for (Stats.Slave s : stats.slaves()) {
            assertEquals(2L * ROUNDS, s.messagesSent(), result::describe);
            assertEquals((long) ROUNDS * LARGE, s.bytesSentSpilled(), "large messages go through spill files");
            assertEquals(ROUNDS * 1024L, s.bytesSentInline(), "small messages stay in memory");
            assertTrue(s.resumes() >= 1, s.toString());
            assertTrue(s.runSeconds() >= ROUNDS * 0.150 - 0.01, "each round works 150 ms: " + s);
            assertTrue(s.runSeconds() + s.blockedSeconds() + s.runnableSeconds() <= stats.wallTimeSeconds() + 1e-6, s.toString());
            assertTrue(s.peakRssBytes() > 1 << 20, "peak RSS of a JVM: " + s);
            run += s.runSeconds();
            blocked += s.blockedSeconds();
            runnable += s.runnableSeconds();
            resumes += s.resumes();
            rss += s.peakRssBytes();
            spilled += s.bytesSentSpilled();
            inline += s.bytesSentInline();
        }
        assertEquals(run, node.runSeconds(), 1e-6);
        assertEquals(blocked, node.blockedSeconds(), 1e-6);
        assertEquals(runnable, node.runnableSeconds(), 1e-6);
        assertEquals(resumes, node.resumes());
        assertTrue(resumes >= RANKS + ROUNDS * (RANKS - 1), "every barrier parks all ranks but the last: " + resumes);
        assertEquals(rss, node.peakRssBytes());
        assertEquals(spilled, node.bytesSpilled());
        assertEquals(inline, node.bytesInline());
        assertEquals((long) RANKS * ROUNDS, node.spillFiles());
    }

    @Test
    void traceHasConsistentIntervalsPerRank() throws IOException {
        JsonNode root = new ObjectMapper().readTree(trace.toFile());
        Set<Integer> named = new HashSet<>();
        List<List<JsonNode>> byRank = new ArrayList<>();
        for (int r = 0; r < RANKS; r++) {
            byRank.add(new ArrayList<>());
        }
        for (JsonNode e : root.get("traceEvents")) {
            if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name")) {
                assertEquals("rank " + e.get("tid").asInt(), e.get("args").get("name").asText());
                named.add(e.get("tid").asInt());
            } else if (e.get("ph").asText().equals("X")) {
                assertEquals(0, e.get("pid").asInt(), "pid is the node");
                byRank.get(e.get("tid").asInt()).add(e);
            }
        }
        assertEquals(Set.of(0, 1, 2, 3), named, "one named track per rank");
        double end = stats.wallTimeSeconds() * 1e6;
        double lastExit = 0;
        int receiveBlocks = 0;
        int barrierBlocks = 0;
        for (int rank = 0; rank < RANKS; rank++) {
            List<JsonNode> events = byRank.get(rank);
            events.sort(Comparator.comparingDouble(e -> e.get("ts").asDouble()));
            assertEquals("STARTING", events.get(0).get("cat").asText());
            assertEquals(0, events.get(0).get("ts").asDouble(), EPSILON_US, "the life of a slave starts with the job");
            double runUs = 0;
            boolean sawReceive = false;
            int sawBarrier = 0;
            int running = 0;
            double at = 0;
            for (JsonNode e : events) {
                double ts = e.get("ts").asDouble();
                double dur = e.get("dur").asDouble();
                assertTrue(dur >= 0, e.toString());
                assertEquals(at, ts, EPSILON_US, "rank " + rank + ": gap or overlap before " + e);
                at = ts + dur;
                String state = e.get("cat").asText();
                assertEquals(state, e.get("args").get("state").asText());
                if (state.equals("RUNNING")) {
                    runUs += dur;
                    running++;
                }
                if (state.equals("RBLOCKED")) {
                    assertTrue(e.get("name").asText().startsWith("receive(source=" + (rank + RANKS - 1) % RANKS + ", tag="), e.toString());
                    assertTrue(e.get("args").get("call").asText().contains("receive("), e.toString());
                    sawReceive = true;
                }
                if (state.equals("CBLOCKED")) {
                    assertEquals("MPI_Barrier() on COMM_WORLD", e.get("name").asText(), e.toString());
                    assertEquals("waiting for MPI_Barrier() on COMM_WORLD", e.get("args").get("call").asText(), e.toString());
                    sawBarrier++;
                }
                if (!state.startsWith("R") && !state.equals("CBLOCKED")) {
                    assertTrue(Set.of("STARTING", "FINALIZED").contains(state), e.toString());
                    assertEquals(state, e.get("name").asText());
                }
            }
            barrierBlocks += sawBarrier;
            assertEquals(stats.rank(rank).resumes(), running, "rank " + rank + ": one RUNNING interval per resume");
            assertEquals("FINALIZED", events.get(events.size() - 1).get("cat").asText(), "the life of a slave ends at its exit");
            assertTrue(at <= end + EPSILON_US, "rank " + rank + "'s life ends at " + at + " us, after the job (" + end + ")");
            lastExit = Math.max(lastExit, at);
            assertEquals(stats.rank(rank).runSeconds() * 1e6, runUs, 10, "RUNNING intervals of rank " + rank + " sum to its run time");
            receiveBlocks += sawReceive ? 1 : 0;
        }
        assertEquals(end, lastExit, 100_000, "the job ends within 0.1 s of its last slave");
        // Of the first two ranks to run, at least one finds its left neighbour's message not yet sent.
        assertTrue(receiveBlocks > 0, "no rank was ever blocked in a receive");
        assertEquals(ROUNDS * (RANKS - 1), barrierBlocks, "each barrier parks every rank but the last to arrive");
    }

    @Test
    void reportRendersInARealBrowser() throws IOException, InterruptedException {
        String html = Files.readString(report, StandardCharsets.UTF_8);
        assertFalse(html.contains("<script"), "the report must need no script");
        assertFalse(Pattern.compile("(src|href)\\s*=").matcher(html).find(), "the report must fetch nothing");
        assertFalse(html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "").contains("http"), "no network reference");

        Path scratch = Files.createDirectories(dir.resolve("chromium"));
        String dom = Chromium.dumpDom(report, scratch);
        assertEquals(RANKS, count(dom, "<g class=\"row\" data-rank=\""), "one timeline row per rank");
        for (int rank = 0; rank < RANKS; rank++) {
            assertTrue(dom.contains("<g class=\"row\" data-rank=\"" + rank + "\"><text x=\"0\" y=\"" ), "row of rank " + rank);
            Matcher row = Pattern.compile("<tr data-rank=\"" + rank + "\">.*?<td class=\"run\">([\\d.]+) s</td>").matcher(dom);
            assertTrue(row.find(), "no statistics row for rank " + rank);
            assertEquals(stats.rank(rank).runSeconds(), Double.parseDouble(row.group(1)), 0.0006);
        }
        assertTrue(dom.contains("<td id=\"nrunning\">" + RUNNING + "</td>"), "-nr in the summary");
        assertTrue(dom.contains("<td id=\"maxrunning\">" + RUNNING + "</td>"), "max running in the summary");
        assertTrue(dom.contains(String.format(java.util.Locale.ROOT, "<td id=\"wall\">%.3f s</td>", stats.wallTimeSeconds())), "wall time");
        assertTrue(dom.contains("<td id=\"ondisk\">" + String.format(java.util.Locale.ROOT, "%.1f MiB", RANKS * ROUNDS * LARGE / 1048576.0)),
                "bytes through spill files");
        assertTrue(Pattern.compile("<p class=\"hint\" id=\"hint\">[^<]*-nr[^<]*</p>").matcher(dom).find(), "a hint about -nr");
        assertTrue(dom.contains("class=\"RUNNING\"") && dom.contains("class=\"CBLOCKED\""), "running and blocked spans drawn");
        assertTrue(count(dom, "class=\"tick\"") >= 3, "a time axis with ticks");

        Path png = dir.resolve("report.png");
        Chromium.screenshot(report, png, 1100, 700, scratch);
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "not a PNG");
        assertEquals(1100, image.getWidth());
        assertEquals(700, image.getHeight());
        Set<Integer> colours = new HashSet<>();
        boolean green = false;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                colours.add(rgb);
                green |= rgb == 0x2f9e44;
            }
        }
        assertTrue(colours.size() > 20, "screenshot looks blank: " + colours.size() + " colours");
        assertTrue(green, "no RUNNING bar (#2f9e44) visible in the screenshot " + png);
    }

    /** A failed job (a deadlock) still writes both, with its open intervals closed at the end and the failure named. */
    @Test
    void failedJobStillWritesTraceAndReport() throws IOException {
        Path failedTrace = dir.resolve("failed-trace.json");
        Path failedReport = dir.resolve("failed-report.html");
        JobResult r = JobRunner.job(io.bdmpi.tests.programs.Deadlock.class).ranks(3).running(1)
                .options("--trace", failedTrace.toString(), "--report", failedReport.toString()).run();
        r.assertFailed();
        JsonNode root = new ObjectMapper().readTree(failedTrace.toFile());
        int blocked = 0;
        for (JsonNode e : root.get("traceEvents")) {
            if (e.get("ph").asText().equals("X") && e.get("cat").asText().equals("RBLOCKED")) {
                assertTrue(e.get("name").asText().startsWith("receive(source="), e.toString());
                blocked++;
            }
        }
        assertEquals(3, blocked, "each rank's last interval: blocked in its receive until the job ended");
        String html = Files.readString(failedReport, StandardCharsets.UTF_8);
        assertTrue(html.contains("<td id=\"failure\" class=\"failed\">deadlock"), "the report names the failure");
        assertEquals(3, count(html, "<g class=\"row\" data-rank=\""));
    }

    /**
     * A report that cannot be written turns a completed run's exit status into 1, saying why: one in
     * /proc, whose directory bdmpiexec's check before the job finds writable (as root) but where no
     * file can be made.
     */
    @Test
    void anOutputThatCannotBeWrittenFailsTheRun() {
        Path unwritable = Path.of("/proc/bdmpi-report-" + ProcessHandle.current().pid() + ".html");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(unwritable.getParent()), "needs root");
        JobResult r = JobRunner.job(Phases.class).ranks(2).running(1).options("--report", unwritable.toString())
                .args(1, 10, 1024).run();
        assertEquals(1, r.exitCode(), "exit status of a run whose report is missing\n" + r.describe());
        assertFalse(r.stderrContaining("^bdmpiexec: cannot write the report to " + java.util.regex.Pattern.quote(unwritable.toString())
                + ": ").isEmpty(), "the report's failure is not said\n" + r.describe());
        assertFalse(r.stderrContaining("^bdmpiexec: exit status 1: the job completed, but an output it was asked for is missing")
                .isEmpty(), "the exit status is not explained\n" + r.describe());
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
