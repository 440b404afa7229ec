package io.bdmpi.ooc;

/**
 * What happens to an off-heap array's pages when its slave resumes after being parked in a
 * blocking MPI call. Whatever the hint, parking releases the pages (the OS may then evict them
 * without swap: they are backed by the array's file) and nothing written is ever lost.
 */
public enum Residency {
    /** Nothing on resume: pages come back as they are touched (page faults). For data used sparsely. */
    NONE,
    /** {@code madvise(MADV_WILLNEED)} on resume: the kernel starts reading the whole array in, asynchronously. */
    WILLNEED,
    /**
     * On resume the array is read in sequentially, synchronously, with aggressive read-ahead
     * ({@code MADV_SEQUENTIAL}): the slave continues once its data is in memory. For data scanned whole.
     */
    SEQUENTIAL,
    /**
     * {@code mlock} on resume, {@code munlock} on park: the array is read in and cannot be evicted
     * while the slave runs. Locked pages count against the job's memory limit and cannot be
     * reclaimed: lock only what fits.
     */
    MLOCK
}
