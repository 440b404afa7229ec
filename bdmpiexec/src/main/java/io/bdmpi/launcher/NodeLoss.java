package io.bdmpi.launcher;

import io.bdmpi.master.checkpoint.MasterRoster;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node of the job that was lost: its master (or its machine) died, so MPI ended the whole job.
 * Found in what mpiexec reports about the death of one of its processes: Open MPI names the MPI
 * rank, which is the node. MPICH's hydra kills every other process before it reports one, not
 * necessarily the first, so there the masters' roster ({@link MasterRoster}) says which died first,
 * or which never recorded its death (its machine went with it). Other ways of learning of a lost
 * node (a master that stops answering) give a NodeLoss too, and the launcher recovers the same way.
 *
 * @param node the lost node, as numbered in the run that lost it
 * @param how  what happened, for the announcement
 */
record NodeLoss(int node, String how) {

    /** Hydra: {@code =   PID 6020 RUNNING AT vm}, then the exit code or signal. */
    private static final Pattern HYDRA_PID = Pattern.compile("PID (\\d+) RUNNING AT (\\S+)");
    private static final Pattern HYDRA_SIGNAL = Pattern.compile("KILLED BY SIGNAL: (\\d+)|EXIT STRING: .*\\(signal (\\d+)\\)");
    /** Open MPI: {@code mpiexec noticed that process rank 1 with PID 0 on node vm exited on signal 9 (Killed).} */
    private static final Pattern OPEN_MPI = Pattern.compile("process rank (\\d+) with PID \\d+ on node (\\S+) exited on signal (\\d+)");

    /**
     * The node whose master mpiexec reports killed by a signal in {@code lines}, if any.
     *
     * @param masters the masters as they registered in this run, and their deaths
     */
    static Optional<NodeLoss> find(List<String> lines, MasterRoster.Masters masters) {
        boolean hydraReport = false;
        String signal = null;
        for (String line : lines) {
            Matcher m = OPEN_MPI.matcher(line);
            if (m.find()) {
                return Optional.of(new NodeLoss(Integer.parseInt(m.group(1)), "its master on " + m.group(2)
                        + " was killed by signal " + m.group(3)));
            }
            hydraReport |= HYDRA_PID.matcher(line).find();
            m = HYDRA_SIGNAL.matcher(line);
            if (m.find() && signal == null) {
                signal = m.group(1) != null ? m.group(1) : m.group(2);
            }
        }
        if (!hydraReport || signal == null) {
            return Optional.empty();
        }
        for (MasterRoster.Entry e : masters.entries()) {
            if (!masters.deaths().contains(e.node())) {
                return Optional.of(new NodeLoss(e.node(), "its master (pid " + e.pid() + " on " + e.host()
                        + ") vanished without a trace (its machine?)"));
            }
        }
        if (masters.deaths().isEmpty()) {
            return Optional.empty();
        }
        int first = masters.deaths().get(0);
        String who = masters.entries().stream().filter(e -> e.node() == first).findFirst()
                .map(e -> " (pid " + e.pid() + " on " + e.host() + ")").orElse("");
        return Optional.of(new NodeLoss(first, "its master" + who + " was killed by signal " + signal));
    }
}
