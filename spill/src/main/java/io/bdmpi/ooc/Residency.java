package io.bdmpi.ooc;

/**
 * What happens to an off-heap array's pages when its slave parks in a blocking MPI call and when
 * it resumes. The pages are backed by the array's file, so the OS can evict them without swap, and
 * nothing written is ever lost. Every hint but {@link #NONE} releases the array when its rank
 * parks (written back and reclaimed at once) and brings it back in its own way on resume.
 */
public enum Residency {
    /**
     * Left to the OS: no release on park, no prefetch on resume. Pages leave memory when the OS
     * needs it (least recently used first) and come back as they are touched. With the "most
     * resident first" policy a rank whose data is still in memory resumes first. For data used
     * sparsely, or when memory is not short.
     */
    NONE,
    /**
     * Released when the slave parks, like the hints below, but nothing is brought back on resume:
     * pages come back one by one as they are touched, so a rank that uses a small part of a large
     * array reads only that part. For data used sparsely by a rank that must not keep it in
     * memory while parked (a one-sided window's memory, by default).
     */
    LAZY,
    /** {@code madvise(MADV_WILLNEED)} on resume: the kernel starts reading the whole array in, asynchronously. */
    WILLNEED,
    /**
     * On resume the array is read in sequentially with aggressive read-ahead ({@code
     * MADV_SEQUENTIAL}), by a thread of its own: the slave continues at once, and a page it touches
     * before the read reaches it is read on the spot. For data scanned whole. ({@link
     * MappedArray#prefetch()} called directly reads it in before it returns.)
     */
    SEQUENTIAL,
    /**
     * {@code mlock} on resume, {@code munlock} on park: the array is read in and cannot be evicted
     * while the slave runs. Locked pages count against the job's memory limit and cannot be
     * reclaimed: lock only what fits.
     */
    MLOCK;

    /**
     * Whether a resume brings an array of this residency back whole (then the master reads it
     * ahead too); NONE and LAZY bring nothing back, so such an array needs no libc on resume.
     */
    boolean broughtBackWhole() {
        return this != NONE && this != LAZY;
    }
}
