package io.bdmpi.tests.programs.io;

import mpi.Comm;
import mpi.Datatype;
import mpi.File;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.IntBuffer;
import java.util.Arrays;

/**
 * MPI-IO by every rank, every result checked:
 * <ol>
 *   <li>a file written with a strided view (rank r owns blocks r, r+size, ... of {@code B} ints),
 *       half with {@code writeAtAll} and half with the individual pointer, then read back with a
 *       contiguous view ({@code readAtAll}) and a cyclic one ({@code readAll});</li>
 *   <li>{@code writeOrdered}: rank r writes r+1 ints, in rank order; {@code readOrdered} reads them
 *       back; {@code writeShared} and {@code iWriteShared} of 3-int blocks by every rank (each block
 *       whole, each rank's twice), read back by {@code readShared} and {@code iReadShared} (each
 *       block once), whichever nodes the ranks are on; {@code MODE_APPEND} starts the shared
 *       pointer at the end, where a split {@code writeOrdered} appends in rank order;</li>
 *   <li>{@code iWriteAt} of 4 direct buffers completed by {@code Request.waitAll}, read back by
 *       another rank with {@code iReadAt};</li>
 *   <li>errors: a missing file is {@code ERR_NO_SUCH_FILE}, {@code MODE_EXCL} on an existing one
 *       {@code ERR_FILE_EXISTS}, a bad mode {@code ERR_AMODE}, a name with a NUL
 *       {@code ERR_BAD_FILE}, modes that differ between ranks and {@code seekShared} offsets that
 *       differ {@code ERR_NOT_SAME}, a name too long {@code ERR_BAD_FILE} and {@code MPI.COMM_NULL}
 *       {@code ERR_COMM} (thrown), on every rank; an offset whose bytes lie past file byte 2^63 - 1
 *       under a view of huge tiles is {@code ERR_ARG} and leaves the file's first bytes alone;
 *       {@code MPI.OBJECT} items are {@code ERR_TYPE}; a {@code seekShared} to a negative position
 *       is {@code ERR_ARG} on every rank; a {@code MODE_SEQUENTIAL} file refuses explicit offsets and
 *       seeks ({@code ERR_UNSUPPORTED_OPERATION}) and takes {@code DISPLACEMENT_CURRENT}; a
 *       {@code MODE_DELETE_ON_CLOSE} file is gone after close.</li>
 * </ol>
 * It leaves exactly {@code strided}, {@code ordered}, {@code shared} and {@code nonblocking} in
 * the directory.
 *
 * <p>Usage: {@code FileIo DIR}.
 */
public final class FileIo {

    private static final int B = 3;
    private static final int K = 8;

