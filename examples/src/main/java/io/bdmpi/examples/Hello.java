package io.bdmpi.examples;

import mpi.MPI;
import mpi.MPIException;

/**
 * Every rank says hello: {@code Hello from rank R of S on node NAME}.
 *
 * <pre>bdmpiexec -ns 4 -nr 2 -cp examples.jar io.bdmpi.examples.Hello</pre>
 */
public final class Hello {

    private Hello() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        System.out.println("Hello from rank " + rank + " of " + size + " on node " + MPI.getProcessorName());
        MPI.Finalize();
    }
}
