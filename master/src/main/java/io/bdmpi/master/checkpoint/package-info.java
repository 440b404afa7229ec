/**
 * Checkpoints and restores ({@code BDMPI.checkpoint}, {@code BDMPI.restore}): the directory of
 * checkpoints, one part per node and, in node-local directories, a buddy copy of another node's
 * ({@code CheckpointStore}), the master's part of the two collectives and the two-phase commit
 * over nodes, which waits for every part and every buddy copy ({@code Checkpointing}), which the collective
 * engine calls with the members' sessions. May depend on {@code session}, {@code store} and
 * {@code slaveio} (removing directories).
 */
package io.bdmpi.master.checkpoint;
