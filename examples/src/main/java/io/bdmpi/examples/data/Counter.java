package io.bdmpi.examples.data;

/**
 * Counter-based random numbers: every value is a pure function of {@code (seed, stream, index)},
 * so generated data does not depend on how the work is split among threads, chunks or ranks.
 * The mixing function is SplitMix64's finalizer (Steele, Lea, Flood 2014), applied twice with the
 * stream folded in between, which passes BigCrush for sequential indices.
 */
public final class Counter {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final double UNIT = 0x1.0p-53;

    private Counter() {
    }

    /** SplitMix64's output function: a bijection on 64-bit values with good avalanche. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The 64 random bits number {@code index} of stream {@code stream} under {@code seed}. */
    public static long bits(long seed, long stream, long index) {
        return mix(mix(seed * GOLDEN + stream) + (index + 1) * GOLDEN);
    }

    /** A uniform double in [0, 1) from {@link #bits}. */
    public static double unit(long seed, long stream, long index) {
        return (bits(seed, stream, index) >>> 11) * UNIT;
    }

    /** A uniform long in [0, bound) from {@link #unit} (0 < bound <= 2^53). */
    public static long below(long seed, long stream, long index, long bound) {
        return Math.min(bound - 1, (long) (unit(seed, stream, index) * bound));
    }
}
