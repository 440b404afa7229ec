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
import java.io.IOException;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Progress output of a real job: periodic summaries off a terminal, a live status line on one. */
class ProgressTest {

    private static final int RANKS = 4;
    private static final int RUNNING = 2;
    private static final int ROUNDS = 4;
    private static final Pattern SUMMARY = Pattern.compile("(\\d+):(\\d\\d) \\| (\\d+) slaves: (?:(\\d+) starting, )?(\\d+) running, "
            + "(\\d+) runnable, (\\d+) blocked-recv, (\\d+) blocked-coll, (\\d+) done \\| buffered mem (\\d+) msg [\\d.]+ [KMGT]?i?B, "
            + "disk (\\d+) msg [\\d.]+ [KMGT]?i?B");
    private static final String ERASE = "\r\033[K";

    @TempDir
    Path tmp;

    @Test
    void periodicSummaryOffATerminal() {
        JobResult r = JobRunner.job(Phases.class).ranks(RANKS).running(RUNNING).options("--progress", "0.2")
                .args(ROUNDS, 200).run();
        Expect.successfulRun(r, RANKS, RUNNING);
        List<Matcher> summaries = new ArrayList<>();
        for (String line : withoutWarnings(r.stderr())) {
            if (line.startsWith("bdmpiexec: ")) {
                Matcher m = SUMMARY.matcher(line.substring("bdmpiexec: ".length()));
                assertTrue(m.matches(), "not a summary line: " + line);
                summaries.add(m);
            }
        }
        // 4 rounds of 200 ms at 2 of 4 running take >= 1.6 s: every 0.2 s a line.
        assertTrue(summaries.size() >= 5, "expected >= 5 summaries\n" + r.describe());
        checkPlausible(summaries, r.describe());
        assertFalse(String.join("\n", r.stderr()).contains("\033"), "escape sequences off a terminal");
    }

    @Test
    void nothingOffATerminalUnlessAsked() {
        JobResult r = JobRunner.job(Phases.class).ranks(RANKS).running(RUNNING).args(2, 300).run();
        Expect.successfulRun(r, RANKS, RUNNING);
        assertTrue(withoutWarnings(r.stderr()).isEmpty(), "stderr of a quiet job:\n" + r.describe());
    }

    /** Stderr less bdmpiexec's warnings (the no-swap warning depends on the machine, not on progress output). */
    private static List<String> withoutWarnings(List<String> stderr) {
        return stderr.stream().filter(l -> !l.startsWith("bdmpiexec: warning: ")).toList();
    }

    /** Runs bdmpiexec on a pseudo-terminal (util-linux {@code script}) and reads what the terminal got. */
    @Test
    void liveStatusLineOnATerminalNeverSplitsSlaveLines() throws Exception {
        String tty = runOnTerminal(0, Phases.class.getName() + " " + ROUNDS + " 200");

        // Every slave line arrived whole, at the start of a terminal line (after the status line was erased).
        Matcher lines = Pattern.compile("(?:^|(?<=\n)|(?<=\033\\[K))(Phases rank \\d+ (?:round \\d+|OK))\r?\n").matcher(tty);
        int whole = 0;
        while (lines.find()) {
            whole++;
        }
        assertEquals(RANKS * (ROUNDS + 1), whole, "slave lines split or lost:\n" + visible(tty));
        assertEquals(RANKS * (ROUNDS + 1), countOf(tty, "Phases rank"), visible(tty));

        // The status line was drawn in place (erase, then text, no newline) and is erased at the end.
        List<Matcher> statuses = new ArrayList<>();
        Matcher drawn = Pattern.compile(Pattern.quote(ERASE) + "([^\r\n\033]+)(?=" + Pattern.quote(ERASE) + "|\\z)").matcher(tty);
        while (drawn.find()) {
            Matcher m = SUMMARY.matcher(drawn.group(1));
            assertTrue(m.matches(), "not a status line: " + visible(drawn.group(1)));
            statuses.add(m);
        }
        assertTrue(statuses.size() >= 5, "expected a status line redrawn several times a second:\n" + visible(tty));
        checkPlausible(statuses, visible(tty));
        assertTrue(tty.endsWith(ERASE) || tty.endsWith("\n"), "the status line was left on the terminal:\n" + visible(tty));
    }

    /** The master's own messages (here the deadlock report) also start on a clean line. */
    @Test
    void failureLineOnATerminalStartsOnACleanLine() throws Exception {
        String tty = runOnTerminal(1, io.bdmpi.tests.programs.Deadlock.class.getName());
        assertTrue(Pattern.compile("(?:^|\n|" + Pattern.quote(ERASE) + ")bdmpiexec: job failed: deadlock").matcher(tty).find(),
                "the failure line shares a line with the status:\n" + visible(tty));
    }

    private String runOnTerminal(int expectedExit, String programAndArgs) throws Exception {
        Assumptions.assumeTrue(new File("/usr/bin/script").canExecute(), "util-linux script is not installed");
        Path wd = Files.createDirectories(tmp.resolve("wd"));
        Path transcript = tmp.resolve("tty-" + System.nanoTime() + ".out");
        String cp = JobRunner.testClassPath();
        String command = "stty cols 200; exec " + Path.of(System.getProperty("java.home"), "bin", "java") + " -cp " + cp + " "
                + JobRunner.LAUNCHER + " -ns " + RANKS + " -nr " + RUNNING + " -wd " + wd + " -cp " + cp + " " + programAndArgs;
        Process p = new ProcessBuilder("script", "-qfec", command, "/dev/null")
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(transcript.toFile()).redirectErrorStream(true).start();
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "job on a terminal timed out");
        } finally {
            Reaper.killTree(p.toHandle());
        }
        String tty = Files.readString(transcript, StandardCharsets.UTF_8);
        assertEquals(expectedExit, p.exitValue(), visible(tty));
        try (Stream<Path> left = Files.list(wd)) {
            assertEquals(0, left.count(), "work directory not cleaned");
        }
        assertTrue(Reaper.find(wd).isEmpty(), "processes left behind");
        return tty;
    }

    /** Counts add up to the slaves, never more than -nr running, time does not go back, and the job was seen working. */
    private static void checkPlausible(List<Matcher> summaries, String context) {
        long lastSeconds = 0;
        int maxRunning = 0;
        int maxWaiting = 0;
        for (Matcher m : summaries) {
            long seconds = Long.parseLong(m.group(1)) * 60 + Long.parseLong(m.group(2));
            assertTrue(seconds >= lastSeconds, "elapsed time went back\n" + context);
            lastSeconds = seconds;
            assertEquals(RANKS, Integer.parseInt(m.group(3)), context);
            int starting = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
            int running = Integer.parseInt(m.group(5));
            int sum = starting + running;
            for (int g = 6; g <= 9; g++) {
                sum += Integer.parseInt(m.group(g));
            }
            assertEquals(RANKS, sum, "states do not add up to the slaves: " + m.group() + "\n" + context);
            assertTrue(running <= RUNNING, "more than -nr running: " + m.group());
            maxRunning = Math.max(maxRunning, running);
            maxWaiting = Math.max(maxWaiting, Integer.parseInt(m.group(6)) + Integer.parseInt(m.group(7)) + Integer.parseInt(m.group(8)));
        }
        assertTrue(maxRunning > 0, "never saw a slave running\n" + context);
        assertTrue(maxWaiting > 0, "never saw a slave runnable or blocked, with 4 slaves and -nr 2\n" + context);
    }

    private static int countOf(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    private static String visible(String tty) {
        return tty.replace("\033", "^[").replace("\r", "^M");
    }
}
