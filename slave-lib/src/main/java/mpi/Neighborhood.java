package mpi;

import io.bdmpi.protocol.Protocol;
import io.bdmpi.slave.SlaveRuntime;

import java.io.IOException;
import java.nio.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * A topology communicator's neighbourhood: its {@link Topology} and a private duplicate of the
 * communicator (the <em>channel</em>), made with it, that carries the neighbourhood collectives.
 * No message of the program can match theirs, and theirs match among themselves in call order:
 * between two ranks on one tag messages never overtake.
 *
 * <p>A neighbourhood collective posts a receive per in-neighbour, sends a block per out-neighbour
 * (the master buffers it, so sending never waits), and is one {@link Request} over the receives;
 * the blocking forms wait for it at once. Neighbours that are {@code MPI.PROC_NULL} get nothing
 * sent and leave their receive block as it was, as MPI says.
 */
final class Neighborhood {

    /** One member's blocks, built from checked arguments by {@link Blocks}. */
    @FunctionalInterface
    interface Plan {
        Exchange build(Blocks b) throws MPIException;
    }

    /**
     * What a member sends and where what it receives lands.
     *
     * @param sends the block for each out-neighbour
     * @param slots the place of the block from each in-neighbour
     */
    record Exchange(Span[] sends, Span[] slots) {
    }

    final Topology topology;
    private final Intracomm channel;
    /** This rank's in-neighbours, in receive-block order. */
    private final int[] sources;
    /** This rank's out-neighbours, in send-block order. */
    private final int[] destinations;

    private Neighborhood(Topology topology, Intracomm channel, int rank) {
        this.topology = topology;
        this.channel = channel;
        this.sources = topology.sources(rank);
        this.destinations = topology.destinations(rank);
    }

    /** The constructor of a topology communicator. */
    @FunctionalInterface
    interface Maker<C extends Intracomm> {
        C make(int commId, int rank, int size, String name, Neighborhood neighborhood);
    }

    /** A topology checked against the parent's size. */
    @FunctionalInterface
    interface Shape<T extends Topology> {
        T of(int size) throws MPIException;
    }

    /**
     * Makes a topology communicator of the parent's first ranks (collective over the parent): a
     * split that keeps their order, then {@link #wrap}. Ranks past the topology get a null one.
     *
     * @param how names the communicator ({@code CART}, ...)
     * @param members how many of the parent's ranks the topology has
     * @throws MPIException what {@code shape} finds wrong, through the parent's handler
     */
    static <T extends Topology, C extends Intracomm> C create(Intracomm parent, String call, String how, Shape<T> shape,
                                                              ToLongFunction<T> members, Maker<C> maker)
            throws MPIException {
        int rank = parent.getRank();
        int size = parent.getSize();
        SlaveRuntime rt = parent.enter(call);
        T topology;
        try {
            topology = shape.of(size);
        } catch (MPIException e) {
            throw parent.handle(e);
        }
        int colour = rank < members.applyAsLong(topology) ? 0 : MPI.UNDEFINED;
        return wrap(parent.derive(call, rt, colour, rank, how), topology, maker);
    }

    /**
     * The topology communicator over {@code made}, a fresh communicator from a split or dup of
     * the parent (collective over it): {@code made}'s id, rank, size, name and error handler with
     * {@code topology} and a channel, its duplicate. A null {@code made} gives a null one.
     */
    static <C extends Intracomm> C wrap(Intracomm made, Topology topology, Maker<C> maker) throws MPIException {
        if (made.isNull()) {
            return maker.make(Protocol.NO_COMM, -1, -1, "MPI_COMM_NULL", null);
        }
        int rank = made.getRank();
        Neighborhood n = new Neighborhood(topology, made.dup(), rank);
        C c = maker.make(made.commId, rank, made.getSize(), made.getName(), n);
        c.setErrhandler(made.getErrhandler());
        return c;
    }

    /**
     * Checks that {@code rank} is a rank of {@code comm}.
     *
     * @throws MPIException ERR_RANK, through {@code comm}'s handler, if not
     */
    static void checkRank(Comm comm, String call, int rank) throws MPIException {
        int size = comm.getSize();
        if (rank < 0 || rank >= size) {
            throw comm.handle(MPIException.of(MPI.ERR_RANK, call + ": rank " + rank + " is not in " + comm + " of size "
                    + size));
        }
    }

    /** Frees the channel (collective), with the communicator. */
    void free() throws MPIException {
        channel.free();
    }

    /** Runs a blocking neighbourhood collective on {@code comm}: starts it and waits (parked) for it. */
    static void run(Comm comm, String call, Plan plan) throws MPIException {
        start(comm, call, plan).waitStatus(call);
    }

