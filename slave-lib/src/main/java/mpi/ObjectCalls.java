package mpi;

import io.bdmpi.slave.Received;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * mpiJava's {@code MPI.OBJECT}: the elements of an {@code Object[]}, each Java-serialized on its
 * own, travel as one byte message (so large ones spill as any message does): their number, then
 * each one's length and bytes. Collectives over objects are the byte collectives of the same
 * communicator, one step for the lengths and one for the bytes; reductions gather every rank's
 * objects and fold them with the operator's {@link User_function} in rank order, as the master
 * does for user-defined operators.
 */
final class ObjectCalls {

    private ObjectCalls() {
    }

    /** A receive of up to {@code count} objects into {@code buf} from element {@code offset}. */
    record Slot(Object buf, int offset, int count) implements MessageSlot {

        /**
         * Checks the array before the receive is posted.
         *
         * @throws MPIException as {@link #objects}
         */
        Slot checked(String call) throws MPIException {
            objects(call, buf, offset, count);
            return this;
        }

        @Override
        public Status take(String call, Received message) throws MPIException {
            ByteBuffer data;
            try {
                data = message.data();
            } catch (IOException e) {
                throw Errors.transport(call, e);
            }
            int n = decode(call, data, buf, offset, count);
            return Status.received(message.source(), message.tag(), message.length()).withObjects(n);
        }
    }

    // ---------------------------------------------------------------- the wire form

