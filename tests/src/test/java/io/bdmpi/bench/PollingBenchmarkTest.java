package io.bdmpi.bench;

import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.bdmpi.bench.Report.column;

/**
 * What waiting by polling costs: a ping-pong whose receives complete by a loop on {@code test()}
 * against the same ping-pong completed by {@code waitFor()}, at each {@code -nr}. With {@code -nr 1}
 * a poll that finds nothing gives the slot to the other rank, so the loop should cost about what
 * a parked wait does; with a slot each, the poller spins through the master.
 *
 * <p>Properties: {@code bench.polling.warmUp} (2000), {@code .roundTrips} per batch (1000),
 * {@code .batches} (7), {@code .running} (-nr values, "1,2").
 */
@Tag("benchmark")
class PollingBenchmarkTest {

    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(5);

    private final int warmUp = BenchConfig.integer("bench.polling.warmUp", 2000, 100);
    private final int perBatch = BenchConfig.integer("bench.polling.roundTrips", 1000, 100);
    private final int batches = BenchConfig.integer("bench.polling.batches", 7, 3);
    private final List<Integer> runningCounts =
            BenchConfig.integers("bench.polling.running", List.of(1, 2), List.of(1, 2));

    @Test
    void pollingAgainstWaiting() {
        Report report = Report.of("polling", "A test() loop against waitFor() on the same message",
                column("config", "configuration"),
                column("roundTrips", "round trips timed"),
                column("medianUs", "µs / round trip (median batch)"),
                column("polls", "fruitless tests / round trip"),
                column("ratio", "ratio to waitFor (median)"));
        for (int running : runningCounts) {
            Result waiting = run("wait", running);
            Result polling = run("test", running);
            report.row("waitFor, -ns 2 -nr " + running, waiting.timed(), waiting.micros().median(), waiting.polls(), 1.0);
            report.row("test() loop, -ns 2 -nr " + running, polling.timed(), polling.micros().median(), polling.polls(),
                    polling.micros().median() / waiting.micros().median());
        }
        report.note("Each job: " + warmUp + " warm-up round trips, then " + batches + " batches of " + perBatch
                        + " timed in rank 0; both ranks receive with iRecv and complete it by waitFor or by test() in a loop.")
                .note("Fruitless tests are both ranks' tests that found nothing, per round trip.")
                .publish();
    }

    private record Result(Samples micros, double polls, long timed) {
    }

    private Result run(String mode, int running) {
        JobResult r = JobRunner.job(PollingPingPong.class).ranks(2).running(running)
                .args(mode, warmUp, perBatch, batches).timeout(JOB_TIMEOUT).run();
        Expect.successfulRun(r, 2, running);
        List<Measured> lines = Measured.from(r.stdout(), "PollingPingPong");
        Expect.that(r, lines.size() == batches, "expected " + batches + " PollingPingPong lines, got " + lines.size());
        Samples micros = Samples.of(lines.stream().map(m -> m.get("ns") / 1000.0 / m.get("roundTrips")).toList());
        double polls = lines.stream().mapToDouble(m -> (double) m.get("polls") / m.get("roundTrips")).average().orElse(0);
        return new Result(micros, polls, (long) batches * perBatch);
    }
}
