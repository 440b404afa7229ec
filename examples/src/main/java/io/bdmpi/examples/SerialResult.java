package io.bdmpi.examples;

/**
 * What a serial baseline run ends with.
 *
 * @param summary the summary line, the same as the MPI program's
 * @param timing  the {@link IterationTimer} line
 */
public record SerialResult(String summary, String timing) {
}
