package io.bdmpi.tests.failures;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.EndlessStream;
import io.bdmpi.tests.programs.Sleeper;
import io.bdmpi.tests.programs.rma.WindowCrash;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.MasterProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A master of a job of three nodes (on this machine, over MPICH and over Open MPI) that stops
 * answering: stopped with SIGSTOP (its MPI and its sockets stay open, it just says nothing) or
 * killed with SIGKILL. bdmpiexec notices on its side channel within 5 s, prints one line naming
 * the node and its host, the other masters stop their slaves, and (the harness checks) no process,
 * work directory or /dev/shm entry of the job is left on any node.
 */
class LostMasterTest {

    /** The promise: a lost master is named within this long. */
    private static final long DETECT_MS = 5_000;
    /** Node 2 of 3 nodes of 2 slaves holds ranks 4 and 5. */
    private static final int NODES = 3;
    private static final int RANKS = 2;

    @TempDir
    Path dir;

    /** Besides, the report names the lost node, which has no data. */
    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void aStoppedMasterIsNamedWithinFiveSecondsAndTheJobEnds(MpiAbi library) throws IOException {
        Path report = dir.resolve("report.html");
        String line = checkLoss(library, 5, "STOP", "stopped answering for \\d+\\.\\d s", "--report", report.toString());
        String html = Files.readString(report, StandardCharsets.UTF_8);
        String lost = line.substring("bdmpiexec: ".length());
        assertTrue(html.contains("<td id=\"failure\" class=\"failed\">" + lost + "</td>"),
                "the report's failure names the lost node:\n" + html);
        assertTrue(html.contains("<tr data-node=\"2\"><td>2</td><td class=\"host\"></td><td colspan=\"9\" class=\"failed missing\">"
                + "no data: " + lost + "</td></tr>"), "the report's row of node 2 says why it has no data:\n" + html);
    }

    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void aKilledMasterIsNamedAndTheJobEnds(MpiAbi library) {
        checkLoss(library, 3, "KILL", "(stopped answering for \\d+\\.\\d s|is gone \\(.*\\))");
    }

    /**
     * A master killed while a rank of another node waits, parked, for the one-sided operations and
     * locks it keeps: the job ends, named as for any lost node, and nothing is left behind.
     */
    @ParameterizedTest(name = "over {0}")
    @EnumSource(MpiAbi.class)
    void aMasterLostWhileAnotherNodeUsesItsWindowEndsTheJob(MpiAbi library) {
        JobResult r = JobRunner.job(WindowCrash.class).nodes(2).mpi(library).ranks(2).running(2).args("remote")
                .timeout(Duration.ofSeconds(90))
                .whenStdoutHas("WindowCrash rank 0 works remotely", (launcher, workDir) -> {
                    Thread.sleep(500); // rank 0 is deep in its loop of remote locks and fetchAndOps
                    kill("KILL", JobRunner.slaveOfRank(launcher, 3).parent().orElseThrow().pid());
                }).run();
        r.assertFailed();
        List<String> named = r.stderr().stream().filter(l -> l.endsWith("; ending the job")).toList();
        Expect.that(r, named.size() == 1 && named.get(0).startsWith("bdmpiexec: node 1 "),
                "expected one line naming node 1, got " + named);
    }