    /**
     * Starts a neighbourhood collective on {@code comm}: checks, posts the receives, sends.
     *
     * @param direct the buffers that must be direct (the nonblocking forms'), as in Open MPI
     * @return the request over its receives
     * @throws IllegalArgumentException if one of {@code direct} is not
     */
    static Request start(Comm comm, String call, Plan plan, Buffer... direct) throws MPIException {
        SlaveRuntime rt = comm.enter(call);
        for (Buffer b : direct) {
            Comm.requireDirect(b);
        }
        Neighborhood n = comm.neighborhood();
        Exchange x;
        try {
            if (n == null) {
                throw MPIException.of(MPI.ERR_TOPOLOGY, call + ": " + comm + " has no topology (make one with createCart,"
                        + " createGraph, createDistGraph or createDistGraphAdjacent)");
            }
            x = plan.build(new Blocks(call, n.sources.length, n.destinations.length));
        } catch (MPIException e) {
            throw comm.handle(e);
        }
        try {
            return Request.all(comm, n.exchange(rt, comm, x));
        } catch (IOException e) {
            throw comm.handle(Errors.transport(call, e));
        }
    }

    /** Posts the receives of {@code x}, then sends its blocks, on the channel: the receive requests. */
    private List<Request> exchange(SlaveRuntime rt, Comm comm, Exchange x) throws IOException {
        int channelId = channel.commId;
        List<Request> receives = new ArrayList<>();
        for (int i = 0; i < sources.length; i++) {
            if (sources[i] != MPI.PROC_NULL) {
                long id = rt.postRecv(channelId, sources[i], topology.receiveTag(i));
                receives.add(Request.receive(comm, id, x.slots[i]));
            }
        }
        for (int j = 0; j < destinations.length; j++) {
            if (destinations[j] != MPI.PROC_NULL) {
                rt.send(channelId, destinations[j], topology.sendTag(j), Span.message(x.sends[j]));
            }
        }
        return receives;
    }

    /**
     * Checks the arguments of one neighbourhood collective and cuts its buffers into blocks: one
     * method per form (the blocking and nonblocking calls share them). Counts and displacements are
     * in items of the datatype given with them.
     */
    static final class Blocks {

        private final String call;
        private final int indegree;
        private final int outdegree;

        Blocks(String call, int indegree, int outdegree) {
            this.call = call;
            this.indegree = indegree;
            this.outdegree = outdegree;
        }

        Exchange allGather(Object sendbuf, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
            return new Exchange(same(span(sendbuf, 0, sendcount, sendtype, false)),
                    uniform(recvbuf, recvcount, recvtype, indegree, true));
        }

        Exchange allGatherv(Object sendbuf, int sendcount, Datatype sendtype,
                            Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
            return new Exchange(same(span(sendbuf, 0, sendcount, sendtype, false)),
                    spans(recvbuf, recvcount, displs, recvtype, indegree, true));
        }

        Exchange allToAll(Object sendbuf, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
            return new Exchange(uniform(sendbuf, sendcount, sendtype, outdegree, false),
                    uniform(recvbuf, recvcount, recvtype, indegree, true));
        }

        Exchange allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                           Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
            return new Exchange(spans(sendbuf, sendcount, sdispls, sendtype, outdegree, false),
                    spans(recvbuf, recvcount, rdispls, recvtype, indegree, true));
        }

        /** The one block every out-neighbour gets. */
        private Span[] same(Span block) {
            Span[] out = new Span[outdegree];
            java.util.Arrays.fill(out, block);
            return out;
        }

        /** Block k of {@code count} items at item {@code k * count}, for {@code n} neighbours. */
        private Span[] uniform(Object buf, int count, Datatype type, int n, boolean receive) throws MPIException {
            if (count < 0) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": negative count " + count);
            }
            if ((long) n * count > Integer.MAX_VALUE) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": " + n + " blocks of " + count + " items reach past item "
                        + Integer.MAX_VALUE);
            }
            Span[] out = new Span[n];
            for (int k = 0; k < n; k++) {
                out[k] = span(buf, k * count, count, type, receive);
            }
            return out;
        }

        /** Block k of {@code counts[k]} items at item {@code displs[k]}, for {@code n} neighbours. */
        private Span[] spans(Object buf, int[] counts, int[] displs, Datatype type, int n, boolean receive)
                throws MPIException {
            perNeighbour(counts, "counts", n);
            perNeighbour(displs, "displacements", n);
            Span[] out = new Span[n];
            for (int k = 0; k < n; k++) {
                out[k] = span(buf, displs[k], counts[k], type, receive);
            }
            return out;
        }

        private void perNeighbour(int[] values, String what, int n) throws MPIException {
            if (values == null || values.length < n) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + (values == null ? "null array of " + what
                        : values.length + " " + what) + " for " + n + " neighbours");
            }
        }

        private Span span(Object buf, int offset, int count, Datatype type, boolean receive) throws MPIException {
            return new Span(buf, offset, count, type).checked(call, receive);
        }
    }
}
