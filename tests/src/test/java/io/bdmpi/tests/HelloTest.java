package io.bdmpi.tests;

import io.bdmpi.examples.Hello;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The Hello example: every rank of the world says hello exactly once, from the same node. */
class HelloTest {

    private static final Pattern HELLO = Pattern.compile("Hello from rank (\\d+) of (\\d+) on node (.*)");

    @ParameterizedTest(name = "-ns {0} -nr {1}")
    @CsvSource({"1,1", "2,1", "2,2", "4,1", "4,2", "4,4", "16,1", "16,2", "16,16"})
    void everyRankSaysHelloOnce(int ranks, int running) {
        JobResult r = JobRunner.job(Hello.class).ranks(ranks).running(running).run();
        Expect.successfulRun(r, ranks, running);

        List<String> hellos = r.stdout().stream().filter(l -> l.startsWith("Hello")).toList();
        Expect.that(r, hellos.size() == ranks, hellos.size() + " hello lines, expected " + ranks);
        Set<Integer> seen = new TreeSet<>();
        Set<String> nodes = new TreeSet<>();
        for (String line : hellos) {
            Matcher m = HELLO.matcher(line);
            Expect.that(r, m.matches(), "malformed hello line: " + line);
            int rank = Integer.parseInt(m.group(1));
            Expect.that(r, rank >= 0 && rank < ranks && seen.add(rank), "rank " + rank + " out of range or twice");
            Expect.that(r, Integer.parseInt(m.group(2)) == ranks, "wrong world size in: " + line);
            Expect.that(r, !m.group(3).isBlank(), "blank processor name in: " + line);
            nodes.add(m.group(3));
        }
        Expect.that(r, nodes.size() == 1, "one node, but processor names differ: " + nodes);
    }
}
