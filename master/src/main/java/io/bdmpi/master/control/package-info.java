/**
 * The side channel between every master of a job of several nodes and {@code bdmpiexec}: a TCP
 * connection per master, independent of MPI, so that a master whose MPI calls block, or that is
 * stopped or gone, is still noticed. Over it a master says hello (node, host, pid), measures its
 * clock against the launcher's, and sends a heartbeat with its node's snapshot every
 * {@value io.bdmpi.master.control.LauncherLink#HEARTBEAT_MS} ms; the launcher answers with its own
 * heartbeats and names a lost node to the others. Masters started again after a lost node with
 * node-local checkpoint directories tell what their own directory holds, and the launcher answers
 * every one with the ranks' placement. May depend on {@code observe}.
 */
package io.bdmpi.master.control;
