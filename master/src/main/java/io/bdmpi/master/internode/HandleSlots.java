package io.bdmpi.master.internode;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

import java.util.BitSet;

/**
 * Native slots holding MPI handles of one ABI's width, numbered from 0: the Java face of a
 * communicator or request is its slot number, so callers hold an {@code int} whatever the ABI, and
 * calls that take a handle by address ({@code MPI_Test}, {@code MPI_Comm_free}) get the slot
 * itself. MPI keeps no pointer to a slot after a call returns, so the slots may move when they grow.
 * Not thread-safe: the {@link Pump} thread owns them.
 */
final class HandleSlots {

    private final Runtime runtime;
    private final int width;
    private final BitSet inUse = new BitSet();
    private Pointer memory;
    private int capacity;

    HandleSlots(Runtime runtime, int width, int capacity) {
        this.runtime = runtime;
        this.width = width;
        this.capacity = capacity;
        this.memory = Memory.allocateDirect(runtime, (long) capacity * width, true);
    }

    /** A free slot, now in use (its content is undefined until MPI or {@link #put} writes it). */
    int claim() {
        int slot = inUse.nextClearBit(0);
        if (slot == capacity) {
            grow();
        }
        inUse.set(slot);
        return slot;
    }

    /** Gives the slot back. */
    void release(int slot) {
        check(slot);
        inUse.clear(slot);
    }

    /** The slot's address, for MPI to read or write the handle there. */
    Pointer address(int slot) {
        check(slot);
        return memory.slice((long) slot * width);
    }

    /** The handle in the slot. */
    long get(int slot) {
        check(slot);
        return width == Integer.BYTES ? memory.getInt((long) slot * width) : memory.getLong((long) slot * width);
    }

    /** Stores a handle in the slot. */
    void put(int slot, long handle) {
        check(slot);
        if (width == Integer.BYTES) {
            memory.putInt((long) slot * width, Math.toIntExact(handle));
        } else {
            memory.putLong((long) slot * width, handle);
        }
    }

    private void check(int slot) {
        if (slot < 0 || !inUse.get(slot)) {
            throw new IllegalArgumentException("no MPI handle " + slot + " (freed, completed, or never made)");
        }
    }

    private void grow() {
        Pointer bigger = Memory.allocateDirect(runtime, 2L * capacity * width, true);
        byte[] bytes = new byte[capacity * width];
        memory.get(0, bytes, 0, bytes.length);
        bigger.put(0, bytes, 0, bytes.length);
        memory = bigger;
        capacity *= 2;
    }
}
