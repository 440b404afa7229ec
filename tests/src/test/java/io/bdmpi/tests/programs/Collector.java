package io.bdmpi.tests.programs;

import mpi.MPI;
import mpi.MPIException;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.stream.Collectors;

/** Prints which garbage collectors its slave JVM runs, by name in order: {@code Collector rank R gc=NAME,NAME}. */
public final class Collector {

    private Collector() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String names = ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).sorted()
                .collect(Collectors.joining(","));
        System.out.println("Collector rank " + MPI.COMM_WORLD.getRank() + " gc=" + names);
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }
}
