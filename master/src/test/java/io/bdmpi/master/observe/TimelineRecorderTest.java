package io.bdmpi.master.observe;

import io.bdmpi.master.session.SlaveState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class TimelineRecorderTest {

    @TempDir
    Path dir;

    /** Many more intervals than one buffer holds go through the spool file and come back complete and in order. */
    @Test
    void intervalsSpillToTheSpoolAndComeBackInOrder() throws IOException {
        Path spool = dir.resolve("timeline.bin");
        int cycles = 5_000; // 3 intervals each: 15 000 records, several 64 KiB buffers
        try (TimelineRecorder t = new TimelineRecorder(spool, 0, new int[] {0, 1}, 100)) {
            long now = 100;
            t.transition(0, SlaveState.RUNNABLE, now += 10, () -> null); // woken: no reason
            for (int i = 0; i < cycles; i++) {
                t.transition(0, SlaveState.RUNNING, now += 10, () -> "unused");
                int tag = i % 3;
                t.transition(0, SlaveState.RBLOCKED, now += 10, () -> "receive(tag=" + tag + ")");
                t.transition(0, SlaveState.RUNNABLE, now += 10, () -> null); // woken: no reason
            }
            t.jobEnded(now += 10);
            assertEquals(2 + 3L * cycles + 1, t.intervals());
            assertEquals(now - 100, t.durationNs());

            List<JobTimeline.Interval> read = new ArrayList<>();
            t.forEach(read::add);
            assertEquals(t.intervals(), read.size());
            assertEquals((long) read.size() * TimelineRecorder.RECORD_BYTES, Files.size(spool));
            long end0 = 0;
            int blocked = 0;
            for (JobTimeline.Interval i : read) {
                if (i.rank() == 0) {
                    assertEquals(end0, i.startNs(), "rank 0's intervals follow each other");
                    end0 = i.endNs();
                    if (i.state() == SlaveState.RBLOCKED) {
                        assertEquals("receive(tag=" + (blocked++ % 3) + ")", i.call());
                    } else {
                        assertNull(i.call());
                    }
                }
            }
            assertEquals(cycles, blocked);
            assertEquals(t.durationNs(), end0);
            JobTimeline.Interval last1 = read.get(read.size() - 1);
            assertEquals(1, last1.rank(), "rank 1 never left STARTING: its one interval closes at the end");
            assertEquals(SlaveState.STARTING, last1.state());
            assertEquals(t.durationNs(), last1.endNs());
        }
    }
}
