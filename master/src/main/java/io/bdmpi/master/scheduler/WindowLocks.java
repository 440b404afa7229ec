package io.bdmpi.master.scheduler;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * The one-sided locks (MPI_Win_lock) of the window members of this node: for each window and target
 * rank, who holds it (any number of shared holders or one exclusive holder) and who waits, in
 * arrival order. Holders and waiters are world ranks, of this node or of another (whose master
 * passed the request on). A waiter is granted only when every earlier waiter of that lock has
 * been, so an exclusive request is not starved by a stream of shared ones. Owned by the scheduler
 * thread; it parks the waiters of its node, and wakes them or tells their master when this class
 * grants them a lock.
 */
final class WindowLocks {

    /** One target's lock of one window. */
    private record Key(int winId, int target) {
    }

    private record Waiter(int rank, boolean exclusive) {
    }

    private static final class Lock {
        final Set<Integer> shared = new HashSet<>();
        int exclusive = NONE;
        final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

        boolean idle() {
            return shared.isEmpty() && exclusive == NONE && waiters.isEmpty();
        }

        boolean holds(int rank) {
            return exclusive == rank || shared.contains(rank);
        }
    }

    /** No exclusive holder. */
    private static final int NONE = -1;

    private final Map<Key, Lock> locks = new HashMap<>();
    /** What each waiting rank waits for (a rank waits for one lock at a time). */
    private final Map<Integer, Key> waiting = new HashMap<>();

    /**
     * Asks for a lock for world rank {@code s}: true if it holds it now, false if it must wait
     * (it is queued).
     *
     * @throws IllegalStateException if {@code s} already holds or waits for this lock
     */
    boolean request(int s, int winId, int target, boolean exclusive) {
        Key key = new Key(winId, target);
        Lock lock = locks.computeIfAbsent(key, k -> new Lock());
        if (lock.holds(s) || waiting.containsKey(s)) {
            throw new IllegalStateException("rank " + s + " locked rank " + target + " of window " + winId
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
     * Releases a lock world rank {@code s} holds and grants it to the waiters that may now have it.
     *
     * @param granted receives each world rank that now holds the lock and must be told
     * @throws IllegalStateException if {@code s} does not hold it
     */
    void release(int s, int winId, int target, IntConsumer granted) {
        Key key = new Key(winId, target);
        Lock lock = locks.get(key);
        if (lock == null || !lock.holds(s)) {
            throw new IllegalStateException("rank " + s + " unlocked rank " + target + " of window " + winId
                    + " without holding its lock");
        }
        if (lock.exclusive == s) {
            lock.exclusive = NONE;
        } else {
            lock.shared.remove(s);
        }
        pass(key, lock, granted);
    }

    /** Whether world rank {@code s} waits for no lock or now holds the one it waited for. */
    boolean holdsWanted(int s) {
        return !waiting.containsKey(s);
    }

    /** The lock {@code s} waits for, described for a deadlock report, or null. */
    String describeWait(int s) {
        Key key = waiting.get(s);
        if (key == null) {
            return null;
        }
        Lock lock = locks.get(key);
        String holder = lock.exclusive != NONE ? "rank " + lock.exclusive + " (exclusive)"
                                               : lock.shared.size() + " shared holder(s)";
        return "MPI_Win_lock(rank " + key.target() + " of window " + key.winId() + ", held by " + holder + ")";
    }

    /** A rank died: it holds and waits for nothing any more. */
    void forget(int s, IntConsumer granted) {
        waiting.remove(s);
        for (Iterator<Map.Entry<Key, Lock>> it = locks.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Lock> e = it.next();
            Lock lock = e.getValue();
            lock.waiters.removeIf(w -> w.rank() == s);
            if (lock.exclusive == s) {
                lock.exclusive = NONE;
            }
            lock.shared.remove(s);
        }
        for (Map.Entry<Key, Lock> e : Map.copyOf(locks).entrySet()) {
            pass(e.getKey(), e.getValue(), granted);
        }
    }

    private void pass(Key key, Lock lock, IntConsumer granted) {
        while (!lock.waiters.isEmpty() && grantable(lock, lock.waiters.peekFirst().exclusive())) {
            Waiter w = lock.waiters.pollFirst();
            grant(lock, w.rank(), w.exclusive());
            waiting.remove(w.rank());
            granted.accept(w.rank());
        }
        if (lock.idle()) {
            locks.remove(key);
        }
    }

    private static boolean grantable(Lock lock, boolean exclusive) {
        return lock.exclusive == NONE && (!exclusive || lock.shared.isEmpty());
    }

    private static void grant(Lock lock, int s, boolean exclusive) {
        if (exclusive) {
            lock.exclusive = s;
        } else {
            lock.shared.add(s);
        }
    }
}
