package io.bdmpi.tests.programs.startup;

import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Prints which class-data archives this slave maps, one line {@code ArchiveUse rank R maps FILE}
 * per archive file in /proc/self/maps, and which its master (the parent process) maps, one line
 * {@code ArchiveUse rank R master maps FILE} per archive.
 */
public final class ArchiveUse {

    private ArchiveUse() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        archives("/proc/self/maps").forEach(f -> System.out.println("ArchiveUse rank " + rank + " maps " + f));
        long master = ProcessHandle.current().parent().orElseThrow().pid();
        archives("/proc/" + master + "/maps").forEach(f -> System.out.println("ArchiveUse rank " + rank + " master maps " + f));
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    private static List<String> archives(String maps) throws IOException {
        return Files.readAllLines(Path.of(maps)).stream()
                .filter(l -> l.endsWith(".jsa"))
                .map(l -> l.substring(l.lastIndexOf(' ') + 1))
                .distinct()
                .toList();
    }
}
