package io.bdmpi.master.internode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which node each rank of COMM_WORLD lives on. {@code block} (the default) puts ranks
 * {@code k*S .. k*S+S-1} on node k; {@code cyclic} puts rank r on node {@code r % N}; a file gives
 * each rank's node, one node number per line (line i for rank i; blank lines and {@code #}
 * comments are skipped), with exactly S ranks per node. On a node, slaves are ordered by world
 * rank (their local index). COMM_CWORLD numbers the slaves cyclically over the nodes whatever
 * the placement: its rank c is local slave {@code c / N} of node {@code c % N}.
 */
public final class Placement {

    private final int nodes;
    private final int perNode;
    private final int[] nodeOf;
    private final int[][] ranksOn;

    private Placement(int nodes, int perNode, int[] nodeOf) {
        this.nodes = nodes;
        this.perNode = perNode;
        this.nodeOf = nodeOf;
        this.ranksOn = new int[nodes][perNode];
        int[] filled = new int[nodes];
        for (int r = 0; r < nodeOf.length; r++) {
            ranksOn[nodeOf[r]][filled[nodeOf[r]]++] = r;
        }
    }

    /**
     * @param spec {@code block}, {@code cyclic}, or the path of a placement file
     * @throws IllegalArgumentException naming the problem (bad file, wrong count per node)
     */
    public static Placement of(String spec, int nodes, int perNode) {
        int size = nodes * perNode;
        int[] nodeOf = new int[size];
        String kind = spec == null ? "block" : spec.trim().toLowerCase(Locale.ROOT);
        if (kind.equals("block")) {
            for (int r = 0; r < size; r++) {
                nodeOf[r] = r / perNode;
            }
        } else if (kind.equals("cyclic")) {
            for (int r = 0; r < size; r++) {
                nodeOf[r] = r % nodes;
            }
        } else {
            nodeOf = readFile(Path.of(spec), nodes, perNode);
        }
        return new Placement(nodes, perNode, nodeOf);
    }

    private static int[] readFile(Path file, int nodes, int perNode) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("--placement: cannot read " + file + " (" + e.getMessage()
                    + "); give block, cyclic or a file with one node number per rank");
        }
        List<Integer> values = new ArrayList<>();
        int[] count = new int[nodes];
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceAll("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            int node;
            try {
                node = Integer.parseInt(line);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--placement " + file + " line " + (i + 1) + ": '" + line + "' is not a node number");
            }
            if (node < 0 || node >= nodes) {
                throw new IllegalArgumentException("--placement " + file + " line " + (i + 1) + ": node " + node
                        + " is not between 0 and " + (nodes - 1));
            }
            count[node]++;
            values.add(node);
        }
        if (values.size() != nodes * perNode || Arrays.stream(count).anyMatch(c -> c != perNode)) {
            throw new IllegalArgumentException("--placement " + file + " places " + values.size() + " ranks as "
                    + Arrays.toString(count) + " per node; -nn " + nodes + " -ns " + perNode + " needs " + perNode + " on each node");
        }
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    public int nodes() {
        return nodes;
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
        int[] members = new int[nodeOf.length];
        for (int c = 0; c < members.length; c++) {
            members[c] = ranksOn[c % nodes][c / nodes];
        }
        return members;
    }

    @Override
    public String toString() {
        return nodes + " nodes x " + perNode + " ranks";
    }
}
