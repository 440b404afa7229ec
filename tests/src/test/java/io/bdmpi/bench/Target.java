package io.bdmpi.bench;

import java.util.Locale;

/**
 * A target for a ratio to its baseline, as stated in the issue that asked for the benchmark:
 * {@code <= bound} when lower is better (latency), {@code >= bound} when higher is (bandwidth).
 */
record Target(boolean atMost, double bound) {

    static Target atMost(double bound) {
        return new Target(true, bound);
    }

    static Target atLeast(double bound) {
        return new Target(false, bound);
    }

    boolean metBy(double ratio) {
        return atMost ? ratio <= bound : ratio >= bound;
    }

    @Override
    public String toString() {
        return (atMost ? "<= " : ">= ") + String.format(Locale.ROOT, "%.1f", bound) + "x";
    }
}
