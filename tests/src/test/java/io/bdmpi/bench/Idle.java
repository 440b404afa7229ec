package io.bdmpi.bench;

import mpi.MPI;
import mpi.MPIException;

import java.util.List;

/**
 * bdmpi program for {@link StartupBenchmarkTest}: every rank starts, prints its resident memory
 * ({@code Idle rank=R rssKiB=N}), tells rank 0 that it is about to park and parks in a barrier. Rank
 * 0, once all have told it (and a moment later, so that the last has parked), prints the time
 * ({@code IdleReady epochMs=T}) and, for every other slave of the node, what it holds parked from
 * {@code /proc/PID/smaps_rollup} ({@code IdleParked pid=P rssKiB=N pssKiB=N}); then it joins the
 * barrier and all finalize.
 *
 * <p>Argument (optional): how long, in ms, the slaves stay parked before rank 0 reads them (300 by
 * default, as in the benchmark); past 5 s, that is after the JVM's first C-heap trim.
 */
public final class Idle {

    /** Time the last rank to report is given to block in its barrier, unless the argument says otherwise. */
    private static final long SETTLE_MS = 300;

    private Idle() {
    }

    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        System.out.println(Measured.line("Idle", "rank", rank, "rssKiB", ProcStatus.rssKiB()));
        int[] one = {1};
        if (rank != 0) {
            MPI.COMM_WORLD.send(one, 1, MPI.INT, 0, 0);
        } else {
            for (int i = 1; i < size; i++) {
                MPI.COMM_WORLD.recv(one, 1, MPI.INT, MPI.ANY_SOURCE, 0);
            }
            System.out.println(Measured.line("IdleReady", "epochMs", System.currentTimeMillis()));
            Thread.sleep(args.length > 0 ? Long.parseLong(args[0]) : SETTLE_MS);
            List<ProcessHandle> others = ProcessHandle.current().parent().orElseThrow().children()
                    .filter(p -> p.pid() != ProcessHandle.current().pid())
                    .filter(p -> p.info().command().orElse("").endsWith("/java"))
                    .toList();
            for (ProcessHandle p : others) {
                ProcStatus.Rollup r = ProcStatus.rollup(p.pid());
                if (r != null) {
                    System.out.println(Measured.line("IdleParked", "pid", p.pid(), "rssKiB", r.rssKiB(), "pssKiB", r.pssKiB()));
                }
            }
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }
}
