package io.bdmpi.tests.programs.collectives;

import mpi.Intracomm;
import mpi.MPIException;

import java.util.Arrays;

/**
 * Deterministic data and independently computed references for collective checks on one
 * communicator. Every member of the communicator builds the same object (same label, block, salt)
 * and calls the same steps in the same order, so {@link #nextStep()} agrees across ranks.
 *
 * <p>Element {@code i} contributed by rank {@code q} in step {@code s} is {@link #val}(s, q, i): a
 * function of (salt, step, rank, index) only, so every rank can compute what any other rank sent,
 * and a stale value from an earlier step or another communicator never matches.
 */
abstract class Workload {

    /** What receive buffers are filled with first: parts a collective must not write keep it. */
    static final long SENTINEL = -1_234_567_891L;

    /** Kinds used by the data-movement collectives, rotated per call. */
    static final Kind[] MOVE_KINDS = {Kind.INT, Kind.DOUBLE, Kind.LONG, Kind.SHORT, Kind.BYTE, Kind.CHAR, Kind.FLOAT};
    /** Kinds whose SUM/MAX/MIN of {@link #val} values is exact whatever the order. */
    static final Kind[] REDUCE_KINDS = {Kind.INT, Kind.LONG, Kind.DOUBLE, Kind.SHORT};

    final Intracomm c;
    final String label;
    final int b;
    final int salt;
    final int rank;
    final int size;
    /** 0, size-1 and size/2, without repeats. */
    final int[] roots;
    private final String mode;
    private int step;
    private int picks;

    /**
     * @param mode {@code arrays}, {@code direct} or {@code mixed} (alternating per buffer, and
     *             differently on neighbouring ranks, so one call mixes arrays and direct buffers)
     */
    Workload(Intracomm c, String label, int block, int salt, String mode) throws MPIException {
        if (block < 1) {
            throw new IllegalArgumentException("block must be at least 1");
        }
        this.c = c;
        this.label = label;
        this.b = block;
        this.salt = salt;
        this.mode = mode;
        this.rank = c.getRank();
        this.size = c.getSize();
        this.roots = Arrays.stream(new int[] {0, size - 1, size / 2}).distinct().toArray();
        if (!mode.equals("arrays") && !mode.equals("direct") && !mode.equals("mixed")) {
            throw new IllegalArgumentException("unknown buffer mode " + mode);
        }
    }

    int nextStep() {
        return ++step;
    }

    /** Whether the next buffer is direct. */
    boolean pick() {
        return switch (mode) {
            case "arrays" -> false;
            case "direct" -> true;
            default -> ((picks++ + rank) & 1) == 1;
        };
    }

    Buf buf(Kind k, int n) {
        return Buf.of(k, n, pick());
    }

    Buf sentinelBuf(Kind k, int n) {
        Buf x = buf(k, n);
        x.fill(SENTINEL);
        return x;
    }

    /** A buffer holding {@code val(step, q, i)} for i in 0..n-1. */
    Buf valuesBuf(Kind k, int n, int step, int q) {
        Buf x = buf(k, n);
        for (int i = 0; i < n; i++) {
            x.set(i, val(step, q, i));
        }
        return x;
    }

    Kind moveKind(int j, int step) {
        return MOVE_KINDS[Math.floorMod(j + salt + step, MOVE_KINDS.length)];
    }

    Kind reduceKind(int j, int step) {
        return REDUCE_KINDS[Math.floorMod(j + salt + step, REDUCE_KINDS.length)];
    }

    /** What rank {@code q} contributes as element {@code i} in {@code step}. Magnitude below 3e9. */
    long val(int step, int q, int i) {
        long v = (Math.floorMod(salt, 1000) * 97L + step) * 100_003L + q * 1_000_003L + i * 7_919L + 11;
        return (q + i + step) % 5 == 0 ? -v : v;
    }

    /** Element {@code i} that rank {@code s} sends to rank {@code d} (all-to-all). */
    long pairVal(int step, int s, int d, int i) {
        return val(step, s, i) + d * 500_009L;
    }

    /** Per-rank count for the v-collectives: between b - b/2 and b, and 0 for every fourth rank. */
    int cnt(int step, int q) {
        if ((q + step) % 4 == 1) {
            return 0;
        }
        return b - (q * 5 + step) % (b / 2 + 1);
    }

