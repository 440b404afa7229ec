package io.bdmpi.master.scheduler;

import io.bdmpi.master.session.SlaveSession;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The node's one-sided locks (MPI_Win_lock): for each window and target rank, who holds it (any
 * number of shared holders or one exclusive holder) and who waits, in arrival order. A waiter is
 * granted only when every earlier waiter of that lock has been, so an exclusive request is not
 * starved by a stream of shared ones. Owned by the scheduler thread; it parks the waiters and
 * wakes the slaves this class grants a lock to.
 */
final class WindowLocks {

    /** One target's lock of one window. */
    private record Key(int winId, int target) {
    }

    private record Waiter(SlaveSession slave, boolean exclusive) {
    }

    private static final class Lock {
        final Set<SlaveSession> shared = new HashSet<>();
        SlaveSession exclusive;
        final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

        boolean idle() {
            return shared.isEmpty() && exclusive == null && waiters.isEmpty();
        }

        boolean holds(SlaveSession s) {
            return exclusive == s || shared.contains(s);
        }
    }

    private final Map<Key, Lock> locks = new HashMap<>();
    /** What each waiting slave waits for (a slave waits for one lock at a time). */
    private final Map<SlaveSession, Key> waiting = new HashMap<>();

    /**
     * Asks for a lock: true if {@code s} holds it now, false if it must wait (it is queued).
     *
     * @throws IllegalStateException if {@code s} already holds or waits for this lock
     */
    boolean request(SlaveSession s, int winId, int target, boolean exclusive) {
        Key key = new Key(winId, target);
        Lock lock = locks.computeIfAbsent(key, k -> new Lock());
        if (lock.holds(s) || waiting.containsKey(s)) {
            throw new IllegalStateException("rank " + s.worldRank + " locked rank " + target + " of window " + winId
                    + " twice");
        }
        if (lock.waiters.isEmpty() && grantable(lock, exclusive)) {
            grant(lock, s, exclusive);
            return true;
        }
        lock.waiters.addLast(new Waiter(s, exclusive));
        waiting.put(s, key);
        return false;
    }

    /**
     * Releases a lock {@code s} holds and grants it to the waiters that may now have it.
     *
     * @param granted receives each slave that now holds the lock and must be woken
     * @throws IllegalStateException if {@code s} does not hold it
     */
    void release(SlaveSession s, int winId, int target, Consumer<SlaveSession> granted) {
        Key key = new Key(winId, target);
        Lock lock = locks.get(key);
        if (lock == null || !lock.holds(s)) {
            throw new IllegalStateException("rank " + s.worldRank + " unlocked rank " + target + " of window " + winId
                    + " without holding its lock");
        }
        if (lock.exclusive == s) {
            lock.exclusive = null;
        } else {
            lock.shared.remove(s);
        }
        pass(key, lock, granted);
    }

    /** Whether {@code s} waits for no lock or now holds the one it waited for. */
    boolean holdsWanted(SlaveSession s) {
        return !waiting.containsKey(s);
    }

    /** The lock {@code s} waits for, described for a deadlock report, or null. */
    String describeWait(SlaveSession s) {
        Key key = waiting.get(s);
        if (key == null) {
            return null;
        }
        Lock lock = locks.get(key);
        String holder = lock.exclusive != null ? "rank " + lock.exclusive.worldRank + " (exclusive)"
                                               : lock.shared.size() + " shared holder(s)";
        return "MPI_Win_lock(rank " + key.target() + " of window " + key.winId() + ", held by " + holder + ")";
    }

    /** A slave died: it holds and waits for nothing any more. */
    void forget(SlaveSession s, Consumer<SlaveSession> granted) {
        waiting.remove(s);
        for (Iterator<Map.Entry<Key, Lock>> it = locks.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Lock> e = it.next();
            Lock lock = e.getValue();
            lock.waiters.removeIf(w -> w.slave() == s);
            if (lock.exclusive == s) {
                lock.exclusive = null;
            }
            lock.shared.remove(s);
        }
        for (Map.Entry<Key, Lock> e : Map.copyOf(locks).entrySet()) {
            pass(e.getKey(), e.getValue(), granted);
        }
    }

    private void pass(Key key, Lock lock, Consumer<SlaveSession> granted) {
        while (!lock.waiters.isEmpty() && grantable(lock, lock.waiters.peekFirst().exclusive())) {
            Waiter w = lock.waiters.pollFirst();
            grant(lock, w.slave(), w.exclusive());
            waiting.remove(w.slave());
            granted.accept(w.slave());
        }
        if (lock.idle()) {
            locks.remove(key);
        }
    }

    private static boolean grantable(Lock lock, boolean exclusive) {
        return lock.exclusive == null && (!exclusive || lock.shared.isEmpty());
    }

    private static void grant(Lock lock, SlaveSession s, boolean exclusive) {
        if (exclusive) {
            lock.exclusive = s;
        } else {
            lock.shared.add(s);
        }
    }
}
