package io.bdmpi.tests.programs;

import java.util.Arrays;
import java.util.Random;

/** Small pieces the randomized test programs' plans and models share. */
public final class Models {

    private Models() {
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

    /** Index {@code i} with probability {@code weights[i]} over their sum: one draw from {@code plan}. */
    public static int weighted(Random plan, int[] weights) {
        int draw = plan.nextInt(Arrays.stream(weights).sum());
        int i = 0;
        while (draw >= weights[i]) {
            draw -= weights[i++];
        }
        return i;
    }
}
