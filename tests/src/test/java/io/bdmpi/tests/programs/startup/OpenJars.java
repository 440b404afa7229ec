package io.bdmpi.tests.programs.startup;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.DoubleArray;
import io.bdmpi.ooc.Residency;
import mpi.MPI;
import mpi.MPIException;
import mpi.OutOfCore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Prints the jar files this slave has open, one line {@code OpenJars rank R PHASE FILE} per jar
 * in /proc/self/fd: after MPI.Init and a barrier ({@code started}), and again after it has
 * released its off-heap arrays and read them back in, as a master has it do around a park, through
 * libc's calls bound with jffi ({@code arrays}). It checks the array's values after that and prints
 * {@code OpenJars rank R checked N}, and {@code OpenJars rank R stub FILE} for the file it mapped
 * jffi's native library from (in /proc/self/maps).
 */
public final class OpenJars {

    private static final int ELEMENTS = 1 << 16;

    private OpenJars() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        MPI.COMM_WORLD.barrier();
        openJars().forEach(j -> System.out.println("OpenJars rank " + rank + " started " + j));

        ArrayStore store = OutOfCore.store();
        DoubleArray x = store.doubles("x", ELEMENTS, Residency.SEQUENTIAL);
        for (int i = 0; i < ELEMENTS; i++) {
            x.set(i, rank * (double) ELEMENTS + i);
        }
        // Here, not in a barrier: the last rank to reach a barrier does not park.
        store.release();
        store.prefetch();
        int checked = 0;
        for (int i = 0; i < ELEMENTS; i++) {
            if (x.get(i) == rank * (double) ELEMENTS + i) {
                checked++;
            }
        }
        openJars().forEach(j -> System.out.println("OpenJars rank " + rank + " arrays " + j));
        System.out.println("OpenJars rank " + rank + " checked " + checked);
        try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
            maps.filter(m -> m.contains("jffi")).map(m -> m.substring(m.indexOf('/'))).distinct()
                    .forEach(f -> System.out.println("OpenJars rank " + rank + " stub " + f));
        }
        MPI.Finalize();
    }

    private static List<String> openJars() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.map(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString();
                } catch (IOException closedMeanwhile) {
                    return "";
                }
            }).filter(f -> f.endsWith(".jar")).distinct().sorted().toList();
        }
    }
}
