package io.bdmpi.examples.store;

import io.bdmpi.ooc.ScratchBuffer;
import mpi.MPIException;

import java.io.IOException;
import java.nio.LongBuffer;
import java.nio.file.Path;

/**
 * Where an application keeps its large data: the arrays its algorithm core reads and writes. The
 * core sees only these small interfaces, so the paper's three styles are three implementations:
 * plain heap arrays ({@link HeapStorage}), off-heap mapped arrays prefetched at resume, and
 * arrays saved to disk before a blocking call and loaded after it.
 *
 * <p>A program opens one storage per run ({@link Styles#open}) and closes it at the end.
 * An MPI program calls {@link #beforeBlocking()} just before each blocking MPI call that may
 * park it, and {@link #afterBlocking()} just after it returns; between the two its arrays must
 * not be touched. The heap style does nothing there.
 */
public interface Storage extends AutoCloseable {

    /** A new array of {@code length} ints, all 0; {@code name} identifies it (e.g. for a file name). */
    Ints ints(String name, int length);

    /** A new array of {@code length} longs, all 0. */
    Longs longs(String name, int length);

    /** A new array of {@code length} floats, all 0. */
    Floats floats(String name, int length);

    /** A new array of {@code length} doubles, all 0. */
    Doubles doubles(String name, int length);

    /**
     * A new message buffer of {@code length} longs, all 0: an array that MPI calls send from and
     * receive into directly ({@link LongMessage#buffer()}). Unlike the other arrays it stays usable
     * inside a blocking call, where a receive fills it; so a style that moves its arrays out of
     * memory around blocking calls keeps it in a file mapping instead, whose pages the kernel can
     * write out while the rank is parked (a parked rank would otherwise hold every receive buffer
     * in RAM).
     */
    LongMessage longMessage(String name, int length);

    /** As {@link #longMessage}, for {@code int}. */
    IntMessage intMessage(String name, int length);

    /**
     * A new message buffer of {@code length} longs, all 0, for data that lives only from one
     * blocking call to the next: filled and sent, or received and read, then {@linkplain
     * LongScratch#drop dropped} before the rank blocks again: off-heap memory with no file behind
     * it ({@link ScratchBuffer}), a direct buffer as MPI's nonblocking calls need, which a drop
     * gives back to the OS. A message buffer of {@link #longMessage} would have its pages written
     * to disk and read back while its contents are dead.
     */
    default LongScratch longScratch(String name, int length) {
        return ScratchLongs.released(length);
    }

    /**
     * The {@code length} little-endian ints at byte {@code offset} of {@code file}, as an array
     * the program only reads, mapped from the file itself where this storage can (the
     * {@code mlock} style: no copy, and nothing to write out when the rank parks); null where it
     * cannot (the caller then reads them into an array of its own, see {@link #readOnly}). A
     * storage that maps one type of array from a file maps every type.
     */
    default Ints intsOfFile(String name, Path file, long offset, int length) {
        return null;
    }

    /** As {@link #intsOfFile}, for {@code float}. */
    default Floats floatsOfFile(String name, Path file, long offset, int length) {
        return null;
    }

    /**
     * The program will not modify {@code array} any more (input data, index maps built at set-up):
     * a style that writes its arrays out around blocking calls may keep the copy it has already
     * written instead of writing it again. Writing to it afterwards is a programming error whose
     * effect depends on the style.
     */
    default void readOnly(Array array) {
    }

    /**
     * The program no longer needs {@code array} (e.g. input columns once an index map replaced
     * them): a style that stores it may free its memory or file now. The array must not be used
     * afterwards.
     */
    default void discard(Array array) {
    }

    /** The program is about to block in MPI: its arrays may leave memory until {@link #afterBlocking()}. */
    default void beforeBlocking() {
    }

    /** The program runs again: its arrays are needed. */
    default void afterBlocking() {
    }

