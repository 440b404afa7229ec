package io.bdmpi.tests.failures;

import io.bdmpi.tests.programs.failures.Deadlocks;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Deadlocks end the job within 2 s of the last rank blocking, with one report that lists each
 * blocked rank's pending call (operation, communicator, peer or root, tag); see {@link Deadlocks}.
 */
class DeadlockReportTest {

    /**
     * What several nodes may add: the masters watch a deadlock for 1 s (NodesQuiescence.CONFIRM_NS)
     * before they report it, then end together through MPI (finalize, mpiexec's teardown).
     */
    private static final long SEVERAL_NODES_EXTRA_MS = 4_000;
    private static final Pattern BLOCKING = Pattern.compile("Deadlocks rank \\d+ blocking at=(\\d+)");

    @Test
    void receiveThatNeverGetsAMessage() {
        String report = run("recv", 3, 1);
        expect(report, "rank 0: .*receive\\(source=1, tag=11, comm=COMM_WORLD\\)");
        if (report.contains("rank 1:") || report.contains("rank 2:")) {
            throw new AssertionError("ranks 1 and 2 finalized and should not be listed: " + report);
        }
    }

    @Test
    void collectiveThatOneRankSkips() {
        String report = run("skip", 3, 2);
        expect(report, "rank 0: .*MPI_Barrier.*COMM_WORLD");
        expect(report, "rank 1: .*MPI_Barrier.*COMM_WORLD");
        expect(report, "rank 2: .*receive\\(source=0, tag=12, comm=COMM_WORLD\\)");
        expect(report, "MPI_Barrier.*\\[2\\]");
    }

    @Test
    void cycleOfReceives() {
        String report = run("cycle", 4, 2);
        for (int r = 0; r < 4; r++) {
            expect(report, "rank " + r + ": .*receive\\(source=" + (r + 1) % 4 + ", tag=13, comm=COMM_WORLD\\)");
        }
    }

    /** A rank waiting for a window lock is parked, and the report names the lock and its holder. */
    @Test
    void windowLockHeldByARankThatWaitsForever() {
        String report = run("lock", 3, 1);
        expect(report, "rank 0: .*receive\\(source=1, tag=14, comm=COMM_WORLD\\)");
        expect(report, "rank 1: waiting for MPI_Win_lock\\(rank 0 of window \\d+, held by rank 0 \\(exclusive\\)\\)");
    }

    /** A rank waiting for a window lock that another node's master keeps is parked too, and named. */
    @Test
    void windowLockOfAnotherNodeHeldByARankThatWaitsForever() {
        String report = run("lock", 2, 1, 1);
        expect(report, "rank 0: .*receive\\(source=1, tag=14, comm=COMM_WORLD\\)");
        expect(report, "rank 1: waiting for MPI_Win_lock\\(rank 0 of window \\d+, exclusive, kept by node 0\\)");
    }

    /**
     * A window's fence is a collective of the window's own communicator: the report names that
     * communicator after the window and the communicator the program made and named, on one node
     * and over two.
     */
    @ParameterizedTest(name = "-nn {0} -ns {1}")
    @CsvSource({"1, 3", "3, 1"})
    void fenceThatOneRankSkips(int nodes, int perNode) {
        String report = run("fence", nodes, perNode, 1);
        expect(report, "rank 0: waiting for MPI_Barrier\\(\\) on the window of MPI_Win_create over rows, which ranks \\[1\\]");
        expect(report, "rank 2: waiting for MPI_Barrier\\(\\) on the window of MPI_Win_create over rows, which ranks \\[1\\]");
        expect(report, "rank 1: waiting for MPI_Barrier\\(\\) on rows, which ranks \\[0, 2\\]");
    }

    @Test
    void dupThatTheOthersSkip() {
        String report = run("dup", 3, 1);
        expect(report, "rank 0: waiting for MPI_Comm_dup\\(\\) on COMM_WORLD, which ranks \\[1, 2\\] have not called");
    }

    /** A window's or a file's creation duplicates the communicator first: the report names the program's call. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"win, MPI_Win_allocate", "file, MPI_File_open"})
    void creationThatTheOthersSkip(String mode, String call) {
        String report = run(mode, 3, 1);
        expect(report, "rank 0: waiting for " + call + "\\(\\) on COMM_WORLD, which ranks \\[1, 2\\] have not called");
    }

    /** Over nodes the masters report a deadlock only when every node is blocked and no message is in flight. */
    @Test
    void cycleOfReceivesOverTwoNodes() {
        String report = run("cycle", 2, 2, 1);
        for (int r = 0; r < 4; r++) {
            expect(report, "rank " + r + ": .*receive\\(source=" + (r + 1) % 4 + ", tag=13, comm=COMM_WORLD\\)");
        }
    }

    @Test
    void collectiveThatOneRankSkipsOverThreeNodes() {
        String report = run("skip", 3, 1, 1);
        expect(report, "rank 0: .*MPI_Barrier.*COMM_WORLD");
        expect(report, "rank 1: .*MPI_Barrier.*COMM_WORLD");
        expect(report, "rank 2: .*receive\\(source=0, tag=12, comm=COMM_WORLD\\)");
    }

    @Test
    void receiveFromARankWhoseNodeHasEnded() {
        String report = run("recv", 3, 1, 1);
        expect(report, "rank 0: .*receive\\(source=1, tag=11, comm=COMM_WORLD\\)");
    }

    private static String run(String mode, int ranks, int running) {
        return run(mode, 1, ranks, running);
    }

    private static String run(String mode, int nodes, int perNode, int running) {
        JobResult r = JobRunner.job(Deadlocks.class).nodes(nodes).ranks(perNode).running(running).args(mode)
                .timeout(Duration.ofSeconds(60)).run();
        r.assertFailed();
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")), "a rank got past its blocking call");
        String report = Failed.report(r);
        Expect.that(r, report.startsWith("bdmpiexec: job failed: deadlock"), "not a deadlock report: " + report);
        long last = r.stdout().stream().map(BLOCKING::matcher).filter(Matcher::find)
                .mapToLong(m -> Long.parseLong(m.group(1))).max().orElseThrow(() -> new AssertionError(
                        "no rank said it was blocking\n" + r.describe()));
        long ms = r.exitedAtMillis() - last;
        Failed.record("deadlock " + mode, ms + " ms\t" + report);
        long allowed = Failed.MAX_MILLIS_AFTER_EVENT + (nodes > 1 ? SEVERAL_NODES_EXTRA_MS : 0);
        Expect.that(r, ms <= allowed, "the job ended " + ms + " ms after the last rank blocked");
        return report;
    }

    private static void expect(String report, String regex) {
        if (!Pattern.compile(regex).matcher(report).find()) {
            throw new AssertionError("the deadlock report does not match /" + regex + "/: " + report);
        }
    }
}
