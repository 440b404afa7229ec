package io.bdmpi.tests.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds the master of one node of a running job of several nodes, to signal it: the java process
 * whose command line has {@code --node-master} and a mark of the job (its checkpoint directory,
 * say), and whose MPI rank, which is its node, its launcher put in its environment
 * ({@code PMI_RANK} under MPICH, {@code OMPI_COMM_WORLD_RANK} under Open MPI). Linux only.
 */
public final class MasterProcess {

    private static final List<String> RANK_VARIABLES = List.of("PMI_RANK=", "OMPI_COMM_WORLD_RANK=");

    private MasterProcess() {
    }

    /**
     * The pid of the master of {@code node} among the masters whose command line contains {@code mark}.
     *
     * @return its pid, or -1 while there is none
     */
    public static long pidOf(String mark, int node) throws IOException {
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path proc : procs) {
                try {
                    List<String> args = List.of(new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).split("\0"));
                    if (args.isEmpty() || !args.get(0).endsWith("java") || !args.contains("--node-master")
                            || args.stream().noneMatch(a -> a.contains(mark))) {
                        continue;
                    }
                    for (String v : new String(Files.readAllBytes(proc.resolve("environ")), StandardCharsets.UTF_8).split("\0")) {
                        for (String rank : RANK_VARIABLES) {
                            if (v.equals(rank + node)) {
                                return Long.parseLong(proc.getFileName().toString());
                            }
                        }
                    }
                } catch (IOException gone) {
                    // It ended meanwhile.
                }
            }
        }
        return -1;
    }

    /** Whether process {@code pid} runs: neither gone nor a zombie. */
    public static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException gone) {
            return false;
        }
    }

    /** Waits until process {@code pid} no longer {@linkplain #running runs}, at most {@code timeoutMs}; whether it stopped. */
    public static boolean awaitEnd(long pid, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (running(pid)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }
}
