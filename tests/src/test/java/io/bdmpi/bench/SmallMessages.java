package io.bdmpi.bench;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The master-memory benchmark's program: rank 0 sends {@code args[0]} messages of {@code args[1]}
 * bytes to rank 1, which is parked meanwhile, so the master buffers all of them. Rank 0 then prints
 * {@code SmallMessages buffered n=N ns=T} and waits until a file named {@code go} appears in the
 * job's -wd (the benchmark measures the master in between), deletes it, then lets rank 1 receive and check
 * every message, which prints {@code SmallMessages received n=N}.
 */
public final class SmallMessages {

    private static final int GO_TAG = 1 << 20;

    private SmallMessages() {
    }

    public static void main(String[] args) throws MPIException, InterruptedException, IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int n = Integer.parseInt(args[0]);
        int size = Integer.parseInt(args[1]);
        ByteBuffer buf = MPI.newByteBuffer(size);
        if (rank == 0) {
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                buf.putInt(0, i);
                MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 1, i & 0xffff);
            }
            long ns = System.nanoTime() - start;
            System.out.println(Measured.line("SmallMessages buffered", "n", n, "ns", ns));
            // -wd is two levels above this job's spill directory.
            Path go = Path.of(System.getenv("BDMPI_SPILL_DIR")).getParent().getParent().resolve("go");
            while (!Files.exists(go)) {
                Thread.sleep(50);
            }
            Files.delete(go);
            MPI.COMM_WORLD.send(buf, 0, MPI.BYTE, 1, GO_TAG);
        } else if (rank == 1) {
            MPI.COMM_WORLD.recv(buf, 0, MPI.BYTE, 0, GO_TAG);
            for (int i = 0; i < n; i++) {
                MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 0, i & 0xffff);
                if (buf.getInt(0) != i) {
                    throw new IllegalStateException("message " + i + " holds " + buf.getInt(0));
                }
            }
            System.out.println(Measured.line("SmallMessages received", "n", n));
        }
        MPI.Finalize();
    }
}
