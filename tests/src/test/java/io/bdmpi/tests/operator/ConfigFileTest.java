package io.bdmpi.tests.operator;

import io.bdmpi.examples.Hello;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --config FILE} through the real launcher: values, precedence, and errors naming file, line and key. */
class ConfigFileTest {

    private static final String HELLO = Hello.class.getName();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    @Test
    void yamlFileSaysEverythingTheCommandLineCan() throws IOException {
        Path wd = Files.createDirectory(tmp.resolve("wd"));
        Path stats = tmp.resolve("stats.json");
        Path config = write("job.yaml", """
                # a whole job in a file
                slaves: 3
                running: 2
                inline-max: 64k
                workdir: %s
                stats: %s
                classpath: '%s'
                tag-output: true
                slave-jvm-opts: [-Xmx64m, -Xss1m]
                policy: fifo
                program: %s
                """.formatted(wd, stats, JobRunner.testClassPath(), HELLO));
        JobResult r = JobRunner.launch(TIMEOUT, "--config", config.toString());
        assertEquals(0, r.exitCode(), r::describe);
        for (int rank = 0; rank < 3; rank++) {
            assertEquals(1, r.stdoutMatching("\\[" + rank + "] Hello from rank " + rank + " of 3 on node .*").size(), r::describe);
        }
        Stats s = Stats.read(stats);
        assertEquals(3, s.node0().slaves());
        assertEquals(2, s.node0().running());
        try (Stream<Path> left = Files.list(wd)) {
            assertEquals(0, left.count(), "the work directory from the file was not cleaned");
        }
    }

    @Test
    void commandLineOverridesTheFileWhichOverridesDefaults() throws IOException {
        Path config = write("job.json", """
                {
                  "slaves": 4,
                  "running": 3,
                  "tag-output": true
                }
                """);
        // The harness gives -ns 2 -nr 1 on the command line: they win; tag-output comes from the file.
        JobResult r = JobRunner.job(Hello.class).ranks(2).running(1).options("--config", config.toString()).run();
        Stats s = Expect.successfulRun(r, 2, 1);
        assertEquals(1, s.node0().running());
        assertEquals(2, r.stdoutMatching("\\[\\d] Hello from rank \\d of 2 .*").size(), r::describe);
    }

    @Test
    void perNodeEntryOfNodeZeroIsUsedAndItsProgramArgsToo() throws IOException {
        Path config = write("nodes.yml", """
                slaves: 5
                per-node:
                  - slaves: 2
                    running: 2
                    memory-limit: 1g
                program: %s
                args: [ignored, "by hello"]
                classpath: '%s'
                """.formatted(HELLO, JobRunner.testClassPath()));
        Path wd = Files.createDirectory(tmp.resolve("wd"));
        JobResult r = JobRunner.launch(TIMEOUT, "--config", config.toString(), "-wd", wd.toString());
        assertEquals(0, r.exitCode(), r::describe);
        assertEquals(2, r.stdoutMatching("Hello from rank \\d of 2 .*").size(), r::describe);
    }

    @Test
    void eachNodeTakesItsOwnEntry() throws IOException {
        JobRunner.job(Hello.class).nodes(2); // fails clearly without MPI
        Path config = write("two.yaml", """
                slaves: 3
                per-node:
                  - running: 1
                  - running: 3
                """);
        Path stats = tmp.resolve("stats.json");
        JobResult r = JobRunner.launch(TIMEOUT, "-nn", "2", "--config", config.toString(), "--stats", stats.toString(),
                "-cp", JobRunner.testClassPath(), HELLO);
        assertEquals(0, r.exitCode(), r::describe);
        assertEquals(6, r.stdoutMatching("Hello from rank \\d of 6 .*").size(), r::describe);
        Stats s = Stats.read(stats);
        assertEquals(List.of(1, 3), s.nodes().stream().map(Stats.Node::running).toList(), s.nodes()::toString);
        assertTrue(s.nodes().get(0).maxRunning() <= 1, s.nodes()::toString);
    }

