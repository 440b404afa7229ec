package io.bdmpi.tests.programs.collectives;

import mpi.MPI;

import java.util.ArrayList;
import java.util.List;

/**
 * Result checks for the collective test programs.
 *
 * <p>Two kinds: {@link #that}, {@link #equal} and {@link #fail} are fatal: they throw an
 * {@link AssertionError} naming the world rank, which ends the rank with a non-zero exit and fails
 * the job (used where a wrong value would steer the program's further calls). Data checks
 * ({@link #elements}, {@link #failed}, {@link #dataEqual}) only record the failure and print it to
 * stderr at once, so that one wrong result does not hide the others (the program's sequence of
 * calls never depends on received data); {@link #ok} then throws instead of printing the OK line.
 */
final class CollCheck {

    /** Data-check failures printed per rank; more are only counted. */
    static final int MAX_PRINTED = 25;

    private static final List<String> FAILURES = new ArrayList<>();

    private CollCheck() {
    }

    static void that(boolean condition, String what) {
        if (!condition) {
            throw fail(what);
        }
    }

    static void equal(long expected, long actual, String what) {
        if (expected != actual) {
            throw fail(what + ": expected " + expected + ", got " + actual);
        }
    }

    static AssertionError fail(String what) {
        return new AssertionError(prefix() + what);
    }

    /** Records a wrong result (and prints it); the program goes on. */
    static void failed(String what) {
        FAILURES.add(what);
        if (FAILURES.size() <= MAX_PRINTED) {
            System.err.println(prefix() + what);
        }
    }

    static void dataEqual(long expected, long actual, String what) {
        if (expected != actual) {
            failed(what + ": expected " + expected + ", got " + actual);
        }
    }

    /**
     * Prints {@code <PROGRAM> rank R OK}; tests expect one such line per rank. If a data check
     * failed, throws instead.
     */
    static void ok(String program) {
        if (!FAILURES.isEmpty()) {
            throw fail(FAILURES.size() + " data check(s) failed; the first: " + FAILURES.get(0));
        }
        System.out.println(program + " rank " + worldRank() + " OK");
    }

    /** Expected value of element {@code i}. */
    interface At {
        long at(int i);
    }

    /**
     * Elements {@code from .. from+count-1} of {@code b} equal {@code expected.at(0 .. count-1)}
     * (narrowed to the buffer's kind). Records the first wrong element.
     */
    static void elements(Buf b, int from, int count, At expected, String what) {
        for (int j = 0; j < count; j++) {
            long want = b.kind.narrow(expected.at(j));
            long got = b.get(from + j);
            if (got != want) {
                failed(what + " (" + b.describe() + "): element " + (from + j) + " is " + got + ", expected " + want);
                return;
            }
        }
    }

    private static String prefix() {
        return "CHECK FAILED on rank " + worldRank() + ": ";
    }

    static int worldRank() {
        try {
            return MPI.COMM_WORLD.getRank();
        } catch (Exception e) {
            return -1;
        }
    }
}
