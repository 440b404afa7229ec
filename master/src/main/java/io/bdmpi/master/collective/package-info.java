/**
 * The collective engine: communicators ({@code Communicators}, {@code Communicator}), operations
 * in progress ({@code CollectiveOp}), splits, reductions, and the spill files several members read
 * ({@code SharedSpillFiles}). Driven by the scheduler thread; it reports back through
 * {@code Collectives.Listener} and ships starts to other nodes through
 * {@code Collectives.RemoteStarts}, both implemented above it. May depend on {@code session},
 * {@code checkpoint} and {@code internode}.
 */
package io.bdmpi.master.collective;
