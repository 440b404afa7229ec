package io.bdmpi.master.control;

import io.bdmpi.master.observe.JobSnapshot;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A master's end of the side channel to {@code bdmpiexec} (see the package). Two daemon threads:
 * <b>bdmpi-heartbeat</b> sends a heartbeat every {@value #HEARTBEAT_MS} ms (with the node's
 * latest snapshot when the scheduler gave one; it never waits for the scheduler, nor for MPI, so
 * a master whose MPI calls block still answers) and notices a launcher that went silent;
 * <b>bdmpi-launcher-reader</b> takes the launcher's heartbeats, its news of a lost node and its
 * placement of the ranks. Writes are under the link's lock: the heartbeat thread's, the clock
 * probes and holdings before it starts, a rank's death and the goodbye.
 */
public final class LauncherLink implements AutoCloseable {

    /** How often each side sends a heartbeat. */
    public static final long HEARTBEAT_MS = 250;
    /**
     * Silence after which a master (or the launcher) counts as lost: ten heartbeats missed, so
     * that a busy machine's scheduling hiccup is no failure, yet a master that stopped answering
     * is named within 5 s (measured on a machine loaded far past its cores: 3.3 to 4.6 s with a
     * 3 s limit, hence less).
     */
    public static final long SILENCE_LIMIT_MS = 2_500;
    /**
     * A heartbeat period this much longer than asked means this process itself was paused (GC, a
     * starved machine): the other side's messages may wait unread, so its silence is not judged then.
     */
    public static final long PAUSE_MS = 4 * HEARTBEAT_MS;
    /**
     * How long a master that lost bdmpiexec (or never reached it) gets to stop its node before it
     * ends itself: nobody else may end it (under MPICH it runs out of reach of hydra's cleanup, in
     * a session of its own) and its MPI calls may block for ever (a peer gone mid-transfer). Longer
     * than a master waits for its killed slaves; shorter than bdmpiexec waits for the masters
     * after it was told to stop.
     */
    public static final long ORPHAN_LIMIT_MS = 15_000;
    /** Clock probes at connection; the one with the shortest round trip gives the offset. */
    static final int CLOCK_PROBES = 8;
    /** Longest wait for a connection, a hello or a clock reply: the start of a job on a busy machine is slow. */
    public static final int HANDSHAKE_TIMEOUT_MS = 10_000;

    /** What the launcher's side says (called on this link's threads: publish and return). */
    public interface Listener {
        /**
         * The launcher lost another node of the job.
         *
         * @param node   the lost node
         * @param reason the launcher's words
         */
        void nodeLost(int node, String reason);

        /**
         * The launcher is gone or silent.
         *
         * @param reason why this master thinks so
         */
        void launcherLost(String reason);
    }

    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private final Listener listener;
    private final long clockOffsetNanos;
    private final Thread heartbeat;
    private final Thread reader;
    private volatile Consumer<CompletableFuture<JobSnapshot>> snapshots;
    /** The launcher's {@link ControlMessage.Placed} or {@link ControlMessage.NotPlaced}, for a master that told its holdings. */
    private final CompletableFuture<ControlMessage> placement = new CompletableFuture<>();
    private volatile long lastHeardNs = System.nanoTime();
    private volatile boolean closed;
    private boolean launcherLost;

    private LauncherLink(Socket socket, int node, Listener listener, ControlMessage.Holdings holdings) throws IOException {
        this.socket = socket;
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.listener = listener;
        send(new ControlMessage.Hello(node, hostName(), ProcessHandle.current().pid()));
        this.clockOffsetNanos = measureClock();
        if (holdings != null) {
            send(holdings); // after the probes: the launcher's answer comes once every master has probed and told its own
        }
        // From now on the heartbeat thread judges silence: a timeout could cut a message in two.
        socket.setSoTimeout(0);
        this.heartbeat = daemon(this::beat, "bdmpi-heartbeat");
        this.reader = daemon(this::read, "bdmpi-launcher-reader");
    }

