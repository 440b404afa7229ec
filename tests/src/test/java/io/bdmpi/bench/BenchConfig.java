package io.bdmpi.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Sizes and counts of the benchmarks, read from system properties so that a run can be made
 * shorter or longer without editing code. {@code -Dbench.quick=true} switches every default to a
 * small one: a smoke run that checks the harness in seconds, whose figures mean little.
 */
final class BenchConfig {

    private BenchConfig() {
    }

    /** Whether {@code -Dbench.quick=true} asked for the smoke-run defaults. */
    static boolean quick() {
        return Boolean.getBoolean("bench.quick");
    }

    /** The integer property {@code name}, else {@code normal} (or {@code quick} in a quick run). */
    static int integer(String name, int normal, int quick) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? (quick() ? quick : normal) : Integer.parseInt(value.trim());
    }

    /** The comma-separated integer list {@code name}, else {@code normal} (or {@code quick} in a quick run). */
    static List<Integer> integers(String name, List<Integer> normal, List<Integer> quick) {
        List<String> values = strings(name, null);
        return values == null ? (quick() ? quick : normal) : values.stream().map(Integer::valueOf).toList();
    }

    /** The comma-separated list {@code name}, else {@code normal}. */
    static List<String> strings(String name, List<String> normal) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            return normal;
        }
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