    /**
     * A master killed while the master of another node copies a large message out of its memory:
     * under MPICH over UCX that master's single-copy read fails and UCX ends it too, within
     * milliseconds. bdmpiexec is held stopped across both deaths, so which connection end it reads
     * first is left to chance; the lost node is still node 1, as the library's fatal line names node
     * 2's master as its casualty. Three jobs, each killing at a random moment of the stream: the
     * second master dies in about half of them.
     */
    @Test
    void aMasterTheMpiLibraryEndsWithTheLostOneIsNotNamedLost() {
        int casualties = 0;
        for (int job = 0; job < 3; job++) {
            AtomicBoolean secondDied = new AtomicBoolean();
            JobResult r = JobRunner.job(EndlessStream.class).nodes(NODES).mpi(MpiAbi.MPICH).ranks(1).running(1).args(64 << 20)
                    .timeout(Duration.ofSeconds(90))
                    .whenStdoutHas("EndlessStream streaming", (launcher, workDir) -> {
                        ProcessHandle lost = JobRunner.slaveOfRank(launcher, 1).parent().orElseThrow();
                        ProcessHandle receiving = JobRunner.slaveOfRank(launcher, 2).parent().orElseThrow();
                        Thread.sleep(ThreadLocalRandom.current().nextInt(1_000));
                        kill("STOP", launcher.pid());
                        try {
                            kill("KILL", lost.pid());
                            secondDied.set(MasterProcess.awaitEnd(receiving.pid(), 1_000));
                        } finally {
                            kill("CONT", launcher.pid());
                        }
                    }).run();
            r.assertFailed();
            List<String> named = r.stderr().stream().filter(l -> l.endsWith("; ending the job")).toList();
            Expect.that(r, named.size() == 1 && named.get(0).matches("bdmpiexec: node 1 \\(host \\S+\\) is gone \\(.*\\); ending the job"),
                    "job " + job + (secondDied.get() ? ", where node 2's master died too" : "") + ": expected one line naming node 1, got " + named);
            casualties += secondDied.get() ? 1 : 0;
        }
        System.out.println("LostMasterTest: node 2's master died with node 1's in " + casualties + " of 3 jobs");
    }

    /**
     * Signals the master of {@code rank}'s node once that rank sleeps, checks the job's end, and
     * returns the line that named the lost node.
     */
    private static String checkLoss(MpiAbi library, int rank, String signal, String reason, String... options) {
        int node = rank / RANKS;
        AtomicLong signalledAt = new AtomicLong();
        AtomicLong signalledAtMillis = new AtomicLong();
        AtomicLong namedAfterMs = new AtomicLong(-1);
        AtomicReference<String> host = new AtomicReference<>();
        JobResult r = JobRunner.job(Sleeper.class).nodes(NODES).mpi(library).ranks(RANKS).running(RANKS).options(options)
                .timeout(Duration.ofSeconds(90))
                .whenStdoutHas("Sleeper rank " + rank + " sleeping", (launcher, workDir) -> {
                    ProcessHandle master = JobRunner.slaveOfRank(launcher, rank).parent().orElseThrow();
                    host.set(Files.readString(Path.of("/proc/sys/kernel/hostname")).trim());
                    kill(signal, master.pid());
                    signalledAt.set(System.nanoTime());
                    signalledAtMillis.set(System.currentTimeMillis());
                    Path stderr = workDir.getParent().resolve("stderr.txt");
                    while (System.nanoTime() - signalledAt.get() < 3 * DETECT_MS * 1_000_000L) {
                        if (Files.readString(stderr, StandardCharsets.UTF_8).contains("; ending the job")) {
                            namedAfterMs.set((System.nanoTime() - signalledAt.get()) / 1_000_000);
                            return;
                        }
                        Thread.sleep(20);
                    }
                }).run();
        r.assertFailed();
        Expect.that(r, signalledAt.get() > 0, "the master of node " + node + " was never found");
        List<String> named = r.stderr().stream().filter(l -> l.endsWith("; ending the job")).toList();
        Expect.that(r, named.size() == 1, named.size() + " lines ending the job, expected exactly one");
        String expected = "bdmpiexec: node " + node + " \\(host " + host.get() + "\\) " + reason + "; ending the job";
        Expect.that(r, named.get(0).matches(expected), "'" + named.get(0) + "' does not match " + expected);
        Expect.that(r, namedAfterMs.get() >= 0 && namedAfterMs.get() < DETECT_MS,
                "the lost node was named " + namedAfterMs.get() + " ms after SIG" + signal + " (expected within " + DETECT_MS + ")");
        System.out.println("LostMasterTest over " + library + ": node " + node + " named " + namedAfterMs.get() + " ms after SIG"
                + signal + "; bdmpiexec exited " + (r.exitedAtMillis() - signalledAtMillis.get()) + " ms after it");
        long failures = r.stderr().stream().filter(l -> l.startsWith("bdmpiexec: job failed: ")).count();
        Expect.that(r, failures == 0, failures + " 'job failed' lines: the other masters must stop quietly");
        return named.get(0);
    }

    private static void kill(String signal, long pid) throws IOException, InterruptedException {
        int rc = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor();
        if (rc != 0) {
            throw new AssertionError("kill -" + signal + " " + pid + " exited " + rc);
        }
    }
}
