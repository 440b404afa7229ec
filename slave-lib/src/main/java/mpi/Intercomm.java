package mpi;

import io.bdmpi.protocol.Protocol;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;

/**
 * An intercommunicator: two disjoint groups, each of which talks to the other. {@code getRank}
 * and {@code getSize} refer to the caller's (local) group; point-to-point calls name ranks of
 * the remote group, and a message's source is the sender's rank in its own group. Collectives
 * follow MPI's intercommunicator rules ({@code MPI.ROOT} and {@code MPI.PROC_NULL} in the root's
 * group, data from one group to the other).
 *
 * <p>The master keeps one communicator over both groups (see {@link InterGroups}) and routes
 * point-to-point on it from one group to the other; collectives run as collectives of all its
 * members (see {@link InterCollectiveBuilder}). There is no public constructor: intercommunicators
 * come from {@link Comm#createIntercomm} and {@link #dup()}.
 */
public final class Intercomm extends Comm {

    private static final Intercomm NULL = new Intercomm(Protocol.NO_COMM, -1, null, "MPI_COMM_NULL");

    private final InterGroups groups;

    private Intercomm(int commId, int localRank, InterGroups groups, String name) {
        super(commId, localRank, groups == null ? -1 : groups.local.length, name);
        this.groups = groups;
    }

    /** See {@link Comm#createIntercomm}: the leaders swap their groups over {@code peer}, each tells its own group. */
    static Intercomm create(Comm peer, Comm localComm, int localLeader, int remoteLeader, int tag) throws MPIException {
        String call = "MPI_Intercomm_create";
        SlaveRuntime rt = peer.enter(call);
        if (localComm == null || localComm.isNull() || localComm instanceof Intercomm) {
            throw peer.handle(MPIException.of(MPI.ERR_COMM, call + ": the local communicator must be an intracommunicator"));
        }
        int localSize = localComm.getSize();
        if (localLeader < 0 || localLeader >= localSize) {
            throw localComm.handle(MPIException.of(MPI.ERR_RANK, call + ": invalid local leader " + localLeader + " in "
                    + localComm.getName() + " of size " + localSize));
        }
        if (tag < 0 || tag > MPI.TAG_UB_VALUE) {
            throw peer.handle(MPIException.of(MPI.ERR_TAG, call + ": invalid tag " + tag + " (valid: 0 to " + MPI.TAG_UB_VALUE + ")"));
        }
        int[] local = localComm.getGroup().worldRanks();
        int[] remoteSize = new int[1];
        int[] remote = null;
        if (localComm.getRank() == localLeader) {
            peer.send(local, local.length, MPI.INT, remoteLeader, tag);
            remoteSize[0] = peer.probe(remoteLeader, tag).getCount(MPI.INT);
            remote = new int[remoteSize[0]];
            peer.recv(remote, remote.length, MPI.INT, remoteLeader, tag);
        }
        localComm.bcast(remoteSize, 1, MPI.INT, localLeader);
        if (remote == null) {
            remote = new int[remoteSize[0]];
        }
        localComm.bcast(remote, remote.length, MPI.INT, localLeader);
        InterGroups groups;
        try {
            groups = InterGroups.of(call, local, remote);
        } catch (MPIException e) {
            throw localComm.handle(e);
        }
        return localComm.made(make(call, rt, localComm, groups, tag), local);
    }

    /**
     * The intercommunicator over {@code groups}, made by every member of both (collective over them);
     * its error handler is {@code parent}'s.
     */
    private static Intercomm make(String call, SlaveRuntime rt, Comm parent, InterGroups groups, int tag) throws MPIException {
        int[] made;
        try {
            made = rt.groupComm(groups.union(), groups.lowGroupSize(), tag);
        } catch (IOException e) {
            throw parent.handle(Errors.transport(call, e));
        }
        return new Intercomm(made[0], made[1] - groups.localBase(), groups, "MPI INTERCOMM " + made[0]);
    }

