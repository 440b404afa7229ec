package io.bdmpi.master;

import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;
import io.bdmpi.protocol.Protocol;
import io.bdmpi.protocol.SlaveRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The master's core: owns every slave's state, matches messages to receives, runs barriers, and
 * lets at most {@code nrunning} slaves run. Single writer: every method runs on the scheduler
 * thread, fed one {@link MasterEvent} at a time; nothing here is locked.
 *
 * <p>A slave that must wait is parked by not answering it. When its wait is over it becomes
 * RUNNABLE, and at the end of each batch of events free running slots go to runnable slaves
 * (chosen by the {@link ResumePolicy}), which then get their reply: the reply is the go-signal.
 */
final class Scheduler {

    private final SlaveSession[] slaves;
    private final int nrunning;
    private final ResumePolicy policy;
    private final LongSupplier clockNs;
    private final Consumer<JobOutcome> onEnd;
    private final long startNs;

    private final List<SlaveSession> runnable = new ArrayList<>();
    private final List<SlaveSession> worldBarrier = new ArrayList<>();
    private int running;
    private int maxRunning;
    private int exited;
    private long spillFiles;
    private JobOutcome outcome;

    /**
     * @param slaves index = world rank; all STARTING
     * @param onEnd  called once, on this thread, when the job has succeeded or failed
     */
    Scheduler(SlaveSession[] slaves, int nrunning, ResumePolicy policy, LongSupplier clockNs, Consumer<JobOutcome> onEnd) {
        this.slaves = slaves;
        this.nrunning = nrunning;
        this.policy = policy;
        this.clockNs = clockNs;
        this.onEnd = onEnd;
        this.startNs = clockNs.getAsLong();
    }

    // ---------------------------------------------------------------- events

    void onEvent(MasterEvent event) {
        if (event instanceof MasterEvent.RequestArrived r) {
            if (outcome == null) {
                onRequest(r.connection(), r.request());
            }
        } else if (event instanceof MasterEvent.ProcessExited e) {
            onProcessExited(slaves[e.worldRank()], e.exitCode());
        } else if (event instanceof MasterEvent.ConnectionLost lost) {
            onConnectionLost(lost.connection());
        } else if (event instanceof MasterEvent.StopRequested stop) {
            fail(stop.exitCode(), stop.reason());
        } else if (event instanceof MasterEvent.StatsRequested s) {
            s.result().complete(stats());
        }
    }

    /** Deferred decisions of a batch: fill free running slots, then look for a deadlock. */
    void onEndOfBatch() {
        if (outcome != null) {
            return;
        }
        while (running < nrunning && !runnable.isEmpty()) {
            resume(runnable.remove(policy.pick(runnable)));
        }
        detectDeadlock();
    }

    int maxRunning() {
        return maxRunning;
    }

    // ---------------------------------------------------------------- requests

    private void onRequest(SlaveConnection connection, SlaveRequest request) {
        if (request instanceof SlaveRequest.Hello hello) {
            onHello(connection, hello);
            return;
        }
        SlaveSession s = connection.session();
        if (s == null) {
            fail(1, "protocol error: " + request + " before hello on a slave connection");
            return;
        }
        if (request instanceof SlaveRequest.Abort abort) {
            // Accepted in any state: another thread of a parked slave may abort the job.
            fail(abort.errorCode(), "rank " + s.worldRank + " aborted the job (error code " + abort.errorCode() + ")"
                    + (abort.reason().isEmpty() ? "" : ": " + abort.reason()));
            return;
        }
        if (s.state != SlaveState.RUNNING) {
            fail(1, "protocol error: rank " + s.worldRank + " sent " + request + " while " + s.state);
            return;
        }
        s.lastRequest = request;
        if (request instanceof SlaveRequest.Send send) {
            onSend(s, send);
        } else if (request instanceof SlaveRequest.PostRecv post) {
            onPostRecv(s, post);
        } else if (request instanceof SlaveRequest.Collect collect) {
            onCollect(s, collect);
        } else if (request instanceof SlaveRequest.Cancel cancel) {
            s.connection.send(new MasterReply.CancelResult(s.mailbox.cancel(cancel.requestId())));
        } else if (request instanceof SlaveRequest.Probe probe) {
            onProbe(s, probe);
        } else if (request instanceof SlaveRequest.Barrier barrier) {
            onBarrier(s, barrier);
        } else if (request instanceof SlaveRequest.Finalize fin) {
            s.peakRssBytes = fin.peakRssBytes();
            transition(s, SlaveState.FINALIZED);
            s.connection.send(new MasterReply.Go());
        }
    }

