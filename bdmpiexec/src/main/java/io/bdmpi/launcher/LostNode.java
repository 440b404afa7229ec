package io.bdmpi.launcher;

/**
 * A node of a job of several nodes whose master stopped answering on the side channel (killed,
 * stopped, its machine gone) or never reached bdmpiexec. The run that lost it ends; with
 * {@code --recover}, {@link MultiNodeLaunch#run()} starts the job again on the surviving hosts.
 *
 * @param node   the node's index (its master's MPI rank, 0 .. -nn - 1)
 * @param host   the host its master ran on, as the master named it (its host name), or the
 *               {@code --hosts} entry when it never connected
 * @param pid    its master's process id on that host, or -1 when it never connected
 * @param reason how it was lost, in words ("stopped answering for 2.6 s")
 */
public record LostNode(int node, String host, long pid, String reason) {

    /**
     * The one line bdmpiexec prints, without its "bdmpiexec: " prefix.
     *
     * @return e.g. {@code node 2 (host h) stopped answering for 2.6 s; ending the job}
     */
    public String describe() {
        return "node " + node + " (host " + host + ") " + reason + "; ending the job";
    }
}
