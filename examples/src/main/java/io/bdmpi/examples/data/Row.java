package io.bdmpi.examples.data;

import java.util.Arrays;

/**
 * One generated row: strictly increasing columns and their values (null for a pattern row).
 *
 * @param cols   column indices
 * @param values values, or null
 */
public record Row(int[] cols, float[] values) {

    /**
     * A row from {@code n} drawn columns (in any order, repeats allowed) whose value is
     * {@code valueOf(column, repeats)}; sorted, repeats merged.
     */
    static Row fromDraws(int[] drawn, int n, ValueRule valueOf) {
        int[] sorted = Arrays.copyOf(drawn, n);
        Arrays.sort(sorted);
        int[] cols = new int[n];
        float[] values = valueOf == null ? null : new float[n];
        int k = 0;
        for (int i = 0; i < n; ) {
            int j = i;
            while (j < n && sorted[j] == sorted[i]) {
                j++;
            }
            cols[k] = sorted[i];
            if (values != null) {
                values[k] = valueOf.value(sorted[i], j - i);
            }
            k++;
            i = j;
        }
        return new Row(Arrays.copyOf(cols, k), values == null ? null : Arrays.copyOf(values, k));
    }

    /** The value of a column drawn {@code repeats} times into a row. */
    @FunctionalInterface
    interface ValueRule {
        float value(int col, int repeats);
    }
}
