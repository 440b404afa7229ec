package io.bdmpi.master;

import io.bdmpi.master.checkpoint.CheckpointStore;
import io.bdmpi.master.internode.Internode;
import io.bdmpi.master.internode.MasterMessage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Brings each master the parts of a node-local checkpoint ({@code --restart DIR-%n}) that hold the
 * ranks it now has, before the job starts: the job may have more or fewer nodes than the one that
 * wrote the checkpoint, or place its ranks otherwise. bdmpiexec reads no node's directory (it may
 * see none); the masters agree among themselves, over MPI, on tags no job message uses
 * ({@link io.bdmpi.master.internode.Pump#STAGING_TAG}):
 *
 * <ol>
 *   <li>{@link #agree}: every master tells node 0 what its own directory holds
 *       ({@link MasterMessage.RestartHoldings}); node 0 {@linkplain #plan plans} and tells every
 *       master the checkpoint to go on from and which node sends which part to which
 *       ({@link MasterMessage.RestartPlan}), or why the job cannot go on; a master whose directory
 *       holds that checkpoint written whole but not committed (lost before it heard of the commit)
 *       commits it.</li>
 *   <li>{@link #transfer}: each master sends the parts it is to send, file by file
 *       ({@link MasterMessage.StagedFile}, large files streamed in chunks, never whole in memory),
 *       and stores those it receives in its directory's {@code .staging-N/}, from where the restore
 *       reads them beside its own parts; they are removed once restored, or when the job ends.</li>
 * </ol>
 *
 * Every message a master is to receive is known from the plan, so the staging is over on each
 * master before its job starts, and no job message is ever taken for a staging one. A master that
 * fails to stage tells the masters that wait for its parts, which stop too; none waits longer than
 * {@link io.bdmpi.master.config.MasterContext#placementWaitMs} for any message.
 *
 * <p>Runs on the launcher's thread, before the attempt: it owns nothing the scheduler owns.
 */
final class RestartStaging {

    /** The job cannot go on from the checkpoint; {@code quiet}: another master said so already. */
    static final class Refused extends IOException {
        final boolean quiet;

        Refused(String message, boolean quiet) {
            super(message);
            this.quiet = quiet;
        }
    }

    private final Internode internode;
    private final Path dir;
    private final String named;
    private final long timeoutMs;

    /**
     * @param dir       this master's own directory of the checkpoint to go on from
     * @param named     the directory as the user named it ({@code DIR-%n}), for messages
     * @param timeoutMs the longest wait for any one message of another master
     */
    RestartStaging(Internode internode, Path dir, String named, long timeoutMs) {
        this.internode = internode;
        this.dir = dir;
        this.named = named;
        this.timeoutMs = timeoutMs;
    }

    /**
     * Agrees with the other masters on the checkpoint and on who sends which part to whom (all
     * masters at once), and commits the checkpoint here if this directory holds it uncommitted.
     *
     * @param nodeOf the node of each world rank in this job
     * @throws Refused     when the checkpoint is incomplete or does not fit this job
     * @throws IOException when a directory or another master fails
     */
    MasterMessage.RestartPlan agree(List<Integer> nodeOf) throws IOException, InterruptedException {
        List<MasterMessage.HeldPart> own = new ArrayList<>();
        for (CheckpointStore.Held h : CheckpointStore.heldInOrNothing(dir)) {
            CheckpointStore.Part p = h.part();
            own.add(new MasterMessage.HeldPart(p.sequence(), h.committed(), p.node(), p.nodes(), p.worldSize(), p.ranks()));
        }
        MasterMessage.RestartPlan plan;
        if (internode.node() == 0) {
            List<List<MasterMessage.HeldPart>> heldBy = new ArrayList<>();
            heldBy.add(own);
            for (int n = 1; n < internode.nodes(); n++) {
                if (!(internode.receiveStaging(n, timeoutMs) instanceof MasterMessage.RestartHoldings h)) {
                    throw new IOException("node " + n + " sent no holdings of " + named);
                }
                heldBy.add(h.parts());
            }
            plan = plan(heldBy, nodeOf, named);
            for (int n = 1; n < internode.nodes(); n++) {
                internode.sendStaging(n, plan);
            }
            if (!plan.refusal().isEmpty()) {
                throw new Refused(plan.refusal(), false);
            }
        } else {
            internode.sendStaging(0, new MasterMessage.RestartHoldings(own));
            if (!(internode.receiveStaging(0, timeoutMs) instanceof MasterMessage.RestartPlan p)) {
                throw new IOException("node 0 sent no plan of the restart from " + named);
            }
            plan = p;
            if (!plan.refusal().isEmpty()) {
                throw new Refused(plan.refusal(), true);
            }
        }
        int sequence = plan.sequence();
        if (own.stream().anyMatch(h -> h.sequence() == sequence && !h.committed())) {
            CheckpointStore.commitIn(dir, sequence);
        }
        return plan;
    }

    /**
     * Sends the parts this master is to send, then receives and stores the ones it is to receive,
     * and makes {@code store} (this master's directory) read them beside its own parts. Should this
     * master fail, the masters that wait for its parts hear why.
     *
     * @throws IOException when a part cannot be read, sent, received or stored
     */
    void transfer(MasterMessage.RestartPlan plan, CheckpointStore store) throws IOException, InterruptedException {
        int node = internode.node();
        int sequence = plan.sequence();
        try {
            for (MasterMessage.Transfer t : plan.transfers()) {
                if (t.from() == node) {
                    for (Path file : store.partFiles(sequence, t.part())) {
                        internode.sendStagedFile(t.to(), sequence, t.part(), file);
                    }
                }
            }
        } catch (IOException e) {
            IOException failure = new IOException("cannot send the parts of checkpoint " + sequence + " in " + dir
                    + " to other nodes: " + e.getMessage(), e);
            tellWaiting(plan, failure);
            throw failure;
        }
        for (MasterMessage.Transfer t : plan.transfers()) {
            if (t.to() == node) {
                receivePart(t, sequence, store);
            }
        }
        store.includeStaged(sequence);
    }

    /** Tells each master that waits for a part from here that none comes. */
    private void tellWaiting(MasterMessage.RestartPlan plan, IOException failure) {
        new TreeSet<>(plan.transfers().stream().filter(t -> t.from() == internode.node()).map(MasterMessage.Transfer::to)
                .toList()).forEach(to -> internode.sendStaging(to, new MasterMessage.RestartPlan(plan.sequence(),
                "node " + internode.node() + ": " + failure.getMessage(), List.of())));
    }

    /** Receives one part's files from {@code t.from()}, its manifest last. */
    private void receivePart(MasterMessage.Transfer t, int sequence, CheckpointStore store) throws IOException, InterruptedException {
        while (true) {
            MasterMessage m = internode.receiveStaging(t.from(), timeoutMs);
            if (m instanceof MasterMessage.RestartPlan failed && !failed.refusal().isEmpty()) {
                throw new Refused(failed.refusal(), false);
            }
            if (!(m instanceof MasterMessage.StagedFile f) || f.sequence() != sequence || f.part() != t.part()) {
                throw new IOException("node " + t.from() + " sent " + m + " where a file of part " + t.part()
                        + " of checkpoint " + sequence + " was expected");
            }
            Path target = store.stagedFile(sequence, f.part(), f.name());
            try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                if (f.inline()) {
                    ByteBuffer bytes = f.inlineBytes().duplicate();
                    while (bytes.hasRemaining()) {
                        out.write(bytes);
                    }
                } else {
                    internode.receiveStagedData(t.from(), f.dataBytes(), out, timeoutMs);
                }
                out.force(true);
            }
            if (CheckpointStore.isManifest(f.name())) {
                store.syncStaged(sequence, f.part());
                return;
            }
        }
    }

    /**
     * Node 0's plan (pure): the newest checkpoint some directory has committed, each of whose
     * parts must be in some directory (committed there or written whole); each node fetches every
     * part holding one of its ranks that its own directory lacks, from the holder that sends the
     * fewest parts so far (the part's own node first, on a tie).
     *
     * @param heldBy what each node's directory holds, index = node
     * @param nodeOf the node of each world rank in this job
     * @param named  the directories as the user named them, for the refusal
     * @return the plan, or a refusal naming what is wrong
     */
    static MasterMessage.RestartPlan plan(List<List<MasterMessage.HeldPart>> heldBy, List<Integer> nodeOf, String named) {
        int sequence = heldBy.stream().flatMap(List::stream).filter(MasterMessage.HeldPart::committed)
                .mapToInt(MasterMessage.HeldPart::sequence).max().orElse(-1);
        if (sequence < 0) {
            return refused(0, "no checkpoint to restart from in " + named + " on any of the " + heldBy.size() + " nodes");
        }
        Map<Integer, MasterMessage.HeldPart> parts = new TreeMap<>();
        Map<Integer, List<Integer>> holders = new TreeMap<>();
        for (int node = 0; node < heldBy.size(); node++) {
            for (MasterMessage.HeldPart h : heldBy.get(node)) {
                if (h.sequence() == sequence) {
                    parts.putIfAbsent(h.part(), h);
                    holders.computeIfAbsent(h.part(), k -> new ArrayList<>()).add(node);
                }
            }
        }
        MasterMessage.HeldPart any = parts.values().iterator().next();
        if (any.worldSize() != nodeOf.size()) {
            return refused(sequence, "checkpoint " + sequence + " in " + named + " has " + any.worldSize()
                    + " ranks but this job has " + nodeOf.size());
        }
        List<String> missing = new ArrayList<>();
        for (int part = 0; part < any.parts(); part++) {
            if (!parts.containsKey(part)) {
                missing.add("part " + part);
            }
        }
        if (!missing.isEmpty()) {
            return refused(sequence, String.join(", ", missing) + " of checkpoint " + sequence + " (written by "
                    + any.parts() + " nodes) " + (missing.size() == 1 ? "is" : "are") + " in no directory of this job's "
                    + heldBy.size() + " nodes (" + named + "): the job cannot go on from it");
        }
        int[] sends = new int[heldBy.size()];
        List<MasterMessage.Transfer> transfers = new ArrayList<>();
        for (MasterMessage.HeldPart part : parts.values()) {
            List<Integer> from = holders.get(part.part());
            for (int to : new TreeSet<>(part.ranks().stream().map(nodeOf::get).toList())) {
                if (from.contains(to)) {
                    continue;
                }
                int best = from.contains(part.part()) ? part.part() : from.get(0);
                for (int f : from) {
                    if (sends[f] < sends[best]) {
                        best = f;
                    }
                }
                sends[best]++;
                transfers.add(new MasterMessage.Transfer(part.part(), best, to));
            }
        }
        return new MasterMessage.RestartPlan(sequence, "", List.copyOf(transfers));
    }

    private static MasterMessage.RestartPlan refused(int sequence, String why) {
        return new MasterMessage.RestartPlan(sequence, why, List.of());
    }
}
