package io.bdmpi.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One measurement line a benchmark program printed: {@code PROGRAM key=value key=value ...} with
 * integer values. Programs print such lines on stdout; for slaves they reach bdmpiexec's stdout.
 */
record Measured(Map<String, Long> values) {

    private static final Pattern PAIR = Pattern.compile("(\\w+)=(-?\\d+)");

    /** Every line of {@code lines} that starts with {@code program} and a space, parsed. */
    static List<Measured> from(List<String> lines, String program) {
        return lines.stream().filter(l -> l.startsWith(program + " ")).map(Measured::parse).toList();
    }

    /** The one line a program printed; fails unless it is a measurement line of {@code program}. */
    static Measured of(String line, String program) {
        if (!line.startsWith(program + " ")) {
            throw new AssertionError("expected a " + program + " measurement line, got '" + line + "'");
        }
        return parse(line);
    }

    /** The line for {@code program}, printed with {@code key=value key=value}. */
    static String line(String program, Object... keysAndValues) {
        StringBuilder sb = new StringBuilder(program);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            sb.append(' ').append(keysAndValues[i]).append('=').append(keysAndValues[i + 1]);
        }
        return sb.toString();
    }

    private static Measured parse(String line) {
        Map<String, Long> values = new LinkedHashMap<>();
        Matcher m = PAIR.matcher(line);
        while (m.find()) {
            values.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return new Measured(values);
    }

    long get(String key) {
        Long v = values.get(key);
        if (v == null) {
            throw new AssertionError("measurement has no " + key + ": " + values);
        }
        return v;
    }
}
