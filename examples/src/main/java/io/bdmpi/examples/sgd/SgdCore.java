package io.bdmpi.examples.sgd;

import io.bdmpi.examples.data.Counter;
import io.bdmpi.examples.data.CsrBlock;
import io.bdmpi.examples.data.CsrFile;
import io.bdmpi.examples.store.Storage;

import java.io.IOException;

/**
 * Matrix factorization by stochastic gradient descent, shared by the MPI program and the serial
 * baseline. The rating matrix is cut into a q x q grid: user ranges balanced by non-zeros, item
 * ranges of equal width. An iteration has q steps; step s updates the blocks {@code (b, (b+s) mod q)}
 * of the s-th block diagonal, which share no user and no item, each in row order (user, then item).
 * As MPI and serial runs visit the ratings in this same order with the same arithmetic, their
 * factors and errors are bit-identical for the same q.
 *
 * <p>Per rating r of user u and item i: {@code e = r - <U_u, V_i>}, then
 * {@code U_u += rate (e V_i - reg U_u)} and {@code V_i += rate (e U_u - reg V_i)} (both from the old
 * values). Factors start uniform in [0, 0.1), a pure function of the seed and the index.
 */
public final class SgdCore {

    private static final long STREAM_USER = 41;
    private static final long STREAM_ITEM = 42;
    private static final double INITIAL_SCALE = 0.1;

    private SgdCore() {
    }

    /**
     * The q x q grid of a rating file.
     *
     * @param users user (row) boundaries, q + 1 of them
     * @param items item (column) boundaries, q + 1 of them
     */
    public record Grid(long[] users, long[] items) {

        /** The grid of {@code q} user ranges and {@code q} item ranges of {@code ratings}. */
        public static Grid of(CsrFile ratings, int q) throws IOException {
            long[] items = new long[q + 1];
            for (int b = 0; b <= q; b++) {
                items[b] = ratings.cols() * b / q;
            }
            return new Grid(ratings.partitionByNonZeros(q), items);
        }

        /** Users in user range {@code b}. */
        public int userCount(int b) {
            return Math.toIntExact(users[b + 1] - users[b]);
        }

        /** Items in item range {@code b}. */
        public int itemCount(int b) {
            return Math.toIntExact(items[b + 1] - items[b]);
        }
    }

    /** Sets the {@code count x factors} factors of users {@code first ..} to their initial values. */
    public static void initUsers(Storage.Doubles u, long first, int count, int factors, long seed) {
        init(u, STREAM_USER, first, count, factors, seed);
    }

    /** Sets the {@code count x factors} factors of items {@code first ..} to their initial values. */
    public static void initItems(Storage.Doubles v, long first, int count, int factors, long seed) {
        init(v, STREAM_ITEM, first, count, factors, seed);
    }

    private static void init(Storage.Doubles x, long stream, long first, int count, int factors, long seed) {
        for (int i = 0; i < count; i++) {
            for (int f = 0; f < factors; f++) {
                x.set(i * factors + f, INITIAL_SCALE * Counter.unit(seed, stream, (first + i) * factors + f));
            }
        }
    }

    /**
     * One pass over {@code block} in row order, updating the factors unless {@code update} is
     * false. User u's factors are at row {@code u - userBase} of {@code U}, item i's at row
     * {@code i - itemBase} of {@code V}.
     *
     * @param sse the running sum of squared errors before this block
     * @return the running sum after it (each error taken before its update)
     */
    public static double sweep(CsrBlock block, Storage.Doubles u, long userBase, Storage.Doubles v, long itemBase,
                               int factors, double rate, double reg, boolean update, double sse) {
        Storage.Ints rowPtr = block.rowPtr();
        Storage.Ints cols = block.cols();
        Storage.Floats ratings = block.values();
        for (int row = 0; row < block.rows(); row++) {
            int ub = (int) (block.firstRow() + row - userBase) * factors;
            for (int nz = rowPtr.get(row); nz < rowPtr.get(row + 1); nz++) {
                int vb = (int) (cols.get(nz) - itemBase) * factors;
                double predicted = 0;
                for (int f = 0; f < factors; f++) {
                    predicted += u.get(ub + f) * v.get(vb + f);
                }
                double e = ratings.get(nz) - predicted;
                sse += e * e;
                if (update) {
                    for (int f = 0; f < factors; f++) {
                        double uf = u.get(ub + f);
                        double vf = v.get(vb + f);
                        u.set(ub + f, uf + rate * (e * vf - reg * uf));
                        v.set(vb + f, vf + rate * (e * uf - reg * vf));
                    }
                }
            }
        }
        return sse;
    }

    /** The root mean square error from per-block sums of squared errors, added in block order. */
    public static double rmse(double[] blockSse, long ratings) {
        double sum = 0;
        for (double s : blockSse) {
            sum += s;
        }
        return ratings == 0 ? 0 : Math.sqrt(sum / ratings);
    }
}
