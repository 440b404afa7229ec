package mpi;

import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;

/**
 * BDMPI's extensions to MPI (LaSalle &amp; Karypis): two more communicators, critical sections,
 * and where a communicator's ranks live. Each name gives the C name of the original library.
 *
 * <p>A job runs on one or more nodes, each with one master and many slave processes (the MPI
 * ranks), of which only a few run at a time. These calls let a program arrange its work by node,
 * e.g. to combine data node-locally before talking to other nodes, or to keep disk-heavy phases
 * from running all at once.
 */
public final class BDMPI {

    /**
     * Every rank of the job, numbered cyclically over the nodes (BDMPI_COMM_CWORLD): consecutive
     * ranks are on different nodes, whereas {@code MPI.COMM_WORLD} numbers node by node.
     */
    public static final Intracomm COMM_CWORLD = new Intracomm(Protocol.COMM_CWORLD_ID, "BDMPI_COMM_CWORLD");

    /** The ranks on the caller's node (BDMPI_COMM_NODE). */
    public static final Intracomm COMM_NODE = new Intracomm(Protocol.COMM_NODE_ID, "BDMPI_COMM_NODE");

    private BDMPI() {
    }

    /**
     * Waits (parked) until no other rank of this node is in a critical section, then enters one
     * (BDMPI_Entercritical). At most one rank per node is inside at any time: use it around
     * phases that would thrash the node's disk or memory if all ran them together.
     */
    public static void criticalEnter() throws MPIException {
        String call = "BDMPI_Entercritical";
        SlaveRuntime rt = Session.enter(call);
        try {
            rt.criticalEnter();
        } catch (IOException e) {
            throw MPI.COMM_WORLD.handle(Errors.transport(call, e));
        }
    }

    /** Leaves this node's critical section (BDMPI_Exitcritical), letting another rank of the node in. */
    public static void criticalExit() throws MPIException {
        String call = "BDMPI_Exitcritical";
        SlaveRuntime rt = Session.enter(call);
        try {
            rt.criticalExit();
        } catch (IOException e) {
            throw MPI.COMM_WORLD.handle(Errors.transport(call, e));
        }
    }

    /** The number of nodes holding ranks of {@code comm} (BDMPI_Comm_nsize). */
    public static int getNodeSize(Comm comm) throws MPIException {
        return info(comm, "BDMPI_Comm_nsize").nodes();
    }

    /** The index of the caller's node among the nodes of {@code comm}, from 0 (BDMPI_Comm_nrank). */
    public static int getNodeRank(Comm comm) throws MPIException {
        return info(comm, "BDMPI_Comm_nrank").nodeRank();
    }

    /** The number of ranks of {@code comm} on the caller's node (BDMPI_Comm_lsize). */
    public static int getLocalSize(Comm comm) throws MPIException {
        return info(comm, "BDMPI_Comm_lsize").localSize();
    }

    /** The caller's index among the ranks of {@code comm} on its node, from 0 (BDMPI_Comm_lrank). */
    public static int getLocalRank(Comm comm) throws MPIException {
        return info(comm, "BDMPI_Comm_lrank").localRank();
    }

    /**
     * The lowest rank of {@code comm} on the caller's node (BDMPI_Comm_rrank): the node's natural
     * "root", e.g. to gather node-local results before a global step.
     */
    public static int getLocalRoot(Comm comm) throws MPIException {
        return info(comm, "BDMPI_Comm_rrank").lowestLocalRank();
    }

    /** Membership never changes, so the master is asked once per communicator. */
    private static MasterReply.CommInfo info(Comm comm, String call) throws MPIException {
        if (comm == null) {
            Session.enter(call);
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_COMM, call + ": null communicator"));
        }
        return comm.nodeInfo(call);
    }
}