    /** Releases everything the arrays hold (memory, files); the arrays must not be used afterwards. */
    @Override
    default void close() throws IOException {
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

    /** What every array of a storage has in common. */
    interface Array {
        /** Number of elements. */
        int length();
    }

    /** Fixed-length int array. */
    interface Ints extends Array {
        /** Element {@code i}. */
        int get(int i);

        /** Sets element {@code i}. */
        void set(int i, int value);

        /** Sets elements {@code at .. at+len-1} to {@code src[0..len)}. */
        default void copyFrom(int at, int[] src, int len) {
            for (int i = 0; i < len; i++) {
                set(at + i, src[i]);
            }
        }

        /** Copies elements {@code at .. at+len-1} into {@code dst[0..len)}: one bulk read for a hot loop. */
        default void copyTo(int at, int[] dst, int len) {
            for (int i = 0; i < len; i++) {
                dst[i] = get(at + i);
            }
        }

        /** The elements themselves if they are one heap array (a hot loop reads it with no copy), else null. */
        default int[] heapArray() {
            return null;
        }
    }

    /** Fixed-length long array. */
    interface Longs extends Array {
        /** Element {@code i}. */
        long get(int i);

        /** Sets element {@code i}. */
        void set(int i, long value);

        /** Sets elements {@code at .. at+len-1} to {@code src[0..len)}. */
        default void copyFrom(int at, long[] src, int len) {
            for (int i = 0; i < len; i++) {
                set(at + i, src[i]);
            }
        }

        /** Copies elements {@code at .. at+len-1} into {@code dst[0..len)}: one bulk read for a hot loop. */
        default void copyTo(int at, long[] dst, int len) {
            for (int i = 0; i < len; i++) {
                dst[i] = get(at + i);
            }
        }
    }

    /** An array that is also an MPI buffer (see {@link #longMessage}). */
    interface Message extends Array {
        /** What to pass to an MPI call as its buffer: a Java array or a direct buffer of the element type. */
        Object buffer();
    }

    /** A long array that is also an MPI buffer. */
    interface LongMessage extends Longs, Message {
    }

    /** A long message buffer for data that lives from one blocking call to the next (see {@link #longScratch}). */
    interface LongScratch extends LongMessage {
        @Override
        LongBuffer buffer();

        /**
         * The contents are no longer needed: the memory may go back to the OS now (not in the
         * heap style, which holds all data in RAM anyway), and the elements are unspecified until
         * written again. A rank must drop the buffer before it blocks, or hold it in memory while
         * parked.
         */
        void drop();
    }

    /** An int array that is also an MPI buffer. */
    interface IntMessage extends Ints, Message {
    }

    /** Fixed-length float array. */
    interface Floats extends Array {
        /** Element {@code i}. */
        float get(int i);

        /** Sets element {@code i}. */
        void set(int i, float value);

        /** Sets elements {@code at .. at+len-1} to {@code src[0..len)}. */
        default void copyFrom(int at, float[] src, int len) {
            for (int i = 0; i < len; i++) {
                set(at + i, src[i]);
            }
        }

        /** Copies elements {@code at .. at+len-1} into {@code dst[0..len)}: one bulk read for a hot loop. */
        default void copyTo(int at, float[] dst, int len) {
            for (int i = 0; i < len; i++) {
                dst[i] = get(at + i);
            }
        }
    }

    /** Fixed-length double array. */
    interface Doubles extends Array {
        /** Element {@code i}. */
        double get(int i);

        /** Sets element {@code i}. */
        void set(int i, double value);

        /** Copies elements {@code at .. at+len-1} into {@code dst[0..len)}: one bulk read for a hot loop. */
        default void copyTo(int at, double[] dst, int len) {
            for (int i = 0; i < len; i++) {
                dst[i] = get(at + i);
            }
        }

        /** Copies {@code src[0..len)} into elements {@code at .. at+len-1}: one bulk write. */
        default void copyFrom(int at, double[] src, int len) {
            for (int i = 0; i < len; i++) {
                set(at + i, src[i]);
            }
        }
    }
}