    /**
     * {@code MPI_Comm_compare} of two different intercommunicators: CONGRUENT when both local groups
     * and both remote groups are the same processes in the same order, SIMILAR when they are the
     * same processes, UNEQUAL otherwise.
     */
    static int compareSides(Intercomm inter1, Intercomm inter2) {
        int local = Group.compareMembers(inter1.groups.local, inter2.groups.local);
        int remote = Group.compareMembers(inter1.groups.remote, inter2.groups.remote);
        if (local == MPI.UNEQUAL || remote == MPI.UNEQUAL) {
            return MPI.UNEQUAL;
        }
        return local == MPI.IDENT && remote == MPI.IDENT ? MPI.CONGRUENT : MPI.SIMILAR;
    }

    /**
     * The size of the remote group.
     *
     * @return the number of processes in the other group
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public int getRemoteSize() throws MPIException {
        enter("MPI_Comm_remote_size");
        return groups.remote.length;
    }

    /**
     * The remote group, in its ranks' order (a new group, for the caller to free).
     *
     * @return the group
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public Group getRemoteGroup() throws MPIException {
        enter("MPI_Comm_remote_group");
        return new Group(groups.remote.clone());
    }

    /**
     * An intracommunicator over both groups (collective over both): the group whose processes pass
     * {@code false} takes the low ranks; when both pass the same value, the group with the lowest
     * COMM_WORLD rank does. Within a group the ranks keep their order.
     *
     * @param high whether this group takes the high ranks
     * @return the new intracommunicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public Intracomm merge(boolean high) throws MPIException {
        String call = "MPI_Intercomm_merge";
        // A split of the union: ties of key break by union rank, which keeps each group's order.
        return derive(call, enter(call), 0, high ? 1 : 0, "MERGE");
    }

    /**
     * The intercommunicator to the parents of a process started by {@code spawn}: there is none
     * here (bdmpi starts no processes dynamically), so a null one.
     *
     * @return an Intercomm whose {@code isNull()} is true
     * @throws MPIException if MPI is not running
     */
    public static Intercomm getParent() throws MPIException {
        Session.enter("MPI_Comm_get_parent");
        return NULL;
    }

    /**
     * A new intercommunicator with the same groups (collective over both groups). It inherits the
     * error handler, attributes and hints.
     *
     * @return the new intercommunicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public Intercomm dup() throws MPIException {
        String call = "MPI_Comm_dup";
        SlaveRuntime rt = enter(call);
        // Negative tags are the runtime's own: this intercommunicator's id keeps its dups apart from others'.
        Intercomm c = made(make(call, rt, this, groups, -1 - commId), groups.local.clone());
        c.inheritFrom(this);
        return c;
    }

    /**
     * As {@link #dup()}: the duplicate is made before this returns.
     *
     * @return the new intercommunicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public Intercomm iDup() throws MPIException {
        return (Intercomm) super.iDup();
    }

    /**
     * As {@link #dup()}, with the hints of {@code info}.
     *
     * @param info the hints, or {@code MPI.INFO_NULL}
     * @return the new intercommunicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        return (Intercomm) super.dupWithInfo(info);
    }

    /** As {@link #dup()}, with an error wrapped in a RuntimeException, as Open MPI's clone. */
    @Override
    public Intercomm clone() {
        return (Intercomm) super.clone();
    }

    @Override
    CollectiveBuilder builder(String call, int rank, int size) {
        return new InterCollectiveBuilder(call, rank, groups);
    }

    @Override
    int peerCount(String call, SlaveRuntime rt) {
        return groups.remote.length;
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters

    /**
     * mpiJava 1.2: as {@link #getRemoteSize}.
     *
     * @return the number of processes in the other group
     * @throws MPIException as the Open MPI call
     */
    public final int Remote_size() throws MPIException {
        return getRemoteSize();
    }

    /**
     * mpiJava 1.2: as {@link #getRemoteGroup}.
     *
     * @return the other group
     * @throws MPIException as the Open MPI call
     */
    public final Group Remote_group() throws MPIException {
        return getRemoteGroup();
    }

    /**
     * mpiJava 1.2: as {@link #merge}.
     *
     * @param high whether this group takes the high ranks
     * @return the new intracommunicator
     * @throws MPIException as the Open MPI call
     */
    public final Intracomm Merge(boolean high) throws MPIException {
        return merge(high);
    }
}
