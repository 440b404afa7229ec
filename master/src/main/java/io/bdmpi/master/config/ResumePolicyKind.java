package io.bdmpi.master.config;

/** Which runnable slave resumes when a running slot frees up. */
public enum ResumePolicyKind {
    /** The slave with the largest fraction of its memory resident in RAM (from /proc/PID/statm). */
    RESIDENT,
    /** The slave that became runnable first. */
    FIFO
}
