package io.bdmpi.launcher;

import io.bdmpi.master.checkpoint.CheckpointStore;
import io.bdmpi.master.config.MasterContext;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where a job whose nodes keep their checkpoints in directories of their own ({@code --checkpoint-dir}
 * with {@link MasterContext#NODE_MARK}) goes on after a failure: each surviving directory holds its
 * node's part of the last checkpoint and a buddy copy of another node's, so each part is on one
 * surviving node at least, and the ranks of a part are placed on a node that holds it: a master
 * then restores its ranks from its own directory. The ranks of parts held by one survivor only go
 * there first; each of the others to whichever of its part's two holders has fewer ranks so far.
 *
 * <p>bdmpiexec reads the surviving directories' manifests to decide: it must see them (on one
 * machine, as here, or where the nodes' directories are readable from bdmpiexec's host).
 *
 * @param sequence  the checkpoint to go on from
 * @param worldSize its ranks
 * @param slots     the directory number ({@code %n}) of each node of the new run
 * @param nodeOf    the new run's node of each rank
 */
record NodeLocalRecovery(int sequence, int worldSize, List<Integer> slots, int[] nodeOf) {

    /**
     * Plans the run after a failure, over the directories {@code survivors} (their {@code %n}
     * numbers, in the order of the nodes that keep them), from the newest checkpoint any of them
     * holds; a directory whose master was lost before it heard of that checkpoint's commit is
     * brought up to it first ({@link CheckpointStore#commitIn}). Null when there is no checkpoint.
     *
     * @param pattern the checkpoint directory, with {@link MasterContext#NODE_MARK}
     * @throws IOException when a directory cannot be read, or a part of the checkpoint is on no survivor
     */
    static NodeLocalRecovery plan(Path pattern, List<Integer> survivors) throws IOException {
        MasterContext dirs = new MasterContext().nodeDirs(survivors);
        List<CheckpointStore.Checkpoint> held = new ArrayList<>();
        int sequence = 0;
        for (int i = 0; i < survivors.size(); i++) {
            CheckpointStore.Checkpoint c = CheckpointStore.latestIn(dirs.dirOn(pattern, i), CheckpointStore.Sharing.NODE_LOCAL);
            held.add(c);
            sequence = c == null ? sequence : Math.max(sequence, c.sequence());
        }
        if (sequence == 0) {
            return null;
        }
        for (int i = 0; i < survivors.size(); i++) {
            if (held.get(i) == null || held.get(i).sequence() != sequence) {
                held.set(i, CheckpointStore.commitIn(dirs.dirOn(pattern, i), sequence));
            }
        }
        int worldSize = held.get(0).worldSize();
        int nodes = held.get(0).nodes();
        // The survivors that hold each part of the checkpoint (as numbered by the run that took it).
        List<List<Integer>> holders = new ArrayList<>();
        List<List<Integer>> ranksOf = new ArrayList<>();
        for (int part = 0; part < nodes; part++) {
            holders.add(new ArrayList<>());
            ranksOf.add(List.of());
        }
        for (int i = 0; i < survivors.size(); i++) {
            for (CheckpointStore.Part p : held.get(i).parts()) {
                holders.get(p.node()).add(i);
                ranksOf.set(p.node(), p.ranks());
            }
        }
        // A rank goes to a survivor that holds its part: the only one, else the one with the fewest
        // ranks so far (a part both its node and its buddy hold may be split between them).
        int[] load = new int[survivors.size()];
        int[] holderOf = new int[worldSize];
        Arrays.fill(holderOf, -1);
        for (int part = 0; part < nodes; part++) {
            if (holders.get(part).isEmpty()) {
                throw new IOException("node " + part + "'s part of checkpoint " + sequence + " is on no surviving node"
                        + " (its node and its buddy, node " + (part + 1) % nodes + ", are both lost)");
            }
            if (holders.get(part).size() == 1) {
                for (int rank : ranksOf.get(part)) {
                    holderOf[rank] = holders.get(part).get(0);
                    load[holderOf[rank]]++;
                }
            }
        }
        for (int part = 0; part < nodes; part++) {
            for (int rank : holders.get(part).size() == 1 ? List.<Integer>of() : ranksOf.get(part)) {
                int best = holders.get(part).get(0);
                for (int h : holders.get(part)) {
                    best = load[h] < load[best] ? h : best;
                }
                holderOf[rank] = best;
                load[best]++;
            }
        }
        // Survivors that got no rank are left out; the others are the new run's nodes, in order.
        int[] newNode = new int[survivors.size()];
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < survivors.size(); i++) {
            newNode[i] = load[i] > 0 ? slots.size() : -1;
            if (load[i] > 0) {
                slots.add(survivors.get(i));
            }
        }
        int[] nodeOf = new int[worldSize];
        for (int rank = 0; rank < worldSize; rank++) {
            if (holderOf[rank] < 0) {
                throw new IOException("checkpoint " + sequence + " holds no state of rank " + rank);
            }
            nodeOf[rank] = newNode[holderOf[rank]];
        }
        return new NodeLocalRecovery(sequence, worldSize, List.copyOf(slots), nodeOf);
    }

    /** The new run's slaves on each node. */
    int[] slavesPerNode() {
        int[] count = new int[slots.size()];
        for (int n : nodeOf) {
            count[n]++;
        }
        return count;
    }

    /** The new run's placement, as {@code --placement} takes it: each rank's node. */
    String placement() {
        StringBuilder b = new StringBuilder();
        for (int n : nodeOf) {
            b.append(b.length() == 0 ? "" : ",").append(n);
        }
        return b.toString();
    }
}
