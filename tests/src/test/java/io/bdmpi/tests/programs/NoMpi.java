package io.bdmpi.tests.programs;

/** A program that never calls {@code MPI.Init}: it prints a line and exits 0, as a plain Java program. */
public final class NoMpi {

    public static void main(String[] args) {
        System.out.println("NoMpi ran without MPI");
    }
}
