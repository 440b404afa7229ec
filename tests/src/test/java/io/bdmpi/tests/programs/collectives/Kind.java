package io.bdmpi.tests.programs.collectives;

import mpi.Datatype;
import mpi.MPI;

/** The basic datatypes that have both an array and a direct-buffer form (everything but BOOLEAN). */
enum Kind {
    BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE;

    Datatype type() {
        return switch (this) {
            case BYTE -> MPI.BYTE;
            case CHAR -> MPI.CHAR;
            case SHORT -> MPI.SHORT;
            case INT -> MPI.INT;
            case LONG -> MPI.LONG;
            case FLOAT -> MPI.FLOAT;
            case DOUBLE -> MPI.DOUBLE;
        };
    }

    /**
     * What an element of this kind reads back as (through {@link Buf#get}) after {@code v} was
     * stored in it: the value narrowed to the Java type (char unsigned; float and double rounded).
     */
    long narrow(long v) {
        return switch (this) {
            case BYTE -> (byte) v;
            case CHAR -> (char) v;
            case SHORT -> (short) v;
            case INT -> (int) v;
            case LONG -> v;
            case FLOAT -> (long) (float) v;
            case DOUBLE -> (long) (double) v;
        };
    }
}