    private void onHello(SlaveConnection connection, SlaveRequest.Hello hello) {
        int rank = hello.worldRank();
        if (rank < 0 || rank >= slaves.length || slaves[rank].connection != null) {
            fail(1, "protocol error: hello from rank " + rank + " (pid " + hello.pid() + ") that is unknown or already connected");
            return;
        }
        SlaveSession s = slaves[rank];
        if (s.state != SlaveState.STARTING) {
            fail(1, "protocol error: hello from rank " + rank + " while " + s.state);
            return;
        }
        connection.attach(s);
        s.connection = connection;
        s.lastRequest = hello;
        s.parkedOn = null;
        makeRunnable(s);
    }

    private void onSend(SlaveSession s, SlaveRequest.Send send) {
        int destRank = worldRankOf(s, send.commId(), send.dest());
        if (destRank < 0) {
            fail(1, "rank " + s.worldRank + " sent to rank " + send.dest() + " of communicator " + send.commId()
                    + ", which does not exist");
            return;
        }
        int sourceInComm = send.commId() == Protocol.COMM_SELF_ID ? 0 : s.worldRank;
        Payload payload = send.payload();
        s.messagesSent++;
        if (payload instanceof Payload.Spilled) {
            s.bytesSentSpilled += payload.length();
            spillFiles++;
        } else {
            s.bytesSentInline += payload.length();
        }
        SlaveSession dest = slaves[destRank];
        dest.mailbox.deliver(new StoredMessage(send.commId(), sourceInComm, send.tag(), s.worldRank, payload));
        if (dest.state == SlaveState.RBLOCKED && canProceed(dest)) {
            makeRunnable(dest);
        }
    }

    private void onPostRecv(SlaveSession s, SlaveRequest.PostRecv post) {
        if (checkComm(s, post.commId())) {
            s.mailbox.post(post.requestId(), post.commId(), post.source(), post.tag());
        }
    }

    private void onCollect(SlaveSession s, SlaveRequest.Collect collect) {
        List<Long> unknown = s.mailbox.unknown(collect.requestIds());
        if (!unknown.isEmpty()) {
            fail(1, "protocol error: rank " + s.worldRank + " waits for receive requests " + unknown + " it never posted");
            return;
        }
        parkOrAnswer(s, collect, collect.block(), SlaveState.RBLOCKED);
    }

    private void onProbe(SlaveSession s, SlaveRequest.Probe probe) {
        if (checkComm(s, probe.commId())) {
            parkOrAnswer(s, probe, probe.block(), SlaveState.RBLOCKED);
        }
    }

    private void onBarrier(SlaveSession s, SlaveRequest.Barrier barrier) {
        if (barrier.commId() == Protocol.COMM_SELF_ID) {
            s.connection.send(new MasterReply.Go());
            return;
        }
        if (!checkComm(s, barrier.commId())) {
            return;
        }
        if (worldBarrier.size() + 1 < slaves.length) {
            worldBarrier.add(s);
            s.parkedOn = barrier;
            transition(s, SlaveState.CBLOCKED);
            return;
        }
        // The last to arrive goes on running; everyone else becomes runnable.
        for (SlaveSession waiting : worldBarrier) {
            makeRunnable(waiting);
        }
        worldBarrier.clear();
        s.connection.send(new MasterReply.Go());
    }

    /** Answers now if the request can be answered (or must not wait), else parks the slave. */
    private void parkOrAnswer(SlaveSession s, SlaveRequest request, boolean block, SlaveState blockedState) {
        s.parkedOn = request;
        if (!block || canProceed(s)) {
            s.connection.send(answer(s));
            s.parkedOn = null;
        } else {
            transition(s, blockedState);
        }
    }

