package io.bdmpi.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The layout of a window's control file, which the members of a node and its master map: per
 * window member, {@link #SLOT_BYTES} bytes holding the lock word that makes the accumulates on that
 * member's segment atomic (0 when free, else its holder: a window rank plus one, or
 * {@link #MASTER} for the node's master applying another node's operation), and the flag "updated
 * by another rank since the owner last reconciled". Shared by the slaves ({@code mpi.WinMemory})
 * and the master, so both take the same lock.
 */
public final class WindowControl {

    /** Control bytes per member: a cache line, so the members' lock words do not share one. */
    public static final int SLOT_BYTES = 64;
    /** The lock word's value while the node's master holds it. */
    public static final int MASTER = -1;
    private static final int LOCK = 0;
    private static final int UPDATED = 4;
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private WindowControl() {
    }

    /** Takes the lock of the member at {@code slot} for {@code holder} if it is free. */
    public static boolean tryLock(ByteBuffer control, int slot, int holder) {
        return INT.compareAndSet(control, slot * SLOT_BYTES + LOCK, 0, holder);
    }

    /** Frees the lock of the member at {@code slot}. */
    public static void unlock(ByteBuffer control, int slot) {
        INT.setVolatile(control, slot * SLOT_BYTES + LOCK, 0);
    }

    /** Flags the member's segment as changed by another rank. */
    public static void markUpdated(ByteBuffer control, int slot) {
        INT.setVolatile(control, slot * SLOT_BYTES + UPDATED, 1);
    }

    /** Whether the member's segment was changed by others since the last call; clears the flag. */
    public static boolean takeUpdated(ByteBuffer control, int slot) {
        return (int) INT.getAndSet(control, slot * SLOT_BYTES + UPDATED, 0) != 0;
    }
}
