package io.bdmpi.master.scheduler;

import io.bdmpi.master.session.SlaveSession;

import java.util.List;

/** Chooses which runnable slave gets a free running slot. Called on the scheduler thread only. */
public interface ResumePolicy {

    /**
     * @param runnable non-empty, oldest runnable first
     * @return the index in {@code runnable} of the slave to resume
     */
    int pick(List<SlaveSession> runnable);

    /** The oldest runnable slave first. */
    ResumePolicy FIFO = runnable -> 0;
}
