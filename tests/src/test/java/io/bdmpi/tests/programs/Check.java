package io.bdmpi.tests.programs;

import mpi.MPI;

import java.util.Objects;

/**
 * Result checks for the test programs. A failed check throws an {@link AssertionError} naming the
 * rank and what was wrong; out of {@code main} that ends the rank with a non-zero exit, which fails
 * the job. {@link #ok} prints the line tests look for to know the program really ran to its end.
 * Public for the programs in sub-packages.
 */
public final class Check {

    private Check() {
    }

    public static void that(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(prefix() + what);
        }
    }

    public static void equal(long expected, long actual, String what) {
        if (expected != actual) {
            throw new AssertionError(prefix() + what + ": expected " + expected + ", got " + actual);
        }
    }

    public static void equal(Object expected, Object actual, String what) {
        if (!Objects.equals(expected, actual)) {
            throw new AssertionError(prefix() + what + ": expected " + expected + ", got " + actual);
        }
    }

    public static AssertionError fail(String what) {
        return new AssertionError(prefix() + what);
    }

    /** Prints {@code <PROGRAM> rank R OK}; tests expect one such line per rank. */
    public static void ok(String program) {
        System.out.println(program + " rank " + rank() + " OK");
    }

    private static String prefix() {
        return "CHECK FAILED on rank " + rank() + ": ";
    }

    private static int rank() {
        try {
            return MPI.COMM_WORLD.getRank();
        } catch (Exception e) {
            return -1;
        }
    }
}
