package mpi;

import io.bdmpi.protocol.CollectiveKind;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;
import java.nio.Buffer;
import java.util.Map;

/**
 * An intracommunicator: a group of ranks that talk among themselves. {@code MPI.COMM_WORLD},
 * {@code MPI.COMM_SELF}, {@code BDMPI.COMM_CWORLD}, {@code BDMPI.COMM_NODE}, and those made from
 * them by {@link #dup()} and {@link #split(int, int)}; those with a topology ({@link CartComm},
 * {@link GraphComm}) are made by {@link #createCart}, {@link #createGraph}, {@link #createDistGraph}
 * and {@link #createDistGraphAdjacent}.
 */
public class Intracomm extends Comm {

    /** A predefined communicator; rank and size come from the environment or the master. */
    Intracomm(int commId, String name) {
        super(commId, name);
    }

    /** A communicator whose rank and size are known (derived ones, COMM_SELF). */
    Intracomm(int commId, int rank, int size, String name) {
        super(commId, rank, size, name);
    }

    /** What a split with {@code MPI.UNDEFINED} returns: {@link #isNull()} is true. */
    static Intracomm nullComm() {
        return new Intracomm(Protocol.NO_COMM, "MPI_COMM_NULL");
    }

    /** A new communicator with the same members in the same order (collective). */
    @Override
    public Intracomm dup() throws MPIException {
        return (Intracomm) super.dup();
    }

    /** As {@link #dup()}, with an error wrapped in a RuntimeException, as Open MPI's clone. */
    @Override
    public Intracomm clone() {
        return (Intracomm) super.clone();
    }

    /**
     * Splits the communicator (collective): members with the same {@code colour} form a new one,
     * ranked by {@code key} and then by their rank here. It inherits the error handler.
     *
     * @param colour 0 or more, or {@code MPI.UNDEFINED} to be in no new communicator
     * @param key orders the members in the new communicator (ties by rank here)
     * @return the new communicator; a null one ({@link #isNull()}) for {@code MPI.UNDEFINED}
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Intracomm split(int colour, int key) throws MPIException {
        String call = "MPI_Comm_split";
        SlaveRuntime rt = enter(call);
        return derive(call, rt, colour, key, "SPLIT");
    }

    // ---------------------------------------------------------------- groups and info (see Comm's block)

    /**
     * As {@link Comm#iDup()}.
     *
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public Intracomm iDup() throws MPIException {
        return (Intracomm) super.iDup();
    }

    /**
     * As {@link Comm#dupWithInfo(Info)}.
     *
     * @param info the hints, or {@code MPI.INFO_NULL}
     * @return the new communicator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        return (Intracomm) super.dupWithInfo(info);
    }

    /**
     * A communicator of the processes of {@code group} (collective over this whole communicator,
     * parked until every member has called). Every process passes a subgroup of this
     * communicator's group: all the same one, or disjoint ones (each then makes its own
     * communicator), as MPI-3 allows. Ranks follow the group's order.
     *
     * @param group the members of the new communicator
     * @return the new communicator, which inherits the error handler; a null one ({@link #isNull()})
     *         for a process not in its group
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} ERR_GROUP for a freed group or
     *                      one with processes not in this communicator
     */
    public final Intracomm create(Group group) throws MPIException {
        String call = "MPI_Comm_create";
        return create(call, enter(call), group);
    }

