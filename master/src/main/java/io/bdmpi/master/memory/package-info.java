/**
 * The node's memory as the operating system sees it: the job's memory cgroup, readings of /proc,
 * the samplers that measure slaves off the scheduler thread ({@code ResidencySampler} for the
 * resume policy, {@code MemorySampler} for {@code -nr auto}), the read-ahead of the next slave's
 * data, and the warning about heaps without swap. Depends on no other package of the master:
 * samplers hand their readings to a plain {@code Consumer} or an atomic array.
 */
package io.bdmpi.master.memory;