    /** Count rank {@code s} sends to rank {@code d} in allToAllv: 0 for a third of the pairs, else 1..b. */
    int cnt2(int step, int s, int d) {
        if ((s + 2 * d + step) % 3 == 0) {
            return 0;
        }
        return 1 + (s * 7 + d * 3 + step) % b;
    }

    int[] counts(int step) {
        int[] k = new int[size];
        for (int q = 0; q < size; q++) {
            k[q] = cnt(step, q);
        }
        return k;
    }

    /** Block q of {@code counts[q]} elements at {@code displs[q]} in a buffer of {@code total}. */
    record Layout(int[] counts, int[] displs, int total) {
    }

    /** Blocks in reverse rank order, {@code gap} unused elements before each and after the last. */
    static Layout reversed(int[] counts, int gap) {
        int[] displs = new int[counts.length];
        int off = gap;
        for (int q = counts.length - 1; q >= 0; q--) {
            displs[q] = off;
            off += counts[q] + gap;
        }
        return new Layout(counts, displs, off);
    }

    /** Blocks in rank order, {@code gap} unused elements before each and after the last. */
    static Layout forward(int[] counts, int gap) {
        int[] displs = new int[counts.length];
        int off = gap;
        for (int q = 0; q < counts.length; q++) {
            displs[q] = off;
            off += counts[q] + gap;
        }
        return new Layout(counts, displs, off);
    }

    /** Contiguous blocks in rank order (as reduceScatter splits its input). */
    static int[] offsets(int[] counts) {
        int[] off = new int[counts.length + 1];
        for (int q = 0; q < counts.length; q++) {
            off[q + 1] = off[q] + counts[q];
        }
        return off;
    }

    interface BlockAt {
        long at(int q, int i);
    }

    /** A buffer of the layout's size: sentinel everywhere, then the given blocks (null = all). */
    Buf layoutBuf(Kind k, Layout l, BlockAt values, int onlyBlock) {
        Buf x = sentinelBuf(k, l.total());
        for (int q = 0; q < l.counts().length; q++) {
            if (onlyBlock >= 0 && q != onlyBlock) {
                continue;
            }
            for (int i = 0; i < l.counts()[q]; i++) {
                x.set(l.displs()[q] + i, values.at(q, i));
            }
        }
        return x;
    }

    /** Every block of the layout holds the expected values, and every other element the sentinel. */
    void expectLayout(Buf x, Layout l, BlockAt expected, String what) {
        boolean[] covered = new boolean[x.length];
        for (int q = 0; q < l.counts().length; q++) {
            int qq = q;
            expect(x, l.displs()[q], l.counts()[q], i -> expected.at(qq, i), what + ", block of rank " + q);
            for (int i = 0; i < l.counts()[q]; i++) {
                covered[l.displs()[q] + i] = true;
            }
        }
        long s = x.kind.narrow(SENTINEL);
        for (int i = 0; i < x.length; i++) {
            if (!covered[i] && x.get(i) != s) {
                CollCheck.failed(label + ": " + what + " (" + x.describe() + "): element " + i
                        + " lies outside every block (displs " + Arrays.toString(l.displs()) + ", counts "
                        + Arrays.toString(l.counts()) + ") but was overwritten with " + x.get(i));
                return;
            }
        }
    }

    void expect(Buf x, int from, int count, CollCheck.At expected, String what) {
        CollCheck.elements(x, from, count, expected, label + ": " + what);
    }

    /** The sentinel is still at {@code i} (an element a collective must not write). */
    void expectUntouched(Buf x, int i, String what) {
        long s = x.kind.narrow(SENTINEL);
        if (x.get(i) != s) {
            CollCheck.failed(label + ": " + what + " (" + x.describe() + "): element " + i
                    + " past the received count was overwritten with " + x.get(i));
        }
    }

    // ------------------------------------------------------------------ references

    /** SUM over ranks [from, to) of element i, in the arithmetic of kind k. */
    long sumRef(Kind k, int step, int from, int to, int i) {
        long s = 0;
        for (int q = from; q < to; q++) {
            s += k.narrow(val(step, q, i));
        }
        return k.narrow(s);
    }

    long maxRef(Kind k, int step, int from, int to, int i) {
        long m = Long.MIN_VALUE;
        for (int q = from; q < to; q++) {
            m = Math.max(m, k.narrow(val(step, q, i)));
        }
        return m;
    }

    long minRef(Kind k, int step, int from, int to, int i) {
        long m = Long.MAX_VALUE;
        for (int q = from; q < to; q++) {
            m = Math.min(m, k.narrow(val(step, q, i)));
        }
        return m;
    }
}
