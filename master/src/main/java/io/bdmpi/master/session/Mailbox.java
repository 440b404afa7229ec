package io.bdmpi.master.session;

import io.bdmpi.master.store.StoredMessage;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One receiver's side of MPI matching: messages that arrived before a receive asked for them
 * (kept in arrival order), receives posted before their message arrived (kept in post order), and
 * completed requests (matched messages, collective results) not yet collected by the slave.
 *
 * <p>MPI's non-overtaking rule holds because a sender's messages arrive in the order it sent them
 * (one socket, one scheduler thread) and both queues are scanned oldest first.
 *
 * <p>Owned by the scheduler thread.
 */
public final class Mailbox {

    private record PostedRecv(long requestId, int commId, int source, int tag) {
    }

    private final ArrayDeque<StoredMessage> unexpected = new ArrayDeque<>();
    private final List<PostedRecv> posted = new ArrayList<>();
    private final Map<Long, MasterReply.Completion> matched = new LinkedHashMap<>();

    /**
     * A message for this receiver arrived: it goes to the oldest matching posted receive, or waits.
     *
     * @return true if it matched a posted receive
     */
    public boolean deliver(StoredMessage m) {
        for (Iterator<PostedRecv> it = posted.iterator(); it.hasNext(); ) {
            PostedRecv p = it.next();
            if (m.matches(p.commId(), p.source(), p.tag())) {
                it.remove();
                matched.put(p.requestId(), delivery(p.requestId(), m));
                return true;
            }
        }
        unexpected.addLast(m);
        return false;
    }

    /**
     * The receiver posted a receive: it takes the oldest matching message, or waits for one.
     *
     * @throws IllegalArgumentException if the id is already in use
     */
    public void post(long requestId, int commId, int source, int tag) {
        if (matched.containsKey(requestId) || isPosted(requestId)) {
            throw new IllegalArgumentException("receive request " + requestId + " posted twice");
        }
        for (Iterator<StoredMessage> it = unexpected.iterator(); it.hasNext(); ) {
            StoredMessage m = it.next();
            if (m.matches(commId, source, tag)) {
                it.remove();
                matched.put(requestId, delivery(requestId, m));
                return;
            }
        }
        posted.add(new PostedRecv(requestId, commId, source, tag));
    }

    /** A collective of this slave completed: its result waits to be collected like a message. */
    public void complete(MasterReply.CollectiveDone done) {
        matched.put(done.requestId(), done);
    }

    /** Whether a request has completed and waits to be collected. */
    public boolean isReady(long requestId) {
        return matched.containsKey(requestId);
    }

    /** Withdraws a posted receive that nothing matched yet; false if it matched already (or is unknown). */
    public boolean cancel(long requestId) {
        return posted.removeIf(p -> p.requestId() == requestId);
    }

    /** The oldest waiting message a receive with these arguments would take, or null. */
    public StoredMessage peek(int commId, int source, int tag) {
        for (StoredMessage m : unexpected) {
            if (m.matches(commId, source, tag)) {
                return m;
            }
        }
        return null;
    }

    /** How many of these requests have completed. */
    public int readyCount(long[] requestIds) {
        int n = 0;
        for (long id : requestIds) {
            if (matched.containsKey(id)) {
                n++;
            }
        }
        return n;
    }

    /** Ids among these that are neither posted receives nor completed requests. */
    public List<Long> unknown(long[] requestIds) {
        List<Long> unknown = new ArrayList<>();
        for (long id : requestIds) {
            if (!matched.containsKey(id) && !isPosted(id)) {
                unknown.add(id);
            }
        }
        return unknown;
    }

    /** Removes and returns the completions of these requests, in the order of the ids. */
    public List<MasterReply.Completion> take(long[] requestIds) {
        List<MasterReply.Completion> out = new ArrayList<>();
        for (long id : requestIds) {
            MasterReply.Completion d = matched.remove(id);
            if (d != null) {
                out.add(d);
            }
        }
        return out;
    }

    /** Whether no receive is posted and no completed request waits to be collected. */
    public boolean hasNoRequests() {
        return posted.isEmpty() && matched.isEmpty();
    }

    /** The messages waiting for a receive, oldest first. */
    public List<StoredMessage> buffered() {
        return List.copyOf(unexpected);
    }

    /** The posted receives among these ids, described for a deadlock report. */
    public List<String> describePosted(long[] requestIds) {
        List<String> out = new ArrayList<>();
        for (long id : requestIds) {
            for (PostedRecv p : posted) {
                if (p.requestId() == id) {
                    out.add(Calls.describeReceive(p.commId(), p.source(), p.tag()));
                }
            }
        }
        return out;
    }

    /** Hands every payload this mailbox holds (waiting messages, uncollected results) to {@code sink}. */
    public void forEachBuffered(Consumer<Payload> sink) {
        for (StoredMessage m : unexpected) {
            sink.accept(m.payload());
        }
        forEachCompleted(sink);
    }

    /** Hands the payloads of the completed requests (matched messages, collective results) to {@code sink}: what the slave reads next. */
    public void forEachCompleted(Consumer<Payload> sink) {
        for (MasterReply.Completion c : matched.values()) {
            if (c instanceof MasterReply.Delivery d) {
                sink.accept(d.payload());
            } else if (c instanceof MasterReply.CollectiveDone done) {
                done.pieces().forEach(sink);
            }
        }
    }

    private boolean isPosted(long requestId) {
        for (PostedRecv p : posted) {
            if (p.requestId() == requestId) {
                return true;
            }
        }
        return false;
    }

    private static MasterReply.Delivery delivery(long requestId, StoredMessage m) {
        return new MasterReply.Delivery(requestId, m.source(), m.tag(), m.takePayload());
    }
}