    /**
     * Connects to the launcher at {@code address}, says hello, measures the clocks and starts the
     * heartbeat.
     *
     * @param address  the launcher's {@code HOST:PORT}
     * @param node     this master's node
     * @param listener told of lost nodes and of a lost launcher
     * @param holdings what this master's node-local checkpoint directory holds, when the launcher
     *                 is to place the ranks ({@link #placement}); else null
     * @return the running link
     * @throws IOException if the launcher cannot be reached
     */
    public static LauncherLink connect(String address, int node, Listener listener, ControlMessage.Holdings holdings)
            throws IOException {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IOException("bad launcher address " + address);
        }
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))),
                    HANDSHAKE_TIMEOUT_MS);
            s.setSoTimeout(HANDSHAKE_TIMEOUT_MS);
            LauncherLink link = new LauncherLink(s, node, listener, holdings);
            link.heartbeat.start();
            link.reader.start();
            return link;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
    }

    /** This machine's name, as the launcher names a lost node. */
    public static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    /**
     * The launcher's clock less this one's ({@link System#nanoTime}), measured at connection with
     * the probe of shortest round trip (Cristian's method: off by at most half of that trip).
     *
     * @return nanoseconds to add to a reading of this master's clock to get the launcher's
     */
    public long clockOffsetNanos() {
        return clockOffsetNanos;
    }

    /**
     * Waits for the launcher's placement of the ranks, which it sends once every master has told
     * its holdings (see {@link #connect}).
     *
     * @param timeoutMs how long to wait at most
     * @return the checkpoint to go on from and each rank's node
     * @throws IOException when the launcher says the job cannot go on, it or another node is lost
     *                     first, or no placement came within {@code timeoutMs}
     * @throws InterruptedException if interrupted while waiting
     */
    public ControlMessage.Placed placement(long timeoutMs) throws IOException, InterruptedException {
        try {
            ControlMessage m = placement.get(timeoutMs, TimeUnit.MILLISECONDS);
            if (m instanceof ControlMessage.NotPlaced not) {
                throw new IOException(not.reason());
            }
            return (ControlMessage.Placed) m;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("bdmpiexec placed no rank within " + timeoutMs / 1000.0 + " s of this master telling"
                    + " what its checkpoint directory holds; giving up");
        }
    }

    /**
     * Where heartbeats get the node's snapshot from (the attempt running now), or null for none.
     *
     * @param ask completes a future with a snapshot (through the scheduler's ring); must not block
     */
    public void snapshotsFrom(Consumer<CompletableFuture<JobSnapshot>> ask) {
        snapshots = ask;
    }

    private long measureClock() throws IOException {
        long bestTrip = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i < CLOCK_PROBES; i++) {
            send(new ControlMessage.ClockProbe(System.nanoTime()));
            ControlMessage m;
            do {
                m = ControlMessage.read(in); // the launcher's heartbeats may come first
            } while (m instanceof ControlMessage.Heartbeat);
            long back = System.nanoTime();
            if (!(m instanceof ControlMessage.ClockReply reply)) {
                throw new IOException("the launcher answered a clock probe with " + m);
            }
            long trip = back - reply.masterNanos();
            if (trip < bestTrip) {
                bestTrip = trip;
                offset = reply.launcherNanos() - (reply.masterNanos() + trip / 2);
            }
        }
        return offset;
    }

    private void beat() {
        CompletableFuture<JobSnapshot> asked = null;
        long lastTickNs = System.nanoTime();
        while (!closed) {
            try {
                Thread.sleep(HEARTBEAT_MS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            boolean overslept = TimeUnit.NANOSECONDS.toMillis(now - lastTickNs) > PAUSE_MS;
            lastTickNs = now;
            JobSnapshot latest = asked != null && asked.isDone() && !asked.isCompletedExceptionally() ? asked.join() : null;
            Consumer<CompletableFuture<JobSnapshot>> ask = snapshots;
            if (ask != null && (asked == null || asked.isDone())) {
                asked = new CompletableFuture<>();
                ask.accept(asked);
            }
            try {
                send(latest != null ? new ControlMessage.Status(latest) : new ControlMessage.Heartbeat());
            } catch (IOException e) {
                lost("its connection failed: " + e.getMessage());
                return;
            }
            long silentMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastHeardNs);
            if (silentMs > SILENCE_LIMIT_MS && !overslept) {
                lost("it stopped answering for " + seconds(silentMs));
                return;
            }
        }
    }

    private void read() {
        while (!closed) {
            ControlMessage m;
            try {
                m = ControlMessage.read(in);
            } catch (IOException e) {
                lost(e instanceof java.io.EOFException ? "its connection closed" : "its connection failed: " + e.getMessage());
                return;
            }
            lastHeardNs = System.nanoTime();
            if (m instanceof ControlMessage.NodeLost lostNode) {
                placement.completeExceptionally(new IOException(lostNode.reason()));
                listener.nodeLost(lostNode.node(), lostNode.reason());
            } else if (m instanceof ControlMessage.Placed || m instanceof ControlMessage.NotPlaced) {
                placement.complete(m);
            }
        }
    }

    /**
     * Milliseconds as seconds for people, with one decimal.
     *
     * @param ms milliseconds
     * @return e.g. {@code 2.6 s}
     */
    public static String seconds(long ms) {
        return String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    private synchronized void lost(String why) {
        if (!closed && !launcherLost) {
            launcherLost = true;
            placement.completeExceptionally(new IOException("bdmpiexec (the launcher) is lost: " + why));
            listener.launcherLost("bdmpiexec (the launcher) is lost: " + why);
        }
    }

    private synchronized void send(ControlMessage m) throws IOException {
        m.writeTo(out);
        out.flush();
    }

    /**
     * Tells the launcher that one of this node's ranks died, so that it starts the job again from
     * the last checkpoint; before the goodbye.
     *
     * @param failure the master's one line about it
     */
    public void rankDied(String failure) {
        try {
            send(new ControlMessage.RankDied(failure));
        } catch (IOException e) {
            lost("its connection failed: " + e.getMessage());
        }
    }

    /**
     * Says goodbye with this node's exit code and closes the connection; the launcher then takes
     * the connection's end for the master's normal end.
     *
     * @param exitCode the node's exit code
     */
    public void goodbye(int exitCode) {
        closed = true;
        heartbeat.interrupt();
        try {
            send(new ControlMessage.Goodbye(exitCode));
        } catch (IOException e) {
            // The launcher is gone: nobody to tell.
        }
        close();
    }

    @Override
    public void close() {
        closed = true;
        heartbeat.interrupt();
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing anyway.
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
