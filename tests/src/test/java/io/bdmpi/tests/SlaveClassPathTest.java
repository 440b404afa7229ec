package io.bdmpi.tests;

import io.bdmpi.tests.programs.startup.OpenJars;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a slave opens of its class path: up to its first MPI calls only bdmpi's own jars (its
 * runtime's classes come from the class-data archive, the program's from its class path, which
 * comes before jffi's jars, and the NIO selector provider is named rather than looked for in
 * every jar); jffi's jars, after the program's class path, are found when the program first
 * uses an off-heap array, whose values then survive a release and a prefetch. Every slave loads
 * jffi's native library from the one copy in the cache, not from a temporary file of its own.
 */
class SlaveClassPathTest {

    private static final int RANKS = 2;

    @Test
    void aSlaveOpensJffisJarsOnlyWhenItUsesOffHeapArrays() {
        JobResult r = JobRunner.job(OpenJars.class).ranks(RANKS).running(1).run();
        Expect.successfulRun(r, RANKS, 1);
        for (int rank = 0; rank < RANKS; rank++) {
            Set<String> started = jars(r, rank, "started");
            Expect.that(r, started.equals(Set.of("bdmpi-slave-lib", "bdmpi-spill")),
                    "rank " + rank + " opened only bdmpi's jars up to its first calls, not " + started);
            Set<String> arrays = jars(r, rank, "arrays");
            Expect.that(r, arrays.containsAll(List.of("bdmpi-slave-lib", "bdmpi-spill", "jffi")),
                    "rank " + rank + " found jffi's jars on its class path for its off-heap array: " + arrays);
            Expect.that(r, r.stdout().contains("OpenJars rank " + rank + " checked " + (1 << 16)),
                    "rank " + rank + " read back every value of its released array");
        }
        List<String> stubs = r.stdoutMatching("OpenJars rank [0-9]+ stub .*").stream()
                .map(l -> l.substring(l.indexOf(" stub ") + " stub ".length())).distinct().toList();
        Expect.that(r, stubs.size() == 1 && stubs.get(0).matches(".*/jffi-[0-9]+-[0-9]+/libjffi-[0-9.]+\\.so"),
                "every rank mapped jffi's native library from the one copy in the cache: " + stubs);
    }

    /** The names (without version) of the jars rank {@code rank} printed for {@code phase}. */
    private static Set<String> jars(JobResult r, int rank, String phase) {
        Set<String> names = new TreeSet<>();
        for (String line : r.stdoutMatching("OpenJars rank " + rank + " " + phase + " .*")) {
            String file = Path.of(line.substring(line.lastIndexOf(' ') + 1)).getFileName().toString();
            names.add(file.replaceFirst("-[0-9][^-]*(-SNAPSHOT)?(-native)?\\.jar$", ""));
        }
        return names;
    }
}
