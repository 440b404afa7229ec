package io.bdmpi.tests.programs.io;

import mpi.Comm;
import mpi.Datatype;
import mpi.File;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Random MPI-IO traffic that every rank can check: all ranks open one file and run rounds of a
 * plan drawn from a seed they share. Each round writes in one way, the same on every rank, with
 * random sizes (0 bytes included, some over 100 KB) into disjoint regions per rank: explicit
 * offsets ({@code writeAt}, {@code iWriteAt} completed by {@code waitAll}, {@code writeAtAll},
 * {@code iWriteAtAll}, {@code writeAtAllBegin/End}), the individual pointer after a seek
 * ({@code write}, {@code iWrite}, {@code writeAll}, {@code iWriteAll}, {@code writeAllBegin/End}),
 * the shared pointer in rank order ({@code writeOrdered}, {@code writeOrderedBegin/End}),
 * self-describing records by {@code writeShared} and {@code iWriteShared} (each must appear exactly
 * once, in any order), strided views (etype SHORT, INT or LONG, ranks interleaving blocks of a
 * filetype made with {@code createVector} or {@code createIndexed}, with a displacement), and
 * {@code setSize}/{@code preallocate}. Buffers mix arrays, direct buffers and a strided memory type.
 * After each round (sync, barrier, sync) every rank reads back regions written by other ranks in
 * one way drawn for the round (explicit offsets, the individual pointer, the shared pointer in turn
 * or in rank order, an INT view with a displacement, another rank's strided view), some past the
 * end of the file, and checks every byte against a model of the file all ranks compute from the
 * plan, the Status counts, {@code getSize}, the pointers, {@code getByteOffset} and
 * {@code getTypeExtent}.
 *
 * <p>Usage: {@code FileTraffic DIR ROUNDS SEED}; it leaves {@code DIR/traffic}.
 */
public final class FileTraffic {

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final int MAGIC = 0x5EC0BD;
    private static final int HEADER = 20;
    private static final int WRITE_WAYS = 15;
    private static final int READ_WAYS = 13;
    private static final String[] WRITE_NAMES = {"writeAt", "iWriteAt", "writeAtAll", "iWriteAtAll",
        "writeAtAllBegin/End", "seek+write", "seek+iWrite", "seek+writeAll", "seek+iWriteAll",
        "writeAllBegin/End", "writeOrdered", "writeOrderedBegin/End", "writeShared/iWriteShared",
        "strided view", "setSize/preallocate"};
    private static final String[] READ_NAMES = {"readAt", "iReadAt", "readAtAll", "iReadAtAll",
        "readAtAllBegin/End", "seek+read", "seek+readAll", "seek+iRead", "readAllBegin/End",
        "readShared in turn", "readOrdered", "INT view", "other rank's view"};

    /** Bytes a rank wrote in a round: file byte ranges {@code [start, end)}. */
    private record Span(int rank, long start, long end) {
    }

    /**
     * A strided view: blocks {@code (offset, length)} in bytes per tile; made as rank {@code owner}'s
     * filetype of a kind (0 vector, 1 indexed) from etype {@code e} and block sizes {@code b1, b2, c}.
     */
    private record View(long disp, int esize, long[] offsets, long[] lengths, long extent, String how,
                        int owner, int kind, int e, int b1, int b2, int c, String rep) {
        long tileSize() {
            long s = 0;
            for (long l : lengths) {
                s += l;
            }
            return s;
        }

        long fileByte(long p) {
            long tile = p / tileSize();
            long rest = p % tileSize();
            int b = 0;
            while (rest >= lengths[b]) {
                rest -= lengths[b++];
            }
            return disp + tile * extent + offsets[b] + rest;
        }
    }

    private static int rank;
    private static int size;
    private static int round;
    private static String doing = "";
    private static byte[] model = new byte[1 << 16];
    private static long modelSize;
    private static long checkedBytes;

    private FileTraffic() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String path = args[0] + "/traffic";
        int rounds = Integer.parseInt(args[1]);
        long seed = Long.parseLong(args[2]);
        Comm world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        Random plan = new Random(seed);
        Random own = new Random(seed * 7919 + rank + 1);
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setSize(0);
        View[] lastViews = null;
        int[] lastCounts = null;
        long[] lastOffsets = null;
        for (round = 0; round < rounds; round++) {
            int way = round < WRITE_WAYS && rounds >= WRITE_WAYS ? (int) ((round * 7L + seed) % WRITE_WAYS)
                      : plan.nextInt(3) == 0 ? 13 : plan.nextInt(WRITE_WAYS);
            boolean atomic = plan.nextInt(4) == 0;
            doing = "round " + round + " (" + WRITE_NAMES[way] + (atomic ? ", atomic" : "") + ")";
            f.setAtomicity(atomic);
            that(f.getAtomicity() == atomic, "getAtomicity after setAtomicity(" + atomic + ")");
            List<Span> spans = new ArrayList<>();
            View[] views = null;
            long[] viewOffsets = null;
            int[] viewCounts = null;
            if (way <= 9) {
                explicitOrIndividual(f, way, plan, spans);
            } else if (way <= 11) {
                ordered(f, way == 11, plan, spans);
            } else if (way == 12) {
                shared(f, plan, spans);
            } else if (way == 13) {
                views = new View[size];
                viewOffsets = new long[size];
                viewCounts = new int[size];
                strided(f, plan, spans, views, viewOffsets, viewCounts);
            } else {
                resize(f, plan);
            }
            f.sync();
            world.barrier();
            f.sync();
            equal(modelSize, f.getSize(), "getSize after the writes");
            if (views != null) {
                lastViews = views;
                lastCounts = viewCounts;
                lastOffsets = viewOffsets;
            }
            int readWay = views != null && plan.nextBoolean() ? 12 : plan.nextInt(READ_WAYS);
            if (readWay == 12 && lastViews == null) {
                readWay = 0;
            }
            doing = "round " + round + " (" + WRITE_NAMES[way] + "), read by " + READ_NAMES[readWay];
            if (readWay == 12) {
                readOtherView(f, plan, own, lastViews, lastOffsets, lastCounts);
            } else {
                readBack(f, readWay, plan, own, spans);
            }
            world.barrier();
        }
        f.close();
        long[] total = {checkedBytes};
        world.allReduce(total, 1, MPI.LONG, MPI.SUM);
        if (rank == 0) {
            System.out.println("FileTraffic: " + rounds + " rounds, file of " + modelSize + " bytes, "
                    + total[0] + " bytes read back and checked");
        }
        System.out.println("FileTraffic rank " + rank + " OK");
        MPI.Finalize();
    }

    // ---------------------------------------------------------------- data and model

    /** Byte {@code i} of what {@code writer} writes in round {@code r}, stream {@code s}. */
    private static byte datum(int r, int writer, int s, long i) {
        long h = (r * 1_000_003L + writer * 7919L + s * 104_729L + i) * 0x9E3779B97F4A7C15L;
        return (byte) (h >>> 56);
    }

    private static byte[] data(int writer, int s, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = datum(round, writer, s, i);
        }
        return b;
    }

    private static void grow(long end) {
        if (end > model.length) {
            model = Arrays.copyOf(model, (int) Math.max(end, 2L * model.length));
        }
    }

    private static void put(long at, byte[] bytes) {
        grow(at + bytes.length);
        System.arraycopy(bytes, 0, model, (int) at, bytes.length);
        if (bytes.length > 0) {
            modelSize = Math.max(modelSize, at + bytes.length);
        }
    }

    private static int regionSize(Random plan, int align) {
        int k = plan.nextInt(10);
        int n = k == 0 ? 0 : k <= 2 ? 100_000 + plan.nextInt(60_000) : 1 + plan.nextInt(5000);
        if (plan.nextInt(60) == 0) {
            n = (4 << 20) + plan.nextInt(100_000);
        }
        return n / align * align;
    }

    // ---------------------------------------------------------------- buffers

    /**
     * The forms a buffer takes: byte[], direct ByteBuffer, int[], direct IntBuffer, int[] under a
     * strided memory type, {@code MPI.slice} of a direct ByteBuffer at byte 3, {@code MPI.slice} of
     * an int[] at int 5.
     */
    private static final int FORMS = 7;
    private static final int[] DIRECT_FORMS = {1, 3, 5};

    private static int align(int form) {
        return form == 2 || form == 3 || form == 4 || form == 6 ? 4 : 1;
    }

    /** {buffer, datatype, count} holding {@code bytes}. */
    private static Object[] packed(int form, byte[] bytes) throws MPIException {
        ByteBuffer src = ByteBuffer.wrap(bytes).order(NATIVE);
        int ints = bytes.length / 4;
        switch (form) {
            case 0:
                return new Object[] {bytes.clone(), MPI.BYTE, bytes.length};
            case 1: {
                ByteBuffer b = MPI.newByteBuffer(bytes.length);
                b.put(bytes).clear();
                return new Object[] {b, MPI.BYTE, bytes.length};
            }
            case 2: {
                int[] a = new int[ints];
                src.asIntBuffer().get(a);
                return new Object[] {a, MPI.INT, ints};
            }
            case 3: {
                IntBuffer b = MPI.newIntBuffer(ints);
                for (int i = 0; i < ints; i++) {
                    b.put(i, src.getInt(4 * i));
                }
                return new Object[] {b, MPI.INT, ints};
            }
            case 5: {
                ByteBuffer big = MPI.newByteBuffer(bytes.length + 3);
                big.put(0, (byte) 0x11).put(1, (byte) 0x22).put(2, (byte) 0x33);
                big.put(3, bytes);
                return new Object[] {MPI.slice(big, 3), MPI.BYTE, bytes.length, big};
            }
            case 6: {
                int[] big = new int[ints + 5];
                Arrays.fill(big, 0, 5, 0x600DF00D);
                src.asIntBuffer().get(big, 5, ints);
                return new Object[] {MPI.slice(big, 5), MPI.INT, ints, big};
            }
            default: {
                int[] a = new int[2 * ints];
                Arrays.fill(a, 0x7EADBEEF);
                for (int i = 0; i < ints; i++) {
                    a[2 * i] = src.getInt(4 * i);
                }
                if (ints == 0) {
                    return new Object[] {a, MPI.INT, 0};
                }
                Datatype t = Datatype.createVector(ints, 1, 2, MPI.INT);
                t.commit();
                return new Object[] {a, t, 1};
            }
        }
    }

    /** A buffer to read {@code bytes} bytes into, in a form; gaps of the strided form hold a sentinel. */
    private static Object[] empty(int form, int bytes) throws MPIException {
        byte[] fill = new byte[bytes];
        Arrays.fill(fill, (byte) 0x5A);
        return packed(form, fill);
    }

    /** The bytes a read buffer holds, and a check that a strided form's gaps are untouched. */
    private static byte[] unpacked(int form, Object buf, Object holder, int bytes) {
        byte[] out = new byte[bytes];
        ByteBuffer dst = ByteBuffer.wrap(out).order(NATIVE);
        switch (form) {
            case 0 -> System.arraycopy((byte[]) buf, 0, out, 0, bytes);
            case 1 -> ((ByteBuffer) buf).duplicate().clear().get(out);
            case 2 -> dst.asIntBuffer().put((int[]) buf);
            case 3, 6 -> {
                IntBuffer b = (IntBuffer) buf;
                for (int i = 0; i < bytes / 4; i++) {
                    dst.putInt(4 * i, b.get(i));
                }
                if (form == 6) {
                    for (int i = 0; i < 5; i++) {
                        equal(0x600DF00D, ((int[]) holder)[i], "int " + i + " before an MPI.slice of an int[] after a read");
                    }
                }
            }
            case 5 -> {
                ((ByteBuffer) buf).duplicate().clear().get(out);
                ByteBuffer big = (ByteBuffer) holder;
                that(big.get(0) == 0x11 && big.get(1) == 0x22 && big.get(2) == 0x33,
                        "the bytes before an MPI.slice of a direct buffer after a read");
            }
            default -> {
                int[] a = (int[]) buf;
                for (int i = 0; i < bytes / 4; i++) {
                    dst.putInt(4 * i, a[2 * i]);
                    equal(0x7EADBEEF, a[2 * i + 1], "gap " + i + " of the strided memory type after a read");
                }
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- writes

    /** Disjoint regions, one per rank, in a random rank order from a random base; sizes fit each rank's form. */
    private static long[] place(Random plan, int[] sizes) {
        long base = plan.nextInt(3) == 0 ? (long) (plan.nextDouble() * modelSize) : modelSize + plan.nextInt(3000);
        List<Integer> order = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            order.add(r);
        }
        java.util.Collections.shuffle(order, plan);
        long[] at = new long[size];
        long next = base;
        for (int r : order) {
            at[r] = next;
            next += sizes[r] + plan.nextInt(100);
        }
        return at;
    }

    private static void explicitOrIndividual(File f, int way, Random plan, List<Span> spans) throws MPIException {
        int[] forms = new int[size];
        int[] sizes = new int[size];
        boolean nonblocking = way == 1 || way == 3 || way == 6 || way == 8;
        for (int r = 0; r < size; r++) {
            forms[r] = nonblocking ? DIRECT_FORMS[plan.nextInt(3)] : plan.nextInt(FORMS);
            sizes[r] = regionSize(plan, align(forms[r]));
        }
        long[] at = place(plan, sizes);
        int whence = plan.nextInt(3);
        if (way >= 5) {
            if (whence == 0) {
                f.seek(at[rank], MPI.SEEK_SET);
            } else if (whence == 1) {
                f.seek(at[rank] - f.getPosition(), MPI.SEEK_CUR);
            } else {
                f.seek(at[rank] - modelSize, MPI.SEEK_END);
                MPI.COMM_WORLD.barrier();
            }
            equal(at[rank], f.getPosition(), "getPosition after seek (whence " + whence + ")");
        }
        for (int r = 0; r < size; r++) {
            byte[] bytes = data(r, 0, sizes[r]);
            spans.add(new Span(r, at[r], at[r] + sizes[r]));
            if (r != rank) {
                put(at[r], bytes);
                continue;
            }
            Object[] b = packed(forms[r], bytes);
            Datatype t = (Datatype) b[1];
            int count = (Integer) b[2];
            Status s;
            switch (way) {
                case 0 -> s = f.writeAt(at[r], b[0], count, t);
                case 1 -> {
                    int half = sizes[r] / 2 / 4 * 4;
                    Object[] first = packed(forms[r], Arrays.copyOfRange(bytes, 0, half));
                    Object[] second = packed(forms[r], Arrays.copyOfRange(bytes, half, bytes.length));
                    Request[] rs = {
                        f.iWriteAt(at[r] + half, (java.nio.Buffer) second[0], (Integer) second[2], t),
                        f.iWriteAt(at[r], (java.nio.Buffer) first[0], (Integer) first[2], t)};
                    Status[] ss = Request.waitAllStatus(rs);
                    equal((Integer) second[2], ss[0].getCount(t), "iWriteAt count of the second half");
                    equal((Integer) first[2], ss[1].getCount(t), "iWriteAt count of the first half");
                    s = null;
                }
                case 2 -> s = f.writeAtAll(at[r], b[0], count, t);
                case 3 -> s = f.iWriteAtAll(at[r], (java.nio.Buffer) b[0], count, t).waitStatus();
                case 4 -> {
                    f.writeAtAllBegin(at[r], b[0], count, t);
                    s = f.writeAtAllEnd(b[0]);
                }
                case 5 -> s = f.write(b[0], count, t);
                case 6 -> {
                    Request q = f.iWrite((java.nio.Buffer) b[0], count, t);
                    q.waitFor();
                    that(q.isNull(), "a request is null after waitFor");
                    s = null;
                }
                case 7 -> s = f.writeAll(b[0], count, t);
                case 8 -> s = f.iWriteAll((java.nio.Buffer) b[0], count, t).waitStatus();
                default -> {
                    f.writeAllBegin(b[0], count, t);
                    s = f.writeAllEnd(b[0]);
                }
            }
            if (s != null) {
                equal(count, s.getCount(t), "write count");
            }
            if (way >= 5) {
                equal(at[r] + sizes[r], f.getPosition(), "getPosition after the write");
            }
            put(at[r], bytes);
        }
    }

    private static void ordered(File f, boolean split, Random plan, List<Span> spans) throws MPIException {
        int[] forms = new int[size];
        int[] sizes = new int[size];
        for (int r = 0; r < size; r++) {
            forms[r] = plan.nextInt(FORMS);
            sizes[r] = regionSize(plan, align(forms[r]));
        }
        long base = plan.nextBoolean() ? modelSize : (long) (plan.nextDouble() * modelSize);
        f.seekShared(base, MPI.SEEK_SET);
        equal(base, f.getPositionShared(), "getPositionShared after seekShared");
        MPI.COMM_WORLD.barrier();
        long at = base;
        for (int r = 0; r < size; r++) {
            byte[] bytes = data(r, 0, sizes[r]);
            spans.add(new Span(r, at, at + sizes[r]));
            if (r == rank) {
                Object[] b = packed(forms[r], bytes);
                Datatype t = (Datatype) b[1];
                Status s;
                if (split) {
                    f.writeOrderedBegin(b[0], (Integer) b[2], t);
                    s = f.writeOrderedEnd(b[0]);
                } else {
                    s = f.writeOrdered(b[0], (Integer) b[2], t);
                }
                equal((Integer) b[2], s.getCount(t), "writeOrdered count");
            }
            put(at, bytes);
            at += sizes[r];
        }
        equal(at, f.getPositionShared(), "getPositionShared after writeOrdered");
    }

    /** Records: MAGIC, round, rank, index, length, then {@code length} bytes. */
    private static byte[] record(int writer, int index, int length) {
        ByteBuffer b = ByteBuffer.allocate(HEADER + length).order(NATIVE);
        b.putInt(MAGIC).putInt(round).putInt(writer).putInt(index).putInt(length);
        for (int i = 0; i < length; i++) {
            b.put(datum(round, writer, index + 1, i));
        }
        return b.array();
    }

    private static void shared(File f, Random plan, List<Span> spans) throws MPIException {
        int[][] lengths = new int[size][];
        long total = 0;
        for (int r = 0; r < size; r++) {
            lengths[r] = new int[plan.nextInt(6)];
            for (int i = 0; i < lengths[r].length; i++) {
                lengths[r][i] = plan.nextInt(20) == 0 ? 100_000 + plan.nextInt(20_000) : plan.nextInt(2000);
                total += HEADER + lengths[r][i];
            }
        }
        long base = plan.nextBoolean() ? modelSize : (long) (plan.nextDouble() * modelSize);
        f.seekShared(base, MPI.SEEK_SET);
        Random own = new Random(round * 31L + rank);
        for (int i = 0; i < lengths[rank].length; i++) {
            byte[] rec = record(rank, i, lengths[rank][i]);
            Status s;
            if (own.nextBoolean()) {
                s = f.writeShared(rec, rec.length, MPI.BYTE);
            } else {
                ByteBuffer b = MPI.newByteBuffer(rec.length);
                b.put(rec).clear();
                s = Request.waitAllStatus(new Request[] {f.iWriteShared(b, rec.length, MPI.BYTE)})[0];
            }
            equal(rec.length, s.getCount(MPI.BYTE), "writeShared count");
        }
        MPI.COMM_WORLD.barrier();
        equal(base + total, f.getPositionShared(), "getPositionShared after every rank's records");
        f.sync();
        MPI.COMM_WORLD.barrier();
        f.sync();
        byte[] got = new byte[(int) total];
        Status s = f.readAtAll(base, got, got.length, MPI.BYTE);
        equal(total, s.getCount(MPI.BYTE), "readAtAll count of the records");
        checkedBytes += total;
        boolean[][] seen = new boolean[size][];
        for (int r = 0; r < size; r++) {
            seen[r] = new boolean[lengths[r].length];
        }
        ByteBuffer in = ByteBuffer.wrap(got).order(NATIVE);
        while (in.hasRemaining()) {
            int at = in.position();
            that(in.remaining() >= HEADER, "record header at " + (base + at) + " cut short");
            int magic = in.getInt();
            int r0 = in.getInt();
            int writer = in.getInt();
            int index = in.getInt();
            int length = in.getInt();
            that(magic == MAGIC && r0 == round && writer >= 0 && writer < size && index >= 0
                 && index < lengths[writer].length && length == lengths[writer][index],
                    "record at file byte " + (base + at) + ": magic " + magic + " round " + r0 + " rank " + writer
                    + " index " + index + " length " + length);
            that(!seen[writer][index], "record " + index + " of rank " + writer + " appears twice (again at " + (base + at) + ")");
            seen[writer][index] = true;
            for (int i = 0; i < length; i++) {
                byte b = in.get();
                if (b != datum(round, writer, index + 1, i)) {
                    throw new IllegalStateException(where() + ": record " + index + " of rank " + writer + " at file byte "
                            + (base + at) + ": payload byte " + i + " is " + b);
                }
            }
        }
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < seen[r].length; i++) {
                that(seen[r][i], "record " + i + " of rank " + r + " is missing");
            }
        }
        put(base, got);
        spans.add(new Span(-1, base, base + total));
    }

    private static final Datatype[] ETYPES = {MPI.SHORT, MPI.INT, MPI.LONG};
    private static final int[] ESIZES = {2, 4, 8};

    /** Each rank's strided view of one kind, every rank's blocks interleaved from a common displacement. */
    private static View viewOf(int r, int kind, int e, long base, int b1, int b2, int c, String rep) {
        int esize = ESIZES[e];
        if (kind == 0) {
            long stride = (long) b1 * size * esize;
            long[] offsets = new long[c];
            long[] lengths = new long[c];
            for (int j = 0; j < c; j++) {
                offsets[j] = j * stride;
                lengths[j] = (long) b1 * esize;
            }
            return new View(base + (long) r * b1 * esize, esize, offsets, lengths, c * stride, "vector", r, kind, e, b1, b2, c, rep);
        }
        return new View(base, esize, new long[] {(long) r * b1 * esize, ((long) size * b1 + (long) r * b2) * esize},
                new long[] {(long) b1 * esize, (long) b2 * esize}, (long) size * (b1 + b2) * esize, "indexed", r, kind, e, b1, b2, c, rep);
    }

    private static Datatype filetypeOf(int r, int kind, Datatype etype, int esize, int b1, int b2, int c) throws MPIException {
        Datatype t;
        if (kind == 0) {
            t = Datatype.createResized(Datatype.createVector(c, b1, b1 * size, etype), 0, c * b1 * size * esize);
        } else {
            t = Datatype.createResized(Datatype.createIndexed(new int[] {b1, b2}, new int[] {r * b1, size * b1 + r * b2}, etype),
                    0, size * (b1 + b2) * esize);
        }
        t.commit();
        return t;
    }

    private static void setStrided(File f, View v) throws MPIException {
        Datatype ft = filetypeOf(v.owner(), v.kind(), ETYPES[v.e()], v.esize(), v.b1(), v.b2(), v.c());
        f.setView(v.disp(), ETYPES[v.e()], ft, v.rep());
        equal(v.extent() / v.esize(), f.getTypeExtent(ft), "getTypeExtent of the " + v.how() + " filetype");
        that(v.rep().equals(f.getView().getDataRep()), "getView().getDataRep() is " + f.getView().getDataRep());
        equal(v.disp(), f.getView().getDisp(), "getView().getDisp()");
        equal(0, f.getPosition(), "getPosition after setView");
    }

    private static final String[] REPS = {"native", "internal", "external32"};

    private static void strided(File f, Random plan, List<Span> spans, View[] views, long[] offsets, int[] counts)
            throws MPIException {
        int e = plan.nextInt(3);
        int esize = ESIZES[e];
        int kind = plan.nextInt(2);
        int b1 = 1 + plan.nextInt(plan.nextBoolean() ? 8 : 300);
        int b2 = 1 + plan.nextInt(50);
        int c = 1 + plan.nextInt(3);
        long base = modelSize + plan.nextInt(50) - (modelSize > 100 ? plan.nextInt(100) : 0);
        int how = plan.nextInt(4) == 0 ? 6 : plan.nextInt(6);
        String common = REPS[plan.nextInt(3)];
        long sum = 0;
        for (int r = 0; r < size; r++) {
            String rep = how == 6 ? common : REPS[plan.nextInt(3)];
            views[r] = viewOf(how == 6 ? 0 : r, kind, e, base, b1, b2, c, rep);
            int k = plan.nextInt(8);
            counts[r] = k == 0 ? 0 : k == 1 ? 120_000 / esize + plan.nextInt(20_000 / esize) : 1 + plan.nextInt(3000);
            offsets[r] = how == 6 ? sum : plan.nextInt(4) == 0 ? plan.nextInt(500) : 0;
            sum += counts[r];
        }
        doing += " " + views[0].how() + " etype " + esize + " b1 " + b1 + " b2 " + b2 + " c " + c + " base " + base
                 + " by " + how + " " + views[rank].rep();
        View mine = views[rank];
        setStrided(f, mine);
        for (long k : new long[] {0, 1, offsets[rank], 12345}) {
            equal(mine.fileByte(k * esize), f.getByteOffset(k), "getByteOffset(" + k + ")");
        }
        int n = counts[rank];
        byte[] bytes = data(rank, 0, n * esize);
        ByteBuffer src = ByteBuffer.wrap(bytes).order(NATIVE);
        Object buf;
        boolean direct = how >= 4 || plan.nextBoolean();
        if (e == 0) {
            short[] a = new short[n];
            src.asShortBuffer().get(a);
            if (direct) {
                ShortBuffer b = MPI.newShortBuffer(n);
                b.put(a).clear();
                buf = b;
            } else {
                buf = a;
            }
        } else if (e == 1) {
            int[] a = new int[n];
            src.asIntBuffer().get(a);
            if (direct) {
                IntBuffer b = MPI.newIntBuffer(n);
                b.put(a).clear();
                buf = b;
            } else {
                buf = a;
            }
        } else {
            long[] a = new long[n];
            src.asLongBuffer().get(a);
            if (direct) {
                LongBuffer b = MPI.newLongBuffer(n);
                b.put(a).clear();
                buf = b;
            } else {
                buf = a;
            }
        }
        Datatype t = ETYPES[e];
        long off = offsets[rank];
        Status s;
        switch (how) {
            case 0 -> s = f.writeAt(off, buf, n, t);
            case 1 -> s = f.writeAtAll(off, buf, n, t);
            case 2 -> {
                f.seek(off, MPI.SEEK_SET);
                s = f.write(buf, n, t);
                equal(off + n, f.getPosition(), "getPosition after a write through the view");
            }
            case 3 -> {
                f.seek(off, MPI.SEEK_SET);
                f.writeAllBegin(buf, n, t);
                s = f.writeAllEnd(buf);
                equal(off + n, f.getPosition(), "getPosition after writeAllBegin/End through the view");
            }
            case 4 -> s = Request.waitAllStatus(new Request[] {f.iWriteAt(off, (java.nio.Buffer) buf, n, t)})[0];
            case 6 -> {
                if (plan.nextBoolean()) {
                    s = f.writeOrdered(buf, n, t);
                } else {
                    f.writeOrderedBegin(buf, n, t);
                    s = f.writeOrderedEnd(buf);
                }
                equal(sum, f.getPositionShared(), "getPositionShared (etypes) after writeOrdered through a common view");
            }
            default -> {
                f.seek(off, MPI.SEEK_SET);
                s = f.iWriteAll((java.nio.Buffer) buf, n, t).waitStatus();
            }
        }
        equal(n, s.getCount(t), "write count through the view");
        f.setView(0, MPI.BYTE, MPI.BYTE, "native");
        for (int r = 0; r < size; r++) {
            byte[] d = data(r, 0, counts[r] * esize);
            if (views[r].rep().equals("external32") && NATIVE == ByteOrder.LITTLE_ENDIAN) {
                d = swapped(d, esize);
            }
            for (int j = 0; j < d.length; j++) {
                long at = views[r].fileByte(offsets[r] * esize + j);
                grow(at + 1);
                model[(int) at] = d[j];
                modelSize = Math.max(modelSize, at + 1);
                if (j == 0 || at != views[r].fileByte(offsets[r] * esize + j - 1) + 1) {
                    spans.add(new Span(r, at, at + 1));
                } else {
                    Span last = spans.remove(spans.size() - 1);
                    spans.add(new Span(r, last.start(), at + 1));
                }
            }
        }
    }

    private static byte[] swapped(byte[] d, int esize) {
        byte[] out = new byte[d.length];
        for (int j = 0; j < d.length; j++) {
            out[j] = d[j / esize * esize + esize - 1 - j % esize];
        }
        return out;
    }

    private static void resize(File f, Random plan) throws MPIException {
        int k = plan.nextInt(3);
        long to = k == 0 ? (long) (modelSize * (0.5 + plan.nextDouble() / 2)) : modelSize + plan.nextInt(200_000);
        doing += (k == 2 ? " preallocate(" : " setSize(") + to + ")";
        if (k == 2) {
            f.preallocate(to);
        } else {
            f.setSize(to);
        }
        if (k == 0) {
            Arrays.fill(model, (int) Math.min(to, model.length), model.length, (byte) 0);
            modelSize = to;
        } else {
            grow(to);
            modelSize = Math.max(modelSize, to);
        }
        equal(modelSize, f.getSize(), "getSize right after the resize");
    }

    // ---------------------------------------------------------------- reads

    /** A region of another rank's writes this round (or of the file), sometimes running past the end of the file. */
    private static long[] region(Random own, List<Span> spans) {
        List<Span> others = new ArrayList<>();
        for (Span s : spans) {
            if (s.rank() != rank && s.end() > s.start()) {
                others.add(s);
            }
        }
        long start;
        long end;
        if (others.isEmpty() || own.nextInt(8) == 0) {
            start = (long) (own.nextDouble() * modelSize);
            end = start + own.nextInt(own.nextInt(4) == 0 ? 150_000 : 4000);
        } else {
            Span s = others.get(own.nextInt(others.size()));
            start = s.start() + (long) (own.nextDouble() * (s.end() - s.start()));
            end = start + 1 + (long) (own.nextDouble() * (s.end() - start));
        }
        if (own.nextInt(6) == 0) {
            end = modelSize + own.nextInt(3000);
            start = Math.min(start, end);
        }
        return new long[] {start, end};
    }

    private static void compare(long start, byte[] got, long count, String how) {
        long expected = Math.max(0, Math.min(got.length, modelSize - start));
        equal(expected, count, how + " of " + got.length + " bytes at " + start + ": byte count");
        check(start, got, expected, how);
    }

    private static void check(long start, byte[] got, long expected, String how) {
        for (int i = 0; i < expected; i++) {
            if (got[i] != model[(int) (start + i)]) {
                throw new IllegalStateException(where() + ": " + how + " of " + got.length + " bytes at " + start
                        + ": file byte " + (start + i) + " is " + got[i] + ", expected " + model[(int) (start + i)]);
            }
        }
        checkedBytes += expected;
    }

    private static void readBack(File f, int way, Random plan, Random own, List<Span> spans) throws MPIException {
        boolean collective = way == 2 || way == 3 || way == 4 || way == 6 || way == 8;
        if (way == 9 || way == 10) {
            readSharedOrOrdered(f, way == 10, plan);
            return;
        }
        if (way == 11) {
            readIntView(f, plan, own, spans);
            return;
        }
        int reads = collective ? 1 : 1 + own.nextInt(3);
        for (int i = 0; i < reads; i++) {
            long[] reg = region(own, spans);
            int length = (int) (reg[1] - reg[0]);
            boolean pastEnd = reg[1] > modelSize;
            boolean nonblocking = way == 1 || way == 3 || way == 7;
            int form;
            if (nonblocking) {
                form = pastEnd || length % 4 != 0 ? (own.nextBoolean() ? 1 : 5) : DIRECT_FORMS[own.nextInt(3)];
            } else {
                do {
                    form = own.nextInt(FORMS);
                } while ((pastEnd || length % 4 != 0) && align(form) != 1);
            }
            Object[] b = empty(form, length);
            Datatype t = (Datatype) b[1];
            int count = (Integer) b[2];
            Status s;
            if (way >= 5) {
                f.seek(reg[0], MPI.SEEK_SET);
            }
            switch (way) {
                case 0 -> s = f.readAt(reg[0], b[0], count, t);
                case 1 -> s = Request.waitAllStatus(new Request[] {f.iReadAt(reg[0], (java.nio.Buffer) b[0], count, t)})[0];
                case 2 -> s = f.readAtAll(reg[0], b[0], count, t);
                case 3 -> s = f.iReadAtAll(reg[0], (java.nio.Buffer) b[0], count, t).waitStatus();
                case 4 -> {
                    f.readAtAllBegin(reg[0], b[0], count, t);
                    s = f.readAtAllEnd(b[0]);
                }
                case 5 -> s = f.read(b[0], count, t);
                case 6 -> s = f.readAll(b[0], count, t);
                case 7 -> s = f.iRead((java.nio.Buffer) b[0], count, t).waitStatus();
                default -> {
                    f.readAllBegin(b[0], count, t);
                    s = f.readAllEnd(b[0]);
                }
            }
            long expected = Math.max(0, Math.min(length, modelSize - reg[0]));
            int unit = t == MPI.BYTE ? 1 : 4;
            long got = form == 4 ? (s.getElements(t) * 4L) : (long) s.getCount(t) * unit;
            if (form == 4 && expected == length && count == 1) {
                equal(1, s.getCount(t), "getCount of one strided memory item");
            }
            compare(reg[0], unpacked(form, b[0], b.length > 3 ? b[3] : null, length), got, READ_NAMES[way] + " (form " + form + ")");
            if (way >= 5) {
                equal(reg[0] + expected, f.getPosition(), "getPosition after " + READ_NAMES[way]);
            }
        }
    }

    private static void readSharedOrOrdered(File f, boolean ordered, Random plan) throws MPIException {
        long base = (long) (plan.nextDouble() * modelSize);
        int[] lengths = new int[size];
        long at = base;
        for (int r = 0; r < size; r++) {
            lengths[r] = (int) Math.min(plan.nextInt(plan.nextInt(4) == 0 ? 120_000 : 3000), modelSize - at);
            at += lengths[r];
        }
        f.seekShared(base, MPI.SEEK_SET);
        long mine = base;
        for (int r = 0; r < rank; r++) {
            mine += lengths[r];
        }
        byte[] got = new byte[lengths[rank]];
        if (ordered) {
            Status s;
            if (plan.nextBoolean()) {
                s = f.readOrdered(got, got.length, MPI.BYTE);
            } else {
                f.readOrderedBegin(got, got.length, MPI.BYTE);
                s = f.readOrderedEnd(got);
            }
            compare(mine, got, s.getCount(MPI.BYTE), "readOrdered");
        } else {
            for (int r = 0; r < size; r++) {
                if (r == rank) {
                    equal(mine, f.getPositionShared(), "getPositionShared before my readShared");
                    compare(mine, got, f.readShared(got, got.length, MPI.BYTE).getCount(MPI.BYTE), "readShared");
                }
                MPI.COMM_WORLD.barrier();
            }
        }
        equal(at, f.getPositionShared(), "getPositionShared after the shared reads");
    }

    private static void readIntView(File f, Random plan, Random own, List<Span> spans) throws MPIException {
        int disp = plan.nextInt(9);
        f.setView(disp, MPI.INT, MPI.INT, "native");
        equal(1, f.getTypeExtent(MPI.INT), "getTypeExtent(MPI.INT), in ints");
        for (int i = 0, n = 1 + own.nextInt(3); i < n; i++) {
            long[] reg = region(own, spans);
            long k = Math.max(0, (reg[0] - disp + 3) / 4);
            int ints = (int) Math.max(0, (reg[1] - disp - 4 * k) / 4);
            long start = disp + 4 * k;
            equal(start, f.getByteOffset(k), "getByteOffset under the INT view");
            boolean pastEnd = start + 4L * ints > modelSize;
            boolean direct = own.nextBoolean();
            IntBuffer ib = direct ? MPI.newIntBuffer(ints) : null;
            int[] a = direct ? null : new int[ints];
            Status s = direct ? (own.nextBoolean() ? f.readAt(k, ib, ints, MPI.INT)
                                                   : f.iReadAt(k, ib, ints, MPI.INT).waitStatus())
                              : f.readAt(k, a, ints, MPI.INT);
            byte[] got = new byte[4 * ints];
            ByteBuffer g = ByteBuffer.wrap(got).order(NATIVE);
            for (int j = 0; j < ints; j++) {
                g.putInt(4 * j, direct ? ib.get(j) : a[j]);
            }
            long expected = Math.max(0, Math.min(4L * ints, modelSize - start));
            if (expected % 4 == 0) {
                equal(expected / 4, s.getCount(MPI.INT), "getCount(INT) through the INT view at " + start
                        + (pastEnd ? " (past the end)" : ""));
            } else {
                equal(MPI.UNDEFINED, s.getCount(MPI.INT), "getCount(INT) of a read ending inside an int");
            }
            check(start, got, expected / 4 * 4, "readAt through an INT view at displacement " + disp);
            checkedBytes += expected / 4 * 4;
        }
        f.setView(0, MPI.BYTE, MPI.BYTE, "native");
    }

    private static void readOtherView(File f, Random plan, Random own, View[] views, long[] offsets, int[] counts)
            throws MPIException {
        int shift = 1 + plan.nextInt(Math.max(1, size - 1));
        int other = (rank + shift) % size;
        View v = views[other];
        int esize = v.esize();
        int e = v.e();
        setStrided(f, v);
        long low = 0;
        long high = modelSize;
        while (low < high) {
            long mid = (low + high) / 2;
            if (v.fileByte(mid) < modelSize) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        long back = Math.min(own.nextInt(3), (low + esize - 1) / esize);
        f.seek(-back, MPI.SEEK_END);
        equal((low + esize - 1) / esize - back, f.getPosition(), "getPosition after seek(-" + back
                + ", SEEK_END) through rank " + other + "'s view (" + low + " visible bytes before the end)");
        long from = offsets[other];
        int n = counts[other];
        long k = from + (n == 0 ? 0 : own.nextInt(n));
        int m = (int) (from + n - k);
        m = own.nextInt(m + 1);
        boolean pastEnd = own.nextInt(4) == 0;
        if (pastEnd) {
            m += 1 + own.nextInt(2000);
        }
        long present = 0;
        while (present < (long) m * esize && v.fileByte(k * esize + present) < modelSize) {
            present++;
        }
        byte[] got = new byte[m * esize];
        Datatype t = ETYPES[e];
        Status s;
        int how = plan.nextInt(5);
        String call = new String[] {"readAtAll", "readAt", "seek+readAll", "seek+iRead", "readAtAllBegin/End"}[how];
        ByteBuffer bb = MPI.newByteBuffer(got.length);
        switch (how) {
            case 0 -> s = f.readAtAll(k, bb, m, t);
            case 1 -> s = f.readAt(k, got, m, t);
            case 2 -> {
                f.seek(k, MPI.SEEK_SET);
                s = f.readAll(got, m, t);
            }
            case 3 -> {
                f.seek(k, MPI.SEEK_SET);
                s = f.iRead(bb, m, t).waitStatus();
            }
            default -> {
                f.readAtAllBegin(k, got, m, t);
                s = f.readAtAllEnd(got);
            }
        }
        if (how == 0 || how == 3) {
            bb.get(got);
        }
        equal(present % esize == 0 ? present / esize : MPI.UNDEFINED, s.getCount(t), call + " count through another rank's view"
                + (pastEnd ? " past the end of the file" : ""));
        if ((how == 2 || how == 3) && present % esize == 0) {
            equal(k + present / esize, f.getPosition(), "getPosition after " + call + " through another rank's view");
        }
        checkView(v, k, got, present / esize * esize, call + " through rank " + other + "'s");
        if (v.owner() == 0 && views[size - 1].owner() == 0) {
            sharedThroughView(f, plan, v, counts, low);
        }
        f.setView(0, MPI.BYTE, MPI.BYTE, "native");
    }

    /** Through the view every rank shares: readShared in turn or readOrdered, and seekShared from the end. */
    private static void sharedThroughView(File f, Random plan, View v, int[] counts, long visible) throws MPIException {
        int esize = v.esize();
        Datatype t = ETYPES[v.e()];
        long eof = (visible + esize - 1) / esize;
        long start = plan.nextInt(10);
        f.seekShared(start, MPI.SEEK_SET);
        long mine = start;
        long total = start;
        int[] lengths = new int[size];
        for (int r = 0; r < size; r++) {
            lengths[r] = counts[size - 1 - r];
            mine += r < rank ? lengths[r] : 0;
            total += lengths[r];
        }
        byte[] got = new byte[lengths[rank] * esize];
        Status s;
        boolean ordered = plan.nextBoolean();
        if (ordered) {
            s = f.readOrdered(got, lengths[rank], t);
        } else {
            s = null;
            for (int r = 0; r < size; r++) {
                if (r == rank) {
                    equal(mine, f.getPositionShared(), "getPositionShared (etypes) before my readShared through the common view");
                    s = f.readShared(got, lengths[rank], t);
                }
                MPI.COMM_WORLD.barrier();
            }
        }
        long present = Math.max(0, Math.min(got.length, visible - mine * esize));
        String call = ordered ? "readOrdered" : "readShared";
        equal(present % esize == 0 ? present / esize : MPI.UNDEFINED, s.getCount(t), call + " count through the common view");
        checkView(v, mine, got, present / esize * esize, call + " through the common");
        equal(total, f.getPositionShared(), "getPositionShared (etypes) after " + call + " through the common view");
        long back = Math.min(plan.nextInt(5), eof);
        f.seekShared(-back, MPI.SEEK_END);
        equal(eof - back, f.getPositionShared(), "getPositionShared after seekShared(-" + back
                + ", SEEK_END) through the common view");
    }

    private static void checkView(View v, long k, byte[] got, long bytes, String how) {
        int esize = v.esize();
        boolean swap = v.rep().equals("external32") && NATIVE == ByteOrder.LITTLE_ENDIAN;
        for (int j = 0; j < bytes; j++) {
            long at = v.fileByte(k * esize + (swap ? j / esize * esize + esize - 1 - j % esize : j));
            if (got[j] != model[(int) at]) {
                throw new IllegalStateException(where() + ": " + how + " " + v.how() + " view (" + v.rep() + "), etype "
                        + (k + j / esize) + " byte " + (j % esize) + " (file byte " + at + ") is " + got[j]
                        + ", expected " + model[(int) at]);
            }
        }
        checkedBytes += bytes;
    }

    // ---------------------------------------------------------------- checks

    private static String where() {
        return "FileTraffic rank " + rank + ", " + doing;
    }

    private static void equal(long expected, long actual, String what) {
        if (expected != actual) {
            throw new IllegalStateException(where() + ": " + what + ": expected " + expected + ", got " + actual);
        }
    }

    private static void that(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException(where() + ": " + what);
        }
    }
}