    /** Nodes may have different counts (see UnevenNodesTest), but each node's running fits its own slaves. */
    @Test
    void aNodesRunningAboveItsOwnSlavesIsRefused() throws IOException {
        Path config = write("uneven.yaml", "per-node:\n  - slaves: 3\n  - slaves: 1\n    running: 2\n");
        JobResult r = JobRunner.launch(TIMEOUT, "-nn", "2", "--config", config.toString(), "-cp", JobRunner.testClassPath(),
                HELLO);
        assertEquals(2, r.exitCode(), r::describe);
        assertTrue(r.stderr().get(0).contains("per-node[1].running=2 must be between 1 and the node's slaves, 1"), r::describe);
    }

    @Test
    void unknownKeyNamesFileLineAndKey() throws IOException {
        Path config = write("bad.yaml", "slaves: 2\nrunnnig: 1\n");
        usageError(config, config + " line 2, key 'runnnig': unknown key");
    }

    @Test
    void unknownPerNodeKeyNamesItsPath() throws IOException {
        Path config = write("bad.yaml", "per-node:\n  - slaves: 2\n    memory: 4g\n");
        usageError(config, config + " line 3, key 'per-node[0].memory': unknown key");
    }

    @Test
    void wrongTypeNamesFileLineAndKey() throws IOException {
        Path config = write("bad.json", "{\n  \"slaves\": 2,\n  \"running\": \"two\"\n}\n");
        usageError(config, "'two' is neither a number of slaves nor auto (set in " + config + " line 3, key 'running')");
    }

    @Test
    void outOfRangeValueNamesWhereTheFileSetIt() throws IOException {
        Path config = write("bad.yaml", "slaves: 2\nper-node:\n  - running: 3\n");
        usageError(config, "-nr=3 must be between 1 and -ns=2 (set in " + config + " line 1, key 'slaves'; "
                + config + " line 3, key 'per-node[0].running')");
    }

    @Test
    void brokenSyntaxNamesTheLine() throws IOException {
        Path config = write("bad.json", "{\n  \"slaves\": 2\n  \"running\": 1\n}\n");
        usageError(config, "config file " + config + " line 3: Unexpected character");
    }

    @Test
    void perNodeListMustHaveOneEntryPerNode() throws IOException {
        Path config = write("bad.yaml", "per-node:\n  - slaves: 2\n  - slaves: 2\n");
        usageError(config, "per-node has 2 entries, but there are 1 nodes");
    }

    @Test
    void missingFileIsAUsageError() {
        usageError(tmp.resolve("none.yaml"), "cannot read the file");
    }

    @Test
    void helpShowsEveryOptionWithItsDefaultAndVersionTheProjectVersion() {
        JobResult help = JobRunner.launch(TIMEOUT, "--help");
        assertEquals(0, help.exitCode(), help::describe);
        String text = String.join("\n", help.stdout());
        for (String option : new String[] {"--nodes", "--slaves", "--running", "--inline-max", "--workdir", "--stats",
                "--classpath", "--tag-output", "--slave-jvm-opts", "--policy", "--config", "--version"}) {
            assertTrue(text.contains(option), "--help does not document " + option + ":\n" + text);
        }
        assertTrue(text.contains("Default: 131072"), text);
        JobResult version = JobRunner.launch(TIMEOUT, "--version");
        assertEquals(0, version.exitCode(), version::describe);
        assertTrue(version.stdout().get(0).matches("bdmpiexec \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), version::describe);
    }

    private void usageError(Path config, String expected) {
        JobResult r = JobRunner.launch(TIMEOUT, "--config", config.toString(), "-cp", JobRunner.testClassPath(), HELLO);
        assertEquals(2, r.exitCode(), r::describe);
        assertTrue(r.stderr().get(0).startsWith("bdmpiexec: ") && r.stderr().get(0).contains(expected),
                "expected '" + expected + "' in " + r.stderr());
        assertTrue(r.stdout().stream().noneMatch(l -> l.contains("Hello")), "a slave ran: " + r.stdout());
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(tmp.resolve(name), text);
    }
}
