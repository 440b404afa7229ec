package io.bdmpi.launcher;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the MPI library printed about masters it ended because another master died: these are
 * casualties, not the lost node. Under MPICH over UCX, a master whose single-copy read of a
 * dead master's memory fails is ended by UCX at once (a fatal error), so
 * two connections end without a goodbye within milliseconds, and the order in which bdmpiexec
 * reads their ends says nothing. UCX's fatal line names both: it begins with the casualty's host
 * and pid, and a failed single-copy read names the dead process:
 *
 * <pre>[vm:5034 :0:5034]      cma_ep.c:81   process_vm_readv(pid=5033 {...}-->{...}) returned -1: No such process</pre>
 *
 * MPICH's own fatal errors name the rank that aborts ({@code Abort(1) on node 2 (rank 2 in comm 0):
 * Fatal error in ...}); a master's rank in {@code MPI_COMM_WORLD} is its node.
 *
 * <p>Fed every line of mpiexec's output (on the relays' threads); read by {@link JobWatch}.
 */
final class MpiCasualties {

    /** UCX's fatal error line: {@code [HOST:PID :THREAD:TID]}, no time stamp before it (its other log lines have one). */
    private static final Pattern UCX_FATAL = Pattern.compile("^\\[[^\\s:\\]]+:(\\d+)\\s*:\\d+:\\d+\\]");
    /** A single-copy read of a process that is gone. */
    private static final Pattern CMA_DEAD_PEER = Pattern.compile("process_vm_readv\\(pid=(\\d+)\\b.*No such process");
    /** MPICH's abort of a rank of {@code MPI_COMM_WORLD}. */
    private static final Pattern MPICH_ABORT = Pattern.compile("^Abort\\(\\d+\\) on node \\d+ \\(rank (\\d+) in comm 0\\)");

    private final Set<Long> casualtyPids = ConcurrentHashMap.newKeySet();
    private final Set<Integer> casualtyNodes = ConcurrentHashMap.newKeySet();
    private final Set<Long> deadPids = ConcurrentHashMap.newKeySet();

    /** Takes one line of mpiexec's output. */
    void read(String line) {
        Matcher fatal = UCX_FATAL.matcher(line);
        if (fatal.find()) {
            casualtyPids.add(Long.parseLong(fatal.group(1)));
            Matcher dead = CMA_DEAD_PEER.matcher(line);
            if (dead.find()) {
                deadPids.add(Long.parseLong(dead.group(1)));
            }
            return;
        }
        Matcher abort = MPICH_ABORT.matcher(line);
        if (abort.find()) {
            casualtyNodes.add(Integer.parseInt(abort.group(1)));
        }
    }

    /** Whether the library said the master of {@code node}, process {@code pid}, was ended by it. */
    boolean isCasualty(int node, long pid) {
        return casualtyNodes.contains(node) || (pid > 0 && casualtyPids.contains(pid));
    }

    /** Whether the library said process {@code pid} was gone while a master talked to it. */
    boolean namedDead(long pid) {
        return pid > 0 && deadPids.contains(pid);
    }
}
