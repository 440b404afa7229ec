package io.bdmpi.tests;

import io.bdmpi.tests.programs.Sleeper;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Reaper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The harness itself: it finds leftovers, and a job that hangs is killed, whole tree. */
class HarnessTest {

    @Test
    void reaperFindsAProcessByItsSlaveEnvironment(@TempDir Path dir) throws Exception {
        Path wd = Files.createDirectory(dir.resolve("wd"));
        ProcessBuilder pb = new ProcessBuilder("sleep", "60");
        pb.environment().put("BDMPI_SOCKET", wd.resolve("bdmpi-1-2/master.sock").toString());
        Process p = pb.start();
        try {
            List<Reaper.Leftover> found = Reaper.find(wd);
            assertEquals(1, found.size(), "found " + found);
            assertEquals(p.pid(), found.get(0).pid());
            assertTrue(Reaper.find(dir.resolve("other")).isEmpty(), "a different directory matched");
            Reaper.kill(found);
            assertTrue(p.waitFor(5, TimeUnit.SECONDS), "the reaper did not kill the process");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void hangingJobIsKilledWithItsSlaves() throws IOException, InterruptedException {
        AssertionError e = assertThrows(AssertionError.class,
                () -> JobRunner.job(Sleeper.class).ranks(2).running(2).timeout(Duration.ofSeconds(5)).run());
        assertTrue(e.getMessage().contains("timed out"), e.getMessage());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<ProcessHandle> left;
        do {
            left = ProcessHandle.allProcesses()
                    .filter(h -> h.info().commandLine().orElse("").contains(Sleeper.class.getName()))
                    .toList();
            if (!left.isEmpty()) {
                Thread.sleep(100);
            }
        } while (!left.isEmpty() && System.nanoTime() - deadline < 0);
        left.forEach(ProcessHandle::destroyForcibly);
        assertTrue(left.isEmpty(), "slaves survived the killed job: " + left.stream().map(ProcessHandle::pid).toList());
    }
}
