package io.bdmpi.master.memory;

/**
 * One reading of a node's memory for {@code -nr auto}, taken by a {@link MemorySampler} off the
 * scheduler thread and handed to it in a {@link io.bdmpi.master.scheduler.MasterEvent.MemorySampled}. Arrays are indexed by
 * the slave's local index; -1 marks a slave that could not be measured (it has ended).
 *
 * @param budgetBytes    memory the job may use: its --memory-limit, or without one the node's
 *                       MemAvailable plus the anonymous memory the job holds already
 * @param limited        whether {@code budgetBytes} is a --memory-limit
 * @param masterBytes    the master's own anonymous memory (RssAnon + RssShmem)
 * @param slaveAnonBytes each slave's anonymous memory (RssAnon + RssShmem): its Java heap and the
 *                       JVM's own, which without swap stay in RAM while the slave is parked
 * @param slaveDataBytes the size of each slave's off-heap arrays: what it may touch while it
 *                       runs, and the OS may evict while it is parked
 */
public record MemorySample(long budgetBytes, boolean limited, long masterBytes, long[] slaveAnonBytes, long[] slaveDataBytes) {

    public MemorySample {
        if (slaveAnonBytes.length != slaveDataBytes.length) {
            throw new IllegalArgumentException("figures of " + slaveAnonBytes.length + " and " + slaveDataBytes.length + " slaves");
        }
        slaveAnonBytes = slaveAnonBytes.clone();
        slaveDataBytes = slaveDataBytes.clone();
    }

    /** Slaves measured. */
    public int slaves() {
        return slaveAnonBytes.length;
    }

    /** Whether slave {@code i} was measured. */
    public boolean measured(int i) {
        return slaveAnonBytes[i] >= 0 && slaveDataBytes[i] >= 0;
    }
}
