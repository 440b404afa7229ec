package io.bdmpi.tests.programs;

/** Small arithmetic on lists of ranks that the test programs' models share. */
public final class Ranks {

    private Ranks() {
    }

    /** The position of {@code rank} in {@code ranks}, or -1. */
    public static int indexOf(int[] ranks, int rank) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == rank) {
                return i;
            }
        }
        return -1;
    }

    /** 0, 1, ..., n - 1. */
    public static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }
}
