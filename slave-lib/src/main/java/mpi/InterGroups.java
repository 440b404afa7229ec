package mpi;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The two groups of an intercommunicator, as COMM_WORLD ranks, and how they sit in the union
 * communicator the master keeps for it: the group that holds the lowest COMM_WORLD rank first,
 * so that both sides order the union alike without a word. Local rank i is union rank
 * {@link #localBase()} + i, remote rank j union rank {@link #remoteBase()} + j.
 */
final class InterGroups {

    /** The caller's group and the other one, in their ranks' order. */
    final int[] local;
    final int[] remote;
    private final boolean localFirst;

    /**
     * @throws MPIException ERR_COMM when a process is in both groups
     */
    static InterGroups of(String call, int[] local, int[] remote) throws MPIException {
        Set<Integer> seen = new HashSet<>();
        for (int r : local) {
            seen.add(r);
        }
        for (int r : remote) {
            if (seen.contains(r)) {
                throw MPIException.of(MPI.ERR_COMM, call + ": COMM_WORLD rank " + r + " is in both groups");
            }
        }
        if (local.length == 0 || remote.length == 0) {
            throw MPIException.of(MPI.ERR_COMM, call + ": a group of an intercommunicator is empty");
        }
        return new InterGroups(local, remote);
    }

    private InterGroups(int[] local, int[] remote) {
        this.local = local.clone();
        this.remote = remote.clone();
        this.localFirst = Arrays.stream(local).min().getAsInt() < Arrays.stream(remote).min().getAsInt();
    }

    /** Both groups, the first one's members first: the union communicator's members in rank order. */
    int[] union() {
        int[] first = localFirst ? local : remote;
        int[] second = localFirst ? remote : local;
        int[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    /** The size of the union's first group (which the master needs to route point-to-point). */
    int lowGroupSize() {
        return localFirst ? local.length : remote.length;
    }

    /** Union rank of local rank 0. */
    int localBase() {
        return localFirst ? 0 : remote.length;
    }

    /** Union rank of remote rank 0. */
    int remoteBase() {
        return localFirst ? local.length : 0;
    }

    /** The union communicator's size. */
    int size() {
        return local.length + remote.length;
    }
}