    private FileIo() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String dir = args[0];
        Comm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        strided(dir + "/strided", rank, size);
        orderedAndShared(dir, rank, size);
        nonblocking(dir + "/nonblocking", rank, size);
        errors(dir, rank);
        System.out.println("FileIo rank " + rank + " OK");
        MPI.Finalize();
    }

    private static void strided(String path, int rank, int size) throws MPIException {
        File f = new File(MPI.COMM_WORLD, path, MPI.MODE_WRONLY | MPI.MODE_CREATE);
        Datatype mine = Datatype.createResized(Datatype.createVector(1, B, B, MPI.INT), 0, 4 * B * size);
        mine.commit();
        f.setView(4L * B * rank, MPI.INT, mine, "native");
        int[] data = new int[K * B];
        for (int k = 0; k < K; k++) {
            for (int j = 0; j < B; j++) {
                data[k * B + j] = (k * size + rank) * B + j;
            }
        }
        int half = K * B / 2;
        f.writeAtAll(0, data, half, MPI.INT);
        f.seek(half, MPI.SEEK_SET);
        f.write(MPI.slice(data, half), K * B - half, MPI.INT);
        equal(K * B, f.getPosition(), "individual pointer after the strided writes");
        f.sync();
        f.close();

        File g = new File(MPI.COMM_WORLD, path, MPI.MODE_RDONLY);
        equal(4L * K * B * size, g.getSize(), "size of the strided file");
        int chunk = K * B;
        g.setView(0, MPI.INT, MPI.INT, "native");
        int[] in = new int[chunk];
        equal(chunk, g.readAtAll((long) rank * chunk, in, chunk, MPI.INT).getCount(MPI.INT), "readAtAll count");
        for (int i = 0; i < chunk; i++) {
            equal(rank * chunk + i, in[i], "contiguous view, int " + i);
        }
        Datatype cyclic = Datatype.createResized(MPI.INT, 0, 4 * size);
        cyclic.commit();
        g.setView(4L * rank, MPI.INT, cyclic, "native");
        Arrays.fill(in, -1);
        equal(chunk, g.readAll(in, chunk, MPI.INT).getCount(MPI.INT), "readAll count");
        for (int i = 0; i < chunk; i++) {
            equal((long) i * size + rank, in[i], "cyclic view, int " + i);
        }
        g.close();
    }

    private static void orderedAndShared(String dir, int rank, int size) throws MPIException {
        File f = new File(MPI.COMM_WORLD, dir + "/ordered", MPI.MODE_RDWR | MPI.MODE_CREATE);
        f.setView(0, MPI.INT, MPI.INT, "native");
        int[] mine = new int[rank + 1];
        Arrays.fill(mine, rank);
        f.writeOrdered(mine, rank + 1, MPI.INT);
        long total = (long) size * (size + 1) / 2;
        equal(total, f.getPositionShared(), "shared pointer after writeOrdered");
        int[] all = new int[(int) total];
        f.readAtAll(0, all, all.length, MPI.INT);
        for (int r = 0, i = 0; r < size; r++) {
            for (int j = 0; j <= r; j++, i++) {
                equal(r, all[i], "writeOrdered: int " + i);
            }
        }
        f.seekShared(0, MPI.SEEK_SET);
        int[] back = new int[rank + 1];
        f.readOrderedBegin(back, rank + 1, MPI.INT);
        equal(rank + 1, f.readOrderedEnd(back).getCount(MPI.INT), "readOrdered count");
        equal(Arrays.toString(mine), Arrays.toString(back), "readOrdered");
        f.close();

        File s = new File(MPI.COMM_WORLD, dir + "/shared", MPI.MODE_RDWR | MPI.MODE_CREATE);
        s.writeShared(new int[] {rank, rank, rank}, 3, MPI.INT);
        IntBuffer second = MPI.newIntBuffer(3);
        second.put(0, rank).put(1, rank).put(2, rank);
        Request.waitAll(new Request[] {s.iWriteShared(second, 3, MPI.INT)});
        s.sync();
        equal(24L * size, s.getPositionShared(), "shared pointer (bytes) after every rank's two blocks");
        int[] blocks = new int[6 * size];
        s.readAtAll(0, blocks, blocks.length, MPI.INT);
        int[] seen = new int[size];
        for (int b = 0; b < 2 * size; b++) {
            int v = blocks[3 * b];
            that(v >= 0 && v < size && blocks[3 * b + 1] == v && blocks[3 * b + 2] == v,
                    "writeShared: block " + b + " of " + Arrays.toString(blocks));
            seen[v]++;
        }
        for (int r = 0; r < size; r++) {
            equal(2, seen[r], "writeShared and iWriteShared: blocks of rank " + r + " in " + Arrays.toString(blocks));
        }
        s.seekShared(0, MPI.SEEK_SET);
        int[] got = new int[3];
        s.readShared(got, 3, MPI.INT);
        IntBuffer more = MPI.newIntBuffer(3);
        Request.waitAll(new Request[] {s.iReadShared(more, 3, MPI.INT)});
        that(got[0] == got[1] && got[1] == got[2], "readShared got a whole block: " + Arrays.toString(got));
        that(more.get(0) == more.get(1) && more.get(1) == more.get(2), "iReadShared got a whole block");
        int[] gathered = new int[2 * size];
        MPI.COMM_WORLD.allGather(new int[] {got[0], more.get(0)}, 2, MPI.INT, gathered, 2, MPI.INT);
        Arrays.sort(gathered);
        Arrays.sort(blocks);
        for (int b = 0; b < 2 * size; b++) {
            equal(blocks[3 * b], gathered[b], "readShared and iReadShared: every block read once");
        }
        equal(24L * size, s.getPositionShared(), "shared pointer (bytes) after the shared reads");
        s.close();

        File a = new File(MPI.COMM_WORLD, dir + "/ordered", MPI.MODE_WRONLY | MPI.MODE_APPEND);
        equal(total * 4, a.getPositionShared(), "MODE_APPEND puts the shared pointer at the end");
        a.writeOrderedBegin(new int[] {-rank}, 1, MPI.INT);
        a.writeOrderedEnd(null);
        equal((total + size) * 4, a.getSize(), "writeOrdered appended one int per rank");
        a.close();
    }

    private static void nonblocking(String path, int rank, int size) throws MPIException {
        int n = 16;
        File f = new File(MPI.COMM_WORLD, path, MPI.MODE_RDWR | MPI.MODE_CREATE);
        Request[] writes = new Request[4];
        for (int k = 0; k < 4; k++) {
            IntBuffer b = MPI.newIntBuffer(n);
            for (int i = 0; i < n; i++) {
                b.put(i, rank * 1000 + k * 100 + i);
            }
            writes[k] = f.iWriteAt(4L * n * (rank * 4 + k), b, n, MPI.INT);
        }
        Request.waitAll(writes);
        f.sync();
        int other = (rank + 1) % size;
        Request[] reads = new Request[4];
        IntBuffer[] in = new IntBuffer[4];
        for (int k = 0; k < 4; k++) {
            in[k] = MPI.newIntBuffer(n);
            reads[k] = f.iReadAt(4L * n * (other * 4 + k), in[k], n, MPI.INT);
        }
        Request.waitAll(reads);
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < n; i++) {
                equal(other * 1000 + k * 100 + i, in[k].get(i), "iReadAt of rank " + other + "'s block " + k);
            }
        }
        f.close();
    }

    private static void errors(String dir, int rank) throws MPIException {
        expectError(MPI.ERR_NO_SUCH_FILE, () -> new File(MPI.COMM_WORLD, dir + "/missing", MPI.MODE_RDONLY));
        expectError(MPI.ERR_FILE_EXISTS,
                () -> new File(MPI.COMM_WORLD, dir + "/ordered", MPI.MODE_WRONLY | MPI.MODE_CREATE | MPI.MODE_EXCL));
        expectError(MPI.ERR_AMODE, () -> new File(MPI.COMM_WORLD, dir + "/x", MPI.MODE_RDONLY | MPI.MODE_CREATE));
        expectError(MPI.ERR_AMODE, () -> new File(MPI.COMM_WORLD, dir + "/x", MPI.MODE_RDWR | MPI.MODE_SEQUENTIAL));
        expectError(MPI.ERR_BAD_FILE, () -> new File(MPI.COMM_WORLD, dir + "/x\0y", MPI.MODE_RDONLY));
        expectError(MPI.ERR_BAD_FILE, () -> new File(MPI.COMM_WORLD, dir + "/" + "n".repeat(300), MPI.MODE_RDONLY));
        expectError(MPI.ERR_COMM, () -> new File(MPI.COMM_NULL, dir + "/x", MPI.MODE_RDONLY));
        beyondTheLargestPosition(dir, rank);
        boolean several = MPI.COMM_WORLD.getSize() > 1;
        if (several) {
            expectError(MPI.ERR_NOT_SAME,
                    () -> new File(MPI.COMM_WORLD, dir + "/ordered", rank == 0 ? MPI.MODE_RDONLY : MPI.MODE_RDWR));
        }
        File seq = new File(MPI.COMM_WORLD, dir + "/sequential",
                MPI.MODE_WRONLY | MPI.MODE_CREATE | MPI.MODE_SEQUENTIAL | MPI.MODE_DELETE_ON_CLOSE);
        expectError(MPI.ERR_UNSUPPORTED_OPERATION, () -> seq.writeAt(0, new int[] {rank}, 1, MPI.INT));
        expectError(MPI.ERR_UNSUPPORTED_OPERATION, () -> seq.seek(0, MPI.SEEK_SET));
        expectError(MPI.ERR_ACCESS, () -> seq.readShared(new int[1], 1, MPI.INT));
        seq.writeShared(new int[] {rank}, 1, MPI.INT);
        if (several) {
            expectError(MPI.ERR_NOT_SAME, () -> seq.seekShared(rank, MPI.SEEK_SET));
        }
        expectError(MPI.ERR_ARG, () -> seq.seekShared(-100, MPI.SEEK_CUR));
        seq.setView(MPI.DISPLACEMENT_CURRENT, MPI.INT, MPI.INT, "native");
        equal(4L * MPI.COMM_WORLD.getSize(), seq.getView().getDisp(), "DISPLACEMENT_CURRENT is the shared pointer's byte");
        seq.writeShared(new int[] {rank}, 1, MPI.INT);
        seq.close();
        File t = new File(MPI.COMM_WORLD, dir + "/scratch",
                MPI.MODE_RDWR | MPI.MODE_CREATE | MPI.MODE_DELETE_ON_CLOSE);
        t.writeAt(4L * rank, new int[] {rank}, 1, MPI.INT);
        t.close();
        that(!java.nio.file.Files.exists(java.nio.file.Path.of(dir, "scratch")), "the delete-on-close file is gone");
    }

    /**
     * Under a view whose tiles are 1 GiB apart, etype 2^34 would lie at file byte 2^64: refused,
     * and the file's first long is still what was written there (not overwritten by a wrapped position).
     */
    private static void beyondTheLargestPosition(String dir, int rank) throws MPIException {
        File f = new File(MPI.COMM_SELF, dir + "/far-" + rank, MPI.MODE_RDWR | MPI.MODE_CREATE | MPI.MODE_DELETE_ON_CLOSE);
        f.writeAt(0, new long[] {1111}, 1, MPI.LONG);
        Datatype far = Datatype.createResized(MPI.LONG, 0, 1 << 30);
        far.commit();
        f.setView(0, MPI.LONG, far, "native");
        expectError(MPI.ERR_ARG, () -> f.writeAt(1L << 34, new long[] {9999}, 1, MPI.LONG));
        expectError(MPI.ERR_ARG, () -> f.getByteOffset(1L << 34));
        expectError(MPI.ERR_ARG, () -> f.readAt(Long.MAX_VALUE / 4, new long[1], 1, MPI.LONG));
        expectError(MPI.ERR_TYPE, () -> f.writeAt(0, new Object[] {"lost"}, 1, MPI.OBJECT));
        f.setView(0, MPI.LONG, MPI.LONG, "native");
        long[] first = new long[1];
        f.readAt(0, first, 1, MPI.LONG);
        equal(1111L, first[0], "the first long after refused accesses far away");
        far.free();
        f.close();
    }

    @FunctionalInterface
    private interface Call {
        void run() throws MPIException;
    }

    private static void expectError(int errorClass, Call call) {
        try {
            call.run();
        } catch (MPIException e) {
            equal(errorClass, e.getErrorClass(), e.getMessage());
            return;
        }
        throw new AssertionError("no error, expected class " + errorClass);
    }

    private static void that(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("CHECK FAILED: " + what);
        }
    }

    private static void equal(long expected, long actual, String what) {
        that(expected == actual, what + ": expected " + expected + ", got " + actual);
    }

    private static void equal(Object expected, Object actual, String what) {
        that(expected.equals(actual), what + ": expected " + expected + ", got " + actual);
    }
}
