package io.bdmpi.tests.operator;

import io.bdmpi.tests.programs.Phases;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Reaper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The progress of a job of three nodes (masters on this machine, over the default MPI) is shown
 * by bdmpiexec for the job as a whole, from the masters' heartbeats: periodic summaries off a
 * terminal, a live status line on one (through {@code script}), with every slave line of every node
 * arriving whole.
 */
class SeveralNodesProgressTest {

    private static final int NODES = 3;
    private static final int PER_NODE = 2;
    private static final int RANKS = NODES * PER_NODE;
    private static final int ROUNDS = 4;
    private static final Pattern SUMMARY = Pattern.compile("(\\d+):(\\d\\d) \\| " + NODES + " nodes, (\\d+) slaves: (?:(\\d+) starting, )?"
            + "(\\d+) running, (\\d+) runnable, (\\d+) blocked-recv, (\\d+) blocked-coll, (\\d+) done \\| buffered mem (\\d+) msg "
            + "[\\d.]+ [KMGT]?i?B, disk (\\d+) msg [\\d.]+ [KMGT]?i?B");
    private static final String ERASE = "\r\033[K";

    @TempDir
    Path tmp;

    @Test
    void periodicSummaryOfTheWholeJob() {
        JobResult r = JobRunner.job(Phases.class).nodes(NODES).ranks(PER_NODE).running(1).options("--progress", "0.25")
                .args(ROUNDS, 200).run();
        Expect.successfulRun(r, NODES, PER_NODE, 1);
        Expect.that(r, r.stdoutMatching("Phases rank \\d+ round \\d+").size() == NODES * PER_NODE * ROUNDS,
                "every rank's lines reach bdmpiexec's output beside the summaries");
        List<Matcher> summaries = new ArrayList<>();
        for (String line : r.stderr()) {
            if (line.startsWith("bdmpiexec: ") && !line.startsWith("bdmpiexec: warning: ")) {
                Matcher m = SUMMARY.matcher(line.substring("bdmpiexec: ".length()));
                assertTrue(m.matches(), "not a summary of the whole job: " + line + "\n" + r.describe());
                summaries.add(m);
            }
        }
        // 4 rounds of 200 ms, one of two running per node: >= 1.6 s, a line every 0.25 s.
        assertTrue(summaries.size() >= 4, "expected >= 4 summaries\n" + r.describe());
        checkPlausible(summaries, r.describe());
    }

    @Test
    void liveStatusLineOfTheWholeJobNeverSplitsSlaveLines() throws Exception {
        Assumptions.assumeTrue(new File("/usr/bin/script").canExecute(), "util-linux script is not installed");
        Path wd = Files.createDirectories(tmp.resolve("wd"));
        Path transcript = tmp.resolve("tty.out");
        String cp = JobRunner.testClassPath();
        String command = "stty cols 250; unset $(env | grep -o '^BDMPI_[A-Z_]*'); exec "
                + Path.of(System.getProperty("java.home"), "bin", "java") + " -cp " + cp + " " + JobRunner.LAUNCHER + " -nn " + NODES
                + " -ns " + PER_NODE + " -nr 1 -wd " + wd + " -cp " + cp + " " + Phases.class.getName() + " " + ROUNDS + " 200";
        Process p = new ProcessBuilder("script", "-qfec", command, "/dev/null")
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(transcript.toFile()).redirectErrorStream(true).start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "job on a terminal timed out");
        } finally {
            Reaper.killTree(p.toHandle());
        }
        String tty = Files.readString(transcript, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), visible(tty));
        try (Stream<Path> left = Files.list(wd)) {
            assertEquals(0, left.count(), "work directory not cleaned");
        }
        assertTrue(Reaper.find(wd).isEmpty(), "processes left behind");

        Matcher lines = Pattern.compile("(?:^|(?<=\n)|(?<=\033\\[K))(Phases rank \\d+ (?:round \\d+|OK))\r?\n").matcher(tty);
        int whole = 0;
        while (lines.find()) {
            whole++;
        }
        assertEquals(RANKS * (ROUNDS + 1), whole, "slave lines split or lost:\n" + visible(tty));

        List<Matcher> statuses = new ArrayList<>();
        Matcher drawn = Pattern.compile(Pattern.quote(ERASE) + "([^\r\n\033]+)(?=" + Pattern.quote(ERASE) + "|\\z)").matcher(tty);
        while (drawn.find()) {
            Matcher m = SUMMARY.matcher(drawn.group(1));
            assertTrue(m.matches(), "not a status line of the whole job: " + visible(drawn.group(1)));
            statuses.add(m);
        }
        assertTrue(statuses.size() >= 4, "expected the status line redrawn several times a second:\n" + visible(tty));
        checkPlausible(statuses, visible(tty));
        assertTrue(tty.endsWith(ERASE) || tty.endsWith("\n"), "the status line was left on the terminal:\n" + visible(tty));
    }

    /** Counts add up to every node's slaves, at most one running per node, and the job was seen working. */
    private static void checkPlausible(List<Matcher> summaries, String context) {
        long lastSeconds = 0;
        int maxRunning = 0;
        for (Matcher m : summaries) {
            long seconds = Long.parseLong(m.group(1)) * 60 + Long.parseLong(m.group(2));
            assertTrue(seconds >= lastSeconds, "elapsed time went back\n" + context);
            lastSeconds = seconds;
            assertEquals(RANKS, Integer.parseInt(m.group(3)), context);
            int running = Integer.parseInt(m.group(5));
            int sum = (m.group(4) == null ? 0 : Integer.parseInt(m.group(4))) + running;
            for (int g = 6; g <= 9; g++) {
                sum += Integer.parseInt(m.group(g));
            }
            assertEquals(RANKS, sum, "states do not add up to the job's slaves: " + m.group() + "\n" + context);
            assertTrue(running <= NODES, "more than -nr 1 running on some node: " + m.group());
            maxRunning = Math.max(maxRunning, running);
        }
        assertTrue(maxRunning > 0, "never saw a slave running\n" + context);
    }

    private static String visible(String tty) {
        return tty.replace("\033", "^[").replace("\r", "^M");
    }
}
