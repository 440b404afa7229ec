package io.bdmpi.bench;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.DoubleArray;
import io.bdmpi.ooc.Residency;
import mpi.MPI;
import mpi.MPIException;
import mpi.OutOfCore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The out-of-core benchmark's program: every rank keeps {@code args[1]} MiB of doubles and, for
 * {@code args[2]} rounds, parks in a barrier and then updates and sums all of its data. Where the
 * data lives is {@code args[0]}:
 * <ul>
 *   <li>{@code heap}: a plain {@code double[]};</li>
 *   <li>{@code offheap-HINT}: an off-heap array with residency HINT (e.g. {@code offheap-SEQUENTIAL});</li>
 *   <li>{@code saveload}: a {@code double[]} saved before each barrier, dropped, and loaded after it.</li>
 * </ul>
 * At the end each rank prints {@code OocCompute rank=R checksum=C majflt=F readBytes=B writeBytes=W}
 * (its major page faults and storage I/O from /proc/self). The checksum depends only on rank and
 * sizes, so every mode must print the same.
 */
public final class OocCompute {

    private OocCompute() {
    }

    /** The data of one rank, wherever it lives. */
    private interface Data {
        double get(long i);

        void set(long i, double v);
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        String mode = args[0];
        long n = Long.parseLong(args[1]) << 17;
        int rounds = Integer.parseInt(args[2]);
        ArrayStore store = OutOfCore.store();
        double[][] heap = new double[1][];
        Data data;
        if (mode.startsWith("offheap-")) {
            DoubleArray a = store.doubles("data", n, Residency.valueOf(mode.substring("offheap-".length())));
            data = new Data() {
                public double get(long i) {
                    return a.get(i);
                }

                public void set(long i, double v) {
                    a.set(i, v);
                }
            };
        } else {
            heap[0] = new double[Math.toIntExact(n)];
            data = new Data() {
                public double get(long i) {
                    return heap[0][(int) i];
                }

                public void set(long i, double v) {
                    heap[0][(int) i] = v;
                }
            };
        }
        for (long i = 0; i < n; i++) {
            data.set(i, rank + i * 1e-6);
        }
        double checksum = 0;
        for (int round = 0; round < rounds; round++) {
            if (mode.equals("saveload")) {
                store.save("data", heap[0]);
                heap[0] = null;
            }
            MPI.COMM_WORLD.barrier();
            if (mode.equals("saveload")) {
                heap[0] = store.loadDoubles("data");
            }
            for (long i = 0; i < n; i++) {
                double v = data.get(i) * 0.5 + 1;
                data.set(i, v);
                checksum += v;
            }
        }
        long[] io = io();
        System.out.println(Measured.line("OocCompute", "rank", rank, "checksum", Double.doubleToLongBits(checksum),
                "majflt", majorFaults(), "readBytes", io[0], "writeBytes", io[1]));
        MPI.Finalize();
    }

    /** Field 12 of /proc/self/stat (after the command name, which may hold spaces). */
    private static long majorFaults() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[9]);
    }

    /** read_bytes and write_bytes of /proc/self/io: what this process made the storage read and write. */
    private static long[] io() throws IOException {
        long[] out = new long[2];
        for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
            if (line.startsWith("read_bytes:")) {
                out[0] = Long.parseLong(line.substring(11).trim());
            } else if (line.startsWith("write_bytes:")) {
                out[1] = Long.parseLong(line.substring(12).trim());
            }
        }
        return out;
    }
}
