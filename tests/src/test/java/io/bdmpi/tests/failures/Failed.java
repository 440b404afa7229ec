package io.bdmpi.tests.failures;

import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks of a job that was made to fail: exit status, bdmpiexec's one report line, and the time
 * from the injected event (a marker the program printed just before it) to bdmpiexec's exit.
 * Every measured time is also appended to {@code target/failure-timings.txt}.
 */
final class Failed {

    /** Target from the issue: the job ends within 2 s of the event (on one node). */
    static final long MAX_MILLIS_AFTER_EVENT = JobRunner.scaled(Duration.ofSeconds(2)).toMillis();
    /** On several nodes the news crosses MPI and mpiexec must see every master out. */
    static final long MAX_MILLIS_AFTER_EVENT_ON_SEVERAL_NODES = JobRunner.scaled(Duration.ofSeconds(5)).toMillis();

    private static final Pattern MARKER = Pattern.compile("INJECT rank (\\d+) pid (\\d+) .* at=(\\d+)");

    private Failed() {
    }

    /** The victim's marker: rank, pid and time of the event. */
    record Event(int rank, long pid, long atMillis) {
    }

    /** The one marker line the victim printed; fails when there is none or several. */
    static Event event(JobResult r) {
        List<Matcher> found = r.stdout().stream().map(MARKER::matcher).filter(Matcher::find).toList();
        Expect.that(r, found.size() == 1, found.size() + " INJECT marker lines on stdout, expected 1");
        Matcher m = found.get(0);
        return new Event(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
    }

    /**
     * The job failed with {@code exitCode}, printed exactly one {@code bdmpiexec:} line, which
     * matches {@code reportRegex} (searched), no rank got past its blocking call, and it ended
     * within {@link #MAX_MILLIS_AFTER_EVENT} of the victim's marker.
     *
     * @return the report line
     */
    static String check(String what, JobResult r, int exitCode, String reportRegex) {
        return check(what, r, exitCode, reportRegex, MAX_MILLIS_AFTER_EVENT);
    }

    /** As {@link #check(String, JobResult, int, String)}, with the job ending within {@code maxMillis} of the event. */
    static String check(String what, JobResult r, int exitCode, String reportRegex, long maxMillis) {
        Expect.that(r, r.exitCode() == exitCode, "bdmpiexec exited " + r.exitCode() + ", expected " + exitCode);
        String report = report(r);
        Expect.that(r, Pattern.compile(reportRegex).matcher(report).find(),
                "bdmpiexec's report does not match /" + reportRegex + "/: " + report);
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")), "a rank got past its blocking call");
        Event e = event(r);
        long ms = r.exitedAtMillis() - e.atMillis();
        record(what, ms + " ms\t" + report);
        Expect.that(r, ms <= maxMillis, "bdmpiexec exited " + ms + " ms after the event, more than " + maxMillis);
        return report;
    }


    /** The one line bdmpiexec itself printed on stderr (starting "bdmpiexec: "), warnings aside. */
    static String report(JobResult r) {
        List<String> lines = r.stderr().stream()
                .filter(l -> l.startsWith("bdmpiexec: ") && !l.startsWith("bdmpiexec: warning: ")).toList();
        Expect.that(r, lines.size() == 1, lines.size() + " 'bdmpiexec: ' lines on stderr, expected exactly one report");
        return lines.get(0);
    }

    static synchronized void record(String what, String measured) {
        String line = what + "\t" + measured + "\n";
        try {
            Path file = Path.of("target", "failure-timings.txt");
            Files.createDirectories(file.getParent());
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
