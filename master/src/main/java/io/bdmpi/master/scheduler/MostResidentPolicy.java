package io.bdmpi.master.scheduler;

import io.bdmpi.master.memory.ResidencySampler;
import io.bdmpi.master.session.SlaveSession;

import java.util.List;

/**
 * "Most resident first", as in the original BDMPI: the runnable slave with the largest fraction of
 * its memory in RAM resumes first, since it will fault least. Fractions come from a
 * {@link ResidencySampler}; ties go to the oldest runnable slave.
 */
public final class MostResidentPolicy implements ResumePolicy {

    private final ResidencySampler sampler;

    public MostResidentPolicy(ResidencySampler sampler) {
        this.sampler = sampler;
    }

    @Override
    public int pick(List<SlaveSession> runnable) {
        int best = 0;
        double bestFraction = -1;
        for (int i = 0; i < runnable.size(); i++) {
            double f = sampler.residentFraction(runnable.get(i).localIndex);
            if (f > bestFraction) {
                best = i;
                bestFraction = f;
            }
        }
        return best;
    }
}
