package io.bdmpi.master.internode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which node each rank of COMM_WORLD lives on, for nodes of S_k slaves each (the same S for
 * every node, or per node from the config file; the world has their sum). {@code block} (the
 * default) puts the first S_0 ranks on node 0, the next S_1 on node 1, and so on; {@code cyclic}
 * deals the ranks out to the nodes in turn, passing over a node once it is full; a file gives each
 * rank's node, one node number per line (line i for rank i; blank lines and {@code #} comments
 * are skipped), with exactly S_k ranks on node k; so does a list of node numbers separated by
 * commas ({@code 0,0,2,1,1,2}), as bdmpiexec gives it when it places ranks anew after a lost node. On a node, slaves are ordered by world rank
 * (their local index). COMM_CWORLD numbers the slaves the way {@code cyclic} deals them: local
 * slave 0 of every node, then local slave 1 of every node that has one, and so on.
 */
public final class Placement {

    private final int[] slavesOn;
    private final int[] nodeOf;
    private final int[][] ranksOn;

    private Placement(int[] slavesOn, int[] nodeOf) {
        this.slavesOn = slavesOn;
        this.nodeOf = nodeOf;
        this.ranksOn = new int[slavesOn.length][];
        for (int n = 0; n < slavesOn.length; n++) {
            ranksOn[n] = new int[slavesOn[n]];
        }
        int[] filled = new int[slavesOn.length];
        for (int r = 0; r < nodeOf.length; r++) {
            ranksOn[nodeOf[r]][filled[nodeOf[r]]++] = r;
        }
    }

    /**
     * {@link #of(String, int[])} with {@code perNode} slaves on each of {@code nodes} nodes.
     */
    public static Placement of(String spec, int nodes, int perNode) {
        int[] slavesOn = new int[nodes];
        Arrays.fill(slavesOn, perNode);
        return of(spec, slavesOn);
    }

    /**
     * @param spec     {@code block}, {@code cyclic}, a list of node numbers separated by commas,
     *                 or the path of a placement file (a file wins over a list of the same name)
     * @param slavesOn the number of slaves of each node (at least 1 each)
     * @throws IllegalArgumentException naming the problem (bad file, wrong count per node)
     */
    public static Placement of(String spec, int[] slavesOn) {
        int size = Arrays.stream(slavesOn).sum();
        String kind = spec == null ? "block" : spec.trim().toLowerCase(Locale.ROOT);
        int[] nodeOf;
        if (kind.equals("block")) {
            nodeOf = new int[size];
            for (int n = 0, r = 0; n < slavesOn.length; n++) {
                for (int i = 0; i < slavesOn[n]; i++) {
                    nodeOf[r++] = n;
                }
            }
        } else if (kind.equals("cyclic")) {
            nodeOf = dealt(slavesOn);
        } else if (kind.contains(",") && !Files.exists(Path.of(spec))) {
            nodeOf = check(List.of(kind.split(",", -1)), "--placement " + kind, "rank", 0, slavesOn);
        } else {
            nodeOf = readFile(Path.of(spec), slavesOn);
        }
        return new Placement(slavesOn.clone(), nodeOf);
    }

    /** The node of each turn when ranks are dealt out to the nodes in turn, a full node passed over. */
    private static int[] dealt(int[] slavesOn) {
        int[] nodes = new int[Arrays.stream(slavesOn).sum()];
        int turn = 0;
        for (int local = 0; turn < nodes.length; local++) {
            for (int n = 0; n < slavesOn.length; n++) {
                if (local < slavesOn[n]) {
                    nodes[turn++] = n;
                }
            }
        }
        return nodes;
    }

    private static int[] readFile(Path file, int[] slavesOn) {
        int nodes = slavesOn.length;
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("--placement: cannot read " + file + " (" + e.getMessage()
                    + "); give block, cyclic or a file with one node number per rank");
        }
        return check(lines, "--placement " + file, "line", 1, slavesOn);
    }

    /**
     * The node of each rank from {@code entries} (one node number each; blank entries and
     * {@code #} comments skipped), checked against {@code slavesOn}; errors name the entry as
     * {@code source entry number}, the first numbered {@code firstNumber}.
     */
    private static int[] check(List<String> entries, String source, String entry, int firstNumber, int[] slavesOn) {
        String where = source + " " + entry + " ";
        int nodes = slavesOn.length;
        List<Integer> values = new ArrayList<>();
        int[] count = new int[nodes];
        for (int i = 0; i < entries.size(); i++) {
            String line = entries.get(i).replaceAll("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            int node;
            try {
                node = Integer.parseInt(line);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + (i + firstNumber) + ": '" + line + "' is not a node number");
            }
            if (node < 0 || node >= nodes) {
                throw new IllegalArgumentException(where + (i + firstNumber) + ": node " + node
                        + " is not between 0 and " + (nodes - 1));
            }
            count[node]++;
            values.add(node);
        }
        if (!Arrays.equals(count, slavesOn)) {
            throw new IllegalArgumentException(source + " places "
                    + values.size() + " ranks as " + Arrays.toString(count) + " per node; the nodes have "
                    + Arrays.toString(slavesOn) + " slaves");
        }
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    public int nodes() {
        return slavesOn.length;
    }

    public int worldSize() {
        return nodeOf.length;
    }

    /** The node of a COMM_WORLD rank. */
    public int nodeOf(int worldRank) {
        return nodeOf[worldRank];
    }

    /** The world ranks on {@code node}, in local order. */
    public int[] ranksOn(int node) {
        return ranksOn[node].clone();
    }

    /** COMM_CWORLD's members: the world rank of each of its ranks. */
    public int[] cyclicWorld() {
        int[] node = dealt(slavesOn);
        int[] next = new int[slavesOn.length];
        int[] members = new int[node.length];
        for (int c = 0; c < members.length; c++) {
            members[c] = ranksOn[node[c]][next[node[c]]++];
        }
        return members;
    }

    @Override
    public String toString() {
        return slavesOn.length + " nodes with " + Arrays.toString(slavesOn) + " ranks";
    }
}
