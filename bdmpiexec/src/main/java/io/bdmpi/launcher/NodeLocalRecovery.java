package io.bdmpi.launcher;

import io.bdmpi.master.config.MasterContext;
import io.bdmpi.master.control.ControlMessage;

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
 * <p>Only the masters read the directories: bdmpiexec starts the job again on every survivor
 * ({@code --held-placement}), each master tells it what its own directory holds
 * ({@link ControlMessage.Holdings}), bdmpiexec plans here and tells them all
 * ({@link ControlMessage.Placed}); so a directory need be visible on its own node only.
 *
 * @param sequence  the checkpoint to go on from
 * @param worldSize its ranks
 * @param nodeOf    the new run's node (a survivor's index) of each rank
 */
record NodeLocalRecovery(int sequence, int worldSize, List<Integer> nodeOf) {

    /** Why a job cannot go on from its node-local checkpoints. */
    static final class Refused extends Exception {
        Refused(String reason) {
            super(reason);
        }
    }

    /**
     * Plans the run after a failure from what the survivors' directories hold, from the newest
     * checkpoint any of them has committed; a directory that holds that checkpoint's parts
     * uncommitted (its master was lost before it heard of the commit) is brought up to it by its
     * master. Every survivor keeps a rank at least: one that would get none takes one of a part it
     * holds from the co-holder with the most. A node whose directory holds nothing of the checkpoint
     * (a spare host's) takes ranks from the busiest nodes until it is about as busy; its master
     * fetches their parts from the others (see the master's {@code RestartStaging}).
     *
     * @param survivors the directory number ({@code %n}) of each node of the new run, in its order
     * @param held      what each of those directories holds, in the same order
     * @return the plan, or null when no survivor holds a committed checkpoint
     * @throws Refused naming the lost nodes when a part of the checkpoint is on no survivor
     */
    static NodeLocalRecovery plan(List<Integer> survivors, List<List<ControlMessage.HeldPart>> held) throws Refused {
        int sequence = 0;
        for (List<ControlMessage.HeldPart> parts : held) {
            for (ControlMessage.HeldPart p : parts) {
                sequence = p.committed() ? Math.max(sequence, p.sequence()) : sequence;
            }
        }
        if (sequence == 0) {
            return null;
        }
        int worldSize = -1;
        int nodes = -1;
        // A node whose directory holds nothing of the checkpoint (a spare host's, new): its master fetches its ranks' parts.
        boolean[] spare = new boolean[survivors.size()];
        // The survivors that hold each part of the checkpoint (as numbered by the run that took it).
        List<List<Integer>> holders = new ArrayList<>();
        List<List<Integer>> ranksOf = new ArrayList<>();
        for (int i = 0; i < survivors.size(); i++) {
            boolean any = false;
            for (ControlMessage.HeldPart p : held.get(i)) {
                if (p.sequence() != sequence) {
                    continue;
                }
                any = true;
                worldSize = p.worldSize();
                while (holders.size() < p.nodes()) {
                    holders.add(new ArrayList<>());
                    ranksOf.add(List.of());
                }
                nodes = p.nodes();
                holders.get(p.part()).add(i);
                ranksOf.set(p.part(), p.ranks());
            }
            spare[i] = !any;
        }
        // A rank goes to a survivor that holds its part: the only one, else the one with the fewest
        // ranks so far (a part both its node and its buddy hold may be split between them).
        int[] load = new int[survivors.size()];
        int[] holderOf = new int[worldSize];
        Arrays.fill(holderOf, -1);
        List<Integer> lost = new ArrayList<>();
        for (int part = 0; part < nodes; part++) {
            if (holders.get(part).isEmpty()) {
                lost.add(part);
            } else if (holders.get(part).size() == 1) {
                for (int rank : ranksOf.get(part)) {
                    holderOf[rank] = holders.get(part).get(0);
                    load[holderOf[rank]]++;
                }
            }
        }
        if (!lost.isEmpty()) {
            int part = lost.get(0);
            throw new Refused("node " + part + "'s part of checkpoint " + sequence + " is on no surviving node"
                    + " (its node and its buddy, node " + (part + 1) % nodes + ", are both lost)");
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
        // Every survivor runs a master, so each keeps a rank: one left with none takes a rank of a
        // part it holds from the co-holder with the most (more than one).
        for (int i = 0; i < survivors.size(); i++) {
            while (spare[i]) {
                // A spare takes ranks from the busiest node until it is as busy as that one, less one.
                int busiest = 0;
                for (int j = 0; j < load.length; j++) {
                    busiest = load[j] > load[busiest] ? j : busiest;
                }
                if (load[busiest] <= load[i] + 1) {
                    break;
                }
                int rank = worldSize - 1;
                while (holderOf[rank] != busiest) {
                    rank--;
                }
                holderOf[rank] = i;
                load[busiest]--;
                load[i]++;
            }
            for (int rank = 0; rank < worldSize && load[i] == 0; rank++) {
                int from = holderOf[rank];
                if (from >= 0 && load[from] > 1 && holds(holders, ranksOf, i, rank)) {
                    holderOf[rank] = i;
                    load[from]--;
                    load[i]++;
                }
            }
            if (load[i] == 0) {
                throw new Refused("directory " + survivors.get(i) + " holds no rank of checkpoint " + sequence
                        + " that another survivor can spare");
            }
        }
        List<Integer> nodeOf = new ArrayList<>(worldSize);
        for (int rank = 0; rank < worldSize; rank++) {
            if (holderOf[rank] < 0) {
                throw new Refused("checkpoint " + sequence + " holds no state of rank " + rank);
            }
            nodeOf.add(holderOf[rank]);
        }
        return new NodeLocalRecovery(sequence, worldSize, List.copyOf(nodeOf));
    }

    /** Whether survivor {@code i} holds the part of {@code rank}. */
    private static boolean holds(List<List<Integer>> holders, List<List<Integer>> ranksOf, int i, int rank) {
        for (int part = 0; part < holders.size(); part++) {
            if (ranksOf.get(part).contains(rank)) {
                return holders.get(part).contains(i);
            }
        }
        return false;
    }

    /** The message that tells the masters this plan. */
    ControlMessage.Placed placed() {
        return new ControlMessage.Placed(sequence, nodeOf);
    }
}
