package io.bdmpi.examples.data;

import io.bdmpi.examples.store.Storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * A result vector: raw little-endian {@code float64} or {@code int32} elements, no header (the
 * length is the file size over the element size). Several writers may fill disjoint ranges of one
 * file, each at its own element offset, which is how the ranks of a job write their slices.
 */
public final class VectorFile {

    private VectorFile() {
    }

    /** Writes {@code v[0..count)} as elements {@code at ..} of {@code path} (created if missing). */
    public static void writeDoubles(Path path, long at, Storage.Doubles v, int count) throws IOException {
        try (FileChannel ch = FileChannel.open(path, CREATE, WRITE)) {
            ch.position(at * Double.BYTES);
            LittleEndianOutput out = new LittleEndianOutput(ch);
            for (int i = 0; i < count; i++) {
                out.putDouble(v.get(i));
            }
            out.flush();
        }
    }

    /** Writes {@code v[0..count)} as elements {@code at ..} of {@code path} (created if missing). */
    public static void writeInts(Path path, long at, Storage.Ints v, int count) throws IOException {
        try (FileChannel ch = FileChannel.open(path, CREATE, WRITE)) {
            ch.position(at * Integer.BYTES);
            LittleEndianOutput out = new LittleEndianOutput(ch);
            for (int i = 0; i < count; i++) {
                out.putInt(v.get(i));
            }
            out.flush();
        }
    }

    /** The whole file as doubles. */
    public static double[] readDoubles(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, READ)) {
            double[] v = new double[Math.toIntExact(ch.size() / Double.BYTES)];
            LittleEndianInput in = new LittleEndianInput(ch, 0);
            for (int i = 0; i < v.length; i++) {
                v[i] = in.getDouble();
            }
            return v;
        }
    }

    /** The whole file as ints. */
    public static int[] readInts(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, READ)) {
            int[] v = new int[Math.toIntExact(ch.size() / Integer.BYTES)];
            LittleEndianInput in = new LittleEndianInput(ch, 0);
            for (int i = 0; i < v.length; i++) {
                v[i] = in.getInt();
            }
            return v;
        }
    }
}
