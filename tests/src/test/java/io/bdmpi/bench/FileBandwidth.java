package io.bdmpi.bench;

import mpi.File;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Parallel MPI-IO bandwidth: every rank writes its contiguous share of one file with
 * {@code writeAtAll} in chunks, the file is synced and dropped from the page cache
 * ({@link PageCache}), then every rank reads its share back with {@code readAtAll}. Rank 0 prints
 * {@code WRITE s}, {@code READ s} (wall seconds between barriers; the write includes the sync)
 * and {@code DROPPED how}.
 *
 * <p>Usage: {@code FileBandwidth PATH MIB_PER_RANK CHUNK_MIB}.
 */
public final class FileBandwidth {

    private FileBandwidth() {
    }

    public static void main(String[] args) throws MPIException, IOException, InterruptedException {
        MPI.Init(args);
        String path = args[0];
        long share = Long.parseLong(args[1]) << 20;
        int chunk = Integer.parseInt(args[2]) << 20;
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer buf = MPI.newByteBuffer(chunk);
        for (int i = 0; i < chunk; i++) {
            buf.put(i, (byte) (i * 31 + rank));
        }
        File f = new File(MPI.COMM_WORLD, path, MPI.MODE_RDWR | MPI.MODE_CREATE);
        MPI.COMM_WORLD.barrier();
        double start = MPI.wtime();
        for (long at = 0; at < share; at += chunk) {
            f.writeAtAll(rank * share + at, buf, chunk, MPI.BYTE);
        }
        f.sync();
        double write = MPI.wtime() - start;
        String dropped = rank == 0 ? PageCache.drop(java.nio.file.Path.of(path)) : null;
        MPI.COMM_WORLD.barrier();
        start = MPI.wtime();
        for (long at = 0; at < share; at += chunk) {
            f.readAtAll(rank * share + at, buf, chunk, MPI.BYTE);
        }
        MPI.COMM_WORLD.barrier();
        double read = MPI.wtime() - start;
        f.close();
        if (rank == 0) {
            File.delete(path);
            System.out.println(String.format(Locale.ROOT, "WRITE %.4f", write));
            System.out.println(String.format(Locale.ROOT, "READ %.4f", read));
            System.out.println("DROPPED " + dropped);
        }
        MPI.Finalize();
    }
}
