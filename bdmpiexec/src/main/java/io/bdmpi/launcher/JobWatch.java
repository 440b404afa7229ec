package io.bdmpi.launcher;

import io.bdmpi.master.control.ControlMessage;
import io.bdmpi.master.control.LauncherLink;
import io.bdmpi.master.observe.JobSnapshot;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * bdmpiexec's end of the side channel to the masters of a job of several nodes (see
 * {@link io.bdmpi.master.control}): accepts each master's connection, answers its clock probes,
 * keeps its latest snapshot, sends it a heartbeat every {@link LauncherLink#HEARTBEAT_MS} ms and
 * declares its node lost when it says nothing for {@link LauncherLink#SILENCE_LIMIT_MS} ms, when
 * its connection ends without a goodbye, or when it never connects within {@link #CONNECT_LIMIT_MS}.
 * The first lost node is printed in one line, named to every other master (which then end their
 * part) and handed to the launch, which ends what is left of the job.
 *
 * <p>A connection that ends without a goodbye is judged {@link #ENDS_GRACE_MS} later, with any
 * other that ended meanwhile: the MPI library may end a second master within milliseconds of the
 * first one's death, and then the lost node is the one the library's output does not name as its
 * casualty ({@link MpiCasualties}), else the one whose end was read first.
 *
 * <p>Masters started again after a lost node with node-local checkpoint directories each tell
 * what their directory holds ({@link ControlMessage.Holdings}); once all have, the planner's
 * answer ({@link ControlMessage.Placed} or {@link ControlMessage.NotPlaced}) goes to every one.
 *
 * <p>Threads: <b>bdmpi-watch-accept</b>, one <b>bdmpi-watch-N</b> reader per master, and
 * <b>bdmpi-watch</b>, which beats and judges silence. A master's record is written by its reader
 * (fields are volatile); writes to a connection are under its lock.
 */
final class JobWatch implements AutoCloseable {

    /** How long every master gets to start (JVM and MPI) and connect. */
    static final long CONNECT_LIMIT_MS = 120_000;

    /**
     * How long after a connection ended without a goodbye other ends and the MPI library's last
     * words are awaited before the lost node is named: the library prints them before it ends its
     * casualty, and they pass through mpiexec on their way here.
     */
    static final long ENDS_GRACE_MS = 500;
    /** How long the end of a master that took the MPI library's casualties down is awaited once they are read. */
    static final long CAUSE_WAIT_MS = 2_000;

    /** One master's connection. */
    private static final class Master {
        final int node;
        final String host;
        final long pid;
        final Socket socket;
        final DataOutputStream out;
        volatile long lastHeardNs = System.nanoTime();
        volatile JobSnapshot latest;
        /** It said goodbye. */
        volatile boolean ended;
        /** Its connection is over, with or without a goodbye. */
        volatile boolean gone;
        /** How its connection ended without a goodbye, once it has. */
        volatile String endedHow;

        Master(int node, String host, long pid, Socket socket) throws IOException {
            this.node = node;
            this.host = host;
            this.pid = pid;
            this.socket = socket;
            this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        }

        synchronized void send(ControlMessage m) throws IOException {
            m.writeTo(out);
            out.flush();
        }
    }

    private final ServerSocket server;
    private final String address;
    private final List<String> hosts;
    private final AtomicReferenceArray<Master> masters;
    private final AtomicReference<LostNode> lost = new AtomicReference<>();
    private final Function<List<List<ControlMessage.HeldPart>>, ControlMessage> planner;
    /** Each master's holdings, until the planner has answered (guarded by itself). */
    private final List<List<ControlMessage.HeldPart>> holdings;
    private volatile ControlMessage placement;
    private final AtomicReference<String> rankDeath = new AtomicReference<>();
    private final MpiCasualties casualties = new MpiCasualties();
    /** Masters whose connections ended without a goodbye, in the order read, not yet judged (guarded by itself). */
    private final List<Master> unjudgedEnds = new ArrayList<>();
    /** When the first of {@link #unjudgedEnds} ended (guarded by it). */
    private long firstUnjudgedEndNs;
    private Consumer<LostNode> onLost;
    private final long startNs = System.nanoTime();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean closed;

    /**
     * Opens the listening socket: on the loopback address when every master runs here, else on
     * every address, announced by this host's name.
     *
     * @param nodes  masters expected
     * @param hosts  their hosts in node order (from --hosts), or empty when all run here or a host file says
     * @param local  whether every master runs on this machine
     * @param planner from every master's holdings (in node order), the placement they all get; null
     *                when the masters place their ranks themselves
     */
    JobWatch(int nodes, List<String> hosts, boolean local, Function<List<List<ControlMessage.HeldPart>>, ControlMessage> planner)
            throws IOException {
        InetAddress bind = local ? InetAddress.getLoopbackAddress() : null;
        this.server = new ServerSocket(0, nodes, bind);
        this.address = (local ? bind.getHostAddress() : LauncherLink.hostName()) + ":" + server.getLocalPort();
        this.hosts = hosts;
        this.masters = new AtomicReferenceArray<>(nodes);
        this.planner = planner;
        this.holdings = new ArrayList<>(java.util.Collections.nCopies(nodes, null));
    }

    /** {@code HOST:PORT} for the masters' {@code --launcher} option. */
    String address() {
        return address;
    }

    /**
     * Starts accepting and watching.
     *
     * @param whenLost called once, on a watch thread, with the first lost node (after the line is printed)
     */
    JobWatch start(Consumer<LostNode> whenLost) {
        onLost = whenLost;
        thread(this::accept, "bdmpi-watch-accept");
        thread(this::watch, "bdmpi-watch");
        return this;
    }

    /** The first lost node, or null while none; connections that ended without a goodbye are judged now. */
    LostNode lost() {
        judgeEnds(true);
        return lost.get();
    }

    /** Takes a line of mpiexec's output, which may name masters the MPI library ended (see {@link MpiCasualties}). */
    void mpiOutput(String line) {
        casualties.read(line);
    }

    /** The placement sent to the masters ({@link ControlMessage.Placed} or {@link ControlMessage.NotPlaced}), or null while none. */
    ControlMessage placement() {
        return placement;
    }

    /** Why the job failed when a master said that one of its ranks died (the first to say so), else null. */
    String rankDeath() {
        return rankDeath.get();
    }

    /** The masters' latest snapshots (nodes that sent none yet are left out). */
    List<JobSnapshot> snapshots() {
        List<JobSnapshot> list = new ArrayList<>();
        for (int n = 0; n < masters.length(); n++) {
            Master m = masters.get(n);
            if (m != null && m.latest != null) {
                list.add(m.latest);
            }
        }
        return list;
    }

    /** The process id of the master of {@code node} as it said, or -1. */
    long pidOf(int node) {
        Master m = masters.get(node);
        return m == null ? -1 : m.pid;
    }

    private void accept() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            thread(() -> serve(s), "bdmpi-watch-conn");
        }
    }

    /** Reads one master's messages until its goodbye or its loss. */
    private void serve(Socket s) {
        Master m = null;
        try (s) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(LauncherLink.HANDSHAKE_TIMEOUT_MS);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            if (!(ControlMessage.read(in) instanceof ControlMessage.Hello hello) || hello.node() < 0
                    || hello.node() >= masters.length()) {
                return;
            }
            Master mine = new Master(hello.node(), hello.host(), hello.pid(), s);
            if (!masters.compareAndSet(hello.node(), null, mine)) {
                return;
            }
            m = mine;
            Thread.currentThread().setName("bdmpi-watch-" + m.node);
            // From now on the watch thread judges silence: a timeout could cut a message in two.
            s.setSoTimeout(0);
            while (!closed) {
                ControlMessage msg = ControlMessage.read(in);
                m.lastHeardNs = System.nanoTime();
                if (msg instanceof ControlMessage.ClockProbe probe) {
                    m.send(new ControlMessage.ClockReply(probe.masterNanos(), System.nanoTime()));
                } else if (msg instanceof ControlMessage.Status status) {
                    m.latest = status.snapshot();
                } else if (msg instanceof ControlMessage.RankDied died) {
                    rankDeath.compareAndSet(null, died.failure());
                } else if (msg instanceof ControlMessage.Holdings held) {
                    holdingsOf(m.node, held);
                } else if (msg instanceof ControlMessage.Goodbye) {
                    m.ended = true;
                    return;
                }
            }
        } catch (EOFException e) {
            if (m != null) {
                endedWithoutGoodbye(m, "is gone (its master's connection closed without a goodbye)");
            }
        } catch (IOException e) {
            if (m != null) {
                endedWithoutGoodbye(m, "is gone (its master's connection failed: " + e.getMessage() + ")");
            }
        } finally {
            if (m != null) {
                m.gone = true;
            }
        }
    }

    private void endedWithoutGoodbye(Master m, String how) {
        m.endedHow = how;
        synchronized (unjudgedEnds) {
            if (unjudgedEnds.isEmpty()) {
                firstUnjudgedEndNs = System.nanoTime();
            }
            unjudgedEnds.add(m);
        }
    }

    /**
     * Names the lost node among the connections that ended without a goodbye, once the first
     * ended {@link #ENDS_GRACE_MS} ago or {@code now}: the first read whose master the MPI library
     * named dead; else the first it did not name as its casualty. When it named every one as its
     * casualty, the one that took them down has yet to be read: it is waited for up to
     * {@link #CAUSE_WAIT_MS}, then the first read is named.
     */
    private void judgeEnds(boolean now) {
        Master chosen;
        synchronized (unjudgedEnds) {
            long sinceMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - firstUnjudgedEndNs);
            if (unjudgedEnds.isEmpty() || (!now && sinceMs < ENDS_GRACE_MS)) {
                return;
            }
            chosen = unjudgedEnds.stream().filter(m -> casualties.namedDead(m.pid)).findFirst()
                    .or(() -> unjudgedEnds.stream().filter(m -> !casualties.isCasualty(m.node, m.pid)).findFirst())
                    .orElse(null);
            if (chosen == null) {
                if (!now && sinceMs < CAUSE_WAIT_MS) {
                    return;
                }
                chosen = unjudgedEnds.get(0);
            }
            unjudgedEnds.clear();
        }
        declareLost(chosen.node, chosen.host, chosen.pid, chosen.endedHow);
    }

    /** Keeps one master's holdings; with the last, plans and tells every master (on that master's reader). */
    private void holdingsOf(int node, ControlMessage.Holdings held) {
        ControlMessage plan;
        synchronized (holdings) {
            if (planner == null || placement != null || holdings.get(node) != null) {
                return;
            }
            holdings.set(node, held.parts());
            if (holdings.contains(null)) {
                return;
            }
            plan = planner.apply(List.copyOf(holdings));
            placement = plan;
        }
        for (int n = 0; n < masters.length(); n++) {
            try {
                masters.get(n).send(plan);
            } catch (IOException e) {
                // Its reader sees the connection fail.
            }
        }
    }

    /**
     * Waits until every master but the lost one's has ended its part (said goodbye, or its
     * connection is over), at most {@code timeoutMs}: they stop their slaves and write their parts
     * of the outputs before the lost master's death makes mpiexec end them.
     *
     * @return whether they all did in time
     */
    boolean awaitOthers(int lost, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() - deadline < 0) {
            boolean all = true;
            for (int n = 0; n < masters.length(); n++) {
                Master m = masters.get(n);
                all &= n == lost || m == null || m.ended || m.gone;
            }
            if (all) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** Every heartbeat period: tells each master this launcher is alive, and judges the masters' silence. */
    private void watch() {
        long lastTickNs = System.nanoTime();
        while (!closed) {
            try {
                Thread.sleep(LauncherLink.HEARTBEAT_MS);
            } catch (InterruptedException e) {
                return;
            }
            judgeEnds(false);
            long now = System.nanoTime();
            // A pause of this process (GC, a starved machine) is no silence of the masters: their
            // heartbeats may wait unread; judge again once the readers had a turn.
            boolean overslept = TimeUnit.NANOSECONDS.toMillis(now - lastTickNs) > LauncherLink.PAUSE_MS;
            lastTickNs = now;
            for (int n = 0; n < masters.length(); n++) {
                Master m = masters.get(n);
                if (m == null) {
                    if (TimeUnit.NANOSECONDS.toMillis(now - startNs) > CONNECT_LIMIT_MS) {
                        declareLost(n, n < hosts.size() ? hosts.get(n) : "unknown", -1,
                                "did not reach bdmpiexec within " + CONNECT_LIMIT_MS / 1000 + " s");
                    }
                    continue;
                }
                if (m.ended) {
                    continue;
                }
                try {
                    m.send(new ControlMessage.Heartbeat());
                } catch (IOException e) {
                    // Its reader sees the connection fail.
                }
                long silentMs = TimeUnit.NANOSECONDS.toMillis(now - m.lastHeardNs);
                if (silentMs > LauncherLink.SILENCE_LIMIT_MS && !overslept) {
                    declareLost(m.node, m.host, m.pid, "stopped answering for " + LauncherLink.seconds(silentMs));
                }
            }
        }
    }

    private void declareLost(int node, String host, long pid, String reason) {
        LostNode l = new LostNode(node, host, pid, reason);
        if (closed || !lost.compareAndSet(null, l)) {
            return;
        }
        System.err.println("bdmpiexec: " + l.describe());
        for (int n = 0; n < masters.length(); n++) {
            Master m = masters.get(n);
            if (m != null && n != node && !m.ended) {
                try {
                    m.send(new ControlMessage.NodeLost(node, l.describe()));
                } catch (IOException e) {
                    // That one is going too.
                }
            }
        }
        onLost.accept(l);
    }

    private void thread(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        synchronized (threads) {
            threads.add(t);
        }
        t.start();
    }

    /** Stops watching (the job has ended, or bdmpiexec is stopping it): no node is declared lost from now on. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // Closing anyway.
        }
        for (int n = 0; n < masters.length(); n++) {
            Master m = masters.get(n);
            if (m != null) {
                try {
                    m.socket.close();
                } catch (IOException ignored) {
                    // Closing anyway.
                }
            }
        }
        synchronized (threads) {
            threads.forEach(Thread::interrupt);
        }
    }
}
