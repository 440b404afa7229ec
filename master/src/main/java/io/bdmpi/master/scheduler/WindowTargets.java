package io.bdmpi.master.scheduler;

import io.bdmpi.master.internode.MasterMessage;
import io.bdmpi.ooc.Unmapper;
import io.bdmpi.protocol.ReduceOp;
import io.bdmpi.protocol.Reduction;
import io.bdmpi.protocol.RmaRequest;
import io.bdmpi.protocol.WindowControl;
import io.bdmpi.protocol.WindowRegions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Applies the one-sided operations that slaves of other nodes make on the window members of this
 * node: each names the file of its target's segment (for a dynamic window, the target's
 * {@link WindowRegions}, in one of which the operation's bytes must lie) and the window's control
 * file, all in this node's spill directory, which this class maps for the operation and unmaps
 * after. Accumulates and
 * compare-and-swap take the target's lock word in the control file, the lock the node's slaves
 * take for theirs, so they are atomic against each other. Owned by the scheduler thread: it applies
 * an operation between two events, so the operations of one origin, which reach it in order, are
 * applied in order and before that origin's later unlock.
 */
final class WindowTargets {

    /** Tries for a lock word a slave holds before the operation waits for a later event. */
    private static final int LOCK_TRIES = 1_000;

    /** The directory every window file of this node lies in, or null (one node: none here). */
    private final Path root;

    WindowTargets(Path root) {
        this.root = root == null ? null : root.toAbsolutePath().normalize();
    }

    /**
     * Applies {@code op} of slave {@code origin}.
     *
     * @return its outcome for the origin's master, or null when a slave of this node holds the
     *         target's lock word: the caller tries again later (the holder makes no MPI call while
     *         it holds it, and never waits for this master)
     */
    MasterMessage.RmaDone apply(int origin, RmaRequest op) {
        if (root == null) {
            return failed(origin, "node " + op.targetNode() + " keeps no window files");
        }
        Path segment = Path.of(op.segmentFile()).toAbsolutePath().normalize();
        Path control = Path.of(op.controlFile()).toAbsolutePath().normalize();
        if (!segment.startsWith(root) || !control.startsWith(root)) {
            return failed(origin, "the window's files " + segment + " and " + control + " are not in " + root);
        }
        if (op.segmentOffset() == RmaRequest.DYNAMIC) {
            return applyDynamic(origin, op, segment);
        }
        int n = op.rangeBytes();
        boolean accumulate = op.kind() == RmaRequest.Kind.ACCUMULATE || op.kind() == RmaRequest.Kind.GET_ACCUMULATE;
        int expected = op.kind() == RmaRequest.Kind.GET || accumulate && op.op() == RmaRequest.NO_OP ? 0
                : op.kind() == RmaRequest.Kind.COMPARE_AND_SWAP ? 2 * n : n;
        if (op.data().remaining() != expected) {
            return failed(origin, op.kind() + " of " + n + " bytes carries " + op.data().remaining());
        }
        if (n == 0) {
            return applied(origin, ByteBuffer.allocate(0));
        }
        int lo = Integer.MAX_VALUE;
        int hi = 0;
        int[] r = op.ranges();
        for (int i = 0; i < r.length; i += 2) {
            if (r[i + 1] > 0) {
                lo = Math.min(lo, r[i]);
                hi = Math.max(hi, r[i] + r[i + 1]);
            }
        }
        MappedByteBuffer memory = null;
        MappedByteBuffer slot = null;
        try {
            try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                memory = ch.map(FileChannel.MapMode.READ_WRITE, op.segmentOffset() + lo, hi - lo);
            }
            memory.order(ByteOrder.nativeOrder());
            try (FileChannel ch = FileChannel.open(control, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                slot = ch.map(FileChannel.MapMode.READ_WRITE, (long) op.slot() * WindowControl.SLOT_BYTES,
                        WindowControl.SLOT_BYTES);
            }
            return applyMapped(origin, op, memory, lo, slot);
        } catch (IOException | IllegalArgumentException e) {
            return failed(origin, "cannot apply " + op.kind() + " to " + segment + ": " + e.getMessage());
        } finally {
            if (memory != null) {
                Unmapper.unmap(memory);
            }
            if (slot != null) {
                Unmapper.unmap(slot);
            }
        }
    }

