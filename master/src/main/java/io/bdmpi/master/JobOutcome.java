package io.bdmpi.master;

/**
 * How a job ended.
 *
 * @param exitCode 0 only if every rank finalized and exited 0
 * @param failure  one line saying why it failed, or null on success
 */
record JobOutcome(int exitCode, String failure) {

    static final JobOutcome SUCCESS = new JobOutcome(0, null);

    static JobOutcome failed(int exitCode, String failure) {
        return new JobOutcome(exitCode == 0 ? 1 : exitCode, failure);
    }
}
