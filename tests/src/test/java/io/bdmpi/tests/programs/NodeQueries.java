package io.bdmpi.tests.programs;

import mpi.BDMPI;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Prints what each rank learns of the nodes, for the test to compare with the placement: the
 * BDMPI queries on COMM_WORLD, its rank and size in COMM_NODE and COMM_CWORLD, and collectives on
 * both (a sum of world ranks over COMM_NODE, a sum of world rank x CWORLD rank over COMM_CWORLD,
 * a broadcast of the world rank of COMM_NODE's rank 0). One line per rank:
 * {@code NodeQueries rank=R size=S nodes=N node=K local=L/LS root=RR nodeComm=r/s nodeSum=X
 * cworld=c/s cworldSum=Y nodeRoot=Z}.
 */
public final class NodeQueries {

    private NodeQueries() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Comm world = MPI.COMM_WORLD;
        Comm node = BDMPI.COMM_NODE;
        Comm cworld = BDMPI.COMM_CWORLD;
        int rank = world.getRank();
        int[] nodeSum = {rank};
        node.allReduce(nodeSum, 1, MPI.INT, MPI.SUM);
        long[] cworldSum = {(long) rank * cworld.getRank()};
        cworld.allReduce(cworldSum, 1, MPI.LONG, MPI.SUM);
        int[] nodeRoot = {rank};
        node.bcast(nodeRoot, 1, MPI.INT, 0);
        System.out.println("NodeQueries rank=" + rank + " size=" + world.getSize() + " nodes=" + BDMPI.getNodeSize(world)
                + " node=" + BDMPI.getNodeRank(world) + " local=" + BDMPI.getLocalRank(world) + "/" + BDMPI.getLocalSize(world)
                + " root=" + BDMPI.getLocalRoot(world) + " nodeComm=" + node.getRank() + "/" + node.getSize()
                + " nodeSum=" + nodeSum[0] + " cworld=" + cworld.getRank() + "/" + cworld.getSize() + " cworldSum=" + cworldSum[0]
                + " nodeRoot=" + nodeRoot[0]);
        MPI.Finalize();
    }
}
