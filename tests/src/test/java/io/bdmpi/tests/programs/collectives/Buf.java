package io.bdmpi.tests.programs.collectives;

import mpi.MPI;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * A message buffer of one {@link Kind}: either a Java array or a direct buffer from
 * {@code MPI.newXBuffer}, with element access through {@code long} (see {@link Kind#narrow}).
 */
final class Buf {

    final Kind kind;
    final int length;
    final boolean direct;
    /** What is handed to MPI: the array or the direct buffer. */
    final Object obj;

    private Buf(Kind kind, int length, boolean direct, Object obj) {
        this.kind = kind;
        this.length = length;
        this.direct = direct;
        this.obj = obj;
    }

    static Buf of(Kind k, int n, boolean direct) {
        Object o;
        if (direct) {
            o = switch (k) {
                case BYTE -> MPI.newByteBuffer(n);
                case CHAR -> MPI.newCharBuffer(n);
                case SHORT -> MPI.newShortBuffer(n);
                case INT -> MPI.newIntBuffer(n);
                case LONG -> MPI.newLongBuffer(n);
                case FLOAT -> MPI.newFloatBuffer(n);
                case DOUBLE -> MPI.newDoubleBuffer(n);
            };
        } else {
            o = switch (k) {
                case BYTE -> new byte[n];
                case CHAR -> new char[n];
                case SHORT -> new short[n];
                case INT -> new int[n];
                case LONG -> new long[n];
                case FLOAT -> new float[n];
                case DOUBLE -> new double[n];
            };
        }
        return new Buf(k, n, direct, o);
    }

    /** The direct buffer, for the nonblocking calls. */
    Buffer buffer() {
        if (!direct) {
            throw new IllegalStateException("not a direct buffer");
        }
        return (Buffer) obj;
    }

    void fill(long v) {
        for (int i = 0; i < length; i++) {
            set(i, v);
        }
    }

    void set(int i, long v) {
        if (direct) {
            switch (kind) {
                case BYTE -> ((ByteBuffer) obj).put(i, (byte) v);
                case CHAR -> ((CharBuffer) obj).put(i, (char) v);
                case SHORT -> ((ShortBuffer) obj).put(i, (short) v);
                case INT -> ((IntBuffer) obj).put(i, (int) v);
                case LONG -> ((LongBuffer) obj).put(i, v);
                case FLOAT -> ((FloatBuffer) obj).put(i, (float) v);
                case DOUBLE -> ((DoubleBuffer) obj).put(i, (double) v);
            }
        } else {
            switch (kind) {
                case BYTE -> ((byte[]) obj)[i] = (byte) v;
                case CHAR -> ((char[]) obj)[i] = (char) v;
                case SHORT -> ((short[]) obj)[i] = (short) v;
                case INT -> ((int[]) obj)[i] = (int) v;
                case LONG -> ((long[]) obj)[i] = v;
                case FLOAT -> ((float[]) obj)[i] = (float) v;
                case DOUBLE -> ((double[]) obj)[i] = (double) v;
            }
        }
    }

    long get(int i) {
        if (direct) {
            return switch (kind) {
                case BYTE -> ((ByteBuffer) obj).get(i);
                case CHAR -> ((CharBuffer) obj).get(i);
                case SHORT -> ((ShortBuffer) obj).get(i);
                case INT -> ((IntBuffer) obj).get(i);
                case LONG -> ((LongBuffer) obj).get(i);
                case FLOAT -> (long) ((FloatBuffer) obj).get(i);
                case DOUBLE -> (long) ((DoubleBuffer) obj).get(i);
            };
        }
        return switch (kind) {
            case BYTE -> ((byte[]) obj)[i];
            case CHAR -> ((char[]) obj)[i];
            case SHORT -> ((short[]) obj)[i];
            case INT -> ((int[]) obj)[i];
            case LONG -> ((long[]) obj)[i];
            case FLOAT -> (long) ((float[]) obj)[i];
            case DOUBLE -> (long) ((double[]) obj)[i];
        };
    }

    String describe() {
        return kind + "[" + length + "] " + (direct ? "direct buffer" : "array");
    }
}
