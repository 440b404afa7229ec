package io.bdmpi.tests.programs.startup;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints which class-data archives this slave maps, one line {@code ArchiveUse rank R maps FILE}
 * per archive file in /proc/self/maps.
 */
public final class ArchiveUse {

    private ArchiveUse() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(l -> l.endsWith(".jsa"))
                .map(l -> l.substring(l.lastIndexOf(' ') + 1))
                .distinct()
                .forEach(f -> System.out.println("ArchiveUse rank " + rank + " maps " + f));
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }
}
