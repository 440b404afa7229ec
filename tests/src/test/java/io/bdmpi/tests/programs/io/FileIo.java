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
 *       back; {@code writeShared} / {@code readShared} of 3-int blocks (each block once, whole) when
 *       the file's ranks are on one node, else {@code MPI.ERR_UNSUPPORTED_OPERATION};</li>
 *   <li>{@code iWriteAt} of 4 direct buffers completed by {@code Request.waitAll}, read back by
 *       another rank with {@code iReadAt};</li>
 *   <li>errors: a missing file is {@code ERR_NO_SUCH_FILE}, {@code MODE_EXCL} on an existing one
 *       {@code ERR_FILE_EXISTS}, a bad mode {@code ERR_AMODE}; a {@code MODE_DELETE_ON_CLOSE}
 *       file is gone after close.</li>
 * </ol>
 * It leaves exactly {@code strided}, {@code ordered}, {@code shared} and {@code nonblocking} in
 * the directory.
 *
 * <p>Usage: {@code FileIo DIR MULTINODE} (MULTINODE: "true" when the job has several nodes).
 */
public final class FileIo {

    private static final int B = 3;
    private static final int K = 8;

    private FileIo() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String dir = args[0];
        boolean multiNode = Boolean.parseBoolean(args[1]);
        Comm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        strided(dir + "/strided", rank, size);
        orderedAndShared(dir, rank, size, multiNode);
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

    private static void orderedAndShared(String dir, int rank, int size, boolean multiNode) throws MPIException {
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
        if (multiNode) {
            try {
                s.writeShared(new int[] {rank}, 1, MPI.INT);
                throw new AssertionError("writeShared across nodes was not refused");
            } catch (MPIException e) {
                equal(MPI.ERR_UNSUPPORTED_OPERATION, e.getErrorClass(), "writeShared across nodes: " + e.getMessage());
            }
            s.close();
            return;
        }
        s.writeShared(new int[] {rank, rank, rank}, 3, MPI.INT);
        s.sync();
        int[] blocks = new int[3 * size];
        s.readAtAll(0, blocks, blocks.length, MPI.INT);
        boolean[] seen = new boolean[size];
        for (int b = 0; b < size; b++) {
            int v = blocks[3 * b];
            that(v >= 0 && v < size && !seen[v] && blocks[3 * b + 1] == v && blocks[3 * b + 2] == v,
                    "writeShared: block " + b + " of " + Arrays.toString(blocks));
            seen[v] = true;
        }
        s.seekShared(0, MPI.SEEK_SET);
        int[] got = new int[3];
        s.readShared(got, 3, MPI.INT);
        that(got[0] == got[1] && got[1] == got[2], "readShared got a whole block: " + Arrays.toString(got));
        int[] gathered = new int[size];
        MPI.COMM_WORLD.allGather(new int[] {got[0]}, 1, MPI.INT, gathered, 1, MPI.INT);
        Arrays.sort(gathered);
        for (int r = 0; r < size; r++) {
            equal(r, gathered[r], "readShared: every block read once");
        }
        s.close();
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
        File t = new File(MPI.COMM_WORLD, dir + "/scratch",
                MPI.MODE_RDWR | MPI.MODE_CREATE | MPI.MODE_DELETE_ON_CLOSE);
        t.writeAt(4L * rank, new int[] {rank}, 1, MPI.INT);
        t.close();
        that(!java.nio.file.Files.exists(java.nio.file.Path.of(dir, "scratch")), "the delete-on-close file is gone");
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
