package io.bdmpi.tests.failures;

import io.bdmpi.tests.programs.failures.Flood;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import mpi.MPI;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * The disk fills up while a large message is written (the job's {@code -wd} is an 8 MiB tmpfs):
 * the error names the directory and the size, no partial file is left or read as a message, and
 * under the default handler the job stops. Skipped where a tmpfs cannot be mounted.
 */
class DiskFullTest {

    private static final int BIG_MIB = 16;
    private static final String BIG_BYTES = Integer.toString(BIG_MIB * 1024 * 1024);

    @Test
    void defaultHandlerStopsTheJob() {
        JobResult r = JobRunner.job(Flood.class).ranks(2).running(2).inlineMax(4096).args("fatal", BIG_MIB)
                .workDirOnTmpfs("8m").timeout(Duration.ofSeconds(60)).run();
        Failed.Event e = Failed.event(r);
        Failed.check("disk full, fatal", r, MPI.ERR_OTHER, "^bdmpiexec: job failed: rank 0 \\(pid " + e.pid()
                + "\\) aborted the job \\(error code " + MPI.ERR_OTHER + "\\): MPI_Send: cannot write a message of "
                + BIG_BYTES + " bytes to /\\S+/spill: No space left on device");
        r.assertStdoutHasLine("Flood rank 1 received the small message");
    }

    @Test
    void errorsReturnLeavesNoPartialMessage() {
        JobResult r = JobRunner.job(Flood.class).ranks(2).running(2).inlineMax(4096).args("return", BIG_MIB)
                .workDirOnTmpfs("8m").timeout(Duration.ofSeconds(60)).run();
        r.assertSucceeded();
        Expect.okFromEveryRank(r, "Flood", 2);
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")), "see UNEXPECTED above");
        Expect.that(r, r.stdout().stream().anyMatch(l -> l.matches("Flood error class=" + MPI.ERR_OTHER
                + " msg=MPI_Send: cannot write a message of " + BIG_BYTES + " bytes to /\\S+/spill: No space left on device")),
                "rank 0 did not get ERR_OTHER naming the size and directory");
    }
}
