package io.bdmpi.bench;

import java.util.Arrays;
import java.util.Collection;

/** Summaries of repeated measurements. The median is what benchmarks compare: one noisy round moves it least. */
final class Samples {

    private final double[] sorted;

    private Samples(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no measurements");
        }
        sorted = values.clone();
        Arrays.sort(sorted);
    }

    static Samples of(Collection<? extends Number> values) {
        return new Samples(values.stream().mapToDouble(Number::doubleValue).toArray());
    }

    double median() {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    double min() {
        return sorted[0];
    }

    double max() {
        return sorted[sorted.length - 1];
    }

    double mean() {
        return Arrays.stream(sorted).average().orElseThrow();
    }

    int count() {
        return sorted.length;
    }
}