    /**
     * An operation on a dynamic window: its ranges are displacements, which must lie in one region
     * the target has attached; applied there as on a segment.
     */
    private MasterMessage.RmaDone applyDynamic(int origin, RmaRequest op, Path regionsFile) {
        List<WindowRegions.Region> regions;
        try {
            regions = WindowRegions.read(regionsFile);
        } catch (IOException e) {
            return failed(origin, "cannot read the regions attached to the window: " + e.getMessage());
        }
        long lo = Long.MAX_VALUE;
        long hi = 0;
        int[] r = op.ranges();
        for (int i = 0; i < r.length; i += 2) {
            lo = Math.min(lo, r[i]);
            hi = Math.max(hi, (long) r[i] + r[i + 1]);
        }
        WindowRegions.Region region = r.length == 0 ? null : WindowRegions.find(regions, lo, hi);
        if (region == null) {
            return new MasterMessage.RmaDone(origin, RmaRequest.Outcome.OUT_OF_RANGE, "bytes " + lo + " to " + hi
                    + " lie in no region attached to the window (" + regions.size() + " attached so far)",
                    ByteBuffer.allocate(0));
        }
        int[] shifted = r.clone();
        for (int i = 0; i < shifted.length; i += 2) {
            shifted[i] -= region.start();
        }
        return apply(origin, new RmaRequest(op.kind(), op.targetNode(), region.path(), region.offset(), region.bytes(),
                op.controlFile(), op.slot(), op.markUpdated(), op.op(), op.element(), shifted, op.data()));
    }

    /** The operation on the mapped ranges ({@code memory} starts at segment byte {@code lo}); null when locked out. */
    private static MasterMessage.RmaDone applyMapped(int origin, RmaRequest op, ByteBuffer memory, int lo, ByteBuffer slot) {
        ByteBuffer data = op.data().duplicate().order(ByteOrder.nativeOrder());
        int n = op.rangeBytes();
        switch (op.kind()) {
            case PUT:
                scatter(data, memory, op.ranges(), lo);
                updated(op, slot);
                return applied(origin, ByteBuffer.allocate(0));
            case GET:
                return applied(origin, gather(memory, op.ranges(), lo, n).flip());
            default:
                break;
        }
        if (!lock(slot)) {
            return null;
        }
        try {
            ByteBuffer before = gather(memory, op.ranges(), lo, n).flip();
            boolean changed = true;
            if (op.kind() == RmaRequest.Kind.COMPARE_AND_SWAP) {
                changed = before.equals(data.duplicate().position(n));
                if (changed) {
                    scatter(data.limit(n), memory, op.ranges(), lo);
                }
            } else if (op.op() == RmaRequest.NO_OP) {
                changed = false;
            } else if (op.op() == RmaRequest.REPLACE) {
                scatter(data, memory, op.ranges(), lo);
            } else {
                ReduceOp reduce = ReduceOp.ofCode(op.op());
                if (reduce == null || op.element().size == 0) {
                    throw new IllegalArgumentException("operator " + op.op() + " on " + op.element());
                }
                ByteBuffer acc = ByteBuffer.allocate(n).order(ByteOrder.nativeOrder()).put(before.duplicate()).flip();
                Reduction.combine(reduce, op.element(), acc, data, n / op.element().size);
                scatter(acc, memory, op.ranges(), lo);
            }
            if (changed) {
                updated(op, slot);
            }
            ByteBuffer result = op.kind().returnsData() ? before : ByteBuffer.allocate(0);
            return applied(origin, result);
        } finally {
            WindowControl.unlock(slot, 0);
        }
    }

    private static boolean lock(ByteBuffer slot) {
        for (int i = 0; i < LOCK_TRIES; i++) {
            if (WindowControl.tryLock(slot, 0, WindowControl.MASTER)) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    private static void updated(RmaRequest op, ByteBuffer slot) {
        if (op.markUpdated()) {
            WindowControl.markUpdated(slot, 0);
        }
    }

    private static void scatter(ByteBuffer from, ByteBuffer memory, int[] ranges, int lo) {
        int at = from.position();
        for (int i = 0; i < ranges.length; i += 2) {
            memory.put(ranges[i] - lo, from, at, ranges[i + 1]);
            at += ranges[i + 1];
        }
    }

    private static ByteBuffer gather(ByteBuffer memory, int[] ranges, int lo, int n) {
        ByteBuffer out = ByteBuffer.allocate(n).order(ByteOrder.nativeOrder());
        for (int i = 0; i < ranges.length; i += 2) {
            out.put(out.position(), memory, ranges[i] - lo, ranges[i + 1]);
            out.position(out.position() + ranges[i + 1]);
        }
        return out;
    }

    private static MasterMessage.RmaDone applied(int origin, ByteBuffer before) {
        return new MasterMessage.RmaDone(origin, RmaRequest.Outcome.APPLIED, "", before);
    }

    private static MasterMessage.RmaDone failed(int origin, String why) {
        return new MasterMessage.RmaDone(origin, RmaRequest.Outcome.FAILED, why, ByteBuffer.allocate(0));
    }
}
