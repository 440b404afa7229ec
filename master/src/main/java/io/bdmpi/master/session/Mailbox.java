package io.bdmpi.master.session;

import io.bdmpi.master.store.MessageStore;
import io.bdmpi.master.store.StoredMessage;
import io.bdmpi.protocol.MasterReply;
import io.bdmpi.protocol.Payload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * One receiver's side of MPI matching: messages that arrived before a receive asked for them
 * (kept in arrival order), receives posted before their message arrived (kept in post order), and
 * completed requests (matched messages, collective results, matched synchronous sends) not yet
 * collected by the slave. As a sender, the slave's synchronous sends that no receive has matched
 * yet are here too: their ids are its requests.
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
    /** This slave's synchronous sends not matched yet, by request id: what each is, for deadlock reports. */
    private final Map<Long, String> unmatchedSends = new HashMap<>();

    /**
     * A message for this receiver arrived: it goes to the oldest matching posted receive, or waits.
     *
     * @return {@code m} if it matched a posted receive, else null
     */
    public StoredMessage deliver(StoredMessage m) {
        return deliver(m, MessageStore.ON_HEAP);
    }

    /**
     * As {@link #deliver(StoredMessage)}, a message that waits going to {@code store} first (one
     * taken at once never does).
     */
    public StoredMessage deliver(StoredMessage m, MessageStore store) {
        for (Iterator<PostedRecv> it = posted.iterator(); it.hasNext(); ) {
            PostedRecv p = it.next();
            if (m.matches(p.commId(), p.source(), p.tag())) {
                it.remove();
                matched.put(p.requestId(), delivery(p.requestId(), m));
                return m;
            }
        }
        unexpected.addLast(store.keep(m));
        return null;
    }

    /**
     * The receiver posted a receive: it takes the oldest matching message, or waits for one.
     *
     * @return the message it took, or null if it waits
     * @throws IllegalArgumentException if the id is already in use
     */
    public StoredMessage post(long requestId, int commId, int source, int tag) {
        requireUnused(requestId, "receive");
        for (Iterator<StoredMessage> it = unexpected.iterator(); it.hasNext(); ) {
            StoredMessage m = it.next();
            if (m.matches(commId, source, tag)) {
                it.remove();
                matched.put(requestId, delivery(requestId, m));
                return m;
            }
        }
        posted.add(new PostedRecv(requestId, commId, source, tag));
        return null;
    }

    /**
     * This slave made a synchronous send: request {@code requestId} completes, with
     * {@link #complete}, once a receive has matched its message.
     *
     * @param description the send, for deadlock reports
     * @throws IllegalArgumentException if the id is already in use
     */
    public void awaitMatch(long requestId, String description) {
        requireUnused(requestId, "synchronous send");
        unmatchedSends.put(requestId, description);
    }

    /**
     * A collective of this slave completed, or a receive matched one of its synchronous sends: the
     * outcome waits to be collected like a message.
     */
    public void complete(MasterReply.Completion c) {
        unmatchedSends.remove(c.requestId());
        matched.put(c.requestId(), c);
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

    /** Ids among these that are neither posted receives, unmatched synchronous sends nor completed requests. */
    public List<Long> unknown(long[] requestIds) {
        List<Long> unknown = new ArrayList<>();
        for (long id : requestIds) {
            if (!matched.containsKey(id) && !isPosted(id) && !unmatchedSends.containsKey(id)) {
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

    /**
     * Whether no receive is posted, no synchronous send waits for its match and no completed
     * request waits to be collected.
     */
    public boolean hasNoRequests() {
        return posted.isEmpty() && unmatchedSends.isEmpty() && matched.isEmpty();
    }

    /** The messages waiting for a receive, oldest first. */
    public List<StoredMessage> buffered() {
        return List.copyOf(unexpected);
    }

    /**
     * The posted receives and unmatched synchronous sends among these ids, described for a deadlock
     * report, with communicators named by {@code commName}.
     */
    public List<String> describePosted(long[] requestIds, IntFunction<String> commName) {
        List<String> out = new ArrayList<>();
        for (long id : requestIds) {
            for (PostedRecv p : posted) {
                if (p.requestId() == id) {
                    out.add(Calls.describeReceive(commName.apply(p.commId()), p.source(), p.tag()));
                }
            }
            String send = unmatchedSends.get(id);
            if (send != null) {
                out.add(send + " to be matched");
            }
        }
        return out;
    }

    /** What {@link #forEachBuffered} tells of each message it holds. */
    public interface HeldSink {
        /** @param spilled whether the bytes are in a spill file, rather than in the master's memory (on or off its heap) */
        void held(boolean spilled, long length);
    }

    /** Tells {@code sink} of every message this mailbox holds (waiting messages, uncollected results). */
    public void forEachBuffered(HeldSink sink) {
        for (StoredMessage m : unexpected) {
            sink.held(m.spilled(), m.length());
        }
        forEachCompleted(p -> sink.held(!(p instanceof Payload.Inline), p.length()));
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

    private void requireUnused(long requestId, String what) {
        if (matched.containsKey(requestId) || isPosted(requestId) || unmatchedSends.containsKey(requestId)) {
            throw new IllegalArgumentException(what + " request " + requestId + ": the id is in use already");
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
