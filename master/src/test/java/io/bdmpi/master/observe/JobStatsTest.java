package io.bdmpi.master.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class JobStatsTest {

    @TempDir
    Path dir;

    /**
     * A lost node's part, written after bdmpiexec gave up on its master, is left out like a part
     * never written, and removed: the record of a loss does not depend on that race.
     */
    @Test
    void theLostNodesPartIsLeftOutEvenWhenItsMasterWroteIt() throws IOException {
        Path stats = dir.resolve("stats.json");
        for (int n = 0; n < 3; n++) {
            new JobStats(1.5 + n, 0, null, List.of(node(n)), List.of(), List.of()).write(JobStats.partFile(stats, n));
        }
        String loss = "node 2 (host h) stopped answering for 5.0 s; ending the job";

        JobStats.merge(stats, 3, 1, loss, 2, List.of());

        JobStats joined = new ObjectMapper().readValue(stats.toFile(), JobStats.class);
        assertEquals(List.of(0, 1), joined.nodes().stream().map(JobStats.Node::node).toList());
        assertEquals(loss, joined.failure());
        assertEquals(2.5, joined.wallTimeSeconds(), "the longest wall time of the parts kept");
        for (int n = 0; n < 3; n++) {
            assertFalse(Files.exists(JobStats.partFile(stats, n)), "part " + n + " removed");
        }
    }

    private static JobStats.Node node(int n) {
        return new JobStats.Node(n, 2, 2, 2, 10, 100, 0, 0, 1.0, 0.5, 0.1, 4, 0, 0, 1 << 20, false, List.of());
    }
}
