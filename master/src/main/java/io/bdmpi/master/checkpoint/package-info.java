/**
 * Checkpoints and restores ({@code BDMPI.checkpoint}, {@code BDMPI.restore}): the directory of
 * checkpoints ({@code CheckpointStore}) and the master's part of the two collectives
 * ({@code Checkpointing}), which the collective engine calls with the members' sessions. May depend
 * on {@code session}, {@code store} and {@code slaveio} (removing directories).
 */
package io.bdmpi.master.checkpoint;
