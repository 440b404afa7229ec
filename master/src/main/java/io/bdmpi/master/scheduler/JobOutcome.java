package io.bdmpi.master.scheduler;

/**
 * How a job ended.
 *
 * @param exitCode 0 only if every rank finalized and exited 0
 * @param failure  one line saying why it failed, or null on success
 * @param rankDied whether it failed because a rank's process ended before MPI_Finalize (the
 *                 failure {@code --recover} rolls back from)
 */
public record JobOutcome(int exitCode, String failure, boolean rankDied) {

    static final JobOutcome SUCCESS = new JobOutcome(0, null, false);

    public static JobOutcome failed(int exitCode, String failure) {
        return new JobOutcome(exitCode == 0 ? 1 : exitCode, failure, false);
    }

    /** A rank's process ended early; the job's exit code is 1 whatever its status was. */
    static JobOutcome rankDied(String failure) {
        return new JobOutcome(1, failure, true);
    }
}