    /** Whether the request a slave is parked on can now be answered. */
    private boolean canProceed(SlaveSession s) {
        SlaveRequest r = s.parkedOn;
        if (r instanceof SlaveRequest.Collect c) {
            return s.mailbox.readyCount(c.requestIds()) >= c.minReady();
        }
        if (r instanceof SlaveRequest.Probe p) {
            return s.mailbox.peek(p.commId(), p.source(), p.tag()) != null;
        }
        return true;
    }

    /** The reply to the request a slave was parked on, computed when it is resumed (so it is fresh). */
    private MasterReply answer(SlaveSession s) {
        SlaveRequest r = s.parkedOn;
        if (r instanceof SlaveRequest.Collect c) {
            return new MasterReply.Deliveries(s.mailbox.take(c.requestIds()));
        }
        if (r instanceof SlaveRequest.Probe p) {
            StoredMessage m = s.mailbox.peek(p.commId(), p.source(), p.tag());
            return m == null ? MasterReply.ProbeResult.NONE : new MasterReply.ProbeResult(true, m.source(), m.tag(), m.payload().length());
        }
        return new MasterReply.Go();
    }

    // ---------------------------------------------------------------- communicators

    private int worldRankOf(SlaveSession s, int commId, int rank) {
        if (commId == Protocol.COMM_WORLD_ID) {
            return rank >= 0 && rank < slaves.length ? rank : -1;
        }
        if (commId == Protocol.COMM_SELF_ID) {
            return rank == 0 ? s.worldRank : -1;
        }
        return -1;
    }

    private boolean checkComm(SlaveSession s, int commId) {
        if (commId == Protocol.COMM_WORLD_ID || commId == Protocol.COMM_SELF_ID) {
            return true;
        }
        fail(1, "rank " + s.worldRank + " used unknown communicator " + commId);
        return false;
    }

    // ---------------------------------------------------------------- states

    private void makeRunnable(SlaveSession s) {
        transition(s, SlaveState.RUNNABLE);
        runnable.add(s);
    }

    private void resume(SlaveSession s) {
        transition(s, SlaveState.RUNNING);
        s.resumes++;
        s.connection.send(answer(s));
        s.parkedOn = null;
    }

    /** The one place where slave states change; keeps the running count and the time accounts. */
    void transition(SlaveSession s, SlaveState to) {
        if (!s.state.canMoveTo(to)) {
            throw new IllegalStateException("rank " + s.worldRank + ": illegal transition " + s.state + " -> " + to);
        }
        s.accountUntil(clockNs.getAsLong());
        if (s.state == SlaveState.RUNNING) {
            running--;
        }
        if (s.state == SlaveState.RUNNABLE) {
            runnable.remove(s);
        }
        s.state = to;
        if (to == SlaveState.RUNNING) {
            running++;
            if (running > nrunning) {
                throw new IllegalStateException(running + " slaves running, limit " + nrunning);
            }
            maxRunning = Math.max(maxRunning, running);
        }
    }

    // ---------------------------------------------------------------- failures and the end

    private void onProcessExited(SlaveSession s, int exitCode) {
        if (s.state == SlaveState.EXITED) {
            return;
        }
        SlaveState before = s.state;
        s.exitCode = exitCode;
        worldBarrier.remove(s);
        transition(s, SlaveState.EXITED);
        exited++;
        if (before != SlaveState.FINALIZED) {
            fail(1, "rank " + s.worldRank + " (pid " + s.pid + ") " + describeExit(exitCode) + " before MPI_Finalize"
                    + "; last MPI call: " + describe(s.lastRequest));
        } else if (exitCode != 0) {
            fail(exitCode, "rank " + s.worldRank + " (pid " + s.pid + ") " + describeExit(exitCode) + " after MPI_Finalize");
        } else if (exited == slaves.length && outcome == null) {
            end(JobOutcome.SUCCESS);
        }
    }

    private void onConnectionLost(SlaveConnection connection) {
        // The process exit that follows says why, with its status; nothing to decide here.
        SlaveSession s = connection.session();
        if (s != null && s.connection == connection) {
            s.connection = SlaveConnection.CLOSED;
        }
    }