    /**
     * The message of {@code count} objects of {@code buf} from element {@code offset}.
     *
     * @throws MPIException as {@link #objects}; ERR_BUFFER for an element that cannot be serialized
     */
    static byte[] encode(String call, Object buf, int offset, int count) throws MPIException {
        Object[] objects = objects(call, buf, offset, count);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        int at = offset;
        try {
            out.writeInt(count);
            for (; at < offset + count; at++) {
                ByteArrayOutputStream one = new ByteArrayOutputStream();
                try (ObjectOutputStream o = new ObjectOutputStream(one)) {
                    o.writeObject(objects[at]);
                }
                out.writeInt(one.size());
                one.writeTo(out);
            }
        } catch (IOException e) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": element " + at + " of the MPI.OBJECT buffer (a "
                    + objects[at].getClass().getName() + ") cannot be serialized: " + e);
        }
        return bytes.toByteArray();
    }

    /**
     * Reads one message from {@code message}'s position into {@code buf} from element {@code offset}.
     *
     * @return the number of objects
     * @throws MPIException ERR_TRUNCATE for more than {@code count} objects; ERR_OTHER for an
     *                      object that cannot be read (its class is missing, say)
     */
    static int decode(String call, ByteBuffer message, Object buf, int offset, int count) throws MPIException {
        ByteBuffer data = message.duplicate().order(ByteOrder.BIG_ENDIAN); // as DataOutputStream wrote it
        int n = data.getInt();
        if (n > count) {
            throw MPIException.of(MPI.ERR_TRUNCATE, call + ": message of " + n
                    + " objects truncated: the receive buffer holds " + count);
        }
        Object[] objects = objects(call, buf, offset, n);
        for (int i = 0; i < n; i++) {
            byte[] one = new byte[data.getInt()];
            data.get(one);
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(one))) {
                objects[offset + i] = in.readObject();
            } catch (IOException | ClassNotFoundException e) {
                throw MPIException.of(MPI.ERR_OTHER, call + ": object " + i + " of the message cannot be read: " + e);
            }
        }
        return n;
    }

    /**
     * {@code buf} as the array of an MPI.OBJECT call.
     *
     * @throws MPIException ERR_COUNT for a negative count; ERR_BUFFER for a buffer that is not an
     *                      array of objects or does not hold the elements
     */
    static Object[] objects(String call, Object buf, int offset, int count) throws MPIException {
        if (count < 0) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": negative count " + count);
        }
        if (!(buf instanceof Object[] a)) {
            if (count == 0) {
                return new Object[0];
            }
            throw MPIException.of(MPI.ERR_BUFFER, call + ": MPI.OBJECT needs an array of objects, not "
                    + (buf == null ? "null" : "a " + buf.getClass().getSimpleName()));
        }
        if (offset < 0 || (long) offset + count > a.length) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + count + " objects from element " + offset
                    + " do not fit an array of " + a.length);
        }
        return a;
    }

    /** Whether a call with these types moves objects: mpiJava requires both or neither. */
    static boolean isObject(Datatype sendtype, Datatype recvtype) {
        return sendtype == MPI.OBJECT || recvtype == MPI.OBJECT;
    }

    // ---------------------------------------------------------------- collectives

    /** As {@code bcast} for {@code count} objects of {@code buf} from {@code offset}. */
    static void bcast(Comm c, Object buf, int offset, int count, int root) throws MPIException {
        String call = "MPI_Bcast";
        boolean isRoot = c.getRank() == root;
        byte[] bytes = isRoot ? encode(c, call, buf, offset, count) : null;
        int[] length = {isRoot ? bytes.length : 0};
        c.bcast(length, 1, MPI.INT, root);
        if (!isRoot) {
            bytes = new byte[length[0]];
        }
        c.bcast(bytes, length[0], MPI.BYTE, root);
        if (!isRoot) {
            decode(c, call, ByteBuffer.wrap(bytes), buf, offset, count);
        }
    }

    /** As {@code gatherv}: block i lands at {@code recvoffset + displs[i]}. */
    static void gatherv(Comm c, Object sendbuf, int sendoffset, int sendcount,
                        Object recvbuf, int recvoffset, int[] recvcounts, int[] displs, int root) throws MPIException {
        String call = "MPI_Gatherv";
        int size = c.getSize();
        byte[] mine = encode(c, call, sendbuf, sendoffset, sendcount);
        int[] lengths = new int[size];
        c.gather(new int[] {mine.length}, 1, MPI.INT, lengths, 1, MPI.INT, root);
        int[] at = starts(lengths);
        byte[] all = new byte[total(lengths)];
        c.gatherv(mine, mine.length, MPI.BYTE, all, lengths, at, MPI.BYTE, root);
        if (c.getRank() == root) {
            place(c, call, all, at, lengths, recvbuf, recvoffset, recvcounts, displs);
        }
    }

    /** As {@code scatterv}: block i leaves the root from {@code sendoffset + displs[i]}. */
    static void scatterv(Comm c, Object sendbuf, int sendoffset, int[] sendcounts, int[] displs,
                         Object recvbuf, int recvoffset, int recvcount, int root) throws MPIException {
        String call = "MPI_Scatterv";
        int size = c.getSize();
        boolean isRoot = c.getRank() == root;
        byte[][] blocks = isRoot ? blocks(c, call, sendbuf, sendoffset, sendcounts, displs, size) : new byte[size][0];
        int[] lengths = lengths(blocks);
        int[] length = new int[1];
        c.scatter(lengths, 1, MPI.INT, length, 1, MPI.INT, root);
        byte[] mine = new byte[length[0]];
        c.scatterv(concat(blocks, lengths), lengths, starts(lengths), MPI.BYTE, mine, length[0], MPI.BYTE, root);
        decode(c, call, ByteBuffer.wrap(mine), recvbuf, recvoffset, recvcount);
    }

    /** As {@code allGatherv}: block i lands at {@code recvoffset + displs[i]} everywhere. */
    static void allGatherv(Comm c, Object sendbuf, int sendoffset, int sendcount,
                           Object recvbuf, int recvoffset, int[] recvcounts, int[] displs) throws MPIException {
        String call = "MPI_Allgatherv";
        byte[] mine = encode(c, call, sendbuf, sendoffset, sendcount);
        int[] lengths = new int[c.getSize()];
        c.allGather(new int[] {mine.length}, 1, MPI.INT, lengths, 1, MPI.INT);
        int[] at = starts(lengths);
        byte[] all = new byte[total(lengths)];
        c.allGatherv(mine, mine.length, MPI.BYTE, all, lengths, at, MPI.BYTE);
        place(c, call, all, at, lengths, recvbuf, recvoffset, recvcounts, displs);
    }

    /** As {@code allToAllv}, with element displacements on both sides. */
    static void allToAllv(Comm c, Object sendbuf, int sendoffset, int[] sendcounts, int[] sdispls,
                          Object recvbuf, int recvoffset, int[] recvcounts, int[] rdispls) throws MPIException {
        String call = "MPI_Alltoallv";
        int size = c.getSize();
        byte[][] blocks = blocks(c, call, sendbuf, sendoffset, sendcounts, sdispls, size);
        int[] sendLengths = lengths(blocks);
        int[] recvLengths = new int[size];
        c.allToAll(sendLengths, 1, MPI.INT, recvLengths, 1, MPI.INT);
        int[] at = starts(recvLengths);
        byte[] all = new byte[total(recvLengths)];
        c.allToAllv(concat(blocks, sendLengths), sendLengths, starts(sendLengths), MPI.BYTE,
                all, recvLengths, at, MPI.BYTE);
        place(c, call, all, at, recvLengths, recvbuf, recvoffset, recvcounts, rdispls);
    }

    /** {@code count} for each of {@code size} blocks. */
    static int[] counts(int size, int count) {
        int[] counts = new int[size];
        Arrays.fill(counts, count);
        return counts;
    }

    /** Displacements of blocks of {@code count} one after another. */
    static int[] displacements(int size, int count) {
        int[] d = new int[size];
        for (int i = 0; i < size; i++) {
            d[i] = i * count;
        }
        return d;
    }

    // ---------------------------------------------------------------- reductions

    /** As {@code reduce} with the operator's User_function, folded at the root in rank order. */
    static void reduce(Comm c, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Op op,
                       int root) throws MPIException {
        User_function f = function(c, "MPI_Reduce", op);
        int size = c.getSize();
        Object[] all = new Object[size * count];
        gatherv(c, sendbuf, sendoffset, count, all, 0, counts(size, count), displacements(size, count), root);
        if (c.getRank() == root) {
            store(c, "MPI_Reduce", fold(f, all, size, count), 0, recvbuf, recvoffset, count);
        }
    }

    /**
     * As {@code allReduce} ({@code upTo} false) or {@code scan} ({@code upTo} true: ranks 0 to this
     * one only), folded on every rank in rank order.
     */
    static void allReduce(Comm c, String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                          int count, Op op, boolean upTo) throws MPIException {
        User_function f = function(c, call, op);
        int size = c.getSize();
        Object[] all = new Object[size * count];
        allGatherv(c, sendbuf, sendoffset, count, all, 0, counts(size, count), displacements(size, count));
        int ranks = upTo ? c.getRank() + 1 : size;
        store(c, call, fold(f, all, ranks, count), 0, recvbuf, recvoffset, count);
    }

    /** As {@code reduceScatter}: the whole vector is reduced everywhere, each rank keeps its block. */
    static void reduceScatter(Comm c, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                              int[] recvcounts, Op op) throws MPIException {
        String call = "MPI_Reduce_scatter";
        User_function f = function(c, call, op);
        int size = c.getSize();
        int rank = c.getRank();
        if (recvcounts == null || recvcounts.length < size) {
            throw c.handle(MPIException.of(MPI.ERR_ARG, call + ": one count per rank needed"));
        }
        int count = total(Arrays.copyOf(recvcounts, size));
        Object[] all = new Object[size * count];
        allGatherv(c, sendbuf, sendoffset, count, all, 0, counts(size, count), displacements(size, count));
        store(c, call, fold(f, all, size, count), starts(recvcounts)[rank], recvbuf, recvoffset, recvcounts[rank]);
    }

    private static User_function function(Comm c, String call, Op op) throws MPIException {
        if (op != null && op.isNull()) {
            throw c.handle(MPIException.of(MPI.ERR_OP, call + ": the operator has been freed"));
        }
        User_function f = op == null ? null : op.mpiJavaFunction();
        if (f == null) {
            throw c.handle(MPIException.of(MPI.ERR_OP, call + ": MPI.OBJECT reduces with an Op made from a"
                    + " User_function only, not " + op));
        }
        return f;
    }

    /** Block 0 op (block 1 op ( ... op block {@code blocks - 1})), each block {@code count} objects of {@code all}. */
    private static Object[] fold(User_function f, Object[] all, int blocks, int count) throws MPIException {
        Object[] acc = Arrays.copyOfRange(all, (blocks - 1) * count, blocks * count);
        for (int i = blocks - 2; i >= 0; i--) {
            f.Call(all, i * count, acc, 0, count, MPI.OBJECT);
        }
        return acc;
    }

    private static void store(Comm c, String call, Object[] from, int start, Object recvbuf, int recvoffset, int count)
            throws MPIException {
        try {
            System.arraycopy(from, start, objects(call, recvbuf, recvoffset, count), recvoffset, count);
        } catch (MPIException e) {
            throw c.handle(e);
        }
    }

    // ---------------------------------------------------------------- helpers

    private static byte[] encode(Comm c, String call, Object buf, int offset, int count) throws MPIException {
        try {
            return encode(call, buf, offset, count);
        } catch (MPIException e) {
            throw c.handle(e);
        }
    }

    private static void decode(Comm c, String call, ByteBuffer data, Object buf, int offset, int count)
            throws MPIException {
        try {
            decode(call, data, buf, offset, count);
        } catch (MPIException e) {
            throw c.handle(e);
        }
    }

    /** Each rank's block of {@code all} (at {@code at[i]}, {@code lengths[i]} bytes) into its place in {@code recvbuf}. */
    private static void place(Comm c, String call, byte[] all, int[] at, int[] lengths, Object recvbuf, int recvoffset,
                              int[] recvcounts, int[] displs) throws MPIException {
        if (recvcounts == null || displs == null || recvcounts.length < at.length || displs.length < at.length) {
            throw c.handle(MPIException.of(MPI.ERR_ARG, call + ": one count and displacement per rank needed"));
        }
        for (int i = 0; i < at.length; i++) {
            decode(c, call, ByteBuffer.wrap(all, at[i], lengths[i]), recvbuf, recvoffset + displs[i], recvcounts[i]);
        }
    }

    /** The messages of each rank's block of {@code sendbuf}. */
    private static byte[][] blocks(Comm c, String call, Object sendbuf, int sendoffset, int[] counts, int[] displs,
                                   int size) throws MPIException {
        if (counts == null || displs == null || counts.length < size || displs.length < size) {
            throw c.handle(MPIException.of(MPI.ERR_ARG, call + ": one count and displacement per rank needed"));
        }
        byte[][] blocks = new byte[size][];
        for (int i = 0; i < size; i++) {
            blocks[i] = encode(c, call, sendbuf, sendoffset + displs[i], counts[i]);
        }
        return blocks;
    }

    private static int[] lengths(byte[][] blocks) {
        return Arrays.stream(blocks).mapToInt(b -> b.length).toArray();
    }

    private static byte[] concat(byte[][] blocks, int[] lengths) {
        byte[] all = new byte[total(lengths)];
        int at = 0;
        for (byte[] b : blocks) {
            System.arraycopy(b, 0, all, at, b.length);
            at += b.length;
        }
        return all;
    }

    private static int[] starts(int[] lengths) {
        int[] at = new int[lengths.length];
        for (int i = 1; i < lengths.length; i++) {
            at[i] = at[i - 1] + lengths[i - 1];
        }
        return at;
    }

    private static int total(int[] lengths) {
        return Arrays.stream(lengths).sum();
    }
}
