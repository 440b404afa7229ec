package io.bdmpi.tests.programs.collectives;

import mpi.BDMPI;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The BDMPI extensions on one node:
 * <ul>
 *   <li>for COMM_WORLD: one node, node rank 0, every rank local (local size = size, local rank =
 *       rank), local root 0; the same per part for a split (numbers relative to the part);</li>
 *   <li>{@code COMM_NODE}: all S slaves of the node; its ranks are a permutation; collectives work;</li>
 *   <li>{@code COMM_CWORLD}: all slaves, on one node in COMM_WORLD's order; collectives work;</li>
 *   <li>the critical section: every rank enters it ROUNDS times; inside, it creates a marker file
 *       with CREATE_NEW (which fails if another slave is inside), sleeps, and deletes the file.
 *       Each entry is also logged in a file of its own, so the test can count them.</li>
 * </ul>
 * Usage: {@code Extensions DIR ROUNDS SLEEP_MS} (DIR: an existing empty directory, shared by the ranks).
 */
public final class Extensions {

    private Extensions() {
    }

    public static void main(String[] args) throws MPIException, IOException, InterruptedException {
        args = MPI.Init(args);
        Path dir = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        long sleepMs = Long.parseLong(args[2]);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();

        checkLocal(world, "COMM_WORLD");

        Comm node = BDMPI.COMM_NODE;
        CollCheck.that(!node.isNull(), "COMM_NODE is null");
        CollCheck.equal(size, node.getSize(), "COMM_NODE size (all slaves are on this node)");
        int[] nodeRanks = new int[size];
        node.allGather(new int[] {rank}, 1, MPI.INT, nodeRanks, 1, MPI.INT);
        boolean[] seen = new boolean[size];
        for (int r : nodeRanks) {
            CollCheck.that(r >= 0 && r < size && !seen[r], "allGather over COMM_NODE of world ranks is no permutation");
            seen[r] = true;
        }
        CollCheck.equal(rank, nodeRanks[node.getRank()], "allGather over COMM_NODE: own slot");
        checkLocal(node, "COMM_NODE");

        Comm cworld = BDMPI.COMM_CWORLD;
        CollCheck.that(!cworld.isNull(), "COMM_CWORLD is null");
        CollCheck.equal(size, cworld.getSize(), "COMM_CWORLD size");
        CollCheck.equal(rank, cworld.getRank(), "COMM_CWORLD rank (one node: the order of COMM_WORLD)");
        int cmp = Comm.compare(world, cworld);
        CollCheck.that(cmp == MPI.IDENT || cmp == MPI.CONGRUENT,
                "compare(COMM_WORLD, COMM_CWORLD) on one node is " + cmp + ", expected IDENT or CONGRUENT");
        long[] sum = {rank};
        cworld.allReduce(sum, 1, MPI.LONG, MPI.SUM);
        CollCheck.equal((long) size * (size - 1) / 2, sum[0], "allReduce over COMM_CWORLD");
        checkLocal(cworld, "COMM_CWORLD");

        Intracomm part = world.split(rank % 2, -rank);
        checkLocal(part, "split(rank % 2, -rank)");
        part.free();

        // The critical section.
        world.barrier();
        Path marker = dir.resolve("inside");
        for (int round = 0; round < rounds; round++) {
            BDMPI.criticalEnter();
            try {
                Files.write(marker, ("rank " + rank + " round " + round).getBytes(StandardCharsets.UTF_8),
                        java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                String holder;
                try {
                    holder = Files.readString(marker);
                } catch (IOException gone) {
                    holder = "(unreadable)";
                }
                throw CollCheck.fail("entered the critical section (round " + round + ") while another slave was inside: "
                        + holder);
            }
            Files.writeString(dir.resolve("entered-" + rank + "-" + round), "ok");
            Thread.sleep(sleepMs);
            Files.delete(marker);
            BDMPI.criticalExit();
        }
        world.barrier();
        CollCheck.ok("Extensions");
        MPI.Finalize();
    }

    /** On one node, every member of {@code c} is local. */
    static void checkLocal(Comm c, String what) throws MPIException {
        CollCheck.equal(1, BDMPI.getNodeSize(c), "getNodeSize(" + what + ")");
        CollCheck.equal(0, BDMPI.getNodeRank(c), "getNodeRank(" + what + ")");
        CollCheck.equal(c.getSize(), BDMPI.getLocalSize(c), "getLocalSize(" + what + ")");
        CollCheck.equal(c.getRank(), BDMPI.getLocalRank(c), "getLocalRank(" + what + ")");
        CollCheck.equal(0, BDMPI.getLocalRoot(c), "getLocalRoot(" + what + ")");
    }
}
