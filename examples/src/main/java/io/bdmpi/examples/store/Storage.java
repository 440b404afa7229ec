package io.bdmpi.examples.store;

import mpi.MPIException;

/**
 * Where an application keeps its large data: the arrays its algorithm core reads and writes. The
 * core sees only these small interfaces, so the paper's three styles are three implementations:
 * plain heap arrays ({@link HeapStorage}), off-heap mapped arrays prefetched at resume, and
 * arrays saved to disk before a blocking call and loaded after it.
 *
 * <p>An MPI program calls {@link #beforeBlocking()} just before each blocking MPI call that may
 * park it, and {@link #afterBlocking()} just after it returns; between the two its arrays must
 * not be touched. The heap style does nothing there.
 */
public interface Storage {

    /** A new array of {@code length} ints, all 0; {@code name} identifies it (e.g. for a file name). */
    Ints ints(String name, int length);

    /** A new array of {@code length} longs, all 0. */
    Longs longs(String name, int length);

    /** A new array of {@code length} floats, all 0. */
    Floats floats(String name, int length);

    /** A new array of {@code length} doubles, all 0. */
    Doubles doubles(String name, int length);

    /** The program is about to block in MPI: its arrays may leave memory until {@link #afterBlocking()}. */
    default void beforeBlocking() {
    }

    /** The program runs again: its arrays are needed. */
    default void afterBlocking() {
    }

    /** Runs a blocking MPI call between {@link #beforeBlocking()} and {@link #afterBlocking()}. */
    default void blocking(BlockingCall call) throws MPIException {
        beforeBlocking();
        try {
            call.run();
        } finally {
            afterBlocking();
        }
    }

    /** An MPI call that may park the rank. */
    @FunctionalInterface
    interface BlockingCall {
        void run() throws MPIException;
    }

    /** Fixed-length int array. */
    interface Ints {
        int get(int i);

        void set(int i, int value);

        int length();
    }

    /** Fixed-length long array. */
    interface Longs {
        long get(int i);

        void set(int i, long value);

        int length();
    }

    /** Fixed-length float array. */
    interface Floats {
        float get(int i);

        void set(int i, float value);

        int length();
    }

    /** Fixed-length double array. */
    interface Doubles {
        double get(int i);

        void set(int i, double value);

        int length();
    }
}
