package io.bdmpi.launcher;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node of the job that was lost: its master (or its machine) died or stopped answering, so the
 * run ends and, with {@code --recover}, goes on without it.
 *
 * <p>The side channel ({@link JobWatch}) names the node: the first master whose connection ended
 * without a goodbye, or that stopped answering. That is the lost one, as the others live on to say
 * goodbye: a stopped master is named by its silence; a dead one under Open MPI, whose mpiexec ends
 * the others with SIGTERM, which they answer with a goodbye, and with SIGKILL only a second later
 * ({@code odls_base_sigkill_timeout}); a dead one under MPICH, whose hydra SIGKILLs every other
 * rank's process group within milliseconds (even with {@code -disable-auto-cleanup}, once their
 * MPI has talked to the dead one), because each master runs in a session of its own under a
 * {@code setsid} wrapper (see {@link MultiNodeLaunch#command}): hydra's cleanup ends the wrappers,
 * the masters live on, are told of the loss and say goodbye. (Without the wrapper all connections
 * would end at once, and which one bdmpiexec read to its end first would be a race.) A master the
 * MPI library itself ends with the lost one is told apart by the library's line
 * ({@link MpiCasualties}). Hydra's own report does not help: it names whichever process it reaped
 * first.
 *
 * <p>What mpiexec reports serves when the side channel names no node: a master that died before it
 * reached bdmpiexec. Open MPI names its MPI rank, which is the node; under MPICH the side channel
 * names it once it has not connected within {@link JobWatch#CONNECT_LIMIT_MS}.
 *
 * @param node the lost node, as numbered in the run that lost it
 * @param how  what happened, for the announcement
 */
record NodeLoss(int node, String how) {

    /** Open MPI: {@code mpiexec noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).} */
    private static final Pattern OPEN_MPI = Pattern.compile("process rank (\\d+) with PID \\d+ on node (\\S+) exited on signal (\\d+)");

    /** The node lost by {@code lost}, which the side channel declared. */
    static NodeLoss of(LostNode lost) {
        return new NodeLoss(lost.node(), "its master on " + lost.host() + " " + lost.reason());
    }

    /** The node whose master Open MPI's mpiexec reports killed by a signal in {@code lines}, if any. */
    static Optional<NodeLoss> find(List<String> lines) {
        for (String line : lines) {
            Matcher m = OPEN_MPI.matcher(line);
            if (m.find()) {
                return Optional.of(new NodeLoss(Integer.parseInt(m.group(1)), "its master on " + m.group(2)
                        + " was killed by signal " + m.group(3)));
            }
        }
        return Optional.empty();
    }
}