    /**
     * A new communicator over the members of {@code group}, ranked as in it: collective over those
     * members only (the others of this communicator do not call). The k-th calls of the members
     * with the same group and tag make one communicator.
     *
     * @param group the members of the new communicator, which include the caller
     * @param tag separates concurrent calls over the same group (0 or more)
     * @return the new communicator
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} ERR_GROUP for a freed
     *                      group, one with processes not in this communicator or one without the caller,
     *                      ERR_TAG for a negative tag
     */
    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        String call = "MPI_Comm_create_group";
        SlaveRuntime rt = enter(call);
        int[] members = subgroup(call, rt, group);
        if (group.indexOf(rt.environment().worldRank()) == MPI.UNDEFINED) {
            throw handle(MPIException.of(MPI.ERR_GROUP, call + ": COMM_WORLD rank " + rt.environment().worldRank()
                    + " is not in the group; only its members call"));
        }
        if (tag < 0 || tag > MPI.TAG_UB_VALUE) {
            throw handle(MPIException.of(MPI.ERR_TAG, call + ": invalid tag " + tag + " (valid: 0 to " + MPI.TAG_UB_VALUE + ")"));
        }
        int[] made;
        try {
            made = rt.groupComm(members.clone(), 0, tag);
        } catch (IOException e) {
            throw handle(Errors.transport(call, e));
        }
        return made(new Intracomm(made[0], made[1], made[2], "MPI COMMUNICATOR " + made[0] + " CREATE_GROUP FROM " + getName()),
                members.clone());
    }

    /**
     * Splits by locality (collective): with {@link Comm#TYPE_SHARED} the processes of each node,
     * which can share memory, form a communicator, ranked by {@code key} and then by their rank here.
     *
     * @param splitType {@code Comm.TYPE_SHARED}, or {@code MPI.UNDEFINED} to be in no new communicator
     * @param key orders the members in the new communicator (ties by rank here)
     * @param info hints for the new communicator, or {@code MPI.INFO_NULL}
     * @return the new communicator; a null one for {@code MPI.UNDEFINED}
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} ERR_UNSUPPORTED_OPERATION for
     *                      Open MPI's hardware split types (1 to 11), ERR_ARG for any other
     */
    public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        String call = "MPI_Comm_split_type";
        SlaveRuntime rt = enter(call);
        if (splitType != TYPE_SHARED && splitType != MPI.UNDEFINED) {
            boolean hardware = splitType >= 1 && splitType <= 11;
            throw handle(MPIException.of(hardware ? MPI.ERR_UNSUPPORTED_OPERATION : MPI.ERR_ARG, call + ": split type "
                    + splitType + (hardware ? " (one of Open MPI's hardware kinds) is not supported: bdmpi knows only "
                    + "the node, Comm.TYPE_SHARED" : " is invalid (valid: Comm.TYPE_SHARED or MPI.UNDEFINED)")));
        }
        Map<String, String> hints = Info.hintsOf(call, info);
        int colour = splitType == MPI.UNDEFINED ? MPI.UNDEFINED : rt.environment().nodeId();
        Intracomm c = derive(call, rt, colour, key, "SPLIT_TYPE");
        if (!c.isNull()) {
            c.setHints(hints);
        }
        return c;
    }

    // ---------------------------------------------------------------- scans

    /**
     * Rank i receives the reduction of ranks 0..i's {@code count} items, in rank order.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Scan", b -> b.reduceToAll(CollectiveKind.SCAN, sendbuf, recvbuf, count, type, op));
    }

    /**
     * In-place scan: {@code recvbuf} is the input and receives the result.
     *
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Scan", b -> b.reduceToAllInPlace(CollectiveKind.SCAN, recvbuf, count, type, op));
    }

    /**
     * Rank i &gt; 0 receives the reduction of ranks 0..i-1; rank 0's {@code recvbuf} is left as it was.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Exscan", b -> b.reduceToAll(CollectiveKind.EXSCAN, sendbuf, recvbuf, count, type, op));
    }

    /**
     * In-place exScan: {@code buf} is the input and receives the result (rank 0's is left as it was).
     *
     * @param buf this rank's input, and where the result lands, as above
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        collective("MPI_Exscan", b -> b.reduceToAllInPlace(CollectiveKind.EXSCAN, buf, count, type, op));
    }

    /**
     * Nonblocking {@link #scan(Object, Object, int, Datatype, Op)}; direct Buffers only.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Iscan", b -> b.reduceToAll(CollectiveKind.SCAN, sendbuf, recvbuf, count, type, op),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #scan(Object, int, Datatype, Op)}; direct Buffers only.
     *
     * @param buf this rank's input, and where the result lands, as in the blocking form
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Iscan", b -> b.reduceToAllInPlace(CollectiveKind.SCAN, buf, count, type, op), buf);
    }

    /**
     * Nonblocking {@link #exScan(Object, Object, int, Datatype, Op)}; direct Buffers only.
     *
     * @param sendbuf this rank's input
     * @param recvbuf where the result lands
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Iexscan", b -> b.reduceToAll(CollectiveKind.EXSCAN, sendbuf, recvbuf, count, type, op),
                sendbuf, recvbuf);
    }

    /**
     * Nonblocking in-place {@link #exScan(Object, int, Datatype, Op)}; direct Buffers only.
     *
     * @param buf this rank's input, and where the result lands, as in the blocking form
     * @param count the number of items to combine
     * @param type the datatype of the items
     * @param op the reduction operator
     * @return the request; a wait or test completes it
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    public final Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iCollective("MPI_Iexscan", b -> b.reduceToAllInPlace(CollectiveKind.EXSCAN, buf, count, type, op), buf);
    }

    // ---------------------------------------------------------------- topologies (logic in CartComm and GraphComm)

    /**
     * Makes a cartesian grid of this communicator's first ranks (collective). Ranks keep their
     * order whatever {@code reorder} says, as MPI allows; ranks past the grid get a null
     * communicator ({@link #isNull()}).
     *
     * @param dims the extent of each dimension, each 1 or more; their product at most the size
     * @param periods whether each dimension wraps around, at least one entry per dimension
     * @param reorder whether MPI may renumber the ranks (it does not here)
     * @return the grid, or a null one
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_DIMS} or
     *                      {@code MPI.ERR_ARG} for a bad shape or one larger than the communicator
     */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        return CartComm.create(this, dims, periods);
    }

    /**
     * Makes a graph of this communicator's first {@code index.length} ranks (collective): node i's
     * neighbours are {@code edges[index[i-1]] .. edges[index[i]-1]} ({@code index[-1]} being 0).
     * Ranks keep their order; ranks past the graph get a null communicator.
     *
     * @param index cumulative neighbour counts, one per node
     * @param edges the neighbour lists one after another
     * @param reorder whether MPI may renumber the ranks (it does not here)
     * @return the graph, or a null one
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_ARG} or
     *                      {@code MPI.ERR_RANK} for a bad graph or one larger than the communicator
     */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        return GraphComm.create(this, index, edges);
    }

    /**
     * Makes a weighted distributed graph of this communicator (collective): each rank gives some
     * edges, node {@code sources[i]} having {@code degrees[i]} of them, to the next entries of
     * {@code destinations}, with the weights alongside. Every rank learns the edges that end or
     * start at it.
     *
     * @param sources the nodes this rank gives edges of
     * @param degrees per source, its number of edges given
     * @param destinations the edges' other ends, source after source
     * @param weights the edges' weights, parallel to {@code destinations}
     * @param info hints (none acted on)
     * @param reorder whether MPI may renumber the ranks (it does not here)
     * @return the distributed graph
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_ARG} or
     *                      {@code MPI.ERR_RANK} for bad edges
     */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights, Info info,
                                           boolean reorder) throws MPIException {
        return GraphComm.create(this, sources, degrees, destinations, weights, true);
    }

    /**
     * As {@link #createDistGraph(int[], int[], int[], int[], Info, boolean)}, unweighted.
     *
     * @param sources the nodes this rank gives edges of
     * @param degrees per source, its number of edges given
     * @param destinations the edges' other ends, source after source
     * @param info hints (none acted on)
     * @param reorder whether MPI may renumber the ranks (it does not here)
     * @return the distributed graph
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_ARG} or
     *                      {@code MPI.ERR_RANK} for bad edges
     */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        return GraphComm.create(this, sources, degrees, destinations, null, false);
    }

    /**
     * Makes a weighted distributed graph of this communicator (collective) in which each rank gives
     * its own in-neighbours and out-neighbours, in the order the neighbourhood collectives use.
     *
     * @param sources this rank's in-neighbours
     * @param sourceWeights their weights
     * @param destinations this rank's out-neighbours
     * @param destWeights their weights
     * @param info hints (none acted on)
     * @param reorder whether MPI may renumber the ranks (it does not here)
     * @return the distributed graph
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_ARG} or
     *                      {@code MPI.ERR_RANK} for bad neighbours
     */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                                   int[] destWeights, Info info, boolean reorder) throws MPIException {
        return GraphComm.createAdjacent(this, sources, sourceWeights, destinations, destWeights, true);
    }

    /**
     * As {@link #createDistGraphAdjacent(int[], int[], int[], int[], Info, boolean)}, unweighted.
     *
     * @param sources this rank's in-neighbours
     * @param destinations this rank's out-neighbours
     * @param info hints (none acted on)
     * @param reorder whether MPI may renumber the ranks (it does not here)
     * @return the distributed graph
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN} {@code MPI.ERR_ARG} or
     *                      {@code MPI.ERR_RANK} for bad neighbours
     */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        return GraphComm.createAdjacent(this, sources, null, destinations, null, false);
    }

    // ---------------------------------------------------------------- dynamic processes (not supported)

    /** The error every dynamic-process call raises: bdmpi starts every rank of a job at once. */
    private static MPIException dynamicProcesses(String call) {
        return MPIException.of(MPI.ERR_UNSUPPORTED_OPERATION, call + ": dynamic processes (spawn, ports, connect and"
                + " accept, names) are not supported: bdmpiexec starts every rank of the job at once");
    }

    private static MPIException unsupported(String call) throws MPIException {
        Session.enter(call);
        return MPI.COMM_WORLD.handle(dynamicProcesses(call));
    }

    private MPIException refuse(String call) throws MPIException {
        enter(call);
        return handle(dynamicProcesses(call));
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @return never returns normally
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public static String openPort() throws MPIException {
        throw unsupported("MPI_Open_port");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param info the hints
     * @return never returns normally
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public static String openPort(Info info) throws MPIException {
        throw unsupported("MPI_Open_port");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param name the port
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public static void closePort(String name) throws MPIException {
        throw unsupported("MPI_Close_port");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param port the port
     * @param root the rank whose arguments count
     * @return never returns normally
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public final Intercomm accept(String port, int root) throws MPIException {
        throw refuse("MPI_Comm_accept");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param port the port
     * @param info the hints
     * @param root the rank whose arguments count
     * @return never returns normally
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        throw refuse("MPI_Comm_accept");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param port the port
     * @param root the rank whose arguments count
     * @return never returns normally
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public final Intercomm connect(String port, int root) throws MPIException {
        throw refuse("MPI_Comm_connect");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param port the port
     * @param info the hints
     * @param root the rank whose arguments count
     * @return never returns normally
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        throw refuse("MPI_Comm_connect");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param service the service name
     * @param port the port
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public static void publishName(String service, String port) throws MPIException {
        throw unsupported("MPI_Publish_name");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param service the service name
     * @param info the hints
     * @param port the port
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public static void publishName(String service, Info info, String port) throws MPIException {
        throw unsupported("MPI_Publish_name");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param service the service name
     * @param port the port
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public static void unpublishName(String service, String port) throws MPIException {
        throw unsupported("MPI_Unpublish_name");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param service the service name
     * @param info the hints
     * @param port the port
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public static void unpublishName(String service, Info info, String port) throws MPIException {
        throw unsupported("MPI_Unpublish_name");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param service the service name
     * @return never returns normally
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public static String lookupName(String service) throws MPIException {
        throw unsupported("MPI_Lookup_name");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param service the service name
     * @param info the hints
     * @return never returns normally
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public static String lookupName(String service, Info info) throws MPIException {
        throw unsupported("MPI_Lookup_name");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param command the program to start
     * @param argv its arguments
     * @param maxprocs how many to start
     * @param info the hints
     * @param root the rank whose arguments count
     * @param errcodes one error code per process started
     * @return never returns normally
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes)
            throws MPIException {
        throw refuse("MPI_Comm_spawn");
    }

    /**
     * Not supported: raises {@code MPI.ERR_UNSUPPORTED_OPERATION} (dynamic processes).
     *
     * @param commands the programs to start
     * @param argv their arguments
     * @param maxprocs how many of each to start
     * @param info the hints for each
     * @param root the rank whose arguments count
     * @param errcodes one error code per process started
     * @return never returns normally
     * @throws MPIException ERR_UNSUPPORTED_OPERATION under {@code MPI.ERRORS_RETURN}; the job ends otherwise
     */
    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
                                         int[] errcodes) throws MPIException {
        throw refuse("MPI_Comm_spawn_multiple");
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters
    /**
     * mpiJava 1.2: as {@link #split}; {@code MPI.UNDEFINED} gives {@code MPI.COMM_NULL}.
     *
     * @param colour the new communicator's colour, or {@code MPI.UNDEFINED}
     * @param key orders the ranks in it
     * @return the new communicator, or {@code MPI.COMM_NULL}
     * @throws MPIException as the Open MPI call
     */
    public final Intracomm Split(int colour, int key) throws MPIException {
        return orNull(split(colour, key));
    }

    /**
     * mpiJava 1.2: as {@link #create}; non-members get {@code MPI.COMM_NULL}.
     *
     * @param group the members
     * @return the new communicator, or {@code MPI.COMM_NULL}
     * @throws MPIException as the Open MPI call
     */
    public final Intracomm Create(Group group) throws MPIException {
        return orNull(create(group));
    }

    /**
     * mpiJava 1.2: as {@link #createCart}.
     *
     * @param dims the extent of each dimension
     * @param periods whether each dimension wraps around
     * @param reorder ignored: ranks keep their order
     * @return the grid (a null one past it)
     * @throws MPIException as the Open MPI call
     */
    public final Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        return Cartcomm.create(this, dims, periods);
    }

    /**
     * mpiJava 1.2: as {@link #createGraph}.
     *
     * @param index cumulative neighbour counts
     * @param edges the neighbour lists
     * @param reorder ignored: ranks keep their order
     * @return the graph (a null one past it)
     * @throws MPIException as the Open MPI call
     */
    public final Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) throws MPIException {
        return Graphcomm.create(this, index, edges);
    }

    /**
     * mpiJava 1.2: as {@link #barrier}.
     *
     * @throws MPIException as the Open MPI call
     */
    public final void Barrier() throws MPIException {
        barrier();
    }

    /**
     * mpiJava 1.2: as {@link #bcast}, from element {@code offset}.
     *
     * @param buf the root's items; where they land elsewhere
     * @param offset the element of {@code buf} where they start
     * @param count the number of items
     * @param type their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param root the root's rank
     * @throws MPIException as the Open MPI call
     */
    public final void Bcast(Object buf, int offset, int count, Datatype type, int root) throws MPIException {
        if (type == MPI.OBJECT) {
            ObjectCalls.bcast(this, buf, offset, count, root);
        } else {
            bcast(at(buf, offset), count, type, root);
        }
    }

    /**
     * mpiJava 1.2: as {@link #gather}, with offsets.
     *
     * @param sendbuf the items this rank sends
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param sendcount the number of items sent (to each rank)
     * @param sendtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param recvbuf where the items land
     * @param recvoffset the element of {@code recvbuf} where they start
     * @param recvcount the number of items received (from each rank)
     * @param recvtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param root the root's rank
     * @throws MPIException as the Open MPI call
     */
    public final void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (ObjectCalls.isObject(sendtype, recvtype)) {
            ObjectCalls.gatherv(this, sendbuf, sendoffset, sendcount, recvbuf, recvoffset, ObjectCalls.counts(getSize(), recvcount),
                    ObjectCalls.displacements(getSize(), recvcount), root);
        } else {
            gather(at(sendbuf, sendoffset), sendcount, sendtype, at(recvbuf, recvoffset), recvcount, recvtype, root);
        }
    }

    /**
     * mpiJava 1.2: as {@link #gatherv}, with offsets.
     *
     * @param sendbuf the items this rank sends
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param sendcount the number of items sent (to each rank)
     * @param sendtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param recvbuf where the items land
     * @param recvoffset the element of {@code recvbuf} where they start
     * @param recvcount the number of items received from each rank
     * @param displs where each rank's items land, in items from {@code recvoffset}
     * @param recvtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param root the root's rank
     * @throws MPIException as the Open MPI call
     */
    public final void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                              Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        if (ObjectCalls.isObject(sendtype, recvtype)) {
            ObjectCalls.gatherv(this, sendbuf, sendoffset, sendcount, recvbuf, recvoffset, recvcount, displs, root);
        } else {
            gatherv(at(sendbuf, sendoffset), sendcount, sendtype, at(recvbuf, recvoffset), recvcount, displs, recvtype, root);
        }
    }

    /**
     * mpiJava 1.2: as {@link #scatter}, with offsets.
     *
     * @param sendbuf the items this rank sends
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param sendcount the number of items sent (to each rank)
     * @param sendtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param recvbuf where the items land
     * @param recvoffset the element of {@code recvbuf} where they start
     * @param recvcount the number of items received (from each rank)
     * @param recvtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param root the root's rank
     * @throws MPIException as the Open MPI call
     */
    public final void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                              Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (ObjectCalls.isObject(sendtype, recvtype)) {
            ObjectCalls.scatterv(this, sendbuf, sendoffset, ObjectCalls.counts(getSize(), sendcount),
                    ObjectCalls.displacements(getSize(), sendcount), recvbuf, recvoffset, recvcount, root);
        } else {
            scatter(at(sendbuf, sendoffset), sendcount, sendtype, at(recvbuf, recvoffset), recvcount, recvtype, root);
        }
    }

    /**
     * mpiJava 1.2: as {@link #scatterv}, with offsets.
     *
     * @param sendbuf the items this rank sends
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param sendcount the number of items sent to each rank
     * @param displs where each rank's items start, in items from {@code sendoffset}
     * @param sendtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param recvbuf where the items land
     * @param recvoffset the element of {@code recvbuf} where they start
     * @param recvcount the number of items received (from each rank)
     * @param recvtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param root the root's rank
     * @throws MPIException as the Open MPI call
     */
    public final void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                               Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (ObjectCalls.isObject(sendtype, recvtype)) {
            ObjectCalls.scatterv(this, sendbuf, sendoffset, sendcount, displs, recvbuf, recvoffset, recvcount, root);
        } else {
            scatterv(at(sendbuf, sendoffset), sendcount, displs, sendtype, at(recvbuf, recvoffset), recvcount, recvtype, root);
        }
    }

    /**
     * mpiJava 1.2: as {@link #allGather}, with offsets.
     *
     * @param sendbuf the items this rank sends
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param sendcount the number of items sent (to each rank)
     * @param sendtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param recvbuf where the items land
     * @param recvoffset the element of {@code recvbuf} where they start
     * @param recvcount the number of items received (from each rank)
     * @param recvtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @throws MPIException as the Open MPI call
     */
    public final void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                                Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        if (ObjectCalls.isObject(sendtype, recvtype)) {
            ObjectCalls.allGatherv(this, sendbuf, sendoffset, sendcount, recvbuf, recvoffset,
                    ObjectCalls.counts(getSize(), recvcount), ObjectCalls.displacements(getSize(), recvcount));
        } else {
            allGather(at(sendbuf, sendoffset), sendcount, sendtype, at(recvbuf, recvoffset), recvcount, recvtype);
        }
    }

    /**
     * mpiJava 1.2: as {@link #allGatherv}, with offsets.
     *
     * @param sendbuf the items this rank sends
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param sendcount the number of items sent (to each rank)
     * @param sendtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param recvbuf where the items land
     * @param recvoffset the element of {@code recvbuf} where they start
     * @param recvcount the number of items received from each rank
     * @param displs where each rank's items land, in items from {@code recvoffset}
     * @param recvtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @throws MPIException as the Open MPI call
     */
    public final void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                                 Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        if (ObjectCalls.isObject(sendtype, recvtype)) {
            ObjectCalls.allGatherv(this, sendbuf, sendoffset, sendcount, recvbuf, recvoffset, recvcount, displs);
        } else {
            allGatherv(at(sendbuf, sendoffset), sendcount, sendtype, at(recvbuf, recvoffset), recvcount, displs, recvtype);
        }
    }

    /**
     * mpiJava 1.2: as {@link #allToAll}, with offsets.
     *
     * @param sendbuf the items this rank sends
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param sendcount the number of items sent (to each rank)
     * @param sendtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param recvbuf where the items land
     * @param recvoffset the element of {@code recvbuf} where they start
     * @param recvcount the number of items received (from each rank)
     * @param recvtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @throws MPIException as the Open MPI call
     */
    public final void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                               Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        if (ObjectCalls.isObject(sendtype, recvtype)) {
            ObjectCalls.allToAllv(this, sendbuf, sendoffset, ObjectCalls.counts(getSize(), sendcount),
                    ObjectCalls.displacements(getSize(), sendcount), recvbuf, recvoffset,
                    ObjectCalls.counts(getSize(), recvcount), ObjectCalls.displacements(getSize(), recvcount));
        } else {
            allToAll(at(sendbuf, sendoffset), sendcount, sendtype, at(recvbuf, recvoffset), recvcount, recvtype);
        }
    }

    /**
     * mpiJava 1.2: as {@link #allToAllv}, with offsets.
     *
     * @param sendbuf the items this rank sends
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param sendcount the number of items sent to each rank
     * @param sdispls where each rank's items start, in items from {@code sendoffset}
     * @param sendtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @param recvbuf where the items land
     * @param recvoffset the element of {@code recvbuf} where they start
     * @param recvcount the number of items received from each rank
     * @param rdispls where each rank's items land, in items from {@code recvoffset}
     * @param recvtype their datatype ({@code MPI.OBJECT}: an {@code Object[]})
     * @throws MPIException as the Open MPI call
     */
    public final void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                                Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        if (ObjectCalls.isObject(sendtype, recvtype)) {
            ObjectCalls.allToAllv(this, sendbuf, sendoffset, sendcount, sdispls, recvbuf, recvoffset, recvcount, rdispls);
        } else {
            allToAllv(at(sendbuf, sendoffset), sendcount, sdispls, sendtype, at(recvbuf, recvoffset), recvcount, rdispls, recvtype);
        }
    }

    /**
     * mpiJava 1.2: as {@link #reduce}, with offsets; MINLOC and MAXLOC also take {@code MPI.SHORT2}, {@code LONG2}, {@code FLOAT2}, {@code DOUBLE2}.
     *
     * @param sendbuf this rank's operands
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param recvbuf where the result lands
     * @param recvoffset the element of {@code recvbuf} where it starts
     * @param count the number of items
     * @param type the items' datatype ({@code MPI.OBJECT}: an {@code Object[]}, with a {@link User_function} operator)
     * @param op the operator
     * @param root the root's rank
     * @throws MPIException as the Open MPI call
     */
    public final void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype type, Op op,
                             int root) throws MPIException {
        if (type == MPI.OBJECT) {
            ObjectCalls.reduce(this, sendbuf, sendoffset, recvbuf, recvoffset, count, op, root);
        } else {
            reduce(at(sendbuf, sendoffset), at(recvbuf, recvoffset), count, type, forMpiJava(op, type), root);
        }
    }

    /**
     * mpiJava 1.2: as {@link #allReduce}, with offsets; MINLOC and MAXLOC also take {@code MPI.SHORT2}, {@code LONG2}, {@code FLOAT2}, {@code DOUBLE2}.
     *
     * @param sendbuf this rank's operands
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param recvbuf where the result lands
     * @param recvoffset the element of {@code recvbuf} where it starts
     * @param count the number of items
     * @param type the items' datatype ({@code MPI.OBJECT}: an {@code Object[]}, with a {@link User_function} operator)
     * @param op the operator
     * @throws MPIException as the Open MPI call
     */
    public final void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype type, Op op) throws MPIException {
        if (type == MPI.OBJECT) {
            ObjectCalls.allReduce(this, "MPI_Allreduce", sendbuf, sendoffset, recvbuf, recvoffset, count, op, false);
        } else {
            allReduce(at(sendbuf, sendoffset), at(recvbuf, recvoffset), count, type, forMpiJava(op, type));
        }
    }

    /**
     * mpiJava 1.2: as {@link #reduceScatter}, with offsets; MINLOC and MAXLOC also take {@code MPI.SHORT2}, {@code LONG2}, {@code FLOAT2}, {@code DOUBLE2}.
     *
     * @param sendbuf this rank's operands
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param recvbuf where the result lands
     * @param recvoffset the element of {@code recvbuf} where it starts
     * @param recvcounts the number of items of the result each rank receives
     * @param type the items' datatype ({@code MPI.OBJECT}: an {@code Object[]}, with a {@link User_function} operator)
     * @param op the operator
     * @throws MPIException as the Open MPI call
     */
    public final void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts, Datatype type,
                                     Op op) throws MPIException {
        if (type == MPI.OBJECT) {
            ObjectCalls.reduceScatter(this, sendbuf, sendoffset, recvbuf, recvoffset, recvcounts, op);
        } else {
            reduceScatter(at(sendbuf, sendoffset), at(recvbuf, recvoffset), recvcounts, type, forMpiJava(op, type));
        }
    }

    /**
     * mpiJava 1.2: as {@link #scan}, with offsets; MINLOC and MAXLOC also take {@code MPI.SHORT2}, {@code LONG2}, {@code FLOAT2}, {@code DOUBLE2}.
     *
     * @param sendbuf this rank's operands
     * @param sendoffset the element of {@code sendbuf} where they start
     * @param recvbuf where the result lands
     * @param recvoffset the element of {@code recvbuf} where it starts
     * @param count the number of items
     * @param type the items' datatype ({@code MPI.OBJECT}: an {@code Object[]}, with a {@link User_function} operator)
     * @param op the operator
     * @throws MPIException as the Open MPI call
     */
    public final void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype type, Op op) throws MPIException {
        if (type == MPI.OBJECT) {
            ObjectCalls.allReduce(this, "MPI_Scan", sendbuf, sendoffset, recvbuf, recvoffset, count, op, true);
        } else {
            scan(at(sendbuf, sendoffset), at(recvbuf, recvoffset), count, type, forMpiJava(op, type));
        }
    }

    private static Object at(Object buf, int offset) {
        return BufferAccess.fromElement(buf, offset);
    }

    private static Op forMpiJava(Op op, Datatype type) {
        return op == null ? null : op.forMpiJava(type);
    }

    private static Intracomm orNull(Intracomm c) {
        return c.isNull() ? MPI.COMM_NULL : c;
    }
}
