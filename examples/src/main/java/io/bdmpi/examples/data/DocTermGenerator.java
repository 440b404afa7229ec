package io.bdmpi.examples.data;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A sparse document-term matrix (rows = documents, columns = terms, value = term count) for
 * K-means. Document {@code d} has between {@code avgTerms/2} and {@code 3*avgTerms/2} term draws;
 * term popularity is skewed (a draw picks popularity rank {@code floor(terms * u^3)}, u uniform),
 * and popularity ranks are scattered over the columns by a {@link Permutation}. Each row is a pure
 * function of {@code (seed, d)}.
 *
 * @param docs     rows
 * @param terms    columns, 1 .. 2^31 - 1
 * @param avgTerms average draws per document, at least 1
 * @param seed     selects the matrix
 */
public record DocTermGenerator(long docs, int terms, int avgTerms, long seed) {

    private static final long STREAM_ROW = 1;
    private static final long STREAM_DRAW = 2;
    private static final long STREAM_LENGTH = 3;
    private static final double SKEW = 3;

    /** Checks the parameters. */
    public DocTermGenerator {
        if (docs < 0 || terms < 1 || avgTerms < 1) {
            throw new IllegalArgumentException("docs >= 0, terms >= 1 and avg-terms >= 1 needed, got "
                    + docs + ", " + terms + ", " + avgTerms);
        }
    }

    /** Writes the matrix to {@code out} (see {@link CsrFile}). */
    public void write(Path out, int chunkRows, int threads) throws IOException {
        Permutation scatter = new Permutation(terms, seed ^ 0x7E57L);
        RowGenerator.write(out, docs, terms, true, d -> row(d, scatter), chunkRows, threads);
    }

    private Row row(long d, Permutation scatter) {
        long rowSeed = Counter.bits(seed, STREAM_ROW, d);
        int draws = avgTerms / 2 + (int) Counter.below(rowSeed, STREAM_LENGTH, 0, avgTerms + 1L);
        draws = Math.max(1, draws);
        int[] drawn = new int[draws];
        for (int j = 0; j < draws; j++) {
            double u = Counter.unit(rowSeed, STREAM_DRAW, j);
            long rank = Math.min(terms - 1L, (long) (terms * Math.pow(u, SKEW)));
            drawn[j] = (int) scatter.apply(rank);
        }
        return Row.fromDraws(drawn, draws, (col, repeats) -> repeats);
    }
}
