package io.bdmpi.examples;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The timing line of a serial run: its phases, measured on real sleeps and real work. */
class IterationTimerTest {

    private static final Pattern LINE = Pattern.compile("Work timing: (\\d+) iterations, ([0-9.]+) s per iteration, ([0-9.]+) s set-up, "
            + "peak RSS ([0-9.]+) MiB, start-up ([0-9.]+) s, first iteration ([0-9.]+) s, CPU ([0-9.]+) s, 1 processes, "
            + "peak RSS summed ([0-9.]+) MiB; iterations \\(s\\):((?: [0-9]+\\.[0-9]+)*)( \\.\\.\\.)?");

    @Test
    void theLineSplitsSetUpFirstIterationAndTheOthers() throws InterruptedException {
        IterationTimer timer = new IterationTimer();
        Thread.sleep(120);
        timer.start();
        Thread.sleep(200);
        timer.iterationDone();
        for (int i = 0; i < 3; i++) {
            Thread.sleep(40);
            timer.iterationDone();
        }
        Matcher m = LINE.matcher(timer.line("Work", 4));
        assertTrue(m.matches(), timer.line("Work", 4));
        assertEquals(4, Integer.parseInt(m.group(1)));
        double setUp = Double.parseDouble(m.group(3));
        assertTrue(setUp >= 0.12 && setUp < 5, "set-up " + setUp);
        double first = Double.parseDouble(m.group(6));
        assertTrue(first >= 0.2 && first < 5, "first iteration " + first);
        String[] each = m.group(9).trim().split(" ");
        assertEquals(4, each.length);
        assertEquals(first, Double.parseDouble(each[0]), 0.0005);
        double sum = 0;
        for (String s : each) {
            sum += Double.parseDouble(s);
        }
        assertEquals(sum / 4, Double.parseDouble(m.group(2)), 0.001, "the mean covers every iteration");
        assertEquals(Double.parseDouble(m.group(4)), Double.parseDouble(m.group(8)), 0.0, "one process: the sum is its own peak");
        assertTrue(Double.parseDouble(m.group(4)) > 0, "Linux reports a peak RSS");
        assertTrue(Double.parseDouble(m.group(5)) > 0, "the JVM started before the test");
    }

    @Test
    void cpuTimeCountsWorkAndTheListStopsAtTwenty() {
        IterationTimer timer = new IterationTimer();
        timer.start();
        // Busy for 25 x 12 ms of this thread's CPU time, however busy the machine is.
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long x = 0;
        long cpuStart = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < 25; i++) {
            while (threads.getCurrentThreadCpuTime() < cpuStart + (i + 1) * 12_000_000L) {
                x += Long.numberOfTrailingZeros(System.nanoTime());
            }
            timer.iterationDone();
        }
        Matcher m = LINE.matcher(timer.line("Work", 25));
        assertTrue(m.matches(), timer.line("Work", 25));
        assertEquals(20, m.group(9).trim().split(" ").length);
        assertEquals(" ...", m.group(10));
        assertTrue(Double.parseDouble(m.group(7)) >= 0.25, "busy for 0.3 s of CPU, counted " + m.group(7) + " (" + x + ")");
    }
}
