package io.bdmpi.protocol;

import java.util.HashMap;
import java.util.Map;

/**
 * The shared file pointers a master keeps for the files whose owner is its node, by key: what
 * {@link SlaveRequest.FilePointer} operates on. Not thread-safe: one thread (the master's
 * scheduler) owns it, and so applies the operations one at a time, which makes each fetch-and-add
 * atomic for every rank of every node.
 */
public final class FilePointers {

    private final Map<Long, Long> values = new HashMap<>();

    /**
     * Applies {@code op} with operand {@code value} to pointer {@code key}.
     *
     * @return the pointer's value before it (0 for a pointer never set)
     */
    public long apply(long key, PointerOp op, long value) {
        Long before = switch (op) {
            case ADD -> values.merge(key, value, Long::sum) - value;
            case SET -> values.put(key, value);
            case FREE -> values.remove(key);
        };
        return before == null ? 0 : before;
    }

    /** How many pointers are kept (files open whose pointer was moved and not closed). */
    public int size() {
        return values.size();
    }
}
