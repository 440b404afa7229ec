package io.bdmpi.tests.failures;

import io.bdmpi.tests.programs.failures.Misuse;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * MPI misuse in a real job: under {@code ERRORS_RETURN} each raises {@code MPIException} with the
 * right error class and the job goes on; under the default handler the job ends with a report
 * naming the rank, its pid, the call and the error class. See {@link Misuse}. (Mismatched
 * collective arguments are detected by the master and always end the job: see MismatchTest.)
 */
class MisuseTest {

    @Test
    void errorsReturnRaisesTheRightClass() throws Exception {
        JobResult r = JobRunner.job(Misuse.class).ranks(2).running(2).args("return").timeout(Duration.ofSeconds(60)).run();
        Expect.okFromEveryRank(r, "Misuse", 2);
        r.assertSucceeded();
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("before-init", 0);
        expected.put("double-init", 0);
        expected.put("rank", MPI.ERR_RANK);
        expected.put("root", MPI.ERR_ROOT);
        expected.put("tag", MPI.ERR_TAG);
        expected.put("count", MPI.ERR_COUNT);
        expected.put("null-buffer", MPI.ERR_BUFFER);
        expected.put("small-buffer", MPI.ERR_BUFFER);
        expected.put("buffer-type", MPI.ERR_TYPE);
        expected.put("offset", MPI.ERR_BUFFER);
        expected.put("freed-type", MPI.ERR_TYPE);
        expected.put("freed-comm", MPI.ERR_COMM);
        expected.put("after-finalize", 0);
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            String prefix = "MISUSE " + e.getKey() + " class=" + e.getValue() + " msg=";
            long n = r.stdout().stream().filter(l -> l.startsWith(prefix)).count();
            Expect.that(r, n == 2, n + " of 2 ranks reported '" + prefix + "...'");
        }
        Expect.that(r, r.stdout().stream().filter(l -> l.startsWith("MISUSE truncate class=" + MPI.ERR_TRUNCATE + " msg=")).count() == 1,
                "rank 1 did not report ERR_TRUNCATE");
        Expect.that(r, r.stdout().stream().anyMatch(l -> l.startsWith("MISUSE before-init") && l.contains("not initialized")),
                "the call before Init does not say MPI is not initialized");
        Expect.that(r, r.stdout().stream().anyMatch(l -> l.startsWith("MISUSE offset") && l.endsWith(
                "msg=MPI_Send: offset 10 lies outside the int[4] (an mpiJava offset counts elements of the array)")),
                "the mpiJava offset past the array's end is not reported as such");
        Expect.that(r, r.stdout().stream().anyMatch(l -> l.startsWith("MISUSE freed-type") && l.endsWith(
                "msg=MPI_Send: the datatype has been freed")), "the freed datatype is not reported as such");
        Expect.that(r, r.stdout().stream().anyMatch(l -> l.startsWith("MISUSE after-finalize") && l.contains("finalized")),
                "the call after Finalize does not say MPI is finalized");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "rank        ; 6  ; MPI_Send: invalid rank 2.*\\(MPI_ERR_RANK\\)",
        "buffer-type ; 3  ; MPI_Send: .*boolean.*\\(MPI_ERR_TYPE\\)",
        "freed-comm  ; 5  ; MPI_Comm_rank: null communicator \\(freed\\) \\(MPI_ERR_COMM\\)",
    })
    void defaultHandlerEndsTheJobSayingWhy(String which, int errorClass, String detail) {
        JobResult r = JobRunner.job(Misuse.class).ranks(2).running(2).args("fatal", which)
                .timeout(Duration.ofSeconds(60)).run();
        Failed.Event e = Failed.event(r);
        Failed.check("misuse fatal " + which, r, errorClass,
                "^bdmpiexec: job failed: rank 1 \\(pid " + e.pid() + "\\) aborted the job \\(error code " + errorClass
                        + "\\): " + detail);
        Expect.that(r, !r.stderrContaining("^bdmpi: rank 1: .*" + detail).isEmpty(), "the slave's own line is missing");
    }
}
