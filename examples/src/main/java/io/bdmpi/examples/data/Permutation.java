package io.bdmpi.examples.data;

/**
 * A random permutation of {@code [0, n)} computed, not stored: a 4-round Feistel network over the
 * smallest even number of bits that covers {@code n}, with cycle walking for values that fall
 * outside {@code [0, n)}. Each evaluation costs a few hashes and no memory, whatever {@code n}.
 */
public final class Permutation {

    private static final int ROUNDS = 4;

    private final long n;
    private final long seed;
    private final int halfBits;
    private final long halfMask;

    /**
     * @param n    size of the domain, at least 1
     * @param seed selects the permutation
     */
    public Permutation(long n, long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("permutation of " + n + " elements");
        }
        this.n = n;
        this.seed = seed;
        int bits = Math.max(2, 64 - Long.numberOfLeadingZeros(n - 1));
        this.halfBits = (bits + 1) / 2;
        this.halfMask = (1L << halfBits) - 1;
    }

    /** The image of {@code x} (0 <= x < n). */
    public long apply(long x) {
        if (x < 0 || x >= n) {
            throw new IndexOutOfBoundsException(x + " outside [0, " + n + ")");
        }
        long y = x;
        do {
            y = encrypt(y);
        } while (y >= n); // cycle walking: the domain is at most 4n, so few steps on average
        return y;
    }

    private long encrypt(long x) {
        long left = x >>> halfBits;
        long right = x & halfMask;
        for (int round = 0; round < ROUNDS; round++) {
            long next = left ^ (Counter.bits(seed, round, right) & halfMask);
            left = right;
            right = next;
        }
        return (left << halfBits) | right;
    }
}
