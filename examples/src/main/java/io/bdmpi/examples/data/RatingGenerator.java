package io.bdmpi.examples.data;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A sparse rating matrix (rows = users, columns = items, values 1..5) for matrix factorization.
 * User {@code u} rates between {@code avgRatings/2} and {@code 3*avgRatings/2} item draws with
 * skewed popularity (rank {@code floor(items * v^2)}, scattered by a {@link Permutation}). A
 * rating follows a hidden model of {@value #HIDDEN} factors in [-1, 1] per user and item:
 * {@code clamp(round(3 + 1.5 * <a_u, b_i> + noise), 1, 5)}, noise uniform in [-0.5, 0.5), so SGD
 * has something to learn. Each row is a pure function of {@code (seed, u)}.
 *
 * @param users      rows
 * @param items      columns, 1 .. 2^31 - 1
 * @param avgRatings average draws per user, at least 1
 * @param seed       selects the matrix
 */
public record RatingGenerator(long users, int items, int avgRatings, long seed) {

    static final int HIDDEN = 5;
    private static final long STREAM_ROW = 11;
    private static final long STREAM_DRAW = 12;
    private static final long STREAM_LENGTH = 13;
    private static final long STREAM_NOISE = 14;
    private static final long STREAM_USER_FACTOR = 100;
    private static final long STREAM_ITEM_FACTOR = 200;

    /** Checks the parameters. */
    public RatingGenerator {
        if (users < 0 || items < 1 || avgRatings < 1) {
            throw new IllegalArgumentException("users >= 0, items >= 1 and avg-ratings >= 1 needed, got "
                    + users + ", " + items + ", " + avgRatings);
        }
    }

    /** Writes the matrix to {@code out} (see {@link CsrFile}). */
    public void write(Path out, int chunkRows, int threads) throws IOException {
        Permutation scatter = new Permutation(items, seed ^ 0x5EEDL);
        RowGenerator.write(out, users, items, true, u -> row(u, scatter), chunkRows, threads);
    }

    private Row row(long u, Permutation scatter) {
        long rowSeed = Counter.bits(seed, STREAM_ROW, u);
        int draws = Math.max(1, avgRatings / 2 + (int) Counter.below(rowSeed, STREAM_LENGTH, 0, avgRatings + 1L));
        int[] drawn = new int[draws];
        for (int j = 0; j < draws; j++) {
            double v = Counter.unit(rowSeed, STREAM_DRAW, j);
            drawn[j] = (int) scatter.apply(Math.min(items - 1L, (long) (items * v * v)));
        }
        return Row.fromDraws(drawn, draws, (item, repeats) -> rating(u, item));
    }

    private float rating(long u, int item) {
        double dot = 0;
        for (int f = 0; f < HIDDEN; f++) {
            dot += (2 * Counter.unit(seed, STREAM_USER_FACTOR + f, u) - 1) * (2 * Counter.unit(seed, STREAM_ITEM_FACTOR + f, item) - 1);
        }
        double noise = Counter.unit(Counter.bits(seed, STREAM_NOISE, u), STREAM_NOISE, item) - 0.5;
        return (float) Math.max(1, Math.min(5, Math.round(3 + 1.5 * dot + noise)));
    }
}
