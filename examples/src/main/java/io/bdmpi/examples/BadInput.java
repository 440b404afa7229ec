package io.bdmpi.examples;

import mpi.Comm;
import mpi.MPIException;

import java.io.IOException;
import java.nio.file.NoSuchFileException;

/**
 * How the MPI applications end on bad input: one line {@code APP: reason} on stderr, then the job
 * is aborted with {@link #EXIT_CODE}. Every failing rank reports, because any of them may be the
 * first to run and abort; usually that first one is the only line. An I/O failure names its rank,
 * as it may hit one rank only.
 */
public final class BadInput {

    /** Exit code of a job or serial run that was given bad input. */
    public static final int EXIT_CODE = 2;

    private BadInput() {
    }

    /** Reports {@code e} and aborts the job; does not return. */
    public static void abort(String app, Comm comm, Exception e) throws MPIException {
        String where = e instanceof IOException ? "rank " + comm.getRank() + ": " : "";
        System.err.println(app + ": " + where + describe(e));
        comm.abort(EXIT_CODE);
    }

    /** Reports {@code e} for a serial program and exits. */
    public static void exit(String app, Exception e) {
        System.err.println(app + ": " + describe(e));
        System.exit(EXIT_CODE);
    }

    private static String describe(Exception e) {
        if (e instanceof NoSuchFileException) {
            return "no such file: " + e.getMessage();
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
