package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.ElementType;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.slave.CollectiveResult;
import io.bdmpi.slave.Outgoing;
import io.bdmpi.slave.SlaveRuntime;
import io.bdmpi.slave.StateStreams;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * BDMPI's extensions to MPI (LaSalle &amp; Karypis): two more communicators, critical sections,
 * and where a communicator's ranks live. Each name gives the C name of the original library.
 *
 * <p>A job runs on one or more nodes, each with one master and many slave processes (the MPI
 * ranks), of which only a few run at a time. These calls let a program arrange its work by node,
 * e.g. to combine data node-locally before talking to other nodes, or to keep disk-heavy phases
 * from running all at once.
 *
 * <p>Checkpoints are bdmpi-java's own addition (the original library has none):
 * <pre>
 *   MPI.Init(args);
 *   State state = new State();              // implements Checkpointable
 *   if (!BDMPI.restore(state)) {            // a restarted or recovered job resumes here
 *       state.initialise();
 *   }
 *   while (state.iteration &lt; iterations) {
 *       step(state);                        // may leave messages in flight: the master keeps them
 *       state.iteration++;
 *       if (state.iteration % 10 == 0) {
 *           BDMPI.checkpoint(state);
 *       }
 *   }
 * </pre>
 * Run with {@code bdmpiexec --checkpoint-dir DIR} to keep checkpoints after a failed job, then
 * {@code bdmpiexec --restart DIR} (any {@code -nr}) to go on from the last one; with
 * {@code --recover N} a job whose rank dies rolls back to its last checkpoint by itself.
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
     *
     * @throws MPIException if MPI is not running, or the master is lost, under {@code MPI.ERRORS_RETURN} on
     *                      {@code MPI.COMM_WORLD}
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

    /**
     * Leaves this node's critical section (BDMPI_Exitcritical), letting another rank of the node in.
     *
     * @throws MPIException if MPI is not running, or the master is lost, under {@code MPI.ERRORS_RETURN} on
     *                      {@code MPI.COMM_WORLD}
     */
    public static void criticalExit() throws MPIException {
        String call = "BDMPI_Exitcritical";
        SlaveRuntime rt = Session.enter(call);
        try {
            rt.criticalExit();
        } catch (IOException e) {
            throw MPI.COMM_WORLD.handle(Errors.transport(call, e));
        }
    }

    /**
     * The number of nodes holding ranks of {@code comm} (BDMPI_Comm_nsize).
     *
     * @param comm the communicator
     * @return the number of nodes
     * @throws MPIException if MPI is not running, or {@code comm} is null or the master is lost, under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public static int getNodeSize(Comm comm) throws MPIException {
        return info(comm, "BDMPI_Comm_nsize").nodes();
    }

    /**
     * The index of the caller's node among the nodes of {@code comm}, from 0 (BDMPI_Comm_nrank).
     *
     * @param comm the communicator
     * @return the node's index, from 0
     * @throws MPIException if MPI is not running, or {@code comm} is null or the master is lost, under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public static int getNodeRank(Comm comm) throws MPIException {
        return info(comm, "BDMPI_Comm_nrank").nodeRank();
    }

    /**
     * The number of ranks of {@code comm} on the caller's node (BDMPI_Comm_lsize).
     *
     * @param comm the communicator
     * @return the number of ranks on this node
     * @throws MPIException if MPI is not running, or {@code comm} is null or the master is lost, under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public static int getLocalSize(Comm comm) throws MPIException {
        return info(comm, "BDMPI_Comm_lsize").localSize();
    }

    /**
     * The caller's index among the ranks of {@code comm} on its node, from 0 (BDMPI_Comm_lrank).
     *
     * @param comm the communicator
     * @return the caller's index on its node, from 0
     * @throws MPIException if MPI is not running, or {@code comm} is null or the master is lost, under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public static int getLocalRank(Comm comm) throws MPIException {
        return info(comm, "BDMPI_Comm_lrank").localRank();
    }

    /**
     * The lowest rank of {@code comm} on the caller's node (BDMPI_Comm_rrank): the node's natural
     * "root", e.g. to gather node-local results before a global step.
     *
     * @param comm the communicator
     * @return the lowest rank of {@code comm} on this node
     * @throws MPIException if MPI is not running, or {@code comm} is null or the master is lost, under
     *                      {@code MPI.ERRORS_RETURN}
     */
    public static int getLocalRoot(Comm comm) throws MPIException {
        return info(comm, "BDMPI_Comm_rrank").lowestLocalRank();
    }

    /**
     * Takes a checkpoint of the whole job (collective over {@code MPI.COMM_WORLD}: every rank calls
     * it at the same point): each rank's {@code state}, saved here, plus the messages sent but not
     * yet received, which the master holds. It is consistent because every rank is inside the
     * call, and atomic: a job that dies during a checkpoint still has the previous one.
     *
     * <p>The caller must have no nonblocking operation pending and must not have sent a message
     * that is still unreceived on a communicator other than the predefined ones (a restored job
     * creates its communicators anew), or the job stops with the reason.
     *
     * @param state this rank's state, saved with the checkpoint
     * @return the checkpoint's number, counting from 1 over the job's life (restarts included)
     * @throws MPIException if MPI is not running, or on an error (a null state, the state failing to save, a
     *                      lost master) under {@code MPI.ERRORS_RETURN} on {@code MPI.COMM_WORLD}
     */
    public static int checkpoint(Checkpointable state) throws MPIException {
        String call = "BDMPI_Checkpoint";
        SlaveRuntime rt = Session.enter(call);
        if (state == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_ARG, call + ": null state"));
        }
        StateStreams.Saved saved = new StateStreams.Saved();
        try (DataOutputStream out = new DataOutputStream(saved)) {
            state.save(out);
        } catch (IOException | RuntimeException e) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_IO, call + ": saving the state failed: " + e));
        }
        return checkpointCall(rt, call, CollectiveKind.CHECKPOINT, saved.bytes()).values()[0];
    }

    /**
     * Restores this rank's {@code state} from the job's last checkpoint, when the job was started
     * with {@code --restart} or is rolling back after a failure ({@code --recover}); otherwise
     * leaves it alone. Collective over {@code MPI.COMM_WORLD}: every rank calls it once, right
     * after {@code MPI.Init}, before any other communication.
     *
     * @param state this rank's state, restored in place from the last checkpoint
     * @return true if the state was restored, false if the job starts from the beginning
     * @throws MPIException if MPI is not running, or on an error (a null state, the state failing to restore,
     *                      a lost master) under {@code MPI.ERRORS_RETURN} on {@code MPI.COMM_WORLD}
     */
    public static boolean restore(Checkpointable state) throws MPIException {
        String call = "BDMPI_Restore";
        SlaveRuntime rt = Session.enter(call);
        if (state == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_ARG, call + ": null state"));
        }
        CollectiveResult result = checkpointCall(rt, call, CollectiveKind.RESTORE, ByteBuffer.allocate(0));
        if (result.values()[0] < 0) {
            return false;
        }
        try {
            // Read where the piece arrived, not copied whole first; an MPI call of restore copies what is left.
            try (DataInputStream in = new DataInputStream(rt.readInPlace(result.piece(0)))) {
                state.restore(in);
            }
        } catch (IOException | RuntimeException e) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_IO, call + ": restoring the state of checkpoint "
                    + result.values()[0] + " failed: " + e));
        }
        return true;
    }

    private static CollectiveResult checkpointCall(SlaveRuntime rt, String call, CollectiveKind kind, ByteBuffer data)
            throws MPIException {
        try {
            return rt.collective(Protocol.COMM_WORLD_ID, kind, 0, ReduceOp.NONE, ElementType.NONE, 0, new long[0], Outgoing.of(data));
        } catch (IOException e) {
            throw MPI.COMM_WORLD.handle(Errors.transport(call, e));
        }
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
