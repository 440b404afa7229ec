package io.bdmpi.tests.support;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Checks shared by the end-to-end tests. Each failure message carries the whole job. */
public final class Expect {

    private Expect() {
    }

    /**
     * The job succeeded and its statistics describe a normal run of {@code ranks} slaves under
     * {@code -nr running}: one node, every rank present once with its own pid and exit code 0, and
     * at most {@code running} (and at least one) slaves ever running at once.
     *
     * @return the statistics, for further checks
     */
    public static Stats successfulRun(JobResult r, int ranks, int running) {
        return successfulRun(r, 1, ranks, running);
    }

    /**
     * As {@link #successfulRun(JobResult, int, int)} for a job of {@code nodes} nodes of
     * {@code perNode} ranks each, placed in blocks (the default): every node reports its own slaves
     * and totals, and no more than {@code running} of them ran at once.
     */
    public static Stats successfulRun(JobResult r, int nodes, int perNode, int running) {
        r.assertSucceeded();
        Stats s = r.requireStats();
        List<String> problems = new ArrayList<>();
        int ranks = nodes * perNode;
        if (s.nodes().size() != nodes) {
            throw new AssertionError("stats of " + s.nodes().size() + " node(s), expected " + nodes + "\n" + r.describe());
        }
        for (int k = 0; k < nodes; k++) {
            Stats.Node n = s.nodes().get(k);
            int node = k;
            if (n.node() != k) {
                problems.add("nodes[" + k + "] has node id " + n.node());
            }
            if (n.slaves() != perNode) {
                problems.add("nodes[" + k + "].slaves = " + n.slaves() + ", expected " + perNode);
            }
            if (n.running() != running) {
                problems.add("nodes[" + k + "].running = " + n.running() + ", expected -nr = " + running);
            }
            if (n.maxRunning() < 1 || n.maxRunning() > running) {
                problems.add("nodes[" + k + "].maxRunning = " + n.maxRunning() + ", must be between 1 and -nr = " + running);
            }
            List<Stats.Slave> own = s.slaves().stream().filter(sl -> sl.node() == node).toList();
            long messages = own.stream().mapToLong(Stats.Slave::messagesSent).sum();
            long inline = own.stream().mapToLong(Stats.Slave::bytesSentInline).sum();
            long spilled = own.stream().mapToLong(Stats.Slave::bytesSentSpilled).sum();
            if (messages != n.messages() || inline != n.bytesInline() || spilled != n.bytesSpilled()) {
                problems.add("node " + k + ": per-slave sums (messages " + messages + ", bytesInline " + inline + ", bytesSpilled "
                        + spilled + ") differ from the node's totals");
            }
            if (n.bytesSpilled() > 0 && n.spillFiles() == 0 || n.bytesSpilled() == 0 && n.spillFiles() > 0) {
                problems.add("node " + k + ": bytesSpilled " + n.bytesSpilled() + " and spillFiles " + n.spillFiles() + " disagree");
            }
        }
        if (s.slaves().size() != ranks) {
            problems.add(s.slaves().size() + " slaves in stats, expected " + ranks);
        }
        TreeSet<Integer> rankSet = new TreeSet<>();
        TreeSet<Long> pids = new TreeSet<>();
        for (Stats.Slave sl : s.slaves()) {
            if (!rankSet.add(sl.rank())) {
                problems.add("rank " + sl.rank() + " twice in stats");
            }
            if (sl.pid() <= 0 || !pids.add(sl.pid())) {
                problems.add("rank " + sl.rank() + " has pid " + sl.pid() + " (not positive, or shared)");
            }
            if (sl.exitCode() != 0) {
                problems.add("rank " + sl.rank() + " has exitCode " + sl.exitCode() + " in a successful job");
            }
            if (sl.node() != sl.rank() / perNode) {
                problems.add("rank " + sl.rank() + " on node " + sl.node() + ", expected " + sl.rank() / perNode);
            }
            if (sl.peakRssBytes() <= 0) {
                problems.add("rank " + sl.rank() + " finalized but reports peakRssBytes " + sl.peakRssBytes());
            }
            if (sl.runSeconds() < 0 || sl.blockedSeconds() < 0 || sl.runnableSeconds() < 0) {
                problems.add("rank " + sl.rank() + " has a negative time: " + sl);
            }
        }
        if (!rankSet.isEmpty() && (rankSet.first() != 0 || rankSet.last() != ranks - 1)) {
            problems.add("ranks in stats are " + rankSet + ", expected 0.." + (ranks - 1));
        }
        if (s.wallTimeSeconds() <= 0) {
            problems.add("wallTimeSeconds = " + s.wallTimeSeconds());
        }
        Stats.Node t = s.total();
        if (t.node() != -1 || t.slaves() != ranks || t.messages() != s.nodes().stream().mapToLong(Stats.Node::messages).sum()
                || t.bytesInline() != s.nodes().stream().mapToLong(Stats.Node::bytesInline).sum()
                || t.bytesSpilled() != s.nodes().stream().mapToLong(Stats.Node::bytesSpilled).sum()
                || t.spillFiles() != s.nodes().stream().mapToLong(Stats.Node::spillFiles).sum()
                || t.resumes() != s.nodes().stream().mapToLong(Stats.Node::resumes).sum()
                || Math.abs(t.runSeconds() - s.nodes().stream().mapToDouble(Stats.Node::runSeconds).sum()) > 1e-6) {
            problems.add("the job's total " + t + " is not the sum of the nodes");
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("statistics of a successful run are wrong: " + problems + "\n" + r.describe());
        }
        return s;
    }

    /** Stdout has exactly one {@code "<program> rank R OK"} line for each rank. */
    public static void okFromEveryRank(JobResult r, String program, int ranks) {
        for (int rank = 0; rank < ranks; rank++) {
            r.assertStdoutHasLine(program + " rank " + rank + " OK");
        }
    }

    /** A failing check, with the job attached. */
    public static void that(JobResult r, boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what + "\n" + r.describe());
        }
    }
}
