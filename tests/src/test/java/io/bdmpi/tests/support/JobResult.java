package io.bdmpi.tests.support;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a finished job left: bdmpiexec's exit code, its output (which includes every slave's output),
 * and the statistics it wrote.
 *
 * @param command  the bdmpiexec command line, for messages
 * @param exitCode bdmpiexec's exit code
 * @param stdout   lines bdmpiexec and the slaves wrote to stdout
 * @param stderr   lines bdmpiexec and the slaves wrote to stderr
 * @param stats    the parsed {@code --stats} file, or null when the job wrote none
 * @param statsProblem why {@code stats} is null (missing or unparsable file), or null
 * @param elapsed  wall time from starting bdmpiexec to its exit
 * @param exitedAtMillis wall-clock time ({@link System#currentTimeMillis()}) at which the harness saw
 *                 bdmpiexec exit, to measure the time from an event a program printed to the job's end
 */
public record JobResult(List<String> command, int exitCode, List<String> stdout, List<String> stderr, Stats stats,
                        String statsProblem, Duration elapsed, long exitedAtMillis) {

    /** Lines shown of each stream in a failure message. */
    private static final int SHOWN_LINES = 150;

    /** {@link #elapsed()} in seconds, as the benchmarks report it. */
    public double elapsedSeconds() {
        return elapsed.toNanos() / 1e9;
    }

    /** Fails, showing the whole job, unless bdmpiexec exited 0. Returns this for chaining. */
    public JobResult assertSucceeded() {
        if (exitCode != 0) {
            throw new AssertionError("job failed with exit code " + exitCode + "\n" + describe());
        }
        return this;
    }

    /** Fails, showing the whole job, unless bdmpiexec exited non-zero. */
    public JobResult assertFailed() {
        if (exitCode == 0) {
            throw new AssertionError("job was expected to fail but exited 0\n" + describe());
        }
        return this;
    }

    /** The statistics; fails (showing the job) when the job wrote none. */
    public Stats requireStats() {
        if (stats == null) {
            throw new AssertionError("no statistics: " + statsProblem + "\n" + describe());
        }
        return stats;
    }

    /** Stdout lines matching the whole of {@code regex}. */
    public List<String> stdoutMatching(String regex) {
        Pattern p = Pattern.compile(regex);
        return stdout.stream().filter(l -> p.matcher(l).matches()).toList();
    }

    /** Stderr lines that contain {@code regex} somewhere. */
    public List<String> stderrContaining(String regex) {
        Pattern p = Pattern.compile(regex);
        return stderr.stream().filter(l -> p.matcher(l).find()).toList();
    }

    /** Asserts that stdout has exactly one line equal to {@code line}. */
    public JobResult assertStdoutHasLine(String line) {
        long n = stdout.stream().filter(line::equals).count();
        if (n != 1) {
            throw new AssertionError("expected exactly one stdout line '" + line + "', found " + n + "\n" + describe());
        }
        return this;
    }

    /** Command, exit code, time, and the tail of both streams: for failure messages. */
    public String describe() {
        return "  command: " + String.join(" ", command) + "\n"
                + "  exit code: " + exitCode + ", elapsed: " + elapsed.toMillis() + " ms\n"
                + "  --- stdout (" + stdout.size() + " lines) ---\n" + tail(stdout)
                + "  --- stderr (" + stderr.size() + " lines) ---\n" + tail(stderr)
                + (stats == null ? "  stats: none (" + statsProblem + ")\n" : "  stats: " + stats + "\n");
    }

    static String tail(List<String> lines) {
        int from = Math.max(0, lines.size() - SHOWN_LINES);
        String skipped = from > 0 ? "  ... (" + from + " lines skipped)\n" : "";
        return skipped + lines.subList(from, lines.size()).stream().map(l -> "  | " + l + "\n").collect(Collectors.joining());
    }
}
