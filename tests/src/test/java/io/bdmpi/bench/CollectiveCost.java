package io.bdmpi.bench;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * bdmpi program for {@link CollectivesBenchmarkTest}: times barrier, allReduce of 8 B and of 1 MiB,
 * and an allToAllv moving {@code args[0]} bytes in total across the job, each {@code args[1..4]}
 * times, after {@code args[5]} times as many unmeasured calls of each (default 0.1; with 3 and
 * 10000 calls of the small ones, every slave's JIT compilers are done before the timing starts, and
 * the figures are the steady state a long job sees). Rank 0 prints {@code CollectiveCost op=N
 * S=.. nanosPerCall=.. cpuNanosPerCall=.. jitNanosPerCall=..} per operation (op 0..3 in that order): the wall time per call, the CPU time
 * the whole job (the master and every slave, all their threads) spent per call, read from /proc,
 * and the part of it in the JVMs' JIT compiler threads (each slave JVM compiles the same code, so
 * with fewer calls per slave this part weighs more per call). On a machine shared
 * with other work the wall time grows with its load; the job's own CPU time much less. Results are
 * checked, so a wrong implementation cannot look fast.
 */
public final class CollectiveCost {

    private static final int DOUBLES_PER_MIB = 131072;

    /** Unmeasured calls before each operation's timed ones, per timed call. */
    private static double warmUpFactor;

    private CollectiveCost() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long totalAllToAllBytes = Long.parseLong(args[0]);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();

        warmUpFactor = args.length > 5 ? Double.parseDouble(args[5]) : 0.1;
        report(0, size, time(Integer.parseInt(args[1]), () -> MPI.COMM_WORLD.barrier()));

        double[] one = {rank};
        double[] sum = new double[1];
        report(1, size, time(Integer.parseInt(args[2]), () -> {
            MPI.COMM_WORLD.allReduce(one, sum, 1, MPI.DOUBLE, MPI.SUM);
            check(sum[0] == size * (size - 1) / 2.0, "allReduce 8 B gave " + sum[0]);
        }));

        double[] vector = new double[DOUBLES_PER_MIB];
        double[] reduced = new double[DOUBLES_PER_MIB];
        java.util.Arrays.fill(vector, 1.0);
        report(2, size, time(Integer.parseInt(args[3]), () -> {
            MPI.COMM_WORLD.allReduce(vector, reduced, DOUBLES_PER_MIB, MPI.DOUBLE, MPI.SUM);
            check(reduced[0] == size && reduced[DOUBLES_PER_MIB - 1] == size, "allReduce 1 MiB gave " + reduced[0]);
        }));

        int block = (int) (totalAllToAllBytes / size / size);
        byte[] send = new byte[block * size];
        byte[] recv = new byte[block * size];
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int i = 0; i < size; i++) {
            counts[i] = block;
            displs[i] = i * block;
            java.util.Arrays.fill(send, i * block, (i + 1) * block, mark(rank, i));
        }
        report(3, size, time(Integer.parseInt(args[4]), () -> {
            MPI.COMM_WORLD.allToAllv(send, counts, displs, MPI.BYTE, recv, counts, displs, MPI.BYTE);
            for (int j = 0; j < size && block > 0; j++) {
                check(recv[j * block] == mark(j, rank) && recv[(j + 1) * block - 1] == mark(j, rank),
                        "allToAllv block from rank " + j + " is wrong");
            }
        }));
        MPI.Finalize();
    }

    private interface Call {
        void run() throws MPIException;
    }

    /** Wall, job CPU and JIT compiler CPU nanoseconds per call. */
    private record Cost(long nanos, long cpuNanos, long jitNanos) {
    }

    /**
     * Nanoseconds per call on rank 0, between barriers, so every rank's part is inside. Some calls
     * run first unmeasured ({@link #warmUpFactor}): cold JIT makes the first calls several times slower.
     */
    private static Cost time(int calls, Call call) throws MPIException {
        for (long i = 0, warmUp = (long) Math.ceil(calls * warmUpFactor); i < warmUp; i++) {
            call.run();
        }
        MPI.COMM_WORLD.barrier();
        long[] cpuStart = jobCpuNanos();
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            call.run();
        }
        MPI.COMM_WORLD.barrier();
        long nanos = System.nanoTime() - start;
        long[] cpuEnd = jobCpuNanos();
        return new Cost(nanos / calls, (cpuEnd[0] - cpuStart[0]) / calls, (cpuEnd[1] - cpuStart[1]) / calls);
    }

    private static void report(int op, int size, Cost cost) throws MPIException {
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.println(Measured.line("CollectiveCost", "op", op, "S", size, "nanosPerCall", cost.nanos(),
                    "cpuNanosPerCall", cost.cpuNanos(), "jitNanosPerCall", cost.jitNanos()));
        }
    }

    /**
     * CPU time so far of the job on this node, and of its JIT compiler threads: the master (this
     * slave's parent) and its children, every thread, from /proc/PID/task/TID/schedstat
     * (nanoseconds on the CPU, first field). Read by rank 0 only, while the other ranks wait for it
     * in the barrier; zeros where /proc is missing. Threads that have ended are not counted, so
     * only a window in which they live is measured.
     */
    private static long[] jobCpuNanos() throws MPIException {
        long[] total = new long[2];
        ProcessHandle master = ProcessHandle.current().parent().orElse(null);
        if (MPI.COMM_WORLD.getRank() != 0 || master == null) {
            return total;
        }
        addThreadsCpuNanos(master.pid(), total);
        master.children().forEach(p -> addThreadsCpuNanos(p.pid(), total));
        return total;
    }

    /** Adds the CPU time of every thread of {@code pid} to {@code total[0]}, and of its JIT compiler threads to {@code total[1]}. */
    private static void addThreadsCpuNanos(long pid, long[] total) {
        try (DirectoryStream<Path> tasks =
                     Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("schedstat"));
                    long nanos = Long.parseLong(stat.substring(0, stat.indexOf(' ')));
                    total[0] += nanos;
                    if (Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                        total[1] += nanos;
                    }
                } catch (IOException | RuntimeException e) {
                    // The thread ended meanwhile.
                }
            }
        } catch (IOException | RuntimeException e) {
            // The process ended meanwhile, or no /proc.
        }
    }

    private static byte mark(int from, int to) {
        return (byte) (from * 31 + to);
    }

    private static void check(boolean ok, String what) throws MPIException {
        if (!ok) {
            System.out.println("CollectiveCost WRONG rank " + MPI.COMM_WORLD.getRank() + ": " + what);
            MPI.COMM_WORLD.abort(3);
        }
    }
}