    private void detectDeadlock() {
        if (running > 0 || !runnable.isEmpty()) {
            return;
        }
        List<String> pending = new ArrayList<>();
        for (SlaveSession s : slaves) {
            if (s.state == SlaveState.STARTING) {
                return;
            }
            if (s.state.isBlocked()) {
                String call = s.parkedOn instanceof SlaveRequest.Collect c
                        ? "waiting for " + String.join(" and ", s.mailbox.describePosted(c.requestIds()))
                        : describe(s.parkedOn);
                pending.add("rank " + s.worldRank + ": " + call);
            }
        }
        if (!pending.isEmpty()) {
            fail(1, "deadlock: every live rank is blocked and no message is in flight; " + String.join("; ", pending));
        }
    }

    private void fail(int exitCode, String reason) {
        if (outcome == null) {
            end(JobOutcome.failed(exitCode, reason));
        }
    }

    private void end(JobOutcome o) {
        outcome = o;
        onEnd.accept(o);
    }

    static String describeExit(int exitCode) {
        if (exitCode > 128 && exitCode < 128 + 65) {
            return "was killed by signal " + (exitCode - 128) + Signals.name(exitCode - 128);
        }
        return "exited with status " + exitCode;
    }

    static String describe(SlaveRequest r) {
        if (r == null) {
            return "none (before MPI_Init)";
        }
        if (r instanceof SlaveRequest.Hello) {
            return "MPI_Init";
        }
        if (r instanceof SlaveRequest.Send s) {
            return "MPI_Send(dest=" + s.dest() + ", tag=" + s.tag() + ", comm=" + commName(s.commId()) + ")";
        }
        if (r instanceof SlaveRequest.PostRecv p) {
            return describeReceive(p.commId(), p.source(), p.tag());
        }
        if (r instanceof SlaveRequest.Collect c) {
            return "MPI_Recv/MPI_Wait on " + c.requestIds().length + " receive request(s)";
        }
        if (r instanceof SlaveRequest.Probe p) {
            return "MPI_Probe(source=" + rankName(p.source()) + ", tag=" + tagName(p.tag()) + ", comm=" + commName(p.commId()) + ")";
        }
        if (r instanceof SlaveRequest.Barrier b) {
            return "MPI_Barrier(comm=" + commName(b.commId()) + ")";
        }
        if (r instanceof SlaveRequest.Cancel) {
            return "MPI_Cancel";
        }
        if (r instanceof SlaveRequest.Finalize) {
            return "MPI_Finalize";
        }
        return r.getClass().getSimpleName();
    }

    static String describeReceive(int commId, int source, int tag) {
        return "receive(source=" + rankName(source) + ", tag=" + tagName(tag) + ", comm=" + commName(commId) + ")";
    }

    private static String commName(int commId) {
        return commId == Protocol.COMM_WORLD_ID ? "COMM_WORLD" : commId == Protocol.COMM_SELF_ID ? "COMM_SELF" : "#" + commId;
    }

    private static String rankName(int rank) {
        return rank == Protocol.ANY_SOURCE ? "ANY_SOURCE" : Integer.toString(rank);
    }

    private static String tagName(int tag) {
        return tag == Protocol.ANY_TAG ? "ANY_TAG" : Integer.toString(tag);
    }

    // ---------------------------------------------------------------- statistics

    private JobStats stats() {
        long now = clockNs.getAsLong();
        List<JobStats.Slave> list = new ArrayList<>();
        long messages = 0;
        long inline = 0;
        long spilled = 0;
        for (SlaveSession s : slaves) {
            s.accountUntil(now);
            messages += s.messagesSent;
            inline += s.bytesSentInline;
            spilled += s.bytesSentSpilled;
            list.add(new JobStats.Slave(s.worldRank, 0, s.pid, s.exitCode, seconds(s.runNs), seconds(s.blockedNs),
                    seconds(s.runnableNs), s.resumes, s.messagesSent, s.bytesSentInline, s.bytesSentSpilled, s.peakRssBytes));
        }
        JobStats.Node node = new JobStats.Node(0, slaves.length, nrunning, maxRunning, messages, inline, spilled, spillFiles);
        JobOutcome o = outcome == null ? JobOutcome.failed(1, "job did not end") : outcome;
        return new JobStats(seconds(now - startNs), o.exitCode(), o.failure(), List.of(node), list);
    }

    private static double seconds(long ns) {
        return ns / 1e9;
    }
}
