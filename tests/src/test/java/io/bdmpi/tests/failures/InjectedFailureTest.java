package io.bdmpi.tests.failures;

import io.bdmpi.tests.programs.failures.Inject;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * A slave that throws, exits, runs out of heap, is SIGKILLed or aborts, at every point of its life
 * (see {@link Inject}): bdmpiexec exits non-zero within 2 s of the event with one line naming the
 * rank, its pid, its exit status or signal and the MPI call it was in; and (the harness checks)
 * no process, file or /dev/shm entry of the job is left.
 */
class InjectedFailureTest {

    private static final int RANKS = 3;
    private static final int VICTIM = 1;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = ';', value = {
        // mode  ; where             ; bdmpiexec exit ; last MPI call (regex)
        "throw   ; running           ; 1   ; MPI_Barrier",
        "throw   ; recv              ; 1   ; MPI_Barrier",
        "throw   ; collective        ; 1   ; MPI_Barrier",
        "throw   ; before-init       ; 1   ; none \\(before MPI_Init\\)",
        "throw   ; after-finalize    ; 1   ; ",
        "exit    ; running           ; 1   ; MPI_Barrier",
        "exit    ; recv              ; 1   ; MPI_Barrier",
        "exit    ; collective        ; 1   ; MPI_Barrier",
        "exit    ; before-init       ; 1   ; none \\(before MPI_Init\\)",
        "exit    ; after-finalize    ; 3   ; ",
        "exit    ; parked-recv       ; 1   ; receive\\(source=2, tag=6, comm=COMM_WORLD\\)",
        "exit    ; parked-collective ; 1   ; MPI_Barrier.*(ranks )?\\[?0, 2",
        "oom     ; running           ; 1   ; MPI_Barrier",
        "oom     ; recv              ; 1   ; MPI_Barrier",
        "oom     ; collective        ; 1   ; MPI_Barrier",
        "oom     ; before-init       ; 1   ; none \\(before MPI_Init\\)",
        "oom     ; after-finalize    ; 124 ; ",
        "oom     ; parked-recv       ; 1   ; receive\\(source=2, tag=6, comm=COMM_WORLD\\)",
        "oom     ; parked-collective ; 1   ; MPI_Barrier.*(ranks )?\\[?0, 2",
        "sigkill ; running           ; 1   ; MPI_Barrier",
        "sigkill ; recv              ; 1   ; MPI_Barrier",
        "sigkill ; collective        ; 1   ; MPI_Barrier",
        "sigkill ; before-init       ; 1   ; none \\(before MPI_Init\\)",
        "sigkill ; after-finalize    ; 137 ; ",
        "sigkill ; parked-recv       ; 1   ; receive\\(source=2, tag=6, comm=COMM_WORLD\\)",
        "sigkill ; parked-collective ; 1   ; MPI_Barrier.*(ranks )?\\[?0, 2",
        "abort   ; running           ; 7   ; ",
        "abort   ; recv              ; 7   ; ",
        "abort   ; collective        ; 7   ; ",
        "abort   ; parked-recv       ; 7   ; ",
        "abort   ; parked-collective ; 7   ; ",
    })
    void failureEndsTheJobAndSaysWhy(String mode, String where, int exitCode, String lastCall) {
        failureEndsTheJob(1, RANKS, RANKS, mode, where, exitCode, lastCall);
    }

    /**
     * The victim dies in the middle of a ping-pong at {@code -nr 1} and {@code -nr 2}: thousands of
     * slave switches a second on the master's fast path, the victim parked in its receive or
     * running between two messages. Its last call is the receive or the send of the ping-pong.
     */
    @ParameterizedTest(name = "-nr {0}: {1} during a ping-pong")
    @CsvSource(delimiter = ';', value = {
        "1 ; sigkill ; 1",
        "1 ; exit    ; 1",
        "2 ; sigkill ; 1",
        "2 ; abort   ; 7",
    })
    void failureDuringFastSwitchesEndsTheJobAndSaysWhy(int running, String mode, int exitCode) {
        failureEndsTheJob(1, RANKS, running, mode, "pingpong", exitCode, "(MPI_Send\\(dest=0|receive\\(source=0), tag=9");
    }

    /** One rank per node ({@code -nn 3}): the victim's node says why, the other two stop quietly. */
    @ParameterizedTest(name = "-nn 3: {0} {1}")
    @CsvSource(delimiter = ';', value = {
        "throw   ; running           ; 1   ; MPI_Barrier",
        "exit    ; collective        ; 1   ; MPI_Barrier",
        "oom     ; recv              ; 1   ; MPI_Barrier",
        "sigkill ; parked-recv       ; 1   ; receive\\(source=2, tag=6, comm=COMM_WORLD\\)",
        "sigkill ; parked-collective ; 1   ; MPI_Barrier.*(ranks )?\\[?0, 2",
        "abort   ; running           ; 7   ; ",
    })
    void failureOnOneNodeEndsTheJobAndSaysWhy(String mode, String where, int exitCode, String lastCall) {
        failureEndsTheJob(RANKS, 1, 1, mode, where, exitCode, lastCall);
    }

    private static void failureEndsTheJob(int nodes, int perNode, int running, String mode, String where, int exitCode,
                                          String lastCall) {
        JobRunner job = JobRunner.job(Inject.class).nodes(nodes).ranks(perNode).running(running).inlineMax(4096)
                .args(mode, where, VICTIM).timeout(Duration.ofSeconds(60));
        if (mode.equals("oom")) {
            job.options("--slave-jvm-opts", "-Xmx48m");
        }
        JobResult r = job.run();
        Failed.Event e = Failed.event(r);
        Expect.that(r, e.rank() == VICTIM, "the marker names rank " + e.rank());
        String who = "^bdmpiexec: job failed: rank " + VICTIM + " \\(pid " + e.pid() + "\\) ";
        String what = switch (mode) {
            case "throw" -> "exited with status 1";
            case "exit" -> "exited with status 3";
            case "oom" -> "ran out of memory \\(OutOfMemoryError; exit status 124\\)";
            case "sigkill" -> "was killed by signal 9 \\(SIGKILL\\)";
            case "abort" -> "aborted the job \\(error code 7\\)";
            default -> throw new IllegalArgumentException(mode);
        };
        String when = mode.equals("abort") ? ""
                : where.equals("after-finalize") ? " after MPI_Finalize$"
                : " before MPI_Finalize; last MPI call: .*" + lastCall;
        Failed.check("-nn " + nodes + " " + mode + " " + where, r, exitCode, who + what + when,
                nodes == 1 ? Failed.MAX_MILLIS_AFTER_EVENT : Failed.MAX_MILLIS_AFTER_EVENT_ON_SEVERAL_NODES);
        if (mode.equals("oom")) {
            Expect.that(r, !r.stderrContaining(Pattern.quote("bdmpi: rank " + VICTIM + ": out of memory")).isEmpty(),
                    "the slave did not say it ran out of memory");
        }
    }
}
