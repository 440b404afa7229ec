package io.bdmpi.master;

import io.bdmpi.protocol.SlaveRequest;

import java.util.concurrent.CompletableFuture;

/** Everything the scheduler thread reacts to; published to its ring by the other threads. */
sealed interface MasterEvent {

    /** A decoded request from a slave's socket (slave-io thread). */
    record RequestArrived(SlaveConnection connection, SlaveRequest request) implements MasterEvent {
    }

    /** A slave's socket closed or failed (slave-io thread). */
    record ConnectionLost(SlaveConnection connection, String reason) implements MasterEvent {
    }

    /** A slave's process ended (process reaper). */
    record ProcessExited(int worldRank, int exitCode) implements MasterEvent {
    }

    /** Stop the job now, as failed (signal, launcher). */
    record StopRequested(String reason, int exitCode) implements MasterEvent {
    }

    /** Hand a snapshot of the job's state to the caller (progress display, any time). */
    record SnapshotRequested(CompletableFuture<JobSnapshot> result) implements MasterEvent {
    }

    /** Hand a snapshot of the statistics to the caller (after the job ended). */
    record StatsRequested(CompletableFuture<JobStats> result) implements MasterEvent {
    }
}
