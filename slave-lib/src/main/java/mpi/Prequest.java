package mpi;

/**
 * A persistent request (MPI_Send_init, MPI_Recv_init, ...): made inactive by a {@code *Init}
 * call of {@link Comm}, it starts one transfer with the stored arguments at each {@link #start()}.
 * The transfer completes through the calls inherited from {@link Request} ({@code waitFor},
 * {@code test}, {@code waitAll}, ...); the request is then inactive again but not null, and may be
 * started again. Waiting on an inactive one returns at once with an empty status, and the array
 * calls pass over it as over a null request. {@link #free()} ends its life.
 *
 * <p>A send reads its buffer at each start (the master then owns the message, so the send is
 * complete at once); a receive fills its buffer when a wait or test completes it.
 */
public final class Prequest extends Request {

    /** Starts one transfer with the stored arguments, as the matching nonblocking call. */
    @FunctionalInterface
    interface Starter {
        Request start() throws MPIException;
    }

    private final Comm comm;
    private final Starter starter;
    private boolean freed;

    Prequest(Comm comm, Starter starter) {
        super(comm);
        this.comm = comm;
        this.starter = starter;
    }

    /**
     * Starts one transfer (MPI_Start).
     *
     * @throws MPIException if MPI is not running; under {@code MPI.ERRORS_RETURN}, ERR_REQUEST for a request
     *                      that is active or freed, or an error of the transfer (such as ERR_BUFFER for a
     *                      buffered send without attached space)
     */
    public void start() throws MPIException {
        String call = "MPI_Start";
        Session.enter(call);
        if (freed) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_REQUEST, call + ": freed persistent request"));
        }
        if (isActive()) {
            throw comm.handle(MPIException.of(MPI.ERR_REQUEST, call + ": the persistent request is active already: "
                    + "complete it with a wait or test before starting it again"));
        }
        adopt(starter.start());
    }

    /**
     * Starts every request (MPI_Startall), in array order.
     *
     * @param requests the requests; none may be Java null
     * @throws MPIException if MPI is not running, or as {@link #start()} under {@code MPI.ERRORS_RETURN}
     */
    public static void startAll(Prequest[] requests) throws MPIException {
        String call = "MPI_Startall";
        Session.enter(call);
        checkElements(call, requests);
        for (Prequest r : requests) {
            r.start();
        }
    }

    /**
     * False until freed: a completed persistent request is inactive, not null.
     *
     * @return whether the request has been freed
     */
    @Override
    public boolean isNull() {
        return freed;
    }

    /**
     * Ends the request's life; a transfer under way still completes (a receive not yet matched stays
     * posted, as {@link Request#free()} says).
     *
     * @throws MPIException if MPI is not running, or on an error of the call under {@code MPI.ERRORS_RETURN}
     */
    @Override
    public void free() throws MPIException {
        super.free();
        freed = true;
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters

    /**
     * mpiJava 1.2: as {@link #start}.
     *
     * @throws MPIException as {@link #start}
     */
    public void Start() throws MPIException {
        start();
    }

    /**
     * mpiJava 1.2: as {@link #startAll}.
     *
     * @param requests the persistent requests
     * @throws MPIException as {@link #startAll}
     */
    public static void Startall(Prequest[] requests) throws MPIException {
        startAll(requests);
    }
}
